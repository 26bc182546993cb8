"""Catan with ships' template tags: everything live.html shows. The work is done in
games/catan_ships/pages.py; the tags below only write its busiest parts as HTML."""
from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _, pgettext

from games.catan_ships import pages
from games.templatetags.games_tags import value_writer

register = template.Library()


@register.simple_tag(takes_context=True)
def catan_live(context):
    return pages.live(context.get("view"), context.get("legal"), context.get("colours"), context.get("names"),
                      seat=context.get("seat_number"), my_turn=bool(context.get("my_turn")))


# The board's hexes, harbours and pieces are most of what a socket sends with every update: they
# are written here rather than by {% for %} loops, the same SVG value by value (live.html draws
# them within {% localize off %}).

@register.simple_tag(takes_context=True)
def cs_board_layers(context, c):
    """The hexes with their numbers, the harbours, and the roads, ships and buildings."""
    v = value_writer(context)
    out = ['<g class="cs-hexes">']
    for h in c["hexes"]:
        out.append(f'<g class="t-{v(h["terrain"])}"><polygon points="{v(h["points"])}"><title>{v(h["words"])}</title>'
                   f"</polygon>")
        if h["number"]:
            x, y = v(h["x"]), v(h["y"])
            out.append(f'<circle class="cs-token" cx="{x}" cy="{y}" r=".3"/><text class="cs-num'
                       f'{" hot" if h["hot"] else ""}" x="{x}" y="{y}" dy=".1">{v(h["number"])}</text>')
        out.append("</g>\n")
    out.append('</g>\n<g class="cs-harbours">')
    for p in c["harbours"]:
        x, y = v(p["x"]), v(p["y"])
        out.append(f'<g class="cs-harbour h-{v(p["resource"] or "any")}"><title>{v(p["words"])}</title>')
        out += [f'<line x1="{v(line[0])}" y1="{v(line[1])}" x2="{x}" y2="{y}"/>' for line in p["lines"]]
        out.append(f'<circle cx="{x}" cy="{y}" r=".2"/><text x="{x}" y="{y}" dy=".06">{v(p["rate"])}</text></g>\n')
    out.append('</g>\n<g class="cs-pieces">\n')
    for r in c["roads"]:
        ends = f'x1="{v(r["x1"])}" y1="{v(r["y1"])}" x2="{v(r["x2"])}" y2="{v(r["y2"])}"'
        out.append(f'<g class="cs-road colour-{v(r["colour"])}"><title>{v(r["words"])}</title><line class="edge" {ends}/>'
                   f"<line {ends}/></g>\n")
    for s in c["ships"]:
        out.append(f'<g class="cs-ship colour-{v(s["colour"])}" transform="translate({v(s["x"])} {v(s["y"])})"><title>'
                   f'{v(s["words"])}</title><use href="#cs-boat" transform="rotate({v(s["angle"])})"/><text '
                   f'class="cs-ship-no" y=".4">{v(s["number"])}</text>')
        out += [f'<rect class="r-{v(k["resource"])}" x="{v(k["dx"])}" y="-.46" width=".13" height=".13"/>'
                for k in s["cargo"]]
        out.append("</g>\n")
    for b in c["buildings"]:
        out.append(f'<g class="cs-building colour-{v(b["colour"])}"><title>{v(b["words"])}</title><use href="#cs-'
                   f'{"city" if b["kind"] == "city" else "house"}" x="{v(b["x"])}" y="{v(b["y"])}"/></g>\n')
    return mark_safe("".join(out))


# The panel's lists, for the same reason.

@register.simple_tag(takes_context=True)
def cs_player_rows(context, c):
    """The points table's rows. A player's fields are the engine's view of him, which leaves some
    out (hidden points but for the viewer): one left out is written as nothing, as the template
    wrote it."""
    v = value_writer(context)
    you = f' <small>{_("(you)")}</small>'
    hidden, ship_points = pgettext("catan", "hidden victory points"), pgettext("catan", "ship points")
    road, army = pgettext("catan", "Longest road"), pgettext("catan", "Largest army")
    out = []
    for p in c["players"]:
        def f(key):
            return v(p[key]) if key in p else ""

        out.append(f'<tr class="colour-{f("colour")}{" now" if p.get("now") else ""}"><th scope="row"><span class="swatch">'
                   f'</span> {f("name")}{you if p.get("you") else ""}</th>\n<td><b>{f("points")}</b>')
        if p.get("hidden_points"):
            out.append(f' <small title="{hidden}">+{f("hidden_points")}</small>')
        if p.get("ship_points"):
            out.append(f' <small title="{ship_points}">⚓{f("ship_points")}</small>')
        out.append(f'</td>\n<td>{f("cards")}</td><td>{f("development")}</td><td>{f("road_length")}')
        if p.get("longest_road"):
            out.append(f' <span class="tag" title="{road}">★</span>')
        out.append(f'</td><td>{f("knights")}')
        if p.get("largest_army"):
            out.append(f' <span class="tag" title="{army}">★</span>')
        out.append("</td></tr>\n")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def cs_hand_items(context, c):
    """The viewer's hand, a line per resource."""
    v = value_writer(context)
    return mark_safe("".join(f'<li class="{"" if r["count"] else "none"}"><span class="res r-{v(r["resource"])}"></span>'
                             f'{v(r["words"])} <b>{v(r["count"])}</b></li>' for r in c["hand"]))


@register.simple_tag(takes_context=True)
def cs_cost_items(context, c):
    """What each piece costs."""
    v = value_writer(context)
    return mark_safe("".join(
        f'<li><span class="cs-cost-name">{v(k["words"])}</span> '
        + "".join(f'<span class="res r-{v(r["resource"])}" title="{v(r["words"])}"></span>' for r in k["resources"])
        + "</li>" for k in c["costs"]))


@register.simple_tag(takes_context=True)
def cs_bank_items(context, c):
    """The bank's stock of each resource."""
    v = value_writer(context)
    return mark_safe("".join(f'<span class="res r-{v(b["resource"])}"></span>{v(b["count"])} ' for b in c["bank"]))


@register.simple_tag(takes_context=True)
def cs_terrain_items(context, c):
    """The legend's terrains and what they produce."""
    v = value_writer(context)
    return mark_safe("".join(f'<li><span class="cs-key t-{v(t["terrain"])}"></span> {v(t["words"])}'
                             + (f': {v(t["resource"])}' if t["resource"] else "") + "</li>" for t in c["terrains"]))


@register.simple_tag(takes_context=True)
def cs_trade_rows(context, resources, prefix):
    """A trade form's rows, a resource each with how many to give and to get; `prefix` names the
    fields ("a." for an offer, "a.counter." for a counter-offer)."""
    v = value_writer(context)
    out = []
    for r in resources:
        value, words = v(r["value"]), v(r["words"])
        out.append(f'<span><span class="res r-{value}"></span>{words}</span><input type="number" '
                   f'name="{prefix}give.{value}" min="0" max="{v(r["have"])}" placeholder="0" aria-label="'
                   + pgettext("catan trade", "Give %(resource)s") % {"resource": words}
                   + f'" inputmode="numeric"><input type="number" name="{prefix}get.{value}" min="0" placeholder="0" '
                     'aria-label="' + pgettext("catan trade", "Get %(resource)s") % {"resource": words}
                   + '" inputmode="numeric">\n')
    return mark_safe("".join(out))
