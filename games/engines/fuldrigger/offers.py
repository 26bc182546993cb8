"""Offers between two players (F26, F41): ducats, ships and fortresses for each other.

An offer is made on the offerer's own turn and stays open until the other player accepts or
declines it (he may answer at any time, also outside his turn: he is in `to_act` while it is
open) or the offerer withdraws it. Whether it can be met is checked when it is accepted.
"""
from __future__ import annotations

from games.engines.base import IllegalAction
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.state import MAX_FORTRESSES, MAX_SHIPS, fortresses_of, ships_of


def _side(raw, label: str) -> dict:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise IllegalAction(f"'{label}' must be an object with ducats, ships and fortresses.")
    unknown = set(raw) - {"ducats", "ships", "fortresses"}
    if unknown:
        raise IllegalAction(f"'{label}' may hold only ducats, ships and fortresses.")
    ducats = raw.get("ducats", 0)
    if isinstance(ducats, bool) or not isinstance(ducats, int) or ducats < 0:
        raise IllegalAction(f"'{label}.ducats' must be a whole number of ducats, 0 or more.")
    ships = raw.get("ships", [])
    if not isinstance(ships, list) or any(isinstance(s, bool) or not isinstance(s, int)
                                          for s in ships):
        raise IllegalAction(f"'{label}.ships' must list ship numbers.")
    forts = raw.get("fortresses", [])
    if not isinstance(forts, list) or any(not isinstance(p, str) for p in forts):
        raise IllegalAction(f"'{label}.fortresses' must list ports.")
    if len(set(ships)) != len(ships) or len(set(forts)) != len(forts):
        raise IllegalAction(f"'{label}' names something twice.")
    return {"ducats": ducats, "ships": sorted(ships), "fortresses": sorted(forts)}


def problem(state: dict, offer: dict) -> str | None:
    """Why the offer cannot be carried out now, or None."""
    giver, taker = offer["from"], offer["to"]
    if state["out"][giver] or state["out"][taker]:
        return "One of the two players is out of the game."
    for seat, part in ((giver, offer["give"]), (taker, offer["take"])):
        if state["cash"][seat] < part["ducats"]:
            return "Not enough cash for this offer any more."
        for number in part["ships"]:
            ship = state["ships"].get(str(number))
            if ship is None or ship["owner"] != seat:
                return f"Ship number {number} no longer belongs to that player."
        for port in part["fortresses"]:
            if state["fortresses"].get(port) != seat:
                return f"The fortress in {_port_name(port)} no longer belongs to that player."
    for seat, gets, gives in ((giver, offer["take"], offer["give"]),
                              (taker, offer["give"], offer["take"])):
        if len(ships_of(state, seat)) + len(gets["ships"]) - len(gives["ships"]) > MAX_SHIPS:
            return f"Nobody may own more than {MAX_SHIPS} ships (F22)."
        if (len(fortresses_of(state, seat)) + len(gets["fortresses"])
                - len(gives["fortresses"]) > MAX_FORTRESSES):
            return f"Nobody may own more than {MAX_FORTRESSES} fortresses (F27)."
    return None


def _port_name(port: str) -> str:
    return WORLD.name(port) if port in WORLD.nodes else port


def do_offer(state: dict, seat: int, action: dict, events: list) -> None:
    to = action.get("to")
    if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < state["players"]:
        raise IllegalAction("'to' must be the seat number of the player you make the offer to.")
    if to == seat:
        raise IllegalAction("You cannot make an offer to yourself.")
    if state["out"][to]:
        raise IllegalAction("That player is out of the game.")
    give = _side(action.get("give"), "give")
    take = _side(action.get("take"), "take")
    if not any((give["ducats"], give["ships"], give["fortresses"],
                take["ducats"], take["ships"], take["fortresses"])):
        raise IllegalAction("An offer must give or ask for something.")
    offer = {"id": state["next_offer"], "from": seat, "to": to, "give": give, "take": take,
             "round": state["round"]}
    why = problem(state, offer)
    if why:
        raise IllegalAction(why)
    # One open offer to each player: a new one replaces the old.
    for old in [o for o in state["offers"] if o["from"] == seat and o["to"] == to]:
        state["offers"].remove(old)
        events.append({"type": "withdraw_offer", "seat": seat, "offer": old["id"], "to": to,
                       "private": sorted({seat, to})})
    state["next_offer"] += 1
    state["offers"].append(offer)
    # Negotiations stay between the two parties: the view shows the terms only to them, and
    # the log shows the event only to them ("private"); an accepted deal is public.
    events.append({"type": "offer", "seat": seat, "to": to, "offer": offer["id"], "private": sorted({seat, to})})


def _find(state: dict, action: dict) -> dict:
    raw = action.get("offer")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise IllegalAction("'offer' must be the number of an open offer.")
    offer = next((o for o in state["offers"] if o["id"] == raw), None)
    if offer is None:
        raise IllegalAction(f"There is no open offer number {raw}.")
    return offer


def do_accept_offer(state: dict, seat: int, action: dict, events: list) -> None:
    offer = _find(state, action)
    if offer["to"] != seat:
        raise IllegalAction("Only the player an offer is made to can accept it.")
    why = problem(state, offer)
    if why:
        raise IllegalAction(why)
    state["offers"].remove(offer)
    giver, taker = offer["from"], offer["to"]
    current = state["turn"]["seat"]
    for src, dst, part in ((giver, taker, offer["give"]), (taker, giver, offer["take"])):
        state["cash"][src] -= part["ducats"]
        state["cash"][dst] += part["ducats"]
        for number in part["ships"]:
            ship = state["ships"][str(number)]
            ship["owner"] = dst
            if dst == current and number not in state["turn"]["moved"]:
                state["turn"]["moved"].append(number)   # a ship changing hands sails next turn
        for port in part["fortresses"]:
            state["fortresses"][port] = dst
    events.append({"type": "accept_offer", "seat": seat, "from": giver, "offer": offer["id"],
                   "give": offer["give"], "take": offer["take"]})


def do_decline_offer(state: dict, seat: int, action: dict, events: list) -> None:
    offer = _find(state, action)
    if offer["to"] != seat:
        raise IllegalAction("Only the player an offer is made to can decline it.")
    state["offers"].remove(offer)
    events.append({"type": "decline_offer", "seat": seat, "from": offer["from"],
                   "offer": offer["id"], "private": sorted({seat, offer["from"]})})


def do_withdraw_offer(state: dict, seat: int, action: dict, events: list) -> None:
    offer = _find(state, action)
    if offer["from"] != seat:
        raise IllegalAction("Only the player who made an offer can withdraw it.")
    state["offers"].remove(offer)
    events.append({"type": "withdraw_offer", "seat": seat, "offer": offer["id"],
                   "to": offer["to"], "private": sorted({seat, offer["to"]})})


def drop_dead_offers(state: dict) -> None:
    """Offers to or from a player who is out are void."""
    state["offers"] = [o for o in state["offers"]
                       if not state["out"][o["from"]] and not state["out"][o["to"]]]


def offer_options(state: dict, seat: int) -> list[dict]:
    """Representative offers for legal_actions: to each other player still in, buy one of his
    ships for 100 or one of his fortresses for 150 if cash allows, or pay 50 for peace."""
    actions = []
    cash = state["cash"][seat]
    for other in range(state["players"]):
        if other == seat or state["out"][other]:
            continue
        if cash >= 50:
            actions.append({"type": "offer", "to": other, "give": {"ducats": 50}, "take": {}})
        theirs = ships_of(state, other)
        if theirs and cash >= 100 and len(ships_of(state, seat)) < MAX_SHIPS:
            actions.append({"type": "offer", "to": other, "give": {"ducats": 100},
                            "take": {"ships": [theirs[0]["id"]]}})
        forts = fortresses_of(state, other)
        if forts and cash >= 150 and len(fortresses_of(state, seat)) < MAX_FORTRESSES:
            actions.append({"type": "offer", "to": other, "give": {"ducats": 150},
                            "take": {"fortresses": [forts[0]]}})
    return actions
