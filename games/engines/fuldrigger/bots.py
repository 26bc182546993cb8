"""A random player for playouts and tests: picks among the legal actions, weighted so that a
turn makes progress (roll, sell, buy, move) and ends."""
from __future__ import annotations

import random

from games.engines.fuldrigger import rules

WEIGHTS = {
    "roll": 100.0, "sell_cargo": 60.0, "buy_cargo": 25.0, "isthmus_load": 30.0,
    "isthmus_unload": 4.0, "move": 20.0, "buy_ship": 3.0, "buy_fortress": 2.0, "attack": 6.0,
    "fit_privateer": 1.0, "lay_off_privateer": 1.0, "sell_ship": 0.2, "offer": 0.3,
    "accept_offer": 3.0, "decline_offer": 3.0, "withdraw_offer": 0.5, "end_turn": 8.0,
}


def random_action(state: dict, seat: int, rnd: random.Random) -> dict:
    """One legal action for `seat`, chosen at random by type (weights above), then uniformly
    within the type (moves: preferring long ones, so ships get somewhere)."""
    actions = rules.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    by_type: dict[str, list[dict]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    kinds = sorted(by_type)
    kind = rnd.choices(kinds, weights=[WEIGHTS.get(k, 1.0) for k in kinds])[0]
    choices = by_type[kind]
    if kind == "move":
        longest = max(len(a["path"]) for a in choices)
        far = [a for a in choices if len(a["path"]) >= longest - 3]
        return rnd.choice(far)
    return rnd.choice(choices)
