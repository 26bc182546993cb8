"""Whole random games and the contract's promises: every game ends with a winner, apply is pure
and deterministic, accepts exactly the listed actions, states survive JSON, views hide hands."""
import copy
import json
import random

import pytest

from catan_support import ENGINE, RESOURCES, fresh, geometry, random_game
from games.engines import IllegalAction


def conserved(state):
    total = 24 if state["players"] > 4 else 19
    for r in RESOURCES:
        held = state["bank"][r] + sum(h[r] for h in state["hands"]) + \
            sum(s["cargo"].get(r, 0) for s in state["ships"])
        assert held == total, r
        assert state["bank"][r] >= 0 and all(h[r] >= 0 for h in state["hands"])
    for seat, (roads, settlements, cities) in enumerate(state["pieces"]):
        assert roads <= 15 and settlements <= 5 and cities <= 4
        assert sum(1 for o in state["roads"] if o == seat) == roads
        assert sum(1 for v, o in enumerate(state["owner"]) if o == seat and not state["city"][v]) == settlements
        assert sum(1 for s in state["ships"] if s["seat"] == seat) <= 3
    for s in state["ships"]:
        assert sum(s["cargo"].values()) <= 3


@pytest.mark.rule("B-win")
@pytest.mark.rule("C1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("ships", [False, True])
def test_random_games_end_with_a_winner(players, ships):
    for seed in ("one", "two"):
        state, steps = random_game(players, ships, f"{players}-{ships}-{seed}")
        assert state["phase"] == "over"
        winner = state["winner"]
        from games.engines.catan_ships.scoring import total_points
        assert total_points(state, winner) >= (12 if ships else 10)
        assert ENGINE.standings(state)[0]["seat"] == winner
        conserved(state)


@pytest.mark.parametrize("players, ships", [(4, False), (4, True), (5, True), (6, False)])
def test_apply_is_pure_deterministic_and_states_survive_json(players, ships):
    """Checked at every step of the first 1,200 (the later states only grow their logbooks)."""
    steps = []

    def check(state, seat, action):
        steps.append(1)
        if len(steps) > 1200:
            return
        before = copy.deepcopy(state)
        after, events = ENGINE.apply(state, seat, action)
        assert state == before, "apply never mutates its input"
        assert ENGINE.apply(before, seat, action) == (after, events)
        assert json.loads(json.dumps(after)) == after
        conserved(after)
    random_game(players, ships, f"pure-{players}-{ships}", check=check)


def _probes(state, seat, rnd):
    """Actions of every kind with random targets, listed or not."""
    geo = geometry(state["board"])
    edge = lambda: rnd.randrange(geo.edge_count)
    vertex = lambda: rnd.randrange(geo.vertex_count)
    out = [{"type": "build_road", "edge": edge()}, {"type": "build_settlement", "vertex": vertex()},
           {"type": "build_city", "vertex": vertex()}, {"type": "build_ship", "edge": edge()},
           {"type": "place_settlement", "vertex": vertex()}, {"type": "place_road", "edge": edge()},
           {"type": "move_robber", "hex": rnd.randrange(geo.hex_count), "steal_from": rnd.choice([None, 0, 1, 2])},
           {"type": "move_pirate", "edge": edge()}, {"type": "roll"}, {"type": "end_turn"},
           {"type": "buy_development"}, {"type": "end_sailing"}, {"type": "pass"},
           {"type": "sail", "ship": 1, "edge": edge()}, {"type": "unload", "ship": rnd.randrange(1, 4)},
           {"type": "play_monopoly", "resource": rnd.choice(RESOURCES)},
           {"type": "bank_trade", "give": rnd.choice(RESOURCES), "get": rnd.choice(RESOURCES)}]
    return out


@pytest.mark.parametrize("ships", [False, True])
def test_apply_accepts_exactly_what_legal_actions_lists(ships):
    """Sampled along a random game: every listed action applies; a probe of a closed kind
    (a place on the board, a fixed move) applies exactly when it is listed."""
    rnd = random.Random(7)
    checked = {"listed": 0, "refused": 0}

    def check(state, seat, action):
        legal = ENGINE.legal_actions(state, seat)
        if rnd.random() < 0.2:
            for listed in legal:
                ENGINE.apply(state, seat, listed)
                checked["listed"] += 1
        for probe in _probes(state, seat, rnd):
            try:
                ENGINE.apply(state, seat, probe)
                ok = True
            except IllegalAction:
                ok = False
            if probe["type"] == "move_robber" and ok:
                assert probe in legal
            elif probe["type"] not in ("bank_trade",):
                assert ok == (probe in legal), (probe, state["phase"])
            checked["refused"] += not ok
    random_game(4, ships, f"exact-{ships}", check=check)
    assert checked["listed"] > 100 and checked["refused"] > 100


@pytest.mark.rule("B-hidden")
@pytest.mark.rule("C19")
def test_views_hide_hands_development_cards_deck_and_seed():
    state, _ = random_game(4, True, "views", limit=60000)
    # a state in the middle of a game, not the end
    rnd = random.Random(3)
    s = fresh(4, True, "views-mid")
    from games.engines.catan_ships.bots import random_action
    for _ in range(600):
        seat = ENGINE.to_act(s)[0]
        s, _ = ENGINE.apply(s, seat, random_action(s, seat, rnd))
    s["dev"] = [[["victory_point", 1]], [["monopoly", 2]], [], []]
    for viewer in (None, 0, 1, 2, 3):
        view = ENGINE.view(s, viewer)
        text = json.dumps(view)
        assert s["seed"] not in text and "draws" not in view and "deck" not in view
        for p in view["players"]:
            if p["seat"] == viewer:
                assert p["hand"] == s["hands"][viewer]
                assert [c["kind"] for c in p["dev_cards"]] == [k for k, _ in s["dev"][viewer]]
            else:
                assert "hand" not in p and "dev_cards" not in p and "hidden_points" not in p
                assert p["cards"] == sum(s["hands"][p["seat"]].values())
                assert p["development"] == len(s["dev"][p["seat"]])
    assert ENGINE.view(s, 0)["players"][0]["hidden_points"] == 1


def test_same_seed_and_actions_same_state():
    a, steps_a = random_game(4, True, "again")
    b, steps_b = random_game(4, True, "again")
    assert a == b and steps_a == steps_b
