"""Pirater's template tags: the static board for board.html and the words of squares and ports
(what live.html shows is games_tags.game_live). The work is done in games/pirater/pages.py; the
templates under templates/games/pirater/ write it."""
from django import template

from games.pirater import pages

register = template.Library()

register.simple_tag(pages.pirater_board)
for name in ("pt_json", "pt_words", "pt_variants", "pt_port", "pt_port_short", "pt_square"):
    register.filter(name, getattr(pages, name))
