"""Fuldrigger's template tags: the static chart for board.html and the rules page's tables (what
live.html shows is games_tags.game_live). The markup is the templates' (templates/games/fuldrigger/partials/)."""
from django import template

from games.engines.fuldrigger.board import WORLD
from games.fuldrigger import pages, world_map

register = template.Library()


@register.simple_tag
def fuldrigger_chart():
    """The static map, the legend's hazards and the price lists (the same for every viewer who
    reads the page's language)."""
    return world_map.chart_in(pages.language())


@register.simple_tag
def fuldrigger_price_lists():
    """Every port's list prices, for planning a voyage."""
    rows = []
    for port in sorted(WORLD.prices, key=pages.place):
        goods = sorted(WORLD.prices[port].items(), key=lambda g: pages.good_name(g[0]))
        rows.append({"name": pages.place(port),
                     "buys": [f"{pages.good_name(g)} {e['sell']}" for g, e in goods if e["sell"] is not None],
                     "sells": [f"{pages.good_name(g)} {e['buy']}" for g, e in goods if e["buy"] is not None]})
    return rows


@register.simple_tag
def fuldrigger_odds_table():
    """The attack table with each column's chances on two dice, for the rules page."""
    return [{"ships": n if n < 4 else "4+", **pages.odds_in_percent(n)} for n in range(1, 5)]
