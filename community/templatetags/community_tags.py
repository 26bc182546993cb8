from django import template
from django.utils.formats import number_format

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


@register.filter
def ordinal_place(rank) -> str:
    """1 → 1st, 2 → 2nd, 11 → 11th."""
    try:
        rank = int(rank)
    except (TypeError, ValueError):
        return "—"
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"
