"""Random 4-player playouts with the isthmus on reach their end, keeping the invariants."""
import json
import random
import time

import pytest

from games.engines.fuldrigger.bots import random_action
from games.engines.fuldrigger.state import (
    FORTRESS_PRICE, MAX_FORTRESSES, MAX_SHIPS, SHIP_PRICE, cargo_value, fortune,
)
from tests.engines.fuldrigger.fuldrigger_support import ENGINE, WORLD


def check_invariants(state):
    players = state["players"]
    for seat in range(players):
        ships = [s for s in state["ships"].values() if s["owner"] == seat]
        forts = [p for p, o in state["fortresses"].items() if o == seat]
        assert len(ships) <= MAX_SHIPS                                       # F22
        assert len(forts) <= MAX_FORTRESSES                                  # F27
        assert state["cash"][seat] >= 0
        assert fortune(state, seat) == (state["cash"][seat] + SHIP_PRICE * len(ships)
                                        + FORTRESS_PRICE * len(forts) + cargo_value(state, seat))
    for key, ship in state["ships"].items():
        assert key == str(ship["id"]) and ship["node"] in WORLD.nodes
        assert not (ship["privateer"] and ship["cargo"])                      # F35
    # Every one of the 108 cargo tokens is in the bank, on a ship or at an isthmus.
    at_sea = {}
    for ship in state["ships"].values():
        if ship["cargo"]:
            at_sea[ship["cargo"]["good"]] = at_sea.get(ship["cargo"]["good"], 0) + 1
    for entry in state["crossing"]:
        at_sea[entry["good"]] = at_sea.get(entry["good"], 0) + 1
    for good, data in WORLD.goods.items():
        assert state["tokens"][good] + at_sea.get(good, 0) == data["tokens"]
    assert all(p in WORLD.ports for p in state["fortresses"])
    assert state["phase"] in ("homes", "card", "play", "over")
    if state["phase"] != "homes":
        assert all(h in WORLD.homes for h in state["homes"])                    # F7
    if state["phase"] == "over":
        assert ENGINE.to_act(state) == [] and ENGINE.is_over(state)


def playout(seed, players=4, rounds=30, isthmus=True, check=True):
    rnd = random.Random(seed)
    state = ENGINE.new_game(players, f"playout-{seed}", {"rounds": rounds, "isthmus": isthmus})
    actions = 0
    kinds = set()
    while not ENGINE.is_over(state):
        system = ENGINE.system_action(state)
        if system:
            state, events = ENGINE.apply(state, None, system)
        else:
            seat = rnd.choice(ENGINE.to_act(state))
            action = random_action(state, seat, rnd)
            state, events = ENGINE.apply(state, seat, action)
        kinds.update(e["type"] for e in events)
        actions += 1
        if check:
            check_invariants(state)
            assert json.loads(json.dumps(events)) == events      # events are plain JSON too
        assert actions < 200_000, "the playout does not end"
    return state, actions, kinds


@pytest.mark.parametrize("seed", range(6))
def test_four_player_playouts_with_isthmus_end(seed):
    """F1/F3 random 4-player games with the isthmus reach their end with the invariants kept
    (≤ 6 ships and fortresses each, privateers unladen, cash ≥ 0, fortune = sum of parts)."""
    state, actions, _ = playout(seed)
    assert ENGINE.is_over(state) and state["ended"] in ("rounds", "last_fleet")
    if state["ended"] == "rounds":
        assert len(state["history"]) == 30
    table = ENGINE.standings(state)
    assert sorted(r["seat"] for r in table) == [0, 1, 2, 3]
    assert table[0]["rank"] == 1


def test_playouts_exercise_the_rules():
    """Across playouts the bot reaches trade, war, cards and crossings (the playouts mean
    something)."""
    seen = set()
    for seed in range(20):
        _, _, kinds = playout(100 + seed, rounds=40, check=False)
        seen |= kinds
    for kind in ("buy_cargo", "sell_cargo", "move", "card", "buy_ship", "buy_fortress",
                 "fit_privateer", "attack", "isthmus_unload", "offer"):
        assert kind in seen, kind


def test_two_and_three_player_games_without_isthmus():
    """Playouts with fewer players and the variant off end too."""
    for players in (2, 3):
        state, _, kinds = playout(7 + players, players=players, rounds=20, isthmus=False)
        assert ENGINE.is_over(state)
        assert "isthmus_unload" not in kinds
