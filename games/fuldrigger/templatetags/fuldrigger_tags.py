"""Fuldrigger's template tags: the static chart for board.html, everything live.html shows."""
import json

from django import template
from django.template.base import render_value_in_context
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _, ngettext, pgettext

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


# A busy map and market list are the bulk of every socket update: their rows are built here
# rather than by {% for %} loops of {% if %}s and translations (the same HTML, value by value
# as the template would write it, within its {% localize %} setting).

@register.simple_tag(takes_context=True)
def fd_piece_rows(context, fd):
    """pieces.html's markers, fortresses and ships."""
    def v(value):
        return render_value_in_context(value, context)

    out = []
    for m in fd["markets"]["marks"]:
        out.append(f'<use href="#fd-buyer" class="fd-buyer{"" if m["ok"] else " fd-too-near"}" x="{v(m["x"])}" '
                   f'y="{v(m["y"])}" width="6" height="6" data-id="{v(m["id"])}"><title>{v(m["title"])}</title></use>')
    out.append("\n")
    for f in fd["pieces"]["fortresses"]:
        out.append(f'<use href="#fd-fort" x="{v(f["x"])}" y="{v(f["y"])}" class="fd-fort colour-{v(f["colour"])}">'
                   f'<title>{v(f["title"])}</title></use>')
    out.append("\n")
    for s in fd["pieces"]["ships"]:
        x, y, ship = v(s["x"]), v(s["y"]), v(s["id"])
        out.append(f'<g class="fd-ship{" fd-mine" if s["mine"] else ""}{" fd-selected" if s["selected"] else ""}" '
                   f'transform="translate({x} {y})" data-x="{x}" data-y="{y}" data-o="{v(s["o"])}">')
        if s["movable"]:
            out.append(f'<a href="?sail={ship}#fd-sail" data-ship="{ship}" tabindex="-1"><circle class="fd-hit" '
                       f'cy="-4" r="5.5"/>')
        out.append(f'<use href="#fd-ship-{v(s["symbol"])}" x="-3.5" y="-8.2" class="colour-{v(s["colour"])}">'
                   f'<title>{v(s["title"])}</title></use>')
        if s["movable"]:
            out.append("</a>")
        out.append("</g>")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def fd_market_rows(context, ports):
    """markets.html's ports that buy one cargo."""
    def v(value):
        return render_value_in_context(value, context)

    here = conditional_escape(pgettext("fuldrigger: the ship lies in this port", "here"))
    embargo, allowed, near = (conditional_escape(_("embargo this round")), conditional_escape(_("sale allowed")),
                              conditional_escape(_("too near: sail on past ten squares")))
    out = []
    for r in ports:
        away = here if r["here"] else ngettext("%(steps)s square away", "%(steps)s squares away",
                                               r["steps"]) % {"steps": v(r["steps"])}
        sale = embargo if r["embargo"] else allowed if r["far"] else near
        out.append(f'<li class="{"fd-ok" if r["ok"] else "fd-not-yet"}"><span class="fd-market-port">{v(r["name"])}'
                   f'</span>&nbsp;<b>{v(r["price"])}</b> · <small>{away} — {sale}</small></li>')
    return mark_safe("".join(out))
