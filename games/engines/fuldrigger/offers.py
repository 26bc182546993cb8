"""Offers between two players (F26, F41): ducats, ships and fortresses for each other.

An offer is made on the offerer's own turn and stays open until the other player accepts or
declines it (he may answer at any time, also outside his turn: he is in `to_act` while it is
open) or the offerer withdraws it. Whether it can be met is checked when it is accepted.
"""
from __future__ import annotations

from games.engines.base import IllegalAction
from games.engines.fuldrigger.book import WORDS, Name
from games.engines.fuldrigger.state import MAX_FORTRESSES, MAX_SHIPS, fortresses_of, ships_of


def _side(raw, label: str) -> dict:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise IllegalAction.said(WORDS, "error.side_object", label=label)
    unknown = set(raw) - {"ducats", "ships", "fortresses"}
    if unknown:
        raise IllegalAction.said(WORDS, "error.side_keys", label=label)
    ducats = raw.get("ducats", 0)
    if isinstance(ducats, bool) or not isinstance(ducats, int) or ducats < 0:
        raise IllegalAction.said(WORDS, "error.side_ducats", label=label)
    ships = raw.get("ships", [])
    if not isinstance(ships, list) or any(isinstance(s, bool) or not isinstance(s, int)
                                          for s in ships):
        raise IllegalAction.said(WORDS, "error.side_ships", label=label)
    forts = raw.get("fortresses", [])
    if not isinstance(forts, list) or any(not isinstance(p, str) for p in forts):
        raise IllegalAction.said(WORDS, "error.side_fortresses", label=label)
    if len(set(ships)) != len(ships) or len(set(forts)) != len(forts):
        raise IllegalAction.said(WORDS, "error.side_twice", label=label)
    return {"ducats": ducats, "ships": sorted(ships), "fortresses": sorted(forts)}


def problem(state: dict, offer: dict) -> IllegalAction | None:
    """Why the offer cannot be carried out now, as the IllegalAction to raise, or None.
    (legal_actions only asks whether there is one; making and accepting an offer raise it.)"""
    giver, taker = offer["from"], offer["to"]
    if state["out"][giver] or state["out"][taker]:
        return IllegalAction.said(WORDS, "error.offer_player_out")
    for seat, part in ((giver, offer["give"]), (taker, offer["take"])):
        if state["cash"][seat] < part["ducats"]:
            return IllegalAction.said(WORDS, "error.offer_cash")
        for number in part["ships"]:
            ship = state["ships"].get(str(number))
            if ship is None or ship["owner"] != seat:
                return IllegalAction.said(WORDS, "error.offer_ship_gone", number=number)
        for port in part["fortresses"]:
            if state["fortresses"].get(port) != seat:
                return IllegalAction.said(WORDS, "error.offer_fortress_gone",
                                          port=Name("place", port))
    for seat, gets, gives in ((giver, offer["take"], offer["give"]),
                              (taker, offer["give"], offer["take"])):
        if len(ships_of(state, seat)) + len(gets["ships"]) - len(gives["ships"]) > MAX_SHIPS:
            return IllegalAction.said(WORDS, "error.max_ships", count=MAX_SHIPS)
        if (len(fortresses_of(state, seat)) + len(gets["fortresses"])
                - len(gives["fortresses"]) > MAX_FORTRESSES):
            return IllegalAction.said(WORDS, "error.max_fortresses", count=MAX_FORTRESSES)
    return None


def do_offer(state: dict, seat: int, action: dict, events: list) -> None:
    to = action.get("to")
    if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < state["players"]:
        raise IllegalAction.said(WORDS, "error.offer_to")
    if to == seat:
        raise IllegalAction.said(WORDS, "error.offer_yourself")
    if state["out"][to]:
        raise IllegalAction.said(WORDS, "error.player_out")
    give = _side(action.get("give"), "give")
    take = _side(action.get("take"), "take")
    if not any((give["ducats"], give["ships"], give["fortresses"],
                take["ducats"], take["ships"], take["fortresses"])):
        raise IllegalAction.said(WORDS, "error.offer_empty")
    offer = {"id": _next_id(state, seat, to), "from": seat, "to": to, "give": give, "take": take,
             "round": state["round"]}
    why = problem(state, offer)
    if why is not None:
        raise why
    # One open offer to each player: a new one replaces the old.
    for old in [o for o in state["offers"] if o["from"] == seat and o["to"] == to]:
        state["offers"].remove(old)
        events.append({"type": "withdraw_offer", "seat": seat, "offer": old["id"], "to": to,
                       "private": sorted({seat, to})})
    counts = dict(state.get("offer_counts", {}))  # replaced, never changed in place (see clone)
    counts[_pair(seat, to)] = counts.get(_pair(seat, to), 0) + 1
    state["offer_counts"] = counts
    state["offers"].append(offer)
    # Negotiations stay between the two parties: the view shows the terms only to them, and
    # the log shows the event only to them ("private"); an accepted deal is public.
    events.append({"type": "offer", "seat": seat, "to": to, "offer": offer["id"], "private": sorted({seat, to})})


def _pair(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


def _next_id(state: dict, seat: int, to: int) -> int:
    """Offers are counted per pair of players, so that an offer's number tells a third player
    nothing (one count for the whole table let anyone count the others' offers). The number
    holds the pair's count and the direction: unique at the table, and the same for both
    parties. States from before this keep their numbers below `next_offer`, which no longer
    moves."""
    players = state["players"]
    count = state.get("offer_counts", {}).get(_pair(seat, to), 0)
    return state["next_offer"] + count * players * players + seat * players + to


def _find(state: dict, action: dict) -> dict:
    raw = action.get("offer")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise IllegalAction.said(WORDS, "error.offer_number")
    offer = next((o for o in state["offers"] if o["id"] == raw), None)
    if offer is None:
        raise IllegalAction.said(WORDS, "error.no_offer", number=raw)
    return offer


def do_accept_offer(state: dict, seat: int, action: dict, events: list) -> None:
    offer = _find(state, action)
    if offer["to"] != seat:
        raise IllegalAction.said(WORDS, "error.accept_whose")
    why = problem(state, offer)
    if why is not None:
        raise why
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
    offer = _take_back(state, seat, action, "to", "error.decline_whose")
    events.append({"type": "decline_offer", "seat": seat, "from": offer["from"],
                   "offer": offer["id"], "private": sorted({seat, offer["from"]})})


def do_withdraw_offer(state: dict, seat: int, action: dict, events: list) -> None:
    offer = _take_back(state, seat, action, "from", "error.withdraw_whose")
    events.append({"type": "withdraw_offer", "seat": seat, "offer": offer["id"],
                   "to": offer["to"], "private": sorted({seat, offer["to"]})})


def _take_back(state: dict, seat: int, action: dict, side: str, refusal: str) -> dict:
    """The offer named, off the table, if this seat is its `side` ("to": declining it,
    "from": withdrawing it)."""
    offer = _find(state, action)
    if offer[side] != seat:
        raise IllegalAction.said(WORDS, refusal)
    state["offers"].remove(offer)
    return offer


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
