from django import template
from django.utils.formats import number_format
from django.utils.translation import pgettext_lazy

from accounts.models import display_name
from games.engines import ENGINES

register = template.Library()


@register.filter
def game_title(game: str) -> str:
    engine = ENGINES.get(game)
    return engine.title if engine else str(game).title()


@register.filter
def player_name(user) -> str:
    return display_name(user)


@register.filter
def signed(value, places=1) -> str:
    """A rating change with its sign, a true minus and no "-0.0"."""
    if value is None:
        return ""
    value = round(float(value), int(places))
    if value == 0:
        return number_format(0, int(places))
    text = number_format(abs(value), int(places))
    return f"+{text}" if value > 0 else f"−{text}"


# Other languages choose their ending by the same four kinds of number (Danish and German
# "1.", Swedish "1:a", "3:e").
_PLACES = {
    # Translators: a place ending in 1 (not 11): 1st, 21st.
    "st": pgettext_lazy("place", "%(rank)sst"),
    # Translators: a place ending in 2 (not 12): 2nd, 22nd.
    "nd": pgettext_lazy("place", "%(rank)snd"),
    # Translators: a place ending in 3 (not 13): 3rd, 23rd.
    "rd": pgettext_lazy("place", "%(rank)srd"),
    # Translators: any other place: 4th, 11th, 12th, 13th, 20th.
    "th": pgettext_lazy("place", "%(rank)sth"),
}


@register.filter
def ordinal_place(rank) -> str:
    """1 → 1st, 2 → 2nd, 11 → 11th."""
    try:
        rank = int(rank)
    except (TypeError, ValueError):
        return "—"
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return _PLACES[suffix] % {"rank": rank}
