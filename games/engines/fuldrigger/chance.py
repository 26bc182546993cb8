"""Turning a chance card (F43) and doing what it says.

The deck is a list of card ids in the state (secret; the view shows only how many are left).
When it is used up every card is shuffled back in. Edition 2 (F43 as the original says it):
the reshuffle ends every open "first to reach" reward, and a reward card turned again later
opens a new one. Edition 1 kept open rewards through the reshuffle and left a claimed card void
for the rest of the game. Effects "for this round" are kept in state["effects"] until the next
card is turned.
"""
from __future__ import annotations

from games.engines import dice
from games.engines.base import edition_of
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.cards import CARD_IDS, card
from games.engines.fuldrigger.sailing import pirates_spare
from games.engines.fuldrigger.state import (
    fortresses_of, fortunes, lose_cargo, remove_ship, ships_of,
)

ROUND_EFFECTS = ("price", "marque", "convoy", "canal_closed", "embargo", "fog", "fair_winds")


def draw_card(state: dict, events: list) -> None:
    state["effects"] = []                      # last round's cards lapse
    if not state["deck"]:
        state["deck"] = dice.shuffle(state, list(CARD_IDS))
        state["discard"] = []
        event = {"type": "reshuffle"}
        if edition_of(state) >= 2 and state["bounties"]:
            event["ended"] = list(state["bounties"])    # F43: open rewards end unclaimed
            state["bounties"] = []
        events.append(event)
    card_id = state["deck"][0]
    state["deck"] = state["deck"][1:]
    state["discard"].append(card_id)
    state["last_card"] = card_id
    data = card(card_id)
    event = {"type": "card", "card": card_id, "title": data["title"], "text": data["text"],
             "round": state["round"]}
    events.append(event)
    effect = data["effect"]
    if effect in ROUND_EFFECTS:
        state["effects"].append({"kind": effect, "card": card_id,
                                 **{k: data.get(k) for k in ("port", "good", "amount")
                                    if k in data}})
        return
    EFFECTS[effect](state, data, events, event)


def _at_sea(state: dict) -> list[dict]:
    return [s for s in state["ships"].values()
            if not WORLD.is_port(s["node"]) and not state["out"][s["owner"]]]


def _ship_ids_sorted(ships: list[dict]) -> list[dict]:
    return sorted(ships, key=lambda s: s["id"])


def _first_to_reach(state, data, events, event):
    if data["id"] in state["claimed"] and edition_of(state) == 1:
        event["void"] = True                   # paid out before the last shuffle: nothing
    elif data["id"] not in state["bounties"]:
        state["bounties"].append(data["id"])


def _storm(state, data, events, event):
    near = WORLD.within(data["port"], data["radius"])
    for ship in _ship_ids_sorted([s for s in _at_sea(state) if s["node"] in near]):
        faces = dice.roll(state, 2)
        sunk = sum(faces) <= data["sinks_upto"]
        cargo = ship["cargo"]["good"] if ship["cargo"] else None
        if sunk:
            remove_ship(state, ship)
        events.append({"type": "card_storm", "seat": ship["owner"], "ship": ship["id"],
                       "name": ship["name"], "node": ship["node"], "dice": faces,
                       "sunk": sunk, "cargo": cargo})


def _gale(state, data, events, event):
    for ship in _ship_ids_sorted(_at_sea(state)):
        seas = [n for n in WORLD.neighbours(ship["node"]) if not WORLD.is_port(n)]
        if not seas:
            continue
        start = ship["node"]
        ship["node"] = seas[dice.draw(state, len(seas))] if len(seas) > 1 else seas[0]
        # Drifting is not sailing: no hazard acts and no square counts for the cargo (F30).
        events.append({"type": "drift", "seat": ship["owner"], "ship": ship["id"],
                       "name": ship["name"], "from": start, "to": ship["node"]})


def _pirate_raid(state, data, events, event):
    pirate_squares = [n for n in WORLD.nodes if WORLD.hazard(n, edition_of(state)) == "pirates"]
    for ship in _ship_ids_sorted(_at_sea(state)):
        if ship["cargo"] is None:
            continue
        near = [p for p in pirate_squares if WORLD.distance(ship["node"], p) <= data["radius"]]
        if not near or all(pirates_spare(state, ship, p) for p in near):
            continue
        faces = dice.roll(state, 2)
        lost = sum(faces) <= data["loses_upto"]
        cargo = ship["cargo"]["good"]
        if lost:
            lose_cargo(state, ship)
        events.append({"type": "card_raid", "seat": ship["owner"], "ship": ship["id"],
                       "name": ship["name"], "node": ship["node"], "dice": faces,
                       "lost": lost, "cargo": cargo})


def _pay(state, events, seat, amount, reason):
    amount = min(amount, state["cash"][seat])  # nobody's cash goes below zero
    if amount:
        state["cash"][seat] -= amount
        events.append({"type": "card_pay", "seat": seat, "amount": amount, "reason": reason})


def _receive(state, events, seat, amount, reason):
    if amount:
        state["cash"][seat] += amount
        events.append({"type": "card_receive", "seat": seat, "amount": amount, "reason": reason})


def _players(state):
    return [s for s in range(state["players"]) if not state["out"][s]]


def _tax_ships(state, data, events, event):
    for seat in _players(state):
        _pay(state, events, seat, data["amount"] * len(ships_of(state, seat)), data["id"])


def _tax_cash(state, data, events, event):
    for seat in _players(state):
        _pay(state, events, seat, state["cash"][seat] * data["percent"] // 100, data["id"])


def _tax_fortresses(state, data, events, event):
    for seat in _players(state):
        _pay(state, events, seat, data["amount"] * len(fortresses_of(state, seat)), data["id"])


def _tax_privateers(state, data, events, event):
    for seat in _players(state):
        count = sum(1 for s in ships_of(state, seat) if s["privateer"])
        _pay(state, events, seat, data["amount"] * count, data["id"])


def _windfall(state, data, events, event):
    for seat in _players(state):
        _receive(state, events, seat, data["amount"], data["id"])


def _dividend(state, data, events, event):
    for seat in _players(state):
        _receive(state, events, seat, data["amount"] * len(ships_of(state, seat)), data["id"])


def _interest(state, data, events, event):
    for seat in _players(state):
        amount = min(data["cap"], state["cash"][seat] * data["percent"] // 100)
        _receive(state, events, seat, amount, data["id"])


def _scurvy(state, data, events, event):
    """Scurvy in the richest fleet: the player(s) with the largest fortune lose the next turn.
    Edition 3 (docs/rules/fuldrigger.md, "Scurvy"): where every player still in shares the
    largest fortune — as at the start, when all hold the same — no fleet is the richest and the
    card passes; editions 1 and 2 took a turn from everyone then (a whole round lost)."""
    players = _players(state)
    wealth = fortunes(state)
    top = max(wealth[s] for s in players)
    richest = [seat for seat in players if wealth[seat] == top]
    if edition_of(state) >= 3 and len(richest) == len(players):
        events.append({"type": "scurvy_spared"})
        return
    for seat in richest:
        state["skip"][seat] = True
        events.append({"type": "scurvy", "seat": seat})


def _dead_calm(state, data, events, event):
    near = WORLD.within(WORLD.calm_square, data["radius"])
    for ship in _ship_ids_sorted([s for s in _at_sea(state) if s["node"] in near]):
        ship["calm"] = True
        events.append({"type": "becalmed", "seat": ship["owner"], "ship": ship["id"],
                       "name": ship["name"], "node": ship["node"]})


EFFECTS = {
    "first_to_reach": _first_to_reach,
    "storm": _storm,
    "gale": _gale,
    "pirate_raid": _pirate_raid,
    "tax_ships": _tax_ships,
    "tax_cash": _tax_cash,
    "tax_fortresses": _tax_fortresses,
    "tax_privateers": _tax_privateers,
    "windfall": _windfall,
    "dividend": _dividend,
    "interest": _interest,
    "scurvy": _scurvy,
    "dead_calm": _dead_calm,
}
