"""What Fuldrigger's match page shows, worked out from what the viewer may see.

Everything here reads `view` (the engine's view for this viewer, never the raw state), the
viewer's legal actions and the names and colours of the seats; the templates only lay it out.
Buttons are {"label", "action"}: the template posts the action as JSON (see adding-a-game.md).
"""
from __future__ import annotations

import json
from functools import lru_cache

from django.utils import translation
from django.utils.translation import gettext as _, gettext_lazy, ngettext, pgettext

from games.engines import get_engine
from games.engines.fuldrigger import trade, view as book, war
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.cards import card
from games.engines.fuldrigger.sailing import pirates_spare, routes
from games.engines.fuldrigger.state import (
    DUTY, FORTRESS_PRICE, MIN_CARRIED, SHIP_PRICE, SHIP_RESALE,
)
from games.fuldrigger import world_map
from games.models import finish_reason_display
from games.reads.panels import worded_later

CHART_W, CHART_H = 300, 110


# ---- words ----------------------------------------------------------------------------------
# The game's own words (goods, ports, sea areas, chance cards) come from the engine's phrase book,
# in the viewer's language; the page's words around them are Django's gettext.

def language() -> str:
    return translation.get_language() or "en"


def place(node: str) -> str:
    return _place(node, language())


# A render names hundreds of places and goods (every port that buys a cargo, every ship): the
# phrase book's answer never changes, so each is looked up once per language.
@lru_cache(maxsize=None)
def _place(node: str, lang: str) -> str:
    return book.place_name(node, lang=lang) if node in WORLD.nodes else node


def area(node: str) -> str:
    return book.area_name(node, lang=language()) if node in WORLD.nodes else node


def good_name(good: str | None) -> str:
    if not good:
        return ""
    return _good_name(good, language())


@lru_cache(maxsize=None)
def _good_name(good: str, lang: str) -> str:
    return book.good_name(good, lang=lang) if good in WORLD.goods else good


def card_words(card_id: str) -> tuple[str, str]:
    """A chance card's title and text."""
    return book.card_words(card_id, lang=language())


def in_a_sentence(name: str) -> str:
    """A good or a card's title inside a sentence: small in English, Danish and Swedish, while
    German writes every noun large."""
    return name if language().startswith("de") else name.lower()


# A hazard on a path, in a list of them (the area fills in).
HAZARD_ON_PATH = {
    "tailwind": gettext_lazy("tailwind (%(area)s)"), "headwind": gettext_lazy("headwind (%(area)s)"),
    "storm": gettext_lazy("storm (%(area)s)"), "ice": gettext_lazy("icebergs (%(area)s)"),
    "calm": gettext_lazy("calm (%(area)s)"), "pirates": gettext_lazy("pirate waters (%(area)s)"),
}
PIRATES_SPARE = {  # why pirate waters leave a ship alone (the engine's sailing.pirates_spare)
    "privateer": gettext_lazy("pirates (%(area)s, harmless: a privateer)"),
    "fortress": gettext_lazy("pirates (%(area)s, harmless: your fortress near)"),
    "convoy": gettext_lazy("pirates (%(area)s, harmless: in convoy)"),
}


def _js(value) -> str:
    return json.dumps(value, separators=(",", ":"))


class Seats:
    """Names and colours by seat number, safe for seats the page does not know."""

    def __init__(self, names, colours):
        self.names, self.colours = list(names or []), list(colours or [])

    def name(self, seat) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return _("Player %(number)s") % {"number": seat + 1} if isinstance(seat, int) else _("the bank")

    def colour(self, seat) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.colours):
            return self.colours[seat]
        return "black"


def hazards_on(path, view: dict, ship: dict, known=()) -> list[str]:
    """The hazards a path enters, in words: "storm (Cape of Good Hope)", "reef C (…, known:
    harmless)", and pirate waters that leave this ship alone noted so, for the engine's reason
    (F18, F19: a privateer, one's own fortress near, a convoy card in force)."""
    out = []
    for node in path:
        hazard = WORLD.hazard(node)
        if not hazard:
            continue
        words = {"area": area(node)}
        if hazard == "reef":
            words["letter"] = WORLD.reef_letter(node)
            out.append(_("reef %(letter)s (%(area)s, known: harmless)") % words if words["letter"] in known
                       else _("reef %(letter)s (%(area)s)") % words)
        elif hazard == "pirates" and (spared := pirates_spare(view, ship, node)):
            out.append(str(PIRATES_SPARE[spared]) % words)
        else:
            out.append(str(HAZARD_ON_PATH[hazard]) % words)
    return out


# ---- the whole live part ------------------------------------------------------------------

def shared_board(view: dict | None, colours, names, match=None) -> dict | None:
    """The context of partials/board_shared.html: what every viewer of a version sees alike —
    the players' cards and the fortunes' chart (the whole state but the offers is public, F1) —
    drawn once per version and language by games/live/publisher.py, through games/reads/panels.py."""
    if not view or "ships" not in view:
        return None
    seats = Seats(names, colours)
    over = view["phase"] == "over" or bool(getattr(match, "is_over", False))
    return {"fd": {"players": players(view, seats, over), "chart": fortune_chart(view, seats)}}


def live(*, view: dict, seat, legal: list, my_turn: bool, names, colours, match=None, query=None, log=(),
         draw_shared=True) -> dict:
    """Everything live.html shows (the presenter's shape is every game's: games_tags.game_live).
    `query` is the page's GET parameters — what the viewer chose: a ship to sail (`sail`) and a
    square (`to`), a target (`attack`: square.seat), the offer form (`offer`); absent when the
    live part is rendered for the socket or after an action. `log`: the recent log rows, newest
    first (the ships lost since the viewer's last turn). Without `draw_shared`, what every
    viewer shares (shared_board) is left to the drawing made once."""
    seats = Seats(names, colours)
    query = query or {}
    over = view["phase"] == "over" or bool(getattr(match, "is_over", False))
    if over:        # the end shows the ending: no turn controls, no market (the log keeps the moves)
        legal, my_turn, query = [], False, {}
    acts = Legal(legal)
    ships_by_id = {ship["id"]: ship for ship in view["ships"].values()}
    mine = sorted((s for s in ships_by_id.values() if s["owner"] == seat), key=lambda s: s["id"]) \
        if seat is not None else []
    movable = set(view.get("can_move", [])) if my_turn and seat == view["turn"]["seat"] else set()
    movable &= {s["id"] for s in mine}
    selected = _selected(view, seat, acts, movable, ships_by_id, query)
    attack = attacks(view, seat, acts, ships_by_id, seats, query)
    offer = offers(view, seat, acts, ships_by_id, seats, query)
    if over:
        offer = {"incoming": [], "outgoing": [], "form": None, "can_offer": False}
    trade_now = markets(view, seat, [] if over else mine)
    if selected:
        buyers = {row["port"]: row for m in trade_now["cargo"] if m["ship_id"] == selected["ship"] for row in m["every"]}
        for dest in selected["destinations"]:
            row = buyers.get(dest["id"])
            if row:
                dest["buys"] = row
                dest["label"] += " · " + (_("buys your %(good)s for %(price)s") if row["ok"] else
                                          _("buys your %(good)s for %(price)s, but it has not sailed ten squares"
                                            " yet")) % {"good": in_a_sentence(row["good"]), "price": row["price"]}
        # Ports that buy the ship's cargo and allow the sale lead the list.
        selected["destinations"].sort(key=lambda d: (not d.get("buys", {}).get("ok"), not d["port"], d["name"],
                                                     d["steps"]))
    now = turn(view, seats, acts)
    now.update(over=over, reason=finish_reason_display(getattr(match, "finish_reason", "") or ""))
    if over:
        now["card"] = None
    return {
        "query": _chosen_query(selected, attack, offer),
        "over": over,
        "viewbox": world_map.chart()["viewbox"],
        "focus": focus(view, seat, over),
        "pieces": pieces(view, seats, movable, selected, seat),
        "markets": trade_now,
        "turn": now,
        # A campaign with a deadline: when it ends matters more than the turn's clock near the end.
        "ends_first": not over and getattr(match, "status", "") == "running"
                      and getattr(match, "game_deadline", None) is not None,
        "fleet": [] if over else fleet(view, seat, acts, mine, movable),
        "lost": [] if over else losses(log, view, seat, names),
        "sail": selected,
        "choose_ship": bool(movable) and not selected,
        "ports": [] if over else ports(view, seat, acts, mine, seats),
        "attacks": attack,
        "offers": offer,
        "players": players(view, seats, over) if draw_shared else [],
        "chart": fortune_chart(view, seats) if draw_shared else None,
        "final": final(match, seats) if match is not None else [],
        "other": acts.unhandled(),
        "buy_ship": _button(_("Buy a ship"), acts.first("buy_ship"), why=_why_no_ship(view, seat, acts)),
        "home": place(view["homes"][seat]) if seat is not None and seat < len(view["homes"])
                and view["homes"][seat] else "",
        "prices": {"ship": SHIP_PRICE, "resale": SHIP_RESALE, "fortress": FORTRESS_PRICE},
    }


def _button(label: str, action: dict | None, why: str = "") -> dict | None:
    """A button for the turn's form (partials/button.html); when the action is not legal, the
    button shown disabled with `why` (the engine's refusal), or None when there is nothing to say."""
    if action:
        return {"label": label, "action": action}
    return {"label": label, "action": None, "why": why} if why else None


def _my_turn(acts: Legal) -> bool:
    return bool(acts.first("end_turn") or acts.first("roll"))


def _refused(refusal: tuple[str, dict] | None) -> str:
    """What the engine found against an action (trade.*_refusal), in its words and the viewer's
    language; "" when it found nothing."""
    if refusal is None:
        return ""
    key, fields = refusal
    return book.WORDS.say(key, language(), **fields)


def _why_no_ship(view, seat, acts: Legal) -> str:
    """Why "Buy a ship" is refused on the viewer's turn, as the engine refuses it (F20, F22)."""
    if seat is None or not _my_turn(acts):
        return ""
    return _refused(trade.ship_refusal(view, seat))


def _why_no_fortress(view, seat, port, acts: Legal) -> str:
    """Why "Build a fortress here" is refused on the viewer's turn, as the engine refuses it (F23,
    F27). A fortress already there is said by the port's panel, not again by the button."""
    if seat is None or not _my_turn(acts):
        return ""
    refusal = trade.fortress_refusal(view, seat, port)
    return "" if refusal is None or refusal[0] == "error.fortress_exists" else _refused(refusal)


def _chosen_query(selected, attack, offer) -> str:
    """What the viewer has chosen (a ship, a square, a target, the offer form) as the query that
    shows it again; the page's script re-asks for it when a live update would wipe it out."""
    if selected:
        return (f"sail={selected['ship']}" + (f"&to={selected['to']['id']}" if selected["to"] else "")
                + ("&near=fleet" if selected["near_fleet"] else ""))
    if attack["chosen"]:
        return f"attack={attack['chosen']['key']}"
    if offer["form"]:
        return "offer=1"
    return ""


class Legal:
    """The viewer's legal actions, looked up by type and fields. Types the page has no control
    for (an engine newer than its page) still get a plain button each."""

    HANDLED = {"move", "roll", "end_turn", "buy_cargo", "sell_cargo", "buy_ship", "sell_ship", "buy_fortress",
               "fit_privateer", "lay_off_privateer", "isthmus_unload", "isthmus_load", "attack", "offer",
               "accept_offer", "decline_offer", "withdraw_offer"}

    def __init__(self, legal):
        self.actions = list(legal or [])
        self.by_type: dict[str, list[dict]] = {}
        for action in self.actions:
            self.by_type.setdefault(action.get("type"), []).append(action)

    def of(self, kind: str) -> list[dict]:
        return self.by_type.get(kind, [])

    def first(self, kind: str, **fields) -> dict | None:
        return next((a for a in self.of(kind) if all(a.get(k) == v for k, v in fields.items())), None)

    def unhandled(self) -> list[dict]:
        return [{"label": _("Home city: %(city)s") % {"city": place(a.get("city"))} if a.get("type") == "choose_home"
                 else a["type"].replace("_", " ").capitalize(), "action": a}
                for a in self.actions if a.get("type") not in self.HANDLED]


# ---- the map's pieces -----------------------------------------------------------------------

def _ship_title(ship: dict, seats: Seats) -> str:
    bits = [_("%(ship)s (%(owner)s)") % {"ship": ship["name"], "owner": seats.name(ship["owner"])}]
    if ship["privateer"]:
        bits.append(pgettext("fuldrigger", "privateer"))
    cargo = ship["cargo"]
    if cargo:
        bits.append(in_a_sentence(good_name(cargo["good"])))
    if ship.get("calm"):
        bits.append(_("becalmed"))
    return ", ".join(bits)


def _fort_title(port: str, owner: str) -> str:
    return _("Fortress in %(port)s (%(owner)s)") % {"port": place(port), "owner": owner}


def _n(value: float) -> str:
    """A coordinate for a piece: whole units are precise enough, and every byte is sent often."""
    return str(round(value))


def pieces(view: dict, seats: Seats, movable: set, selected: dict | None, seat=None) -> dict:
    """Ships in a row on their square (`o`: the place in the row, which the page's script widens
    as it draws the ships larger when zoomed out); fortresses beside their port."""
    at: dict[str, list[dict]] = {}
    for ship in sorted(view["ships"].values(), key=lambda s: (s["owner"], s["id"])):
        at.setdefault(ship["node"], []).append(ship)
    ships = []
    chosen = selected["ship"] if selected else None
    for node, here in at.items():
        if node not in WORLD.nodes:
            continue
        x, y = world_map.position(node)
        for index, ship in enumerate(here):
            o = index - (len(here) - 1) / 2
            mine, may_sail = seat is not None and ship["owner"] == seat, ship["id"] in movable
            ships.append({
                "id": ship["id"], "x": _n(x + o * 5.5), "y": _n(y - 1.5), "o": f"{o:g}",
                "colour": seats.colour(ship["owner"]), "mine": mine,
                "symbol": "privateer" if ship["privateer"] else "laden" if ship["cargo"] else "merchant",
                # Worded only where it is drawn: once per change for all viewers alike.
                "title": worded_later(_ship_title, ship, seats), "movable": may_sail,
                "selected": ship["id"] == chosen,
                # What a viewer's drawing of this ship depends on (the rest is the same for all):
                # partials/pieces.html draws each once per change ({% once %}).
                "drawn": (ship["id"], mine, may_sail, ship["id"] == chosen),
            })
    # The viewer's own ships are drawn last, over any other's: where two ports' rows of ships meet
    # (zoomed out, on a phone) the ships the viewer can tap are never under another's.
    ships.sort(key=lambda s: s["mine"])
    forts = []
    for port, owner in sorted(view["fortresses"].items()):
        if port in WORLD.nodes:
            x, y = world_map.position(port)
            forts.append({"x": _n(x + 1.5), "y": _n(y + 3.5), "colour": seats.colour(owner),
                          "title": worded_later(_fort_title, port, seats.name(owner))})
    return {"ships": ships, "fortresses": forts}


def focus(view: dict, seat, over: bool) -> str:
    """Where the map opens (x y width height in map units): on the viewer's fleet; for a spectator
    (or a player without ships) on the fleet of the player to play, else on every ship."""
    ships = list(view["ships"].values())
    if not over:
        for owner in (seat, view["turn"]["seat"]):
            theirs = [s for s in ships if s["owner"] == owner] if owner is not None else []
            if theirs:
                ships = theirs
                break
    points = [world_map.position(s["node"]) for s in ships if s["node"] in WORLD.nodes]
    if not points:
        return ""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return " ".join(_n(v) for v in (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))


# ---- the turn and the chance cards -----------------------------------------------------------

def turn(view: dict, seats: Seats, acts: Legal) -> dict:
    now = view["turn"]
    effects = []
    for effect in view.get("effects", []):
        if effect["card"] != (view.get("last_card") or {}).get("id"):      # that one is shown whole
            title, text = card_words(effect["card"])
            effects.append(f"{title}: {text}")
    bounties = []
    for card_id in view.get("bounties", []):
        data = card(card_id)
        bounties.append(_("%(amount)s ducats to the first ship to reach %(port)s")
                        % {"amount": data["amount"], "port": place(data["port"])})
    shown = view.get("last_card")
    if shown:
        title, text = card_words(shown["id"])
        shown = {**shown, "title": title, "text": text}
    return {
        "round": view["round"], "seat": now["seat"], "name": seats.name(now["seat"]),
        "colour": seats.colour(now["seat"]), "phase": view["phase"], "faces": now.get("roll") or [],
        "dice": " + ".join(str(face) for face in now.get("roll") or []),
        "total": now.get("total"), "roll": _button(_("Roll the dice"), acts.first("roll")),
        "end": _button(_("End the turn"), acts.first("end_turn")),
        "card": shown, "effects": effects, "bounties": bounties,
        "deck_left": view.get("deck_left"), "ended": view.get("ended"),
    }


# ---- the viewer's fleet -----------------------------------------------------------------------

def cargo_text(cargo: dict | None) -> dict | None:
    """A cargo's good, price paid and the distance rule (F30): sellable, or how far to go."""
    if not cargo:
        return None
    to_go = max(0, MIN_CARRIED - cargo["carried"])
    return {"good": cargo["good"], "name": good_name(cargo["good"]), "paid": cargo["paid"],
            "carried": cargo["carried"], "to_go": to_go,
            "status": _("sellable") if to_go == 0 else ngettext(
                "%(count)s square to go", "%(count)s squares to go", to_go) % {"count": to_go}}


def where_she_lies(ship: dict) -> str:
    """Where a ship lies, in a phrase. Ships are often named like ports ("Amsterdam"): said
    bare, her name and her place read as one thing twice ("Amsterdam — Amsterdam")."""
    node = ship["node"]
    in_port = node in WORLD.nodes and WORLD.is_port(node)
    return (_("in port at %(place)s") if in_port else _("at sea: %(place)s")) % {"place": place(node)}


def fleet(view: dict, seat, acts: Legal, mine: list, movable: set) -> list[dict]:
    still = set(view["turn"].get("still", [])) if seat == view["turn"]["seat"] else set()
    rows = []
    for ship in mine:
        number = ship["id"]
        buttons = []
        for kind, label in (("fit_privateer", _("Fit out as privateer")),
                            ("lay_off_privateer", _("Lay off: trade again")),
                            ("sell_ship", _("Sell ship (%(price)s)") % {"price": SHIP_RESALE})):
            action = acts.first(kind, ship=number)
            if action:
                buttons.append({"label": label, "action": action})
        in_port = ship["node"] in WORLD.nodes and WORLD.is_port(ship["node"])
        where = where_she_lies(ship)
        rows.append({"id": number, "name": ship["name"], "place": place(ship["node"]), "where": where,
                     "in_port": in_port,
                     "cargo": cargo_text(ship["cargo"]), "privateer": ship["privateer"],
                     "becalmed": number in still or ship.get("calm"), "movable": number in movable,
                     "buttons": buttons})
    return rows


# What takes a ship from her owner, as the log records it: sunk by weather or in an attack,
# wrecked on a reef, lost to pirates, captured as a prize.
def _loses_ship(event: dict, seat) -> bool:
    if event.get("type") == "attack":
        if event.get("result") == "lost":
            return event.get("seat") == seat
        return event.get("defender") == seat and event.get("result") == "captured" and event.get("prize") != "fortress"
    return event.get("seat") == seat and bool(event.get("sunk") or event.get("wrecked") or event.get("lost"))


def losses(rows, view: dict, seat, names) -> list[str]:
    """The viewer's ships lost since he last ended a turn (within the recent `rows`, newest
    first), each in the log's words (the engine's phrase book, his language): shown in the
    turn's panel, where he looks after acting, until he ends his turn, so a wreck is never just a
    ship gone missing from the list."""
    if seat is None or view["phase"] == "over":
        return []
    engine = get_engine("fuldrigger")
    said = []
    for row in rows:                                   # newest first
        if row.seat == seat and (row.action or {}).get("type") == "end_turn":
            break
        for event in row.events or []:
            if _loses_ship(event, seat):
                said.append(engine.describe(event, list(names or []), lang=translation.get_language()))
    return said[::-1]


def _selected(view, seat, acts: Legal, movable: set, ships_by_id: dict, query) -> dict | None:
    """The ship the viewer chose to sail (?sail=N): where it can go with this roll, each place
    with the engine's path and the hazards on it; with ?to=square, the routes there."""
    try:
        number = int(query.get("sail", ""))
    except (TypeError, ValueError):
        return None
    if number not in movable:
        return None
    ship = ships_by_id[number]
    known = view["known_reefs"][seat] if seat is not None else []
    moves = [a for a in acts.of("move") if a.get("ship") == number]
    destinations = []
    for action in moves:
        path = action["path"]
        dest = path[-1]
        if dest == ship["node"]:           # out and back to where she lies: no voyage to offer
            continue
        x, y = world_map.position(dest)
        destinations.append({"id": dest, "name": place(dest), "port": WORLD.is_port(dest), "steps": len(path),
                             "hazards": hazards_on(path, view, ship, known), "path": _js(path),
                             "x": x, "y": y})
    # Several squares of one sea area share its name: number them west to east, as on the map.
    named: dict[str, list[dict]] = {}
    for dest in destinations:
        named.setdefault(dest["name"], []).append(dest)
    for same in named.values():
        if len(same) > 1:
            for count, dest in enumerate(sorted(same, key=lambda d: (d["x"], d["y"])), start=1):
                dest["name"] = _("%(place)s, square %(number)s") % {"place": dest["name"], "number": count}
    for dest in destinations:
        dest["label"] = ngettext("%(place)s — %(count)s square", "%(place)s — %(count)s squares", dest["steps"]) % {
            "place": dest["name"], "count": dest["steps"]} + (f"; {', '.join(dest['hazards'])}" if dest["hazards"] else "")
    destinations.sort(key=lambda d: (not d["port"], d["name"], d["steps"]))
    chosen = None
    to = query.get("to")
    by_id = {a["path"][-1]: a["path"] for a in moves}
    if to in by_id:
        options = []
        for index, path in enumerate(routes(ship["node"], to, view["turn"]["total"], first=by_id[to])):
            danger = hazards_on(path, view, ship, known)
            options.append({"index": index, "path": _js(path), "steps": len(path), "hazards": danger,
                            "d": "".join(world_map.polyline([ship["node"], *path])),
                            "label": ngettext("%(count)s square", "%(count)s squares", len(path))
                                     % {"count": len(path)} + "; " + (", ".join(danger) or _("no hazards"))})
        chosen = {"id": to, "name": place(to), "routes": options}
    # Asked for from the list of ships (?near=fleet): the form opens there, under the ship's row,
    # and the page stays where the player is reading (issue 33: it jumped 338 px up to the turn).
    near_fleet = query.get("near") == "fleet"
    return {"ship": number, "name": ship["name"], "from": place(ship["node"]), "node": ship["node"],
            "total": view["turn"]["total"], "destinations": destinations, "to": chosen,
            "near_fleet": near_fleet, "near": "&near=fleet" if near_fleet else "",
            # Only a ship with a cargo has ports that buy it ringed green on the map.
            "laden": bool(ship.get("cargo")),
            "action": {"type": "move", "ship": number}}


# ---- ports: prices, trade, fortresses, the isthmus ------------------------------------------

def sale_terms(view: dict, seat: int, port: str, good: str) -> dict | None:
    """What one load of `good` fetches in `port` for `seat` now, and why in words: the engine's
    terms (trade.sale_terms: F25, F31, cards)."""
    terms = trade.sale_terms(view, seat, port, good)
    if terms is None:
        return None
    notes = []
    for part in terms["parts"]:
        if part["why"] == "card":
            notes.append(f"{part['amount']:+d} {in_a_sentence(card_words(part['card'])[0])}")
        elif part["why"] == "sold":
            notes.append(_("−%(drop)s: %(sold)s sold here this turn") % {"drop": -part["amount"], "sold": part["sold"]})
        elif part["why"] == "fortress":
            notes.append(_("+%(bonus)s for your fortress") % {"bonus": part["amount"]})
    return {"list": terms["list"], "price": terms["price"], "notes": notes}


def ports(view: dict, seat, acts: Legal, mine: list, seats: Seats) -> list[dict]:
    """Each port where the viewer's ships lie: what it sells (price with duty, loads left in the
    bank, buy buttons), what it buys (what a load fetches now, and why), and the viewer's cargo
    there (sellable or how far to go, F30)."""
    if seat is None:
        return []
    here: dict[str, list[dict]] = {}
    for ship in mine:
        if ship["node"] in WORLD.nodes and WORLD.is_port(ship["node"]):
            here.setdefault(ship["node"], []).append(ship)
    out = []
    for port in sorted(here, key=place):
        ships = here[port]
        duty_to = trade.duty_owner(view, seat, port)
        duty = DUTY if duty_to is not None else 0
        goods = sorted(WORLD.prices.get(port, {}).items(), key=lambda g: good_name(g[0]))
        sells, buys = [], []
        for good, entry in goods:
            if entry["buy"] is not None:
                empty = [s for s in ships if acts.first("buy_cargo", ship=s["id"], good=good)]
                tokens = view["tokens"].get(good, 0)
                sells.append({"name": good_name(good), "cost": entry["buy"] + duty, "tokens": tokens,
                              "why_not": "" if empty else _why_not_buy(view, seat, ships, good, acts),
                              "buttons": [{"label": pgettext("fuldrigger", "Buy") if len(empty) == 1
                                           else _("Buy for the ship %(ship)s") % {"ship": s["name"]},
                                           "action": acts.first("buy_cargo", ship=s["id"], good=good)}
                                          for s in empty]})
            terms = sale_terms(view, seat, port, good)
            if terms:
                buys.append({"name": good_name(good), **terms})
        cargo = []
        for ship in ships:
            if not ship["cargo"]:
                continue
            info = cargo_text(ship["cargo"])
            terms = sale_terms(view, seat, port, ship["cargo"]["good"])
            action = acts.first("sell_cargo", ship=ship["id"])
            cargo.append({"ship": ship["name"], "name": info["name"], "status": info["status"],
                          "good_in_sentence": in_a_sentence(info["name"]),
                          "sellable": info["to_go"] == 0, "bought_here": terms is not None,
                          "button": {"label": _("Sell for %(price)s") % {"price": terms["price"] - duty},
                                     "action": action}
                          if action and terms else None})
        fortress = view["fortresses"].get(port)
        # What changes every price alike (the viewer's fortress, a card on the whole port) is said
        # once below the prices, not after each good.
        common = [n for n in buys[0]["notes"] if all(n in b["notes"] for b in buys)] if len(buys) > 1 else []
        for row in buys:
            row["notes"] = [n for n in row["notes"] if n not in common]
        buy_notes = [_("Each price above includes: %(notes)s.") % {"notes": "; ".join(common)}] if common else []
        out.append({
            "id": port, "name": place(port), "sells": sells, "buys": buys, "buy_notes": buy_notes, "cargo": cargo,
            "duty": duty,
            "duty_to": seats.name(duty_to) if duty_to is not None else "",
            "fortress": seats.name(fortress) if fortress is not None else "",
            "own_fortress": fortress == seat, "embargo": trade.embargoed(view, port),
            "ships": ", ".join(s["name"] for s in ships),
            "build": _button(_("Build a fortress here"), acts.first("buy_fortress", port=port),
                             why=_why_no_fortress(view, seat, port, acts)),
            "isthmus": _isthmus(view, seat, acts, port, ships, seats),
        })
    return out


# The engine's refusals of a load, said short in the table of prices; any other in its own words.
SHORT_REFUSALS = {
    "error.embargo": lambda fields: _("embargo this round"),
    "error.no_loads": lambda fields: _("none left in the bank"),
    "error.cargo_cost": lambda fields: _("you have %(cash)s ducats") % {"cash": fields["cash"]},
}
SHIP_REFUSALS = {"error.privateer_no_cargo", "error.has_cargo"}     # said of one ship, not of the good


def _why_not_buy(view, seat, ships, good, acts: Legal) -> str:
    """Why no ship here may buy `good`, as the engine refuses it (trade.cargo_refusal): what stops
    every empty merchant ship here, or that there is none."""
    if not _my_turn(acts):
        return _("on your turn")
    refusals = [trade.cargo_refusal(view, seat, ship, good) for ship in ships]
    if any(r is None for r in refusals):
        return ""
    found = next((r for r in refusals if r[0] not in SHIP_REFUSALS), None)
    if found is None:
        return _("no empty merchant ship here")
    short = SHORT_REFUSALS.get(found[0])
    return short(found[1]) if short else _refused(found)


MARKETS_SHOWN = 5      # ports listed per cargo: the best five; the map marks every one


def markets(view: dict, seat, mine: list) -> dict:
    """Trade at a glance: for each cargo aboard the viewer's ships, the ports that buy it, what a
    load fetches there now (cards, fortresses, duty), how many squares away it lies, and whether
    the ten-square rule (F30) allows the sale on arrival by the shortest way; `marks` places a
    marker on the map at every such port."""
    cargo, marks = [], {}
    if seat is None:
        return {"cargo": cargo, "marks": []}
    lang = language()
    reckoned, port_terms = {}, {}
    for ship in mine:
        load = ship["cargo"]
        if not load or ship["node"] not in WORLD.nodes:
            continue
        steps = WORLD.distances_from(ship["node"])
        good = good_name(load["good"])
        rows = []
        for port in WORLD.ports:
            if port not in steps:
                continue
            # The price alone (the port panel words its parts): one reckoning per port and good,
            # however many ships carry it.
            if (port, load["good"]) not in reckoned:
                reckoned[port, load["good"]] = trade.sale_terms(view, seat, port, load["good"])
            terms = reckoned[port, load["good"]]
            if terms is None:
                continue
            if port not in port_terms:
                port_terms[port] = (DUTY if trade.duty_owner(view, seat, port) is not None else 0,
                                    trade.embargoed(view, port))
            duty, embargo = port_terms[port]
            far = load["carried"] + steps[port] >= MIN_CARRIED
            rows.append({"port": port, "name": _place(port, lang), "good": good,
                         "price": max(0, terms["price"] - duty), "gain": terms["price"] - duty - load["paid"],
                         "steps": steps[port], "ok": far and not embargo, "embargo": embargo, "far": far,
                         "here": steps[port] == 0})
        rows.sort(key=lambda r: (not r["ok"], -r["price"], r["steps"]))
        for row in rows:
            mark = marks.setdefault(row["port"], {"id": row["port"], "ok": False, "goods": []})
            mark["ok"] = mark["ok"] or row["ok"]
            mark["goods"].append(f"{row['good']} {row['price']}")
        info = cargo_text(load)
        for row in rows[:MARKETS_SHOWN]:
            row["words"] = _market_words(row)
        cargo.append({"ship": ship["name"], "ship_id": ship["id"], "good": info["name"], "paid": load["paid"],
                      "status": info["status"], "to_go": info["to_go"], "ports": rows[:MARKETS_SHOWN], "every": rows,
                      "more": max(0, len(rows) - MARKETS_SHOWN)})
    out = []
    for port, mark in sorted(marks.items()):
        x, y = world_map.position(port)
        out.append({"id": port, "ok": mark["ok"], "x": _n(x + 7), "y": _n(y - 6),
                    "title": _("%(port)s buys: %(goods)s") % {"port": place(port), "goods": ", ".join(mark["goods"])}})
    return {"cargo": cargo, "marks": out}


def _market_words(row: dict) -> str:
    """How far a buyer of a cargo lies and whether the ship may sell there on arrival, as the
    list of markets says it (worded here for the few ports listed: a {% blocktranslate %} per
    port and viewer was most of the list's drawing)."""
    if row["here"]:
        away = pgettext("fuldrigger: the ship lies in this port", "here")
    else:
        away = ngettext("%(steps)s square away", "%(steps)s squares away", row["steps"]) % {"steps": row["steps"]}
    sale = (_("embargo this round") if row["embargo"] else _("sale allowed") if row["far"]
            else _("too near: sail on past ten squares"))
    return f"{away} — {sale}"


def _isthmus(view, seat, acts: Legal, port: str, ships: list, seats: Seats) -> dict | None:
    partner = WORLD.isthmus_partner(port)
    if partner is None or not view["options"].get("isthmus"):
        return None
    toll, collectors = trade.toll_terms(view, seat, port)
    buttons = []
    for ship in ships:
        action = acts.first("isthmus_unload", ship=ship["id"])
        if action:
            buttons.append({"label": _("Send the %(ship)s's %(good)s overland to %(port)s") % {
                "ship": ship["name"], "good": in_a_sentence(good_name(ship["cargo"]["good"])),
                "port": place(partner)}, "action": action})
    waiting = []
    for entry in view.get("crossing", []):
        if entry["owner"] == seat and entry["at"] == port:
            loads = [{"label": _("Load on the %(ship)s") % {"ship": s["name"]}, "action": a} for s in ships
                     if (a := acts.first("isthmus_load", ship=s["id"], cargo=entry["id"]))]
            waiting.append({"name": good_name(entry["good"]), "paid": entry["paid"],
                            "status": cargo_text(entry)["status"], "buttons": loads})
    return {"partner": place(partner), "toll": toll,
            "toll_to": ", ".join(seats.name(c) for c in collectors) or _("the bank"),
            "buttons": buttons, "waiting": waiting}


# ---- trade war ----------------------------------------------------------------------------------

def odds_in_percent(attackers: int) -> dict[str, int]:
    """The engine's odds of an attack (F37), rounded to whole percent for the page."""
    return {result: round(chance * 100) for result, chance in war.attack_odds(attackers).items()}


def attacks(view: dict, seat, acts: Legal, ships_by_id: dict, seats: Seats, query=None) -> dict:
    """Each square the viewer's privateers can attack (F36), and for the one chosen
    (?attack=square.seat) who may join, the prize (F38) and the odds (F37)."""
    query = query or {}
    targets, chosen = [], None
    seen = set()
    for action in acts.of("attack"):
        key = (action["target"], action["defender"])
        if key in seen:
            continue
        seen.add(key)
        target, defender = key
        defending, fortress = war.defence(view, target, defender)
        needed = len(defending) + (1 if fortress else 0)
        joining = [ships_by_id[n] for n in action["ships"] if n in ships_by_id]
        what = [_("the %(ship)s") % {"ship": s["name"]} for s in defending] + ([_("the fortress")] if fortress else [])
        entry = {"key": f"{target}.{defender}", "place": place(target), "defender": seats.name(defender),
                 "seat": defender, "colour": seats.colour(defender), "needed": needed,
                 "what": ", ".join(what), "can_join": len(joining)}
        targets.append(entry)
        if query.get("attack") == f"{target}.{defender}":
            prizes = []
            if fortress and defending:
                prizes = [{"value": "fortress", "label": _("the fortress in %(port)s") % {"port": place(target)}}] + [
                    {"value": s["id"], "label": _("the %(ship)s (%(good)s)") % {
                        "ship": s["name"], "good": in_a_sentence(good_name(s["cargo"]["good"]))}
                     if s["cargo"] else _("the %(ship)s") % {"ship": s["name"]}} for s in defending]
            odds = []
            for count in range(max(1, needed), len(joining) + 1):
                odds.append({"ships": count, **odds_in_percent(count)})
            chosen = {**entry, "prizes": prizes, "odds": odds,
                      "joining": [{"id": s["id"], "name": s["name"], "there": s["node"] == target} for s in joining],
                      "action": {"type": "attack", "target": target, "defender": defender}}
    return {"targets": targets, "chosen": chosen}


# ---- offers -------------------------------------------------------------------------------------

def offer_side(part: dict, ships_by_id: dict) -> str:
    bits = []
    if part.get("ducats"):
        bits.append(ngettext("%(count)s ducat", "%(count)s ducats", part["ducats"]) % {"count": part["ducats"]})
    for number in part.get("ships", []):
        ship = ships_by_id.get(number)
        bits.append(_("the %(ship)s") % {"ship": ship["name"]} if ship else _("ship #%(number)s") % {"number": number})
    for port in part.get("fortresses", []):
        bits.append(_("the fortress in %(port)s") % {"port": place(port)})
    return ", ".join(bits) or _("nothing")


def offers(view: dict, seat, acts: Legal, ships_by_id: dict, seats: Seats, query=None) -> dict:
    """The viewer's open offers (the view holds only those he is party to), whether he may make
    one now, and the form for it when asked for (?offer=1)."""
    if seat is None:
        return {"incoming": [], "outgoing": [], "form": None, "can_offer": False}
    incoming, outgoing = [], []
    for offer in view.get("offers", []):
        give, take = offer_side(offer["give"], ships_by_id), offer_side(offer["take"], ships_by_id)
        if offer["to"] == seat:
            buttons = [{"label": label, "action": action} for label, action in (
                (_("Accept"), acts.first("accept_offer", offer=offer["id"])),
                (_("Decline"), acts.first("decline_offer", offer=offer["id"]))) if action]
            incoming.append({"id": offer["id"], "who": seats.name(offer["from"]),
                             "colour": seats.colour(offer["from"]), "give": give, "take": take,
                             "round": offer["round"], "buttons": buttons,
                             "blocked": not acts.first("accept_offer", offer=offer["id"])})
        elif offer["from"] == seat:
            action = acts.first("withdraw_offer", offer=offer["id"])
            outgoing.append({"id": offer["id"], "who": seats.name(offer["to"]), "colour": seats.colour(offer["to"]),
                             "give": give, "take": take, "round": offer["round"],
                             "buttons": [{"label": _("Withdraw"), "action": action}] if action else []})
    form = None
    others = [s for s in range(view["players"]) if s != seat and not view["out"][s]]
    can_offer = bool(others and view["phase"] == "play" and view["turn"]["seat"] == seat
                     and (acts.first("end_turn") or acts.first("roll")))
    if can_offer and (query or {}).get("offer"):
        theirs = sorted((s for s in ships_by_id.values() if s["owner"] in others), key=lambda s: (s["owner"], s["id"]))
        form = {
            "to": [{"seat": s, "name": seats.name(s)} for s in others],
            "my_ships": [{"id": s["id"], "name": s["name"]} for s in ships_by_id.values() if s["owner"] == seat],
            "my_forts": [{"port": p, "name": place(p)} for p, o in sorted(view["fortresses"].items()) if o == seat],
            "their_ships": [{"id": s["id"], "name": f"{s['name']} ({seats.name(s['owner'])})"} for s in theirs],
            "their_forts": [{"port": p, "name": f"{place(p)} ({seats.name(o)})"}
                            for p, o in sorted(view["fortresses"].items()) if o in others],
            "action": {"type": "offer"},
        }
        for key in ("my_ships", "my_forts", "their_ships", "their_forts"):
            form[f"{key}_rows"] = min(len(form[key]), 4)      # a short list shows whole
    return {"incoming": incoming, "outgoing": outgoing, "form": form, "can_offer": can_offer}


# ---- players, fortunes, the end -------------------------------------------------------------

def players(view: dict, seats: Seats, over: bool = False) -> list[dict]:
    out = []
    fortunes = view.get("fortunes") or [0] * view["players"]
    for seat in range(view["players"]):
        ships = sorted((s for s in view["ships"].values() if s["owner"] == seat), key=lambda s: s["id"])
        out.append({
            "seat": seat, "name": seats.name(seat), "colour": seats.colour(seat), "cash": view["cash"][seat],
            "fortune": fortunes[seat], "out": view["out"][seat], "skip": view["skip"][seat],
            "home": place(view["homes"][seat]) if view["homes"][seat] else "", "to_play": not over and view["turn"]["seat"] == seat and view["phase"] == "play",
            "ships": [{"name": s["name"], "place": place(s["node"]), "where": where_she_lies(s),
                       "privateer": s["privateer"],
                       "cargo": cargo_text(s["cargo"])} for s in ships],
            "fortresses": [place(p) for p, o in sorted(view["fortresses"].items()) if o == seat],
            "reefs": ", ".join(view["known_reefs"][seat]), "reef_count": len(view["known_reefs"][seat]),
            "crossing": [_("%(good)s at %(port)s") % {"good": good_name(c["good"]), "port": place(c["at"])}
                         for c in view.get("crossing", [])
                         if c["owner"] == seat],
        })
    return out


def fortune_chart(view: dict, seats: Seats) -> dict | None:
    """Every player's fortune at the end of each round so far, and now: one polyline each."""
    rows = [list(r) for r in view.get("history", [])]
    if view["phase"] != "over":
        rows.append(list(view.get("fortunes") or []))
    rows = [r for r in rows if len(r) == view["players"]]
    if len(rows) < 2:
        return None
    top = max(max(r) for r in rows) or 1
    step = CHART_W / (len(rows) - 1)
    lines = []
    for seat in range(view["players"]):
        points = " ".join(f"{round(i * step)},{round(CHART_H - r[seat] / top * CHART_H)}"
                          for i, r in enumerate(rows))
        lines.append({"seat": seat, "name": seats.name(seat), "colour": seats.colour(seat), "points": points,
                      "last": rows[-1][seat]})
    return {"lines": lines, "top": top, "rounds": len(view.get("history", [])), "w": CHART_W, "h": CHART_H}


def final(match, seats: Seats) -> list[dict]:
    """The final ranking with each fortune broken down (F2)."""
    if not getattr(match, "is_over", False) or not match.standings:
        return []
    rows = []
    for row in match.standings:
        detail = row.get("detail") or {}
        rows.append({"rank": row["rank"], "name": seats.name(row["seat"]), "colour": seats.colour(row["seat"]),
                     "cash": detail.get("cash", 0), "ships": detail.get("ships", 0),
                     "ships_value": detail.get("ships", 0) * SHIP_PRICE, "fortresses": detail.get("fortresses", 0),
                     "fortresses_value": detail.get("fortresses", 0) * FORTRESS_PRICE,
                     "cargo": detail.get("cargo", 0), "score": row["score"]})
    return rows
