"""Building: what each piece costs and where it may stand (B-build), within the pieces a player
has (B-pieces): roads joined to the network, settlements by the distance rule, cities on own
settlements, ships at an own settlement bordering water (C5-C6); a new road or a settlement
that cuts one recomputes the longest road (B-longest-road)."""
from __future__ import annotations

from games.engines.catan_ships.scoring import update_longest
from games.engines.catan_ships.ships import ship_spots
from games.engines.catan_ships.state import (
    CITIES, ROADS, SETTLEMENTS, SHIPS, Work, can_afford, checked_int, free_for_settlement, refuse,
)

COST = {
    "road": {"brick": 1, "lumber": 1},
    "settlement": {"brick": 1, "lumber": 1, "wool": 1, "grain": 1},
    "city": {"grain": 2, "ore": 3},
    "development": {"ore": 1, "wool": 1, "grain": 1},
    "ship": {"wool": 1, "lumber": 1, "grain": 1},
}


def road_spots(state, geo, seat: int) -> list[int]:
    """Empty road edges joined to the seat's network (not through an opponent's building)."""
    roads, owner = state["roads"], state["owner"]
    spots = set()
    for e, o in enumerate(roads):
        if o != seat:
            continue
        for v in geo.edge_vertices[e]:
            if owner[v] >= 0 and owner[v] != seat:
                continue
            for f in geo.vertex_edges[v]:
                if roads[f] < 0 and geo.road_edge[f]:
                    spots.add(f)
    for v, o in enumerate(owner):
        if o == seat:
            for f in geo.vertex_edges[v]:
                if roads[f] < 0 and geo.road_edge[f]:
                    spots.add(f)
    return sorted(spots)


def road_ok(state, geo, seat: int, e: int) -> bool:
    roads, owner = state["roads"], state["owner"]
    if not (0 <= e < geo.edge_count) or roads[e] >= 0 or not geo.road_edge[e]:
        return False
    for v in geo.edge_vertices[e]:
        if owner[v] == seat:
            return True
        if owner[v] >= 0:
            continue
        for f in geo.vertex_edges[v]:
            if f != e and roads[f] == seat:
                return True
    return False


def _settlement_spots(state, geo, seat: int) -> list[int]:
    roads = state["roads"]
    spots = set()
    for e, o in enumerate(roads):
        if o == seat:
            for v in geo.edge_vertices[e]:
                if free_for_settlement(state, geo, v):
                    spots.add(v)
    return sorted(spots)


def build_actions(state, geo, seat) -> list[dict]:
    hand = state["hands"][seat]
    brick, lumber, wool, grain, ore = hand["brick"], hand["lumber"], hand["wool"], hand["grain"], hand["ore"]
    built = state["pieces"][seat]
    out = []
    if brick and lumber:
        if built[0] < ROADS:
            out += [{"type": "build_road", "edge": e} for e in road_spots(state, geo, seat)]
        if wool and grain and built[1] < SETTLEMENTS:
            out += [{"type": "build_settlement", "vertex": v} for v in _settlement_spots(state, geo, seat)]
    if grain >= 2 and ore >= 3 and built[2] < CITIES:
        city = state["city"]
        out += [{"type": "build_city", "vertex": v} for v, o in enumerate(state["owner"])
                if o == seat and not city[v]]
    if wool and grain:
        if lumber and state["ships_variant"]:
            out += [{"type": "build_ship", "edge": e} for e in ship_spots(state, geo, seat)]
        if ore and state["deck"]:
            out.append({"type": "buy_development"})
    return out


# --- building --------------------------------------------------------------------------------

# B-pieces: a piece's place in a seat's count of built pieces, how many it has, the refusal.
STOCK = {"road": (0, ROADS, "error.no_roads_left"), "settlement": (1, SETTLEMENTS, "error.no_settlements_left"),
         "city": (2, CITIES, "error.no_cities_left")}


def _check_stock(s: dict, seat, piece: str) -> None:
    """B-build, B-pieces: a piece left to build, then its cost in hand (refused in that order)."""
    index, most, refusal = STOCK[piece]
    if s["pieces"][seat][index] >= most:
        raise refuse(refusal)
    if not can_afford(s["hands"][seat], COST[piece]):
        raise refuse("error.cannot_afford")


def do_build_road(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    e = checked_int(action, "edge", geo.edge_count)
    _check_stock(s, seat, "road")
    if not road_ok(s, geo, seat, e):
        raise refuse("error.road_spot")
    w.pay(seat, COST["road"])
    put_road(w, seat, e, events)


def put_road(w: Work, seat, e, events) -> None:
    w.list("roads")[e] = seat
    w.pieces(seat)[0] += 1
    events.append({"type": "built_road", "seat": seat, "edge": e})
    events += update_longest(w, [seat])


def do_build_settlement(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    v = checked_int(action, "vertex", geo.vertex_count)
    _check_stock(s, seat, "settlement")
    if not free_for_settlement(s, geo, v) or not any(s["roads"][e] == seat for e in geo.vertex_edges[v]):
        raise refuse("error.settlement_spot")
    w.pay(seat, COST["settlement"])
    w.list("owner")[v] = seat
    w.pieces(seat)[1] += 1
    events.append({"type": "built_settlement", "seat": seat, "vertex": v})
    # A settlement may cut an opponent's road: recompute everyone whose road runs through it.
    cut = {s["roads"][e] for e in geo.vertex_edges[v] if s["roads"][e] >= 0 and s["roads"][e] != seat}
    if cut:
        events += update_longest(w, sorted(cut))


def do_build_city(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    v = checked_int(action, "vertex", geo.vertex_count)
    _check_stock(s, seat, "city")
    if s["owner"][v] != seat or s["city"][v]:
        raise refuse("error.city_spot")
    w.pay(seat, COST["city"])
    w.list("city")[v] = 1
    built = w.pieces(seat)
    built[1] -= 1
    built[2] += 1
    events.append({"type": "built_city", "seat": seat, "vertex": v})


def do_build_ship(w: Work, seat, action, events) -> None:
    """C5-C6: wool, lumber and grain; at an own settlement or city bordering water."""
    s, geo = w.s, w.geo
    if not s["ships_variant"]:
        raise refuse("error.no_ships")
    e = checked_int(action, "edge", geo.edge_count)
    if not can_afford(s["hands"][seat], COST["ship"]):
        raise refuse("error.cannot_afford")
    if sum(1 for x in s["ships"] if x["seat"] == seat) >= SHIPS:
        raise refuse("error.no_ships_left")
    if e not in ship_spots(s, geo, seat):
        raise refuse("error.ship_spot")
    used = {x["number"] for x in s["ships"] if x["seat"] == seat}
    number = min(n for n in (1, 2, 3) if n not in used)
    w.pay(seat, COST["ship"])
    w.list("ships").append({"seat": seat, "number": number, "edge": e, "cargo": {}})
    w.log(seat, number, "built")
    events.append({"type": "built_ship", "seat": seat, "number": number, "edge": e})
