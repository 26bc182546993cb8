"""Fuldrigger's template tags: the static chart for board.html, everything live.html shows."""
import json

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.engines.fuldrigger.board import WORLD
from games.fuldrigger import pages, world_map
from games.fuldrigger.odds import attack_odds, percent

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
                      query=request.GET if request is not None else None)


@register.simple_tag
def fuldrigger_price_lists():
    """Every port's list prices (F28), for planning a voyage."""
    rows = []
    for port in sorted(WORLD.prices, key=pages.place):
        goods = sorted(WORLD.prices[port].items(), key=lambda g: pages.good_name(g[0]))
        rows.append({"name": pages.place(port),
                     "buys": [f"{pages.good_name(g)} {e['sell']}" for g, e in goods if e["sell"] is not None],
                     "sells": [f"{pages.good_name(g)} {e['buy']}" for g, e in goods if e["buy"] is not None]})
    return rows


@register.simple_tag
def fuldrigger_odds_table():
    """Table F37 with each column's chances on two dice, for the rules page."""
    return [{"ships": n if n < 4 else "4+", **{k: percent(v) for k, v in attack_odds(n).items()}}
            for n in range(1, 5)]


@register.filter
def place(node):
    return pages.place(node)


@register.filter
def fd_button(action, label):
    """An action and its label, as the button partial wants them."""
    return {"label": label, "action": action}


@register.filter
def fd_dice(faces):
    """The dice rolled, as one piece the turn's sentence can place wherever its language wants."""
    return format_html('<span class="dice">{}</span>', format_html_join("", '<span class="die">{}</span>',
                                                                         ((face,) for face in faces or ())))


@register.filter
def in_a_sentence(name):
    return pages.in_a_sentence(str(name))


@register.filter
def fd_min(value, limit):
    try:
        return min(int(value), int(limit))
    except (TypeError, ValueError):
        return limit


@register.filter
def fd_json(action) -> str:
    """An action (or JSON text) for a single-quoted attribute: value='{"type":"roll"}'. Shorter
    than escaping every double quote, which the buttons of a busy turn add up to."""
    text = action if isinstance(action, str) else json.dumps(action, separators=(",", ":"), sort_keys=True)
    return mark_safe(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#x27;"))
