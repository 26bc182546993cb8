"""The setup phase's placement (B-setup): in snake order (state.py deals it) each seat places a
settlement by the distance rule and a road at it, twice; the second settlement takes a card for
each of its hexes that yields one, as far as the bank has them. Then the first turn begins."""
from __future__ import annotations

from games.engines.catan_ships.scoring import road_length
from games.engines.catan_ships.state import Work, checked_int, free_for_settlement, refuse


def setup_actions(state, geo) -> list[dict]:
    v0 = state["setup_vertex"]
    if v0 is None:
        return [{"type": "place_settlement", "vertex": v} for v in range(geo.vertex_count)
                if free_for_settlement(state, geo, v)]
    return [{"type": "place_road", "edge": e} for e in geo.vertex_edges[v0]
            if state["roads"][e] < 0 and geo.road_edge[e]]


def do_place_settlement(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    if s["setup_vertex"] is not None:
        raise refuse("error.place_road_first")
    v = checked_int(action, "vertex", geo.vertex_count)
    if not free_for_settlement(s, geo, v):
        raise refuse("error.settlement_spot")
    w.list("owner")[v] = seat
    w.pieces(seat)[1] += 1
    s["setup_vertex"] = v
    events.append({"type": "placed_settlement", "seat": seat, "vertex": v})
    if s["setup_step"] >= s["players"]:
        goods = {}
        for h in geo.vertex_land_hexes[v]:
            r = geo.resource[h]
            if r and s["bank"][r] - goods.get(r, 0) > 0:
                goods[r] = goods.get(r, 0) + 1
        if goods:
            w.take(seat, goods)
            events.append({"type": "start_goods", "seat": seat, "goods": goods})


def do_place_road(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    v0 = s["setup_vertex"]
    if v0 is None:
        raise refuse("error.place_settlement_first")
    e = checked_int(action, "edge", geo.edge_count)
    if e not in geo.vertex_edges[v0] or s["roads"][e] >= 0 or not geo.road_edge[e]:
        raise refuse("error.road_spot")
    w.list("roads")[e] = seat
    w.pieces(seat)[0] += 1
    w.list("road_length")[seat] = 1 if s["road_length"][seat] == 0 else road_length(s, seat, geo)
    s["setup_vertex"] = None
    s["setup_step"] += 1
    events.append({"type": "placed_road", "seat": seat, "edge": e})
    if s["setup_step"] >= len(s["setup_order"]):
        s["phase"] = "roll"
        s["current"] = 0
        s["turn"] = 1
        events.append({"type": "turn", "seat": 0, "round": s["round"]})
    else:
        s["current"] = s["setup_order"][s["setup_step"]]
