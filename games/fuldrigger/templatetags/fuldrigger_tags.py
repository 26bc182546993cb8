"""Fuldrigger's template tags: the static chart for board.html, everything live.html shows."""
import json

from django import template
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _, ngettext, pgettext

from games.engines.fuldrigger.board import WORLD
from games.fuldrigger import pages, world_map
from games.fuldrigger.odds import attack_odds, percent
from games.templatetags.games_tags import value_writer

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
    v = value_writer(context)

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


def _market_rows(v, ports) -> str:
    """markets.html's ports that buy one cargo."""
    here = pgettext("fuldrigger: the ship lies in this port", "here")
    embargo, allowed, near = _("embargo this round"), _("sale allowed"), _("too near: sail on past ten squares")
    out = []
    for r in ports:
        away = conditional_escape(here) if r["here"] else ngettext("%(steps)s square away", "%(steps)s squares away",
                                                                  r["steps"]) % {"steps": v(r["steps"])}
        sale = conditional_escape(embargo if r["embargo"] else allowed if r["far"] else near)
        out.append(f'<li class="{"fd-ok" if r["ok"] else "fd-not-yet"}"><span class="fd-market-port">{v(r["name"])}'
                   f'</span>&nbsp;<b>{v(r["price"])}</b> · <small>{away} — {sale}</small></li>')
    return "".join(out)


@register.simple_tag(takes_context=True)
def fd_markets_section(context, fd):
    """markets.html: for each cargo aboard, the best ports that buy it."""
    v = value_writer(context)
    title = _("Where your cargo sells")
    out = [f'<section class="fd-markets" aria-label="{title}"><h2>{title} <small>(F28, F30)</small></h2>\n']
    for m in fd["markets"]["cargo"]:
        out.append('<div class="fd-market"><p>' + _("<strong>%(good)s</strong> on the %(ship)s — paid %(paid)s, "
                                                    "%(status)s") % {
            "ship": v(m["ship"]), "good": v(m["good"]), "paid": v(m["paid"]), "status": v(m["status"])} + "</p>\n")
        if m["ports"]:
            out.append(f"<ul>{_market_rows(v, m['ports'])}</ul>")
            if m["more"]:
                out.append('<p class="meta">' + ngettext("…and %(more)s more port: see the coins on the map.",
                                                         "…and %(more)s more ports: see the coins on the map.",
                                                         m["more"]) % {"more": v(m["more"])} + "</p>")
        else:
            out.append(f'<p class="meta">{_("No port can be reached that buys it.")}</p>')
        out.append("</div>")
    out.append("\n</section>\n")
    return mark_safe("".join(out))


# The rest of the live part's sections, built here for the same reason: each was a template
# included once per render (a port's once per port, a button's once per button), with its loops,
# {% if %}s and translations. The HTML is the templates', character for character: words a
# template took from {% translate %} or {% blocktranslate %} are not escaped (they are the
# site's), values are, and localised as {{ }} would.

def _joined(items, separator) -> str:
    """items|join:separator as a template writes it."""
    return conditional_escape(separator).join(conditional_escape(i) for i in items)


def _button(v, b, primary=False) -> str:
    """button.html: one action's submit button for the turn's form."""
    action = b["action"]
    if action.get("type") == "choose_home":
        label = _("Home city: %(city)s (F7)") % {"city": v(pages.place(action.get("city")))}
    else:
        label = v(b["label"])
    primary = ' class="primary"' if primary else ""
    return f"<button type=\"submit\" form=\"fd-act\" name=\"action\" value='{fd_json(action)}'{primary}>{label}</button>\n"


@register.simple_tag(takes_context=True)
def fd_turn_section(context, fd):
    """turn.html: whose turn, the roll, the turn's buttons and the chance card."""
    v = value_writer(context)
    turn, match = fd["turn"], context.get("match")
    if turn["phase"] == "over" or getattr(match, "is_over", False):
        if turn.get("ended") == "last_fleet":
            said = _("The game is over: one fleet is left (F3).")
        elif getattr(match, "finish_reason", None):
            said = _("The game is over: %(reason)s.") % {"reason": v(match.get_finish_reason_display())}
        else:
            said = _("The game is over.")
    elif turn["phase"] == "card":
        said = _("The bank turns a chance card…")
    else:
        said = f'<span class="fd-dot colour-{v(turn["colour"])}" aria-hidden="true"></span>'
        if turn["faces"]:
            said += ngettext("<strong>%(name)s</strong> to play: rolled %(dice)s — ships sail up to "
                             "<strong>%(total)s</strong> square.",
                             "<strong>%(name)s</strong> to play: rolled %(dice)s — ships sail up to "
                             "<strong>%(total)s</strong> squares.", turn["total"]) % {
                "name": v(turn["name"]), "dice": fd_dice(turn["faces"]), "total": v(turn["total"])}
        else:
            said += _("<strong>%(name)s</strong> to play, has not rolled yet.") % {"name": v(turn["name"])}
    out = [f'<section class="fd-turn" aria-label="{_("The turn")}">\n<p>{said}</p>\n']
    if turn["roll"] or turn["end"] or fd["buy_ship"] or fd["other"]:
        out.append('<div class="actions">\n')
        if turn["roll"]:
            out.append(_button(v, {"label": mark_safe(_("Roll the dice")), "action": turn["roll"]}, primary=True))
        out.append("\n")
        if turn["end"]:
            out.append(_button(v, {"label": mark_safe(_("End the turn")), "action": turn["end"]}))
        out.append("\n")
        if fd["buy_ship"]:
            out.append(_button(v, {"label": mark_safe(_("Buy a ship")), "action": fd["buy_ship"]}))
            out.append(" <small>" + _("%(price)s ducats; she starts in %(home)s") % {
                "price": v(fd["prices"]["ship"]), "home": v(fd["home"])} + "</small>")
        out.append("\n")
        out += [_button(v, b) for b in fd["other"]]
        out.append("\n</div>")
    out.append("\n")
    if fd["choose_ship"]:
        out.append('<p class="fd-hint">' + _("Now tap one of your ringed ships on the map (or “Sail…” below) to "
                                             "see where she can go.") + "</p>")
    out.append("\n")
    card = turn["card"]
    if card:
        out.append('<div class="fd-card"><strong>' + _("Chance card: %(title)s") % {"title": v(card["title"])}
                   + f"</strong> — {v(card['text'])}\n")
        if turn["effects"]:
            out.append("<br><small>" + _("In force this round: %(effects)s") % {
                "effects": _joined(turn["effects"], " · ")} + "</small>")
        out.append("\n")
        if turn["bounties"]:
            out.append("<br><small>" + _("Rewards waiting: %(rewards)s.") % {
                "rewards": _joined(turn["bounties"], "; ")} + "</small>")
        out.append("\n<br><small>" + ngettext("%(left)s card left in the pile.", "%(left)s cards left in the pile.",
                                              turn["deck_left"]) % {"left": v(turn["deck_left"])}
                   + "</small></div>")
    out.append("\n</section>\n")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def fd_fleet_section(context, fd):
    """fleet.html: the viewer's ships, each with its cargo, what it may do and the way to sail it."""
    v = value_writer(context)
    out = [f'<section class="fd-fleet"><h2>{_("Your ships")}</h2>\n<ul>']
    for s in fd["fleet"]:
        out.append(f"<li><strong>{v(s['name'])}</strong> — {v(s['place'])}")
        if s["privateer"]:
            out.append(f' <span class="tag">{pgettext("fuldrigger", "privateer")}</span>')
        cargo = s["cargo"]
        if cargo:
            out.append(f" · {v(cargo['name'])}, " + _("paid %(paid)s") % {"paid": v(cargo["paid"])}
                       + f', <span class="{"fd-to-go" if cargo["to_go"] else "fd-sellable"}">{v(cargo["status"])}'
                         f"</span>")
        elif not s["privateer"]:
            out.append(" · " + pgettext("fuldrigger", "empty"))
        if s["becalmed"]:
            out.append(f" · <em>{_('becalmed')}</em>")
        out.append("\n")
        if s["movable"]:
            ship = v(s["id"])
            out.append(f'<a class="button" href="?sail={ship}#fd-sail" hx-get="?sail={ship}">{_("Sail…")}</a>')
        out += [_button(v, b) for b in s["buttons"]]
        out.append("</li>")
    out.append("</ul>\n</section>\n")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def fd_player_cards(context, fd):
    """players.html's cards: each player's fortune, cash and home; the other players' ships."""
    v = value_writer(context)
    me = context.get("seat_number")
    out = []
    for p in fd["players"]:
        out.append(f'<article class="fd-player colour-{v(p["colour"])}{" fd-to-play" if p["to_play"] else ""}">'
                   f'<h3><span class="swatch" aria-hidden="true"></span> {v(p["name"])}')
        if p["out"]:
            out.append(f' <small class="absent">{pgettext("fuldrigger", "out")}</small>')
        if p["to_play"]:
            out.append(f' <small>{_("to play")}</small>')
        out.append("</h3>\n<p>" + _("<strong>%(fortune)s</strong> fortune · %(cash)s cash · home %(home)s") % {
            "fortune": v(p["fortune"]), "cash": v(p["cash"]), "home": v(p["home"])})
        if p["skip"]:
            out.append(f' · <em>{_("loses the next turn")}</em>')
        out.append("</p>\n")
        if p["seat"] == me:
            count = len(p["ships"])
            out.append("<p>" + ngettext("%(ships)s ship (above)", "%(ships)s ships (above)", count)
                       % {"ships": v(count)})
            if p["fortresses"]:
                out.append(" · " + _("fortresses: %(ports)s") % {"ports": _joined(p["fortresses"], ", ")})
            out.append("</p>")
        else:
            out.append('<ul class="fd-ships">')
            for s in p["ships"]:
                out.append(f"<li>{v(s['name'])} — {v(s['place'])}")
                if s["privateer"]:
                    out.append(" · " + pgettext("fuldrigger", "privateer"))
                cargo = s["cargo"]
                if cargo:
                    out.append(f" · {v(cargo['name'])} ({v(cargo['paid'])}, {v(cargo['status'])})")
                out.append("</li>")
            if not p["ships"]:
                out.append(f"<li>{_('No ships.')}</li>")
            out.append("</ul>\n")
            if p["fortresses"]:
                out.append("<p>" + _("Fortresses: %(ports)s") % {"ports": _joined(p["fortresses"], ", ")} + "</p>")
        if p["crossing"]:
            out.append("<p>" + _("At an isthmus: %(cargo)s") % {"cargo": _joined(p["crossing"], ", ")} + "</p>")
        if p["reefs"]:
            out.append("<p><small>" + ngettext("Knows reef %(reefs)s", "Knows reefs %(reefs)s", p["reef_count"])
                       % {"reefs": v(p["reefs"]), "known": v(p["reef_count"])} + "</small></p>")
        out.append("\n</article>")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def fd_port_panels(context, fd):
    """port.html for each port the viewer's ships lie in: its fortress and duty, the cargo aboard,
    what it sells and buys, a fortress to build, the isthmus."""
    v = value_writer(context)
    out = []
    for p in fd["ports"]:
        in_port = _("In %(port)s") % {"port": v(p["name"])}
        out.append(f'<section class="fd-port-panel" aria-label="{in_port}"><h2>{in_port} <small>{v(p["ships"])}'
                   f'</small></h2>\n')
        if p["fortress"] or p["duty"] or p["embargo"]:
            out.append('<p class="meta">')
            if p["fortress"]:
                out.append((_("Fortress: %(owner)s (yours: +10 on your sales, F25).") if p["own_fortress"]
                            else _("Fortress: %(owner)s.")) % {"owner": v(p["fortress"])} + " ")
            if p["duty"]:
                out.append(_("You pay %(duty)s duty to %(owner)s on each purchase and sale (F24).") % {
                    "duty": v(p["duty"]), "owner": v(p["duty_to"])} + " ")
            if p["embargo"]:
                out.append(f'<strong>{_("Embargo this round: nothing is bought or sold here.")}</strong>')
            out.append("</p>")
        out.append("\n")
        for c in p["cargo"]:
            out.append('<p class="fd-cargo-line">' + _("The %(ship)s's %(good)s:") % {
                "ship": v(c["ship"]), "good": v(in_a_sentence(c["name"]))}
                + f' <span class="{"fd-sellable" if c["sellable"] else "fd-to-go"}">{v(c["status"])}</span>')
            if c["button"]:
                out.append(" " + _button(v, c["button"]))
            elif not c["bought_here"]:
                out.append(f' <small>{_("(not bought here)")}</small>')
            out.append("</p>")
        out.append("\n")
        if p["sells"]:
            out.append('<div class="fd-scroll"><table class="list fd-prices"><thead><tr><th scope="col">'
                       f'{_("For sale")}</th><th scope="col">{_("You pay")}</th><th scope="col"><span '
                       f'class="visually-hidden">{pgettext("fuldrigger", "Buy")}</span></th></tr></thead><tbody>\n')
            with_duty = _("with duty;") + " " if p["duty"] else ""
            for r in p["sells"]:
                out.append(f"<tr><th>{v(r['name'])}</th><td>{v(r['cost'])} <small>({with_duty}"
                           + _("%(tokens)s in the bank") % {"tokens": v(r["tokens"])} + ")</small></td><td>")
                out += [_button(v, b) for b in r["buttons"]]
                out.append("</td></tr>")
            out.append("\n</tbody></table></div>")
        out.append("\n")
        if p["buys"]:
            fetches = (_("what a load fetches, less %(duty)s duty") % {"duty": v(p["duty"])} if p["duty"]
                       else _("what a load fetches"))
            out.append(f'<p class="fd-buys"><strong>{_("Bought here")}</strong><small> ({fetches})</small>: ')
            for i, r in enumerate(p["buys"]):
                if i:
                    out.append(" · ")
                out.append(f"<span>{v(r['name'])} <b>{v(r['price'])}</b>")
                if r["notes"]:
                    out.append(" <small>" + _("(list %(price)s; %(notes)s)") % {
                        "price": v(r["list"]), "notes": _joined(r["notes"], "; ")} + "</small>")
                out.append("</span>")
            out.append("</p>")
        out.append("\n")
        if p["build"]:
            out.append('<div class="actions">'
                       + _button(v, {"label": mark_safe(_("Build a fortress here")), "action": p["build"]})
                       + " <small>" + _("%(price)s ducats (F23)") % {"price": v(fd["prices"]["fortress"])}
                       + "</small></div>")
        out.append("\n")
        isthmus = p["isthmus"]
        if isthmus:
            if isthmus["toll"]:
                said = _("<strong>Isthmus:</strong> cargo crosses overland to %(port)s; toll %(toll)s ducats to "
                         "%(owner)s (F45–F47).") % {"port": v(isthmus["partner"]), "toll": v(isthmus["toll"]),
                                                    "owner": v(isthmus["toll_to"])}
            else:
                said = _("<strong>Isthmus:</strong> cargo crosses overland to %(port)s; toll free for you "
                         "(F45–F47).") % {"port": v(isthmus["partner"])}
            out.append(f"<p>{said}</p>\n")
            if isthmus["buttons"]:
                out.append('<div class="actions">' + "".join(_button(v, b) for b in isthmus["buttons"]) + "</div>")
            out.append("\n")
            for w in isthmus["waiting"]:
                out.append("<p>" + _("Waiting here for you: %(good)s, paid %(paid)s, %(status)s.") % {
                    "good": v(w["name"]), "paid": v(w["paid"]), "status": v(w["status"])} + " "
                    + "".join(_button(v, b) for b in w["buttons"]) + "</p>")
        out.append("\n</section>\n")
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def fd_offer_list(context, fd):
    """offers.html's open offers, to the viewer and from him, each with its buttons."""
    v = value_writer(context)
    offers = fd["offers"]
    if not (offers["incoming"] or offers["outgoing"]):
        return mark_safe(f'<p class="meta">{_("No open offers.")}</p>')
    out = ["<ul>\n"]
    for o in offers["incoming"]:
        out.append(f'<li><span><span class="fd-dot colour-{v(o["colour"])}" aria-hidden="true"></span>'
                   + _("<strong>%(who)s</strong> offers %(give)s for %(take)s.") % {
                       "who": v(o["who"]), "give": v(o["give"]), "take": v(o["take"])})
        if o["blocked"]:
            out.append(f' <small>{_("It cannot be met now.")}</small>')
        out.append("</span>" + "".join(_button(v, b) for b in o["buttons"]) + "</li>")
    out.append("\n")
    for o in offers["outgoing"]:
        out.append("<li><span>" + _('You offer <span class="fd-dot colour-%(colour)s" aria-hidden="true"></span>'
                                    "<strong>%(who)s</strong> %(give)s for %(take)s.") % {
            "colour": v(o["colour"]), "who": v(o["who"]), "give": v(o["give"]), "take": v(o["take"])}
            + "</span>" + "".join(_button(v, b) for b in o["buttons"]) + "</li>")
    out.append("\n</ul>")
    return mark_safe("".join(out))
