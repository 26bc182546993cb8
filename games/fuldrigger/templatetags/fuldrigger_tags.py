"""Fuldrigger's template tags: the static chart for board.html, what live.html shows, the rules
page's tables. The markup is the templates' (templates/games/fuldrigger/partials/)."""
from django import template

from games.engines.fuldrigger.board import WORLD
from games.fuldrigger import pages, world_map

register = template.Library()


@register.simple_tag
def fuldrigger_chart():
    """The static map, the legend's hazards and the price lists (the same for every viewer who
    reads the page's language)."""
    return world_map.chart_in(pages.language())


@register.simple_tag(takes_context=True)
def fuldrigger_live(context):
    request = context.get("request")
    return pages.live(view=context["view"], seat=context.get("seat_number"), legal=context.get("legal") or [],
                      my_turn=bool(context.get("my_turn")), names=context.get("names"),
                      colours=context.get("colours"), match=context.get("match"),
                      query=request.GET if request is not None else None,
                      draw_shared=not (context.get("shared") or {}).get("board"))


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
