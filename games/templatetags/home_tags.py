"""The home page's list of games: how many players each seats, and which variant seats more."""
from django import template
from django.utils.translation import get_language

from games.engines import IllegalAction

register = template.Library()


def _seats(engine, options: dict) -> list[int]:
    allowed = []
    for seats in range(1, 13):
        try:
            engine.check_options(options, seats)
        except IllegalAction:
            continue
        allowed.append(seats)
    return allowed


@register.filter
def seat_ranges(engine) -> dict:
    """{"least", "most"} with the default options, and under "variants" each yes/no variant
    that seats another range (Pirater's double board: 5 to 8), with its name in the page's
    language: the same ranges the new-match form allows (games.web.forms.seat_bounds)."""
    plain = _seats(engine, {}) or [engine.min_players, engine.max_players]
    variants = []
    for option in engine.options(lang=get_language()):
        if option["kind"] != "bool":
            continue
        allowed = _seats(engine, {option["name"]: True})
        if allowed and allowed != plain and not set(allowed) <= set(plain):
            variants.append({"label": option["label"], "least": min(allowed), "most": max(allowed)})
    return {"least": min(plain), "most": max(plain), "variants": variants}
