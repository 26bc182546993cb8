"""Pirater's template tags: the static board for board.html, everything live.html shows. The
work is done in games/pirater/pages.py; the tags below only write its busiest parts as HTML."""
from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import npgettext, pgettext

from games.pirater import pages
from games.templatetags.games_tags import value_writer

register = template.Library()

register.simple_tag(pages.pirater_board)
register.simple_tag(pages.pirater_live)
for name in ("pt_json", "pt_words", "pt_variants", "pt_port", "pt_port_short", "pt_square"):
    register.filter(name, getattr(pages, name))


# The parts of live.html every socket renders with every update (the ships on the board, the
# fleets, the moves on offer) are built here rather than by nested {% for %} loops: the same
# HTML, value by value as the template wrote it (within its {% localize %} setting); words the
# template took from {% translate %} are the site's and not escaped, values are.

def _plus(value, number):
    """value|add:number as the template wrote it."""
    try:
        return int(value) + number
    except (ValueError, TypeError):
        try:
            return value + number
        except Exception:
            return ""


def _more_than_one(count) -> bool:
    try:
        return count > 1
    except TypeError:
        return False


def _bands(bands, v) -> str:
    return "".join(f'<path class="r{i}" d="{v(d)}"/>' for i, d in enumerate(bands, 1))


@register.simple_tag(takes_context=True)
def pt_pieces(context, p):
    """The SVG's homes, treasures, wrecks, blasts, targets and fleets."""
    v = value_writer(context)
    out = [f'<path class="pt-home colour-{v(h["colour"])}" d="{v(h["d"])}"/>' for h in p["homes"]]
    out.append("\n")
    out += [f'<use class="pt-treasure" href="#pt-coin" x="{v(t["x"])}" y="{v(t["y"])}"/>' for t in p["treasures"]]
    out.append("\n")
    out += [f'<use href="#pt-wreck" x="{v(w["x"])}" y="{v(w["y"])}"/>' for w in p["wrecks"]]
    out.append("\n")
    if p["declared"]:
        out.append(f'<g class="pt-blast">{_bands(p["declared"]["bands"], v)}</g>')
    out.append("\n")
    if p["powder_choices"]:
        out.append('<g class="pt-preview">' + "".join(f'<g class="pt-blast">{_bands(c["bands"], v)}</g>'
                                                      for c in p["powder_choices"]) + "</g>")
    out.append('\n<g class="pt-ts">')
    for t in p["targets"]:
        cls = f' class="{v(t["cls"])}"' if t["cls"] else ""
        out += [f'<use{cls} href="#pt-sq{"-h" if b["half"] else ""}" x="{v(b["x"])}" y="{v(b["y"])}"/>'
                for b in t["boxes"]]
    out.append("</g>\n")
    for f in p["ships"]:
        movable = f["movable"]
        out.append(f'<g class="pt-fleet colour-{v(f["colour"])}{" movable" if movable else ""}">')
        for s in f["ships"]:
            ids = f' data-ships="{conditional_escape(" ").join(conditional_escape(i) for i in s["ids"])}"' \
                if movable else ""
            count = s["count"]
            for b in s["boxes"]:
                x, y = v(b["x"]), v(b["y"])
                out.append(f'<use href="#pt-ship{"-h" if b["half"] else ""}"{ids} x="{x}" y="{y}"/>')
                if s["treasure"]:
                    out.append(f'<use href="#pt-coin-s" x="{x}" y="{y}"/>')
                if s["powder"]:
                    out.append(f'<use href="#pt-keg" x="{x}" y="{y}"/>')
                if s["risk"]:
                    out.append(f'<use href="#pt-storm" x="{x}" y="{y}"/>')
                if _more_than_one(count):
                    out.append(f'<text class="pt-count" x="{v(_plus(b["x"], 9))}" y="{v(_plus(b["y"], 9))}">'
                               f"{v(count)}</text>")
        out.append("</g>\n")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def pt_move_rows(context, p):
    """The moves on offer, a line per die and fleet, a button per direction."""
    v = value_writer(context)
    alone = pgettext("pirater fleet", "alone")
    out = []
    for g in p["moves"]:
        out.append(f"<p><b>{v(g['die'])}</b> {v(g['from'])}")
        if g["split"]:
            out.append(f" {alone}")
        elif _more_than_one(g["count"]):
            out.append(f" ×{v(g['count'])}")
        out.append(": ")
        for m in g["items"]:
            out.append(f"<button name=\"action\" value='{pages.pt_json(m['action'])}'>"
                       + pgettext("pirater move", "%(direction)s to %(square)s") % {
                           "direction": v(m["dir"]), "square": v(m["to"])}
                       + "".join(f" <em>{v(n)}</em>" for n in m["notes"]) + "</button>")
        out.append("</p>\n")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def pt_fleet_items(context, p):
    """The fleets' list: each player's squares, ships lost, powder used."""
    v = value_writer(context)
    out = []
    for f in p["players"]:
        out.append(f'<li class="colour-{v(f["colour"])}{" now" if f["current"] else ""}{" out" if f["out"] else ""}">'
                   f'<span class="swatch"></span><strong>{v(f["name"])}</strong>: ')
        out.append(pgettext("pirater player", "out") if f["out"]
                   else conditional_escape(", ").join(conditional_escape(s) for s in f["squares"]))
        if f["lost"]:
            out.append(" <small>" + npgettext("pirater ships", "(%(lost)s lost)", "(%(lost)s lost)", f["lost"])
                       % {"lost": v(f["lost"])} + "</small>")
        if f["powder_used"]:
            out.append(f' <small>{pgettext("pirater", "powder used")}</small>')
        out.append("</li>")
    return mark_safe("".join(out))
