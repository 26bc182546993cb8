"""Two players for playouts, tests and empty seats.

`random_action` picks any legal action, but builds when it can (random Catan players who never
build would play for ever). `best_action` is a greedy builder: it settles on the richest corners
(by the chance of their numbers), builds cities first, then settlements, ships docked at home
(C20's points), development cards, roads towards free corners; it trades with the bank for
what its next building lacks, robs the leader, and never trades with players.
"""
from __future__ import annotations

import random

from games.engines.catan_ships.board import RESOURCES, geometry, pips
from games.engines.catan_ships.building import COST
from games.engines.catan_ships.rules import legal_actions
from games.engines.catan_ships.scoring import public_points
from games.engines.catan_ships.state import free_for_settlement
from games.engines.catan_ships.trade import rates

BUILD = ("build_city", "build_settlement", "build_ship", "build_road", "buy_development")


def random_action(state: dict, seat: int, rnd: random.Random) -> dict:
    actions = legal_actions(state, seat)
    builds = [a for a in actions if a["type"] in BUILD]
    if builds and rnd.random() < 0.8:
        return rnd.choice(builds)
    return rnd.choice(actions)


def _vertex_value(state, geo, v: int, seat: int) -> float:
    value = 0.0
    seen = set()
    for h in geo.vertex_land_hexes[v]:
        if h == state["robber"] or not geo.resource[h]:
            continue
        value += pips(geo.number[h])
        seen.add(geo.resource[h])
    value += 0.5 * len(seen)
    if geo.vertex_harbour[v]:
        value += 0.5
    return value


def _hand_after(hand: dict, cost: dict) -> dict:
    return {r: hand[r] - cost.get(r, 0) for r in RESOURCES}


def _trade_for(state, geo, seat, target: dict):
    """A bank trade that brings the hand closer to `target`, giving only what it doesn't need."""
    hand = state["hands"][seat]
    need = [r for r in RESOURCES if hand[r] < target.get(r, 0)]
    if not need:
        return None
    my_rates = rates(state, seat, geo)
    for r in sorted(RESOURCES, key=lambda x: -(hand[x] - target.get(x, 0))):
        spare = hand[r] - target.get(r, 0)
        if spare >= my_rates[r]:
            for g in need:
                if state["bank"][g] > 0:
                    return {"type": "bank_trade", "give": r, "get": g}
    return None


def best_action(state: dict, seat: int, rnd: random.Random | None = None) -> dict:
    rnd = rnd or random.Random(0)
    actions = legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    geo = geometry(state["board"])
    phase = state["phase"]
    by_type: dict = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)

    if phase == "setup":
        if "place_settlement" in by_type:
            return max(by_type["place_settlement"], key=lambda a: (_vertex_value(state, geo, a["vertex"], seat), -a["vertex"]))
        return max(by_type["place_road"], key=lambda a: (_road_value(state, geo, seat, a["edge"]), -a["edge"]))
    if phase == "roll":
        knights = by_type.get("play_knight")
        if knights and _robber_hurts(state, geo, seat):
            return _best_robber(state, geo, seat, knights)
        return {"type": "roll"}
    if phase == "discard":
        return _best_discard(state, seat, by_type["discard"])
    if phase in ("robber",):
        return _best_robber(state, geo, seat, by_type["move_robber"])
    if phase == "pirate":
        for a in by_type["move_pirate"]:
            if a["edge"] is not None and any(s["edge"] == a["edge"] and s["seat"] != seat for s in state["ships"]):
                return a
        return {"type": "move_pirate", "edge": None}
    if phase == "sail":
        if "settle" in by_type:
            for a in by_type["settle"]:
                if a["vertex"] is not None:
                    return a
        if "overboard" in by_type:
            return by_type["overboard"][0]
        if "unload" in by_type:
            return by_type["unload"][0]
        return {"type": "end_sailing"}
    if phase == "special_build":
        choice = _best_build(state, geo, seat, by_type)
        return choice or {"type": "pass"}
    # main phase
    if seat != state["current"]:
        for a in actions:
            if a["type"] == "answer" and not a["accept"]:
                return a
        for a in actions:
            if a["type"] == "withdraw":
                return a
        return actions[0]
    for a in by_type.get("withdraw", []):
        return a
    if "unload" in by_type:
        return by_type["unload"][0]
    choice = _best_build(state, geo, seat, by_type)
    if choice:
        return choice
    card = _best_card(state, geo, seat, by_type)
    if card:
        return card
    trade = _trade_for(state, geo, seat, _target(state, geo, seat))
    if trade and trade in actions:
        return trade
    return {"type": "end_turn"}


def _target(state, geo, seat) -> dict:
    """What the bot saves for: a city if it has a settlement, else a settlement if it has a
    corner for one, else a road, else a development card."""
    built = state["pieces"][seat]
    owner = state["owner"]
    has_settlement = built[1] > 0 and built[2] < 4
    spots = [v for e, o in enumerate(state["roads"]) if o == seat for v in geo.edge_vertices[e]
             if free_for_settlement(state, geo, v)]
    if spots and built[1] < 5:
        return COST["settlement"]
    if has_settlement and any(o == seat for o in owner):
        return COST["city"]
    if built[0] < 15:
        return COST["road"]
    return COST["development"]


def _best_build(state, geo, seat, by_type):
    if "build_city" in by_type:
        return max(by_type["build_city"], key=lambda a: (_vertex_value(state, geo, a["vertex"], seat), -a["vertex"]))
    if "build_settlement" in by_type:
        return max(by_type["build_settlement"], key=lambda a: (_vertex_value(state, geo, a["vertex"], seat), -a["vertex"]))
    target = _target(state, geo, seat)
    hand = state["hands"][seat]
    if "build_ship" in by_type:
        docked = [a for a in by_type["build_ship"] if geo.edge_kind[a["edge"]] == "coast"]
        if docked and (target is not COST["settlement"] or all(v >= 0 for v in _hand_after(hand, COST["ship"]).values())):
            return docked[0]
    if "build_road" in by_type and target in (COST["settlement"], COST["road"]):
        best = max(by_type["build_road"], key=lambda a: (_road_value(state, geo, seat, a["edge"]), -a["edge"]))
        if target is COST["road"] or _road_value(state, geo, seat, best["edge"]) > 0:
            if target is COST["road"] or all(v >= 0 for v in _hand_after(hand, COST["road"]).values()):
                return best
    if "buy_development" in by_type and target is not COST["settlement"]:
        after = _hand_after(hand, COST["development"])
        if target is COST["development"] or after["ore"] >= 3 or state["pieces"][seat][2] >= 4:
            return by_type["buy_development"][0]
    return None


def _road_value(state, geo, seat, e) -> float:
    """How good the corners a road opens are: the better free corner at its ends or one further."""
    best = 0.0
    for v in geo.edge_vertices[e]:
        if state["owner"][v] >= 0 and state["owner"][v] != seat:
            continue
        if free_for_settlement(state, geo, v):
            best = max(best, _vertex_value(state, geo, v, seat))
        for u in geo.vertex_adjacent[v]:
            if free_for_settlement(state, geo, u):
                best = max(best, 0.8 * _vertex_value(state, geo, u, seat))
    return best


def _robber_hurts(state, geo, seat) -> bool:
    h = state["robber"]
    return h is not None and any(state["owner"][v] == seat for v in geo.hex_vertices[h])


def _best_robber(state, geo, seat, choices):
    points = [public_points(state, p) for p in range(state["players"])]

    def score(a):
        h = a["hex"]
        value = 0.0
        for v in geo.hex_vertices[h]:
            o = state["owner"][v]
            if o == seat:
                value -= 10
            elif o >= 0:
                value += (1 + state["city"][v]) * (1 + points[o]) * pips(geo.number[h])
        if a["steal_from"] is not None:
            value += points[a["steal_from"]]
        return (value, -h)
    return max(choices, key=score)


def _best_discard(state, seat, bundles):
    hand = state["hands"][seat]
    keep_city = hand["ore"] >= 2 and hand["grain"] >= 1

    def score(bundle):
        cards = bundle["cards"]
        cost = sum(cards.get(r, 0) * (2 if keep_city and r in ("ore", "grain") else 1) for r in RESOURCES)
        return -cost
    return max(bundles, key=score)


def _best_card(state, geo, seat, by_type):
    if "play_knight" in by_type and (_robber_hurts(state, geo, seat) or state["knights"][seat] >= 2):
        return _best_robber(state, geo, seat, by_type["play_knight"])
    if "play_road_building" in by_type:
        return by_type["play_road_building"][0]
    if "play_year_of_plenty" in by_type:
        target = _target(state, geo, seat)
        hand = state["hands"][seat]
        need = [r for r in RESOURCES for _ in range(max(0, target.get(r, 0) - hand[r]))]
        for a in by_type["play_year_of_plenty"]:
            if need and a["resources"][0] in need:
                return a
    if "play_monopoly" in by_type:
        counts = {r: sum(state["hands"][p][r] for p in range(state["players"]) if p != seat) for r in RESOURCES}
        best = max(RESOURCES, key=lambda r: counts[r])
        if counts[best] >= 3:
            return {"type": "play_monopoly", "resource": best}
    return None
