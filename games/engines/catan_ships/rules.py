"""The turn machinery of Catan with ships: who acts, what is legal, and `apply`, which routes
each action to the module of its area (placement.py, roll.py, ships.py, building.py, cards.py,
trade.py) and then asks scoring.py for a win (B-win); the end of a turn and, with 5-6 players,
the special building phase (B-special-build); unloading at once in any turn (C8).

`apply` never changes its input: it copies the top-level dict and then only the lists and dicts
it changes (`Work`), never the board's geometry, which lives in board.py's cache.

Readings (also in docs/rules/catan-ships.md):
- A turn: roll (or first a knight), then on a 7 the discards, the robber and (ships) the pirate;
  otherwise production and (ships) the sailing phase; then the main phase; with 5-6 players
  the special building phase for every other seat in order.
- A player wins during his own turn (also at its start, after the roll of others' ships or his
  special building), with hidden victory points revealed.
- Phase "pirate" (ships, after a 7's robber) is added to the spec's phases: the roller moves the
  pirate or leaves it (C17).
"""
from __future__ import annotations

from games.engines.base import edition_of
from games.engines.catan_ships.board import RESOURCES, geometry
from games.engines.catan_ships.building import (
    build_actions, do_build_city, do_build_road, do_build_settlement, do_build_ship,
)
from games.engines.catan_ships.cards import (
    card_actions, do_buy_development, do_play_knight, do_play_monopoly, do_play_road_building,
    do_play_year_of_plenty, knight_actions,
)
from games.engines.catan_ships.placement import do_place_road, do_place_settlement, setup_actions
from games.engines.catan_ships.roll import (
    discard_bundles, do_discard, do_move_pirate, do_move_robber, do_roll, robber_choices,
)
from games.engines.catan_ships.scoring import declare_win, total_points
from games.engines.catan_ships.ships import (
    do_end_sailing, do_load, do_overboard, do_sail, do_settle, do_ship_trade, do_unload, sail_actions,
    ship_main_actions,
)
from games.engines.catan_ships.state import Work, at_own_shore, refuse
from games.engines.catan_ships.trade import (
    answer_actions, do_answer, do_bank_trade, do_confirm, do_offer, do_withdraw, max_offers,
    offer_actions, offer_targets, rates,
)


# --- who acts --------------------------------------------------------------------------------

def to_act(state: dict) -> list[int]:
    phase = state["phase"]
    if phase in SINGLE or (phase == "main" and not state["offers"]):
        return [state["current"]]
    if phase == "over":
        return []
    if phase == "discard":
        return sorted(int(s) for s in state["discarding"])
    if phase == "sail":
        return [state["sailing"]["queue"][0]]
    if phase == "special_build":
        return [state["special"][0]]
    if phase == "main":
        seats = [state["current"]]
        players = state["players"]
        for offer in state["offers"]:
            answers = offer["answers"]
            for s in (offer["to"] if offer["to"] is not None else range(players)):
                if s != offer["from"] and s not in seats and str(s) not in answers:
                    seats.append(s)
            if offer["from"] not in seats and "accept" in answers.values():
                seats.append(offer["from"])
        return seats
    return [state["current"]]


SINGLE = frozenset(("setup", "roll", "robber", "pirate"))
QUIET = frozenset(("setup", "over"))     # phases in which no ship unloads


def may_act(state: dict) -> list[int]:
    """to_act, then (edition 2, C8) every other seat that may unload a docked ship at once, in
    any player's turn. That move is optional: the platform's clocks, bots and timeouts follow
    to_act alone, so nobody waits on these seats and nothing is played for them."""
    seats = to_act(state)
    if not _unloading_at_once(state):
        return seats
    owners = {ship["seat"] for ship in _unloadable(state, geometry(state["board"]))}
    return seats + sorted(owners - set(seats))


def _unloading_at_once(state: dict) -> bool:
    """C8, edition 2: may ships be unloaded in any player's turn now?"""
    return state["ships_variant"] and state["phase"] not in QUIET and edition_of(state) >= 2


def _unloadable(state: dict, geo) -> list[dict]:
    """C8: the ships holding cargo while docked at their owner's settlement or city."""
    return [ship for ship in state["ships"]
            if ship["cargo"] and at_own_shore(state, geo, ship["edge"], ship["seat"], roads=False)]


# --- legal actions ---------------------------------------------------------------------------

def legal_actions(state: dict, seat) -> list[dict]:
    if type(seat) is not int:
        return []
    geo = geometry(state["board"])
    acting = seat in to_act(state)
    if not _unloading_at_once(state):
        return _legal(state, geo, seat) if acting else []
    # Edition 2 (C8): a docked ship may be unloaded at once, whoever's turn it is.
    unloads = [{"type": "unload", "ship": ship["number"]} for ship in _unloadable(state, geo)
               if ship["seat"] == seat]
    if not acting:
        return unloads
    out = _legal(state, geo, seat)
    return out + [a for a in unloads if a not in out]


def _legal(state: dict, geo, seat: int) -> list[dict]:
    phase = state["phase"]
    if phase == "setup":
        return setup_actions(state, geo)
    if phase == "roll":
        out = [{"type": "roll"}]
        if edition_of(state) >= 2:
            return out + card_actions(state, geo, seat)    # any card before the roll
        out += knight_actions(state, geo, seat)
        return out
    if phase == "discard":
        return [{"type": "discard", "cards": c} for c in discard_bundles(state["hands"][seat],
                                                                          state["discarding"][str(seat)])]
    if phase == "robber":
        return [{"type": "move_robber", "hex": h, "steal_from": v} for h, v in robber_choices(state, geo, seat)]
    if phase == "pirate":
        out = [{"type": "move_pirate", "edge": e} for e in geo.edge_adjacent[state["pirate"]] if geo.ship_edge[e]]
        return out + [{"type": "move_pirate", "edge": None}]
    if phase == "sail":
        return sail_actions(state, geo, seat)
    if phase == "special_build":
        return build_actions(state, geo, seat) + [{"type": "pass"}]
    if phase == "main":
        if seat != state["current"]:
            return answer_actions(state, seat)
        return _legal_main(state, geo, seat)
    return []


def _legal_main(state, geo, seat) -> list[dict]:
    out = build_actions(state, geo, seat)
    hand = state["hands"][seat]
    out += card_actions(state, geo, seat)
    bank = state["bank"]
    seat_rates = None
    for r in RESOURCES:
        if hand[r] >= 2:
            if seat_rates is None:
                seat_rates = rates(state, seat, geo)
            if hand[r] >= seat_rates[r]:
                out += [{"type": "bank_trade", "give": r, "get": g} for g in RESOURCES if g != r and bank[g]]
    if state["offers"] or state["offers_made"] < max_offers(state):
        out += offer_actions(state, seat)
    if state["ships_variant"]:
        out += ship_main_actions(state, geo, seat)
    out.append({"type": "end_turn"})
    return out


# --- apply -----------------------------------------------------------------------------------

def apply(state: dict, seat, action) -> tuple[dict, list[dict]]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise refuse("error.unknown_action")
    kind = action["type"]
    handler = HANDLERS.get((state["phase"], kind))
    edition = edition_of(state)
    if edition >= 2:
        handler = HANDLERS_2.get((state["phase"], kind), handler)
    if handler is None:
        if kind not in KNOWN:
            raise refuse("error.unknown_action")
        if state["phase"] == "over":
            raise refuse("error.game_over")
        raise refuse("error.not_now", action=kind)
    if type(seat) is not int or seat not in to_act(state):
        # Edition 2 (C8): unloading a docked ship is open to its owner in any turn.
        if not (edition >= 2 and kind == "unload" and type(seat) is int and seat in may_act(state)):
            raise refuse("error.not_your_turn")
    w = Work(state)
    events: list[dict] = []
    handler(w, seat, action, events)
    s = w.s
    if s["phase"] not in ("over", "setup", "special_build"):
        current = s["current"]
        if total_points(s, current) >= s["goal"]:
            declare_win(w, current, events)
    return s, events


# --- the end of a turn, special building -----------------------------------------------------

def _end_turn(w: Work, seat, action, events) -> None:
    s = w.s
    if seat != s["current"]:
        raise refuse("error.not_your_turn")
    s["offers"] = []
    events.append({"type": "end_turn", "seat": seat})
    if s["players"] > 4:
        s["special"] = [(seat + i) % s["players"] for i in range(1, s["players"])]
        s["phase"] = "special_build"
        return
    _next_turn(w, events)


def _next_turn(w: Work, events) -> None:
    s = w.s
    s["current"] = (s["current"] + 1) % s["players"]
    if s["current"] == 0:
        s["round"] += 1
    s["turn"] += 1
    s.update(phase="roll", dice=None, rolled=False, played_dev=False, offers=[], offers_made=0, special=[])
    events.append({"type": "turn", "seat": s["current"], "round": s["round"]})


def _special(w: Work, seat, action, events) -> None:
    kind = action["type"]
    if kind != "pass":
        BUILDERS[kind](w, seat, action, events)
        if edition_of(w.s) >= 2:
            return  # the extension: build and buy as much as one can pay for, then pass
    else:
        events.append({"type": "pass", "seat": seat})
    special = w.list("special")
    special.pop(0)
    if not special:
        _next_turn(w, events)


# --- which area plays each action ------------------------------------------------------------

BUILDERS = {"build_road": do_build_road, "build_settlement": do_build_settlement, "build_city": do_build_city,
            "build_ship": do_build_ship, "buy_development": do_buy_development}

HANDLERS = {
    ("setup", "place_settlement"): do_place_settlement,
    ("setup", "place_road"): do_place_road,
    ("roll", "roll"): do_roll,
    ("roll", "play_knight"): do_play_knight,
    ("discard", "discard"): do_discard,
    ("robber", "move_robber"): do_move_robber,
    ("pirate", "move_pirate"): do_move_pirate,
    ("sail", "sail"): do_sail,
    ("sail", "overboard"): do_overboard,
    ("sail", "settle"): do_settle,
    ("sail", "unload"): do_unload,
    ("sail", "end_sailing"): do_end_sailing,
    ("main", "play_knight"): do_play_knight,
    ("main", "play_road_building"): do_play_road_building,
    ("main", "play_year_of_plenty"): do_play_year_of_plenty,
    ("main", "play_monopoly"): do_play_monopoly,
    ("main", "bank_trade"): do_bank_trade,
    ("main", "offer"): do_offer,
    ("main", "answer"): do_answer,
    ("main", "confirm"): do_confirm,
    ("main", "withdraw"): do_withdraw,
    ("main", "load"): do_load,
    ("main", "unload"): do_unload,
    ("main", "ship_trade"): do_ship_trade,
    ("main", "end_turn"): _end_turn,
}
for _kind in BUILDERS:
    HANDLERS[("special_build", _kind)] = _special
HANDLERS[("special_build", "pass")] = _special


def _main_builder(fn):
    def run(w: Work, seat, action, events):
        if seat != w.s["current"]:
            raise refuse("error.not_your_turn")
        fn(w, seat, action, events)
    return run


for _kind, _fn in BUILDERS.items():
    HANDLERS[("main", _kind)] = _main_builder(_fn)
# Cards and bank trade are the active player's too: a seat answering an offer acts in the main
# phase but may not play a card or trade with the bank in another's turn.
for _kind in ("play_road_building", "play_year_of_plenty", "play_monopoly", "bank_trade"):
    HANDLERS[("main", _kind)] = _main_builder(HANDLERS[("main", _kind)])

# Edition 2: any development card before the roll (the base game's rule, one a turn), and
# unloading a docked ship at once in every phase of play (C8).
HANDLERS_2 = {
    ("roll", "play_road_building"): do_play_road_building,
    ("roll", "play_year_of_plenty"): do_play_year_of_plenty,
    ("roll", "play_monopoly"): do_play_monopoly,
}
for _phase in ("roll", "discard", "robber", "pirate", "sail", "main", "special_build"):
    HANDLERS_2[(_phase, "unload")] = do_unload

KNOWN = {kind for _, kind in HANDLERS}


def timeout_action(state: dict, seat: int) -> dict:
    """Roll; discard the biggest piles; the first robber spot; stay at sea; decline; end the turn."""
    phase = state["phase"]
    if phase == "roll":
        return {"type": "roll"}
    if phase == "sail":
        return {"type": "end_sailing"}
    if phase == "special_build":
        return {"type": "pass"}
    if phase == "pirate":
        return {"type": "move_pirate", "edge": None}
    if phase == "main":
        if seat == state["current"]:
            return {"type": "end_turn"}
        for offer in state["offers"]:
            if seat in offer_targets(state, offer) and str(seat) not in offer["answers"]:
                return {"type": "answer", "offer": offer["id"], "accept": False}
            if offer["from"] == seat:
                return {"type": "withdraw", "offer": offer["id"]}
    actions = legal_actions(state, seat)
    if not actions:
        raise refuse("error.nothing_to_do")
    return actions[0]
