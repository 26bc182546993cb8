"""Ships (the variant's C5-C19): where a new ship may lie (C5-C6), its hold (C7-C9), the
sailing phase on the wind (C10-C11), gathering and a full ship's choice (C12), harbour trade
from the hold (C13), settling (C14), room on an edge (C15), collisions (C16) and the damage a
pirate does (C18), each written in the logbook (C19)."""
from __future__ import annotations

from games.engines import dice
from games.engines.base import edition_of
from games.engines.catan_ships.board import RESOURCES
from games.engines.catan_ships.scoring import update_longest
from games.engines.catan_ships.state import (
    SETTLEMENTS, SHIPS, Work, at_own_shore, can_afford, checked_goods, checked_resource,
    free_for_settlement, refuse,
)

SETTLEMENT_GOODS = ("brick", "lumber", "wool", "grain")
MAX_CARGO = 3


def sailing_view(state: dict):
    sailing = state.get("sailing")
    if not sailing:
        return None
    return {"queue": list(sailing["queue"]), "number": sailing["number"],
            "pending": {k: dict(v) for k, v in sailing["pending"].items()}}


# --- what a ship may do ----------------------------------------------------------------------

def ship_capacity_ok(state, geo, e: int, moving=None) -> bool:
    """C15: at most 2 ships share an open-sea edge, at most 1 a shore edge."""
    here = sum(1 for i, s in enumerate(state["ships"]) if s["edge"] == e and i != moving)
    return here < (2 if geo.edge_kind[e] == "sea" else 1)


def ship_spots(state, geo, seat) -> list[int]:
    """C5-C6: an edge at an own settlement or city that touches water, holding no opponent's road."""
    if sum(1 for s in state["ships"] if s["seat"] == seat) >= SHIPS:
        return []
    spots = set()
    for v, o in enumerate(state["owner"]):
        if o != seat:
            continue
        for e in geo.vertex_edges[v]:
            if geo.ship_edge[e] and state["roads"][e] in (-1, seat) and ship_capacity_ok(state, geo, e):
                spots.add(e)
    return sorted(spots)


def ship_index(state, seat, number) -> int:
    if type(number) is not int:
        raise refuse("error.no_such_ship", number=number)
    for i, s in enumerate(state["ships"]):
        if s["seat"] == seat and s["number"] == number:
            return i
    raise refuse("error.no_such_ship", number=number)


def ship_main_actions(state, geo, seat) -> list[dict]:
    out = []
    hand = state["hands"][seat]
    for ship in state["ships"]:
        if ship["seat"] != seat:
            continue
        n, cargo = ship["number"], ship["cargo"]
        load = sum(cargo.values())
        if at_own_shore(state, geo, ship["edge"], seat, roads=False):
            if load:
                out.append({"type": "unload", "ship": n})
            if load < MAX_CARGO:
                out += [{"type": "load", "ship": n, "cargo": {r: 1}} for r in RESOURCES if hand[r]]
        kind = geo.edge_harbour.get(ship["edge"])
        if kind:
            for r in RESOURCES:
                need = 2 if kind == r else 3 if kind == "3:1" else None
                if need and cargo.get(r, 0) >= need:
                    out += [{"type": "ship_trade", "ship": n, "give": r, "get": g} for g in RESOURCES
                            if g != r and state["bank"][g]]
    return out


def can_gather(state, geo, ship: dict, h: int) -> bool:
    """C12 (a)-(b): no foreign building at the ship's edge, no foreign road on it, and at most one
    building (any owner's, cities too) on the hex."""
    seat, e = ship["seat"], ship["edge"]
    owner = state["owner"]
    if state["roads"][e] not in (-1, seat):
        return False
    for v in geo.edge_vertices[e]:
        if owner[v] >= 0 and owner[v] != seat:
            return False
    return sum(1 for v in geo.hex_vertices[h] if owner[v] >= 0) <= 1


def settle_vertices(state, geo, ship: dict, h: int) -> list[int]:
    """C14: the corners of the ship's edge where its settlement may stand."""
    fourth = geo.resource[h]
    if fourth not in SETTLEMENT_GOODS or state["pieces"][ship["seat"]][1] >= SETTLEMENTS:
        return []
    cargo = ship["cargo"]
    if any(cargo.get(r, 0) < 1 for r in SETTLEMENT_GOODS if r != fourth):
        return []
    return [v for v in geo.edge_vertices[ship["edge"]] if free_for_settlement(state, geo, v)]


def sail_actions(state, geo, seat) -> list[dict]:
    pending = state["sailing"]["pending"]
    out = []
    for ship in state["ships"]:
        if ship["seat"] != seat:
            continue
        p = pending.get(f"{seat}-{ship['number']}")
        n = ship["number"]
        if p:
            if p.get("overboard"):
                # Edition 2: nothing to throw cargo for once the bank has none of it.
                if edition_of(state) < 2 or state["bank"][p["overboard"]] > 0:
                    out += [{"type": "overboard", "ship": n, "resource": r} for r in RESOURCES if ship["cargo"].get(r)]
                out.append({"type": "overboard", "ship": n, "resource": None})
            if p.get("settle"):
                land = geo.edge_land_hexes[ship["edge"]][0]
                still = settle_vertices(state, geo, ship, land)
                out += [{"type": "settle", "ship": n, "vertex": v} for v in p["settle"] if v in still]
                out.append({"type": "settle", "ship": n, "vertex": None})
            if p.get("moves"):
                index = state["ships"].index(ship)
                out += [{"type": "sail", "ship": n, "edge": e} for e in p["moves"]
                        if ship_capacity_ok(state, geo, e, moving=index)]
                out.append({"type": "sail", "ship": n, "edge": None})
        if ship["cargo"] and at_own_shore(state, geo, ship["edge"], seat, roads=False):
            out.append({"type": "unload", "ship": n})
    out.append({"type": "end_sailing"})
    return out


# --- the sailing phase -----------------------------------------------------------------------

def start_sailing(w: Work, total: int, overboard: dict, settle: dict, events: list) -> None:
    """C10-C11: after production, ships move in player order from the active player; a full
    ship's C12 choice and a C14 conversion are offered in the same phase."""
    s, geo = w.s, w.geo
    if not s["ships_variant"] or not s["ships"]:
        s["phase"] = "main"
        return
    pending = {}
    for ship in s["ships"]:
        key = f"{ship['seat']}-{ship['number']}"
        moves = []
        for water, pair in geo.wind[ship["edge"]]:
            if geo.number[water] == total:
                moves += [e for e in pair if e not in moves]
        entry = {}
        if moves:
            entry["moves"] = moves
        if key in overboard:
            entry["overboard"] = overboard[key]
        if key in settle:
            entry["settle"] = settle[key]
        if entry:
            pending[key] = entry
    n = s["players"]
    owners = {int(k.split("-")[0]) for k in pending}
    queue = [(s["current"] + i) % n for i in range(n) if (s["current"] + i) % n in owners]
    if not queue:
        s["phase"] = "main"
        return
    s["phase"] = "sail"
    s["sailing"] = {"queue": queue, "number": total, "pending": pending,
                    "start": {f"{x['seat']}-{x['number']}": x["edge"] for x in s["ships"]}}
    events.append({"type": "sailing", "seat": s["current"], "number": total})


def _sail_entry(w: Work, seat, action, choice: str, refusal: str) -> tuple[int, str, dict]:
    """The ship the action names, its key among the choices pending after the wind, and those
    choices, which must include `choice` (else refused with `refusal`)."""
    number = action.get("ship")
    index = ship_index(w.s, seat, number)
    key = f"{seat}-{number}"
    entry = w.s["sailing"]["pending"].get(key, {})
    if choice not in entry:
        raise refuse(refusal)
    return index, key, entry


def _set_pending(w: Work, key: str, entry: dict) -> None:
    sailing = dict(w.s["sailing"])
    pending = dict(sailing["pending"])
    if entry:
        pending[key] = entry
    else:
        pending.pop(key, None)
    sailing["pending"] = pending
    w.s["sailing"] = sailing


def do_sail(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    index, key, entry = _sail_entry(w, seat, action, "moves", "error.no_wind")
    e = action.get("edge")
    if e is not None:
        if e not in entry["moves"]:
            raise refuse("error.sail_where")
        if not ship_capacity_ok(s, geo, e, moving=index):
            raise refuse("error.edge_full")
        ship = w.ship(index)
        events.append({"type": "sailed", "seat": seat, "number": ship["number"], "edge": e, "from_edge": ship["edge"]})
        ship["edge"] = e
    # Sailing ends the ship's choices for this phase (C12 and C14 are decided before it moves).
    _set_pending(w, key, {})
    _after_sail_action(w, seat, events)


def do_overboard(w: Work, seat, action, events) -> None:
    s = w.s
    index, key, entry = _sail_entry(w, seat, action, "overboard", "error.nothing_to_gather")
    r = action.get("resource")
    new = entry["overboard"]
    if r is not None:
        checked_resource(r)
        if edition_of(s) >= 2 and s["bank"][new] < 1:
            raise refuse("error.bank_short")
        ship = w.ship(index)
        if not ship["cargo"].get(r):
            raise refuse("error.not_in_hold", resource=r)
        bank = w.dict("bank")
        ship["cargo"][r] -= 1
        if not ship["cargo"][r]:
            del ship["cargo"][r]
        bank[r] += 1
        w.log(seat, ship["number"], "lost_cargo", {r: 1})
        if bank[new] > 0:
            bank[new] -= 1
            ship["cargo"][new] = ship["cargo"].get(new, 0) + 1
            w.log(seat, ship["number"], "gathered", {new: 1})
        events.append({"type": "overboard", "seat": seat, "number": ship["number"], "resource": r, "took": new})
    rest = {k: v for k, v in entry.items() if k != "overboard"}
    _set_pending(w, key, rest)
    _after_sail_action(w, seat, events)


def do_settle(w: Work, seat, action, events) -> None:
    """C14: the ship becomes a settlement on a free corner of its edge and leaves the game."""
    s, geo = w.s, w.geo
    index, key, entry = _sail_entry(w, seat, action, "settle", "error.cannot_settle")
    v = action.get("vertex")
    if v is not None:
        if v not in entry["settle"] or not free_for_settlement(s, geo, v) or \
                s["pieces"][seat][1] >= SETTLEMENTS:
            raise refuse("error.settlement_spot")
        land = geo.edge_land_hexes[s["ships"][index]["edge"]][0]
        if not settle_vertices(s, geo, s["ships"][index], land):
            raise refuse("error.cannot_settle")     # the hold changed since the roll
        ship = w.ship(index)
        fourth = geo.resource[land]
        cargo = ship["cargo"]
        # a ship holding the three is full (C7), so the fourth was never gathered into it
        used = {r: 1 for r in SETTLEMENT_GOODS if r != fourth}
        bank = w.dict("bank")
        for r, n in used.items():
            cargo[r] -= n
            bank[r] += n
        rest = {r: n for r, n in cargo.items() if n}
        if rest:  # reading: what else the hold carried goes ashore into the hand
            hand = w.hand(seat)
            for r, n in rest.items():
                hand[r] += n
        w.log(seat, ship["number"], "settled", used)
        w.list("ships").pop(index)
        w.list("owner")[v] = seat
        w.pieces(seat)[1] += 1
        events.append({"type": "settled", "seat": seat, "number": ship["number"], "vertex": v})
        events += update_longest(w, [p for p in range(s["players"]) if p != seat])
        _set_pending(w, key, {})
    else:
        _set_pending(w, key, {k: x for k, x in entry.items() if k != "settle"})
    _after_sail_action(w, seat, events)


def do_end_sailing(w: Work, seat, action, events) -> None:
    sailing = w.s["sailing"]
    keep = {k: v for k, v in sailing["pending"].items() if not k.startswith(f"{seat}-")}
    w.s["sailing"] = dict(sailing, pending=keep)
    _after_sail_action(w, seat, events)


def _after_sail_action(w: Work, seat, events) -> None:
    """Next seat with ships to move; after the last, collisions (C16) and the main phase."""
    s = w.s
    sailing = s["sailing"]
    queue = list(sailing["queue"])
    pending = sailing["pending"]
    while queue and not any(k.startswith(f"{queue[0]}-") for k in pending):
        queue.pop(0)
    if queue:
        s["sailing"] = dict(sailing, queue=queue)
        return
    start = sailing["start"]
    s["sailing"] = None
    s["phase"] = "main"
    _collisions(w, start, events)


COLLISION = {2: "sunk", 3: "all", 4: 2, 5: 1}


def _collisions(w: Work, start: dict, events: list) -> None:
    """C16: two ships side by side on one edge after the phase (not both there before) roll two
    dice each: 2 sinks, 3 loses all cargo, 4 two, 5 one, 6-12 nothing."""
    s, geo = w.s, w.geo
    by_edge: dict = {}
    for ship in s["ships"]:
        by_edge.setdefault(ship["edge"], []).append(f"{ship['seat']}-{ship['number']}")
    for e in sorted(by_edge):
        keys = by_edge[e]
        if len(keys) < 2 or all(start.get(k) == e for k in keys):
            continue
        for key in keys:
            seat, number = (int(x) for x in key.split("-"))
            index = ship_index(s, seat, number)
            faces = dice.roll(s, 2)
            outcome = COLLISION.get(sum(faces))
            event = {"type": "collision", "seat": seat, "number": number, "dice": faces, "edge": e}
            events.append(event)
            damage_ship(w, index, outcome, event, commission_to=None)


def damage_ship(w: Work, index: int, outcome, event: dict, commission_to) -> None:
    """Apply a C16/C18 outcome to one ship: "sunk", "all" cargo lost, or n cargo lost at random.
    With a commission (C18), the pirate's mover draws one lost resource if there was more than one."""
    s = w.s
    ship = w.ship(index)
    cargo = ship["cargo"]
    held = sum(cargo.values())
    if outcome is None:
        event["outcome"] = "nothing"
        return
    count = held if outcome in ("sunk", "all") else min(outcome, held)
    lost = {}
    for _ in range(count):
        pile = [r for r in RESOURCES for _ in range(cargo.get(r, 0))]
        r = pile[dice.draw(s, len(pile))]
        cargo[r] -= 1
        if not cargo[r]:
            del cargo[r]
        lost[r] = lost.get(r, 0) + 1
    bank = w.dict("bank")
    if commission_to is not None and held > 1 and lost:
        pile = [r for r in RESOURCES for _ in range(lost.get(r, 0))]
        r = pile[dice.draw(s, len(pile))]
        lost[r] -= 1
        w.hand(commission_to)[r] += 1
        event["commission"] = r
    for r, n in lost.items():
        bank[r] += n
    lost = {r: n for r, n in lost.items() if n}
    event["lost"] = lost
    if outcome == "sunk":
        event["outcome"] = "sunk"
        w.log(ship["seat"], ship["number"], "sunk", lost)
        w.list("ships").pop(index)
    else:
        event["outcome"] = "lost_cargo" if count else "nothing"
        if count:
            w.log(ship["seat"], ship["number"], "lost_cargo", lost)


# --- the hold in the main phase --------------------------------------------------------------

def _own_ship_at_home(w: Work, seat, action) -> tuple[int, dict]:
    index = ship_index(w.s, seat, action.get("ship"))
    ship = w.s["ships"][index]
    if not at_own_shore(w.s, w.geo, ship["edge"], seat, roads=False):
        raise refuse("error.not_docked")
    return index, ship


def do_load(w: Work, seat, action, events) -> None:
    """C7 (reading): from the hand into the hold, while docked at an own settlement or city."""
    s = w.s
    if seat != s["current"]:
        raise refuse("error.not_your_turn")
    index, ship = _own_ship_at_home(w, seat, action)
    cargo = checked_goods(action.get("cargo"))
    if sum(ship["cargo"].values()) + sum(cargo.values()) > MAX_CARGO:
        raise refuse("error.hold_full")
    if not can_afford(s["hands"][seat], cargo):
        raise refuse("error.not_enough")
    hand = w.hand(seat)
    ship = w.ship(index)
    for r, n in cargo.items():
        hand[r] -= n
        ship["cargo"][r] = ship["cargo"].get(r, 0) + n
    w.log(seat, ship["number"], "loaded", cargo)
    events.append({"type": "loaded", "seat": seat, "number": ship["number"], "cargo": cargo})


def do_unload(w: Work, seat, action, events) -> None:
    """C8: the hold into the hand at an own settlement or city; no discard follows."""
    s = w.s
    if s["phase"] == "main" and seat != s["current"] and edition_of(s) < 2:
        raise refuse("error.not_your_turn")
    index, ship = _own_ship_at_home(w, seat, action)
    if not ship["cargo"]:
        raise refuse("error.hold_empty")
    cargo = dict(ship["cargo"])
    hand = w.hand(seat)
    for r, n in cargo.items():
        hand[r] += n
    w.ship(index)["cargo"] = {}
    w.log(seat, ship["number"], "unloaded", cargo)
    events.append({"type": "unloaded", "seat": seat, "number": ship["number"], "cargo": cargo})


def do_ship_trade(w: Work, seat, action, events) -> None:
    """C13: at a harbour, 3:1 or 2:1 from the hold; the goods received go into the hold."""
    s = w.s
    if seat != s["current"]:
        raise refuse("error.not_your_turn")
    index = ship_index(s, seat, action.get("ship"))
    ship = s["ships"][index]
    kind = w.geo.edge_harbour.get(ship["edge"])
    if not kind:
        raise refuse("error.no_harbour")
    give, get = checked_resource(action.get("give")), checked_resource(action.get("get"))
    if give == get:
        raise refuse("error.same_resource")
    need = 2 if kind == give else 3 if kind == "3:1" else None
    if need is None:
        raise refuse("error.harbour_kind")
    if ship["cargo"].get(give, 0) < need:
        raise refuse("error.trade_rate", rate=need)
    if s["bank"][get] < 1:
        raise refuse("error.bank_short")
    ship = w.ship(index)
    bank = w.dict("bank")
    ship["cargo"][give] -= need
    if not ship["cargo"][give]:
        del ship["cargo"][give]
    bank[give] += need
    bank[get] -= 1
    ship["cargo"][get] = ship["cargo"].get(get, 0) + 1
    w.log(seat, ship["number"], "traded", {give: -need, get: 1})
    events.append({"type": "ship_trade", "seat": seat, "number": ship["number"], "give": {give: need}, "get": {get: 1}})
