"""Catan with ships' template tags (what live.html shows is games_tags.game_live, worked out in
games/catan_ships/pages.py); the templates under templates/games/catan_ships/partials/ lay it out."""
from django import template

from games.catan_ships import pages

register = template.Library()


@register.simple_tag(takes_context=True)
def catan_lead(context):
    """Who leads a match that ended without a winner: all who share the first rank."""
    match = context.get("match")
    return pages.lead(match.standings if match is not None else None, context.get("names"))
