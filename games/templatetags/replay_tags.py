"""The fair-dice check's words on the verify page: how this game makes its dice from the draws."""
from django import template
from django.utils.translation import get_language

from games.reads.replay import draw_readings as readings

register = template.Library()


@register.simple_tag
def draw_readings(game: str) -> dict:
    return readings(game, get_language())
