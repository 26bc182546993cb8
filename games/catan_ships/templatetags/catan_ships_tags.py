"""Catan with ships' template tags: everything live.html shows. The work is done in
games/catan_ships/pages.py; these only make it reachable from the templates."""
from django import template

from games.catan_ships import pages

register = template.Library()


@register.simple_tag(takes_context=True)
def catan_live(context):
    return pages.live(context.get("view"), context.get("legal"), context.get("colours"), context.get("names"),
                      seat=context.get("seat_number"), my_turn=bool(context.get("my_turn")))
