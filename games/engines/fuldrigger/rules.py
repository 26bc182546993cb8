"""The turn (F8–F11), who may act, what is legal, and `apply`, which dispatches every action.

A round begins with the banker's chance card (F43, phase "card": only the system acts), then
each seat still in plays a turn in seat order (F8): roll three dice (F10), then move each ship
once, trade, buy, fight and make offers in any order (F9; trading, buying and offers may also
come before the roll), then end the turn.
"""
from __future__ import annotations

import math

from games.engines import dice
from games.engines.base import IllegalAction, quoted
from games.engines.fuldrigger import chance, offers, trade, war
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.book import WORDS, Name
from games.engines.fuldrigger.sailing import check_path, reachable, returns, sail
from games.engines.fuldrigger.state import (
    SHIP_PRICE, active_seats, clone, effect_on, fortunes, fresh_turn, place_fleets,
    ships_of,
)


# ---- who acts ------------------------------------------------------------------------------

def to_act(state: dict) -> list[int]:
    """The seat whose turn it is, then every seat with an open offer to answer; while home
    cities are chosen (edition 2, F7), the seat whose pick it is."""
    if state["phase"] == "homes":
        return [state["choosing"][0]]
    if state["phase"] != "play":
        return []
    current = state["turn"]["seat"]
    answering = sorted({o["to"] for o in state["offers"]} - {current})
    return [current] + answering


def system_action(state: dict) -> dict | None:
    return {"type": "draw_card"} if state["phase"] == "card" else None


# ---- apply ---------------------------------------------------------------------------------

def apply(state: dict, seat, action) -> tuple[dict, list]:
    if not isinstance(action, dict):
        raise IllegalAction.said(WORDS, "error.action_not_object")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction.said(WORDS, "error.action_no_type")
    if state["phase"] == "over":
        raise IllegalAction.said(WORDS, "error.game_over")
    if seat is None:
        if kind != "draw_card":
            raise IllegalAction.said(WORDS, "error.system_cannot_play", kind=quoted(kind))
        if state["phase"] != "card":
            raise IllegalAction.said(WORDS, "error.no_card_due")
        new = clone(state)
        events: list = []
        chance.draw_card(new, events)
        new["phase"] = "play"
        _settle(new, events, pass_on=False)
        if new["phase"] == "play":
            seat = new["turn"]["seat"]
            if new["out"][seat] or not _begin_turn(new, seat, events):
                _pass_turn(new, events)
        return new, events
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise IllegalAction.said(WORDS, "error.no_seat", seat=seat)
    if kind not in HANDLERS and kind != "draw_card":
        raise IllegalAction.said(WORDS, "error.unknown_action", kind=quoted(kind))
    if state["phase"] == "homes" or kind == "choose_home":
        return _choose_home(state, seat, kind, action)
    if state["phase"] == "card":
        raise IllegalAction.said(WORDS, "error.card_first")
    if kind == "draw_card":
        raise IllegalAction.said(WORDS, "error.bank_draws")
    if seat not in to_act(state):
        raise IllegalAction.said(WORDS, "error.not_your_turn")
    if seat != state["turn"]["seat"] and kind not in ANSWERS:
        raise IllegalAction.said(WORDS, "error.only_answer")
    new = clone(state)
    events = []
    HANDLERS[kind](new, seat, action, events)
    _settle(new, events)
    return new, events


# ---- home cities (edition 2) ---------------------------------------------------------------

def free_homes(state: dict) -> list[str]:
    return [city for city in WORLD.homes if city not in state["homes"]]


def _choose_home(state: dict, seat: int, kind: str, action: dict) -> tuple[dict, list]:
    """F7/F8: in roll order each seat chooses a free home city; when the last has chosen the
    fleets are placed and the first to choose begins (after the banker's card)."""
    if state["phase"] != "homes":
        raise IllegalAction.said(WORDS, "error.homes_chosen")
    if kind != "choose_home":
        raise IllegalAction.said(WORDS, "error.choose_home_first")
    if seat != state["choosing"][0]:
        raise IllegalAction.said(WORDS, "error.not_your_turn")
    city = action.get("city")
    if not isinstance(city, str) or city not in WORLD.homes:
        raise IllegalAction.said(WORDS, "error.not_a_home", city=city)
    if city in state["homes"]:
        raise IllegalAction.said(WORDS, "error.home_taken", city=Name("place", city))
    new = clone(state)
    new["homes"][seat] = city
    new["choosing"] = new["choosing"][1:]
    events = [{"type": "choose_home", "seat": seat, "city": city}]
    if not new["choosing"]:
        place_fleets(new)
        new["phase"] = "card"
        new["turn"] = fresh_turn(new["first"])
        events.append({"type": "first_player", "seat": new["first"]})
    else:
        new["turn"] = fresh_turn(new["choosing"][0])
    return new, events


# ---- the turn ------------------------------------------------------------------------------

def _need_roll(state: dict) -> int:
    total = state["turn"]["total"]
    if total is None:
        raise IllegalAction.said(WORDS, "error.roll_first")
    return total


def do_roll(state: dict, seat: int, action: dict, events: list) -> None:
    if state["turn"]["roll"] is not None:
        raise IllegalAction.said(WORDS, "error.rolled_already")
    faces = dice.roll(state, 3)
    total = sum(faces)
    notes = []
    for effect in effect_on(state, "fog"):
        total = math.ceil(total / 2)
        notes.append(effect["card"])
    for effect in effect_on(state, "fair_winds"):
        total += effect["amount"]
        notes.append(effect["card"])
    state["turn"]["roll"] = faces
    state["turn"]["total"] = total
    events.append({"type": "roll", "seat": seat, "dice": faces, "total": total, "cards": notes})


def do_move(state: dict, seat: int, action: dict, events: list) -> None:
    ship = trade.own_ship(state, seat, action)
    total = _need_roll(state)
    turn = state["turn"]
    if ship["id"] in turn["still"]:
        raise IllegalAction.said(WORDS, "error.becalmed", name=ship["name"])
    if ship["id"] in turn["moved"]:
        raise IllegalAction.said(WORDS, "error.moved_already", name=ship["name"])
    path = check_path(ship["node"], action.get("path"), total, returns(state))
    turn["moved"].append(ship["id"])
    sail(state, ship, path, events)


def do_end_turn(state: dict, seat: int, action: dict, events: list) -> None:
    _need_roll(state)
    events.append({"type": "end_turn", "seat": seat})
    _pass_turn(state, events)


def _pass_turn(state: dict, events: list) -> None:
    """Hand the turn to the next seat still in; a new round begins when play wraps around to
    the seat that began (seat 0 in edition 1; the first to choose a home in edition 2, F8)."""
    seat = state["turn"]["seat"]
    first = state.get("first", 0)
    count = state["players"]

    def place(s: int) -> int:        # F8: play passes to the left of the one who began
        return (s - first) % count

    while True:
        players = sorted(active_seats(state), key=place)
        if len(players) <= 1:
            _finish(state, "last_fleet", events)
            return
        later = [s for s in players if place(s) > place(seat)]
        if later:
            seat = later[0]
            if _begin_turn(state, seat, events):
                return
            continue
        # Play returns to the first seat: the round is over.
        state["history"] = state["history"] + [fortunes(state)]
        limit = state["options"].get("rounds", 0)
        if limit and state["round"] >= limit:
            _finish(state, "rounds", events, record=False)
            return
        state["round"] += 1
        state["turn"] = fresh_turn(players[0])
        state["phase"] = "card"
        events.append({"type": "round", "round": state["round"]})
        return


def _begin_turn(state: dict, seat: int, events: list) -> bool:
    """Start `seat`'s turn; False if scurvy makes him lose it (the caller passes on)."""
    state["turn"] = fresh_turn(seat)
    becalmed = [ship for ship in ships_of(state, seat) if ship["calm"]]
    for ship in becalmed:                  # F17: lies still for its owner's next turn
        ship["calm"] = False
    if state["skip"][seat]:
        state["skip"][seat] = False
        events.append({"type": "turn_lost", "seat": seat})
        return False
    state["turn"]["still"] = [ship["id"] for ship in becalmed]
    events.append({"type": "turn", "seat": seat, "round": state["round"]})
    return True


def _finish(state: dict, why: str, events: list, record: bool = True) -> None:
    if record:
        state["history"] = state["history"] + [fortunes(state)]
    state["phase"] = "over"
    state["ended"] = why
    state["offers"] = []
    events.append({"type": "game_over", "reason": why, "fortunes": fortunes(state)})


def _settle(state: dict, events: list, pass_on: bool = True) -> None:
    """After every action: F3 — a player with no ships and under 100 ducats is out; when one
    player (or none) is left the game ends. If the player whose turn it is went out, pass on."""
    if state["phase"] == "over":
        return
    for seat in active_seats(state):
        if not ships_of(state, seat) and state["cash"][seat] < SHIP_PRICE:
            state["out"][seat] = True
            events.append({"type": "out", "seat": seat})
    offers.drop_dead_offers(state)
    if len(active_seats(state)) <= 1:
        _finish(state, "last_fleet", events)
        return
    if pass_on and state["phase"] == "play" and state["out"][state["turn"]["seat"]]:
        _pass_turn(state, events)


HANDLERS = {
    "roll": do_roll,
    "move": do_move,
    "buy_cargo": trade.do_buy_cargo,
    "sell_cargo": trade.do_sell_cargo,
    "buy_ship": trade.do_buy_ship,
    "sell_ship": trade.do_sell_ship,
    "buy_fortress": trade.do_buy_fortress,
    "fit_privateer": war.do_fit_privateer,
    "lay_off_privateer": war.do_lay_off_privateer,
    "attack": war.do_attack,
    "isthmus_unload": trade.do_isthmus_unload,
    "isthmus_load": trade.do_isthmus_load,
    "offer": offers.do_offer,
    "accept_offer": offers.do_accept_offer,
    "decline_offer": offers.do_decline_offer,
    "withdraw_offer": offers.do_withdraw_offer,
    "end_turn": do_end_turn,
    "choose_home": None,             # edition 2's opening (F7), handled by _choose_home
}
ANSWERS = ("accept_offer", "decline_offer", "withdraw_offer")


# ---- legal actions -------------------------------------------------------------------------

def legal_actions(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    if state["phase"] == "homes":
        return [{"type": "choose_home", "city": city} for city in free_homes(state)]
    actions: list[dict] = []
    for offer in state["offers"]:
        if offer["to"] == seat:
            if offers.problem(state, offer) is None:
                actions.append({"type": "accept_offer", "offer": offer["id"]})
            actions.append({"type": "decline_offer", "offer": offer["id"]})
        if offer["from"] == seat:
            actions.append({"type": "withdraw_offer", "offer": offer["id"]})
    if seat != state["turn"]["seat"]:
        return actions
    turn = state["turn"]
    if turn["roll"] is None:
        actions.append({"type": "roll"})
    else:
        actions.append({"type": "end_turn"})
    actions.extend(_port_actions(state, seat))
    if turn["total"] is not None:
        for ship in ships_of(state, seat):
            if ship["id"] in turn["moved"] or ship["id"] in turn["still"]:
                continue
            for path in reachable(ship["node"], turn["total"], returns(state)).values():
                actions.append({"type": "move", "ship": ship["id"], "path": list(path)})
        actions.extend(war.attack_options(state, seat))
    actions.extend(offers.offer_options(state, seat))
    return actions


def _port_actions(state: dict, seat: int) -> list[dict]:
    actions = []
    cash = state["cash"][seat]
    mine = ships_of(state, seat)
    if trade.ship_refusal(state, seat) is None:
        actions.append({"type": "buy_ship"})
    isthmus = state["options"].get("isthmus") and not effect_on(state, "canal_closed")
    fortress_ports = set()
    for ship in mine:
        port = ship["node"]
        if not WORLD.is_port(port):
            continue
        number = ship["id"]
        actions.append({"type": "sell_ship", "ship": number})
        fortress_ports.add(port)
        cargo = ship["cargo"]
        if ship["privateer"]:
            if war.privateer_base(state, seat, port):
                actions.append({"type": "lay_off_privateer", "ship": number})
        elif cargo is None:
            if war.privateer_base(state, seat, port):
                actions.append({"type": "fit_privateer", "ship": number})
            for good, entry in WORLD.prices.get(port, {}).items():
                if entry["buy"] is not None and trade.cargo_refusal(state, seat, ship, good) is None:
                    actions.append({"type": "buy_cargo", "ship": number, "good": good})
            if isthmus:
                for entry in state["crossing"]:
                    if entry["owner"] == seat and entry["at"] == port:
                        actions.append({"type": "isthmus_load", "ship": number,
                                        "cargo": entry["id"]})
        else:
            if trade.sale_refusal(state, seat, ship) is None:
                actions.append({"type": "sell_cargo", "ship": number})
            if isthmus and WORLD.isthmus_partner(port) is not None:
                toll, _ = trade.toll_terms(state, seat, port)
                if cash >= toll:
                    actions.append({"type": "isthmus_unload", "ship": number})
    for port in sorted(fortress_ports):
        if trade.fortress_refusal(state, seat, port) is None:
            actions.append({"type": "buy_fortress", "port": port})
    return actions


def timeout_action(state: dict, seat: int) -> dict:
    """What the server plays for a seat out of time: roll, else end the turn; a seat that only
    has offers to answer declines the oldest; a seat choosing a home takes the first free one."""
    if state["phase"] == "homes" and seat == state["choosing"][0]:
        return {"type": "choose_home", "city": free_homes(state)[0]}
    if state["phase"] == "play" and seat == state["turn"]["seat"]:
        return {"type": "roll"} if state["turn"]["roll"] is None else {"type": "end_turn"}
    for offer in state["offers"]:
        if offer["to"] == seat:
            return {"type": "decline_offer", "offer": offer["id"]}
    raise IllegalAction.said(WORDS, "error.nothing_to_do", seat=seat)
