"""Trade: with the bank at 4:1 or at an own harbour's rate (B-harbour), and between players by
offers, answers, counter-offers, confirmation and withdrawal (B-trade).

Reading (also in docs/rules/catan-ships.md): the active player offers (to some seats or to all,
at most MAX_OFFERS offers a turn); an addressed seat answers accept or decline, or declines
with a counter-offer, which is a new offer from that seat to the active player; the offerer
confirms with one seat that accepted, or withdraws. Offers end with the turn.
"""
from __future__ import annotations

from functools import lru_cache

from games.engines.base import edition_of
from games.engines.catan_ships.board import RESOURCES, geometry
from games.engines.catan_ships.state import Work, can_afford, checked_goods, checked_resource, refuse

MAX_OFFERS = 3          # edition 1: offers the active player may make in one turn
# Edition 2: a bound no table meets (a heavy trader makes a handful of offers a turn); it only
# stops a runaway client from growing one turn's state without end.
MAX_OFFERS_2 = 100


def max_offers(state: dict) -> int:
    return MAX_OFFERS if edition_of(state) < 2 else MAX_OFFERS_2


def rate(state: dict, seat: int, resource: str, geo=None) -> int:
    """Bank trade rate: 2 at an own harbour for that resource, 3 at an own 3:1 harbour, else 4."""
    return rates(state, seat, geo or geometry(state["board"]))[resource]


def rates(state: dict, seat: int, geo) -> dict:
    """The seat's bank trade rate for every resource (a copy). Remembered by what decides it:
    the board and who holds each harbour corner (values, so a caller that edits the corner
    list in place still gets the right rates)."""
    return dict(_cached_rates(geo.key, seat, geo.harbour_holders(state["owner"])))


@lru_cache(maxsize=1024)
def _cached_rates(key: str, seat: int, holders: tuple) -> dict:
    geo = geometry(key)
    owner = {v: o for (v, _), o in zip(geo.harbour_corners, holders)}
    return _rates(owner, seat, geo)


def _rates(owner: list, seat: int, geo) -> dict:
    out = {"brick": 4, "lumber": 4, "wool": 4, "grain": 4, "ore": 4}
    generic = False
    for v, kind in geo.harbour_corners:
        if owner[v] == seat:
            if kind == "3:1":
                generic = True
            else:
                out[kind] = 2
    if generic:
        for r in RESOURCES:
            if out[r] == 4:
                out[r] = 3
    return out


def offer_targets(state: dict, offer: dict) -> list[int]:
    if offer["to"] is None:
        return [s for s in range(state["players"]) if s != offer["from"]]
    return offer["to"]


# --- what a seat may trade now ---------------------------------------------------------------

def offer_actions(state, seat) -> list[dict]:
    out = []
    for offer in state["offers"]:
        if offer["from"] == seat:
            for s, answer in offer["answers"].items():
                if answer == "accept" and can_afford(state["hands"][int(s)], offer["get"]) and \
                        can_afford(state["hands"][seat], offer["give"]):
                    out.append({"type": "confirm", "offer": offer["id"], "with": int(s)})
            out.append({"type": "withdraw", "offer": offer["id"]})
    out += answer_actions(state, seat)
    if state["offers_made"] < max_offers(state):
        hand = state["hands"][seat]
        most = least = RESOURCES[0]
        for r in RESOURCES:
            if hand[r] > hand[most]:
                most = r
            if hand[r] < hand[least]:
                least = r
        if hand[most] and most != least:
            out.append({"type": "offer", "give": {most: 1}, "get": {least: 1}, "to": None})
    return out


def answer_actions(state, seat) -> list[dict]:
    out = []
    for offer in state["offers"]:
        if seat in offer_targets(state, offer) and str(seat) not in offer["answers"]:
            if can_afford(state["hands"][seat], offer["get"]):
                out.append({"type": "answer", "offer": offer["id"], "accept": True})
            out.append({"type": "answer", "offer": offer["id"], "accept": False})
        elif offer["from"] == seat and seat != state["current"]:
            for s, answer in offer["answers"].items():
                if answer == "accept":
                    out.append({"type": "confirm", "offer": offer["id"], "with": int(s)})
            out.append({"type": "withdraw", "offer": offer["id"]})
    return out


# --- trading ---------------------------------------------------------------------------------

def do_bank_trade(w: Work, seat, action, events) -> None:
    s = w.s
    give, get = checked_resource(action.get("give")), checked_resource(action.get("get"))
    if give == get:
        raise refuse("error.same_resource")
    n = rate(s, seat, give, w.geo)
    if s["hands"][seat][give] < n:
        raise refuse("error.trade_rate", rate=n)
    if s["bank"][get] < 1:
        raise refuse("error.bank_short")
    w.pay(seat, {give: n})
    w.take(seat, {get: 1})
    events.append({"type": "bank_trade", "seat": seat, "give": {give: n}, "get": {get: 1}})


def _check_offer(s, seat, give: dict, get: dict) -> None:
    if set(give) & set(get):
        raise refuse("error.same_resource")
    if not can_afford(s["hands"][seat], give):
        raise refuse("error.not_enough")


def do_offer(w: Work, seat, action, events) -> None:
    s = w.s
    if seat != s["current"]:
        raise refuse("error.not_your_turn")
    if s["offers_made"] >= max_offers(s):
        raise refuse("error.too_many_offers", count=max_offers(s))
    give, get = checked_goods(action.get("give")), checked_goods(action.get("get"))
    _check_offer(s, seat, give, get)
    to = action.get("to")
    if to is not None:
        if not isinstance(to, list) or not to or any(
                isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < s["players"] or p == seat for p in to):
            raise refuse("error.bad_field", field="to")
        to = sorted(set(to))
    _add_offer(w, seat, give, get, to, events)
    s["offers_made"] += 1


def _add_offer(w: Work, seat, give, get, to, events) -> None:
    s = w.s
    offer = {"id": s["next_offer"], "from": seat, "to": to, "give": give, "get": get, "answers": {}}
    s["next_offer"] += 1
    w.list("offers").append(offer)
    events.append({"type": "offer", "seat": seat, "offer": offer["id"], "give": give, "get": get, "to": to})


def _find_offer(s, action) -> tuple[int, dict]:
    oid = action.get("offer")
    for i, o in enumerate(s["offers"]):
        if o["id"] == oid and not isinstance(oid, bool):
            return i, o
    raise refuse("error.no_offer")


def do_answer(w: Work, seat, action, events) -> None:
    s = w.s
    i, offer = _find_offer(s, action)
    if seat not in offer_targets(s, offer) or str(seat) in offer["answers"]:
        raise refuse("error.not_asked")
    accept = action.get("accept")
    if not isinstance(accept, bool):
        raise refuse("error.bad_field", field="accept")
    if accept and not can_afford(s["hands"][seat], offer["get"]):
        raise refuse("error.not_enough")
    counter = action.get("counter")
    if counter is not None:
        if accept or not isinstance(counter, dict):
            raise refuse("error.bad_field", field="counter")
        give, get = checked_goods(counter.get("give")), checked_goods(counter.get("get"))
        _check_offer(s, seat, give, get)
    offers = w.list("offers")
    offers[i] = dict(offer, answers=dict(offer["answers"], **{str(seat): "accept" if accept else "decline"}))
    events.append({"type": "answer", "seat": seat, "offer": offer["id"], "accept": accept})
    if counter is not None:
        _add_offer(w, seat, give, get, [offer["from"]], events)


def do_confirm(w: Work, seat, action, events) -> None:
    s = w.s
    i, offer = _find_offer(s, action)
    if offer["from"] != seat:
        raise refuse("error.not_your_offer")
    other = action.get("with")
    if offer["answers"].get(str(other)) != "accept":
        raise refuse("error.not_accepted")
    if not can_afford(s["hands"][seat], offer["give"]) or not can_afford(s["hands"][other], offer["get"]):
        raise refuse("error.not_enough")
    mine, theirs = w.hand(seat), w.hand(other)
    for r, n in offer["give"].items():
        mine[r] -= n
        theirs[r] += n
    for r, n in offer["get"].items():
        theirs[r] -= n
        mine[r] += n
    w.list("offers").pop(i)
    events.append({"type": "traded", "seat": seat, "with": other, "give": offer["give"], "get": offer["get"]})


def do_withdraw(w: Work, seat, action, events) -> None:
    i, offer = _find_offer(w.s, action)
    if offer["from"] != seat:
        raise refuse("error.not_your_offer")
    w.list("offers").pop(i)
    events.append({"type": "withdrawn", "seat": seat, "offer": offer["id"]})
