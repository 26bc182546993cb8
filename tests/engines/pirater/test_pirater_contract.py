"""The engine contract: bad input, purity, determinism, JSON, the view, words, and random
playouts of every variant with the game's invariants checked after each action."""
import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.pirater.bots import random_action
from pirater_support import ENGINE, IllegalAction, choose_ports, game, get_board, rolled

PACKAGE = Path(__file__).resolve().parents[3] / "games" / "engines" / "pirater"

COMBINATIONS = [
    ({}, 2), ({}, 3), ({}, 4),
    ({"curse_island": True}, 4),
    ({"hurricane": True}, 3),
    ({"double_board": True}, 5),
    ({"double_board": True, "double_treasure": "both_on_one"}, 8),
    ({"double_board": True, "double_treasure": "both_on_one", "shipwreck": True}, 6),
    ({"shipwreck": True}, 4),
    ({"powder_ship": True}, 4),
    ({"one_two": True}, 3),
    ({"opposing_realms": True}, 2),
    ({"headwind_realm": True}, 2),
    ({"flotilla": True}, 4),
    ({"flotilla": True, "flotilla_split": "any_six", "shipwreck": True}, 3),
    ({"curse_island": True, "hurricane": True, "shipwreck": True, "powder_ship": True,
      "one_two": True}, 4),
    ({"opposing_realms": True, "flotilla": True, "powder_ship": True, "hurricane": True}, 2),
    ({"headwind_realm": True, "curse_island": True, "one_two": True, "shipwreck": True}, 2),
    ({"double_board": True, "flotilla": True, "powder_ship": True, "one_two": True,
      "curse_island": False}, 7),
]


def check_invariants(state):
    board = get_board(state["board"])
    alive = {s["id"]: board.node_of[tuple(s["at"])] for s in state["ships"] if s["at"] is not None}
    # ships stand on sea squares only, and never beside enemies on one square
    for ship in state["ships"]:
        if ship["at"] is not None:
            assert board.kind[tuple(ship["at"])] in ("sea", "trade_wind", "anchorage", "home",
                                                     "passage", "strait")
    owners = {}
    for ship_id, node in alive.items():
        owners.setdefault(node, set()).add(state["ships"][ship_id]["seat"])
    assert all(len(o) == 1 for o in owners.values())
    if not state["options"]["flotilla"]:
        assert len(set(alive.values())) == len(alive)
    # the treasures: always the same number, on an island or aboard a ship afloat
    assert len(state["treasures"]) == {"single": 1, "single2": 1}.get(state["board"],
                                                                      len(state["treasures"]))
    for t in state["treasures"]:
        assert t["ship"] is None or t["ship"] in alive
    # wrecks block: no ship has sailed onto one since (the captor may still be there)
    for seat in state["seats"]:
        afloat = [s for s in state["ships"] if s["seat"] == seat["seat"] and s["at"] is not None]
        assert seat["out"] == (not afloat) or state["phase"] == "ports"
    if state["phase"] == "over":
        assert ENGINE.to_act(state) == [] and ENGINE.legal_actions(state, 0) == []
    else:
        assert ENGINE.to_act(state) == [state["current"]]
        assert not state["seats"][state["current"]]["out"]
        assert ENGINE.legal_actions(state, state["current"])
    if state["phase"] == "move":
        assert not all(state["used"])


def playout(options, players, seed, limit=4000, check=True):
    state = ENGINE.new_game(players, seed, options)
    rnd = random.Random(seed)
    log = []
    for _ in range(limit):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_act(state)[0]
        action = random_action(state, seat, rnd)
        before = copy.deepcopy(state) if check else None
        after, events = ENGINE.apply(state, seat, action)
        if check:
            assert state == before, "apply changed its input"
            check_invariants(after)
            for event in events:
                if "dice" in event:
                    assert all(isinstance(f, int) and 1 <= f <= 6 for f in event["dice"])
        log.append((seat, action, events))
        state = after
    return state, log


@pytest.mark.parametrize("options, players", COMBINATIONS)
def test_random_playouts_of_every_variant_keep_the_invariants(options, players):
    """P1–P28 random games of each variant end (or reach a step limit) without error."""
    ended = 0
    for k in range(3):
        state, log = playout(options, players, f"playout-{players}-{k}-{sorted(options)}")
        ended += ENGINE.is_over(state)
        json.loads(json.dumps(state))
        table = ENGINE.standings(state)
        assert sorted(r["seat"] for r in table) == list(range(players))
        assert table[0]["rank"] == 1
    assert ended >= 2


@settings(max_examples=15, deadline=None)
@given(seed=st.text(min_size=1, max_size=12), players=st.integers(2, 4))
def test_any_seed_plays_to_a_legal_end(seed, players):
    """P8–P19 any seed gives a game whose every state keeps the invariants."""
    playout({}, players, seed, limit=1500)


def test_apply_is_deterministic():
    """Randomness comes from the state: the same seed and actions give the same game."""
    state, log = playout({"hurricane": True, "one_two": True}, 3, "same", check=False)
    again = ENGINE.new_game(3, "same", {"hurricane": True, "one_two": True})
    for seat, action, events in log:
        again, replay_events = ENGINE.apply(again, seat, action)
        assert replay_events == events
    assert again == state


def test_state_and_events_survive_a_json_round_trip():
    state = ENGINE.new_game(4, "json", {"powder_ship": True})
    for _ in range(60):
        seat = ENGINE.to_act(state)[0]
        action = ENGINE.legal_actions(state, seat)[-1]
        state, events = ENGINE.apply(json.loads(json.dumps(state)), seat, action)
        assert json.loads(json.dumps(events)) == events
        assert json.loads(json.dumps(state)) == state
        if ENGINE.is_over(state):
            break


def test_view_hides_the_seed_and_carries_the_board():
    """The seed stays secret; the page gets squares, ports, ships and their cells."""
    state = choose_ports(ENGINE.new_game(2, "a-very-secret-seed", {}))
    for seat in (0, 1, None):
        seen = ENGINE.view(state, seat)
        assert "seed" not in seen and "a-very-secret-seed" not in json.dumps(seen)
        assert seen["layout"]["rows"] == 14 and seen["layout"]["cols"] == 22
        assert len(seen["layout"]["cells"]) == 14 * 22
        assert {p["seat"] for p in seen["ports"]} == {0, 1, None}
        assert all(s["cells"] == [s["at"]] for s in seen["ships"])
    assert state["seed"] == "a-very-secret-seed"


def test_view_shows_a_ship_in_a_strait_on_both_halves():
    """P4 the page draws a ship in a strait on both halves."""
    state = game()
    state["ships"][0]["at"] = [0, 4]
    ship = ENGINE.view(state, 0)["ships"][0]
    assert ship["cells"] == [[0, 4], [13, 4]]


def test_system_action_is_never_needed():
    state = game()
    assert ENGINE.system_action(state) is None
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, {"type": "roll"})


@pytest.mark.parametrize("action", [
    None, [], "roll", {}, {"type": "sail"}, {"type": 3},
    {"type": "move", "die": 3, "ship": 0, "direction": "n"},          # before rolling
])
def test_bad_actions_are_refused_before_the_roll(action):
    with pytest.raises(IllegalAction):
        ENGINE.apply(game(), 0, action)


@pytest.mark.parametrize("action", [
    {"type": "roll"},
    {"type": "move"},
    {"type": "move", "die": "3", "ship": 0, "direction": "e"},
    {"type": "move", "die": 3, "ship": "0", "direction": "e"},
    {"type": "move", "die": True, "ship": 0, "direction": "e"},
    {"type": "move", "die": 3, "ship": 0, "direction": "up"},
    {"type": "move", "die": 3, "ship": 0, "direction": None},
    {"type": "move", "die": 5, "ship": 0, "direction": "e"},          # no such die
    {"type": "move", "die": 3, "ship": 3, "direction": "w"},          # not my ship
    {"type": "move", "die": 3, "ship": 99, "direction": "e"},
    {"type": "move", "die": 3, "ship": -1, "direction": "e"},
    {"type": "move", "die": 3, "ship": 0, "direction": "e", "split": "yes"},
    {"type": "move", "die": 3, "ship": 0, "direction": "e", "split": True},
    {"type": "move", "die": 3, "ship": 0, "direction": "n"},          # onto land
    {"type": "move", "die": 3, "ship": 0, "direction": "ne"},         # diagonal at sea
    {"type": "declare_powder", "ship": 0},
])
def test_bad_actions_are_refused_after_the_roll(action):
    state = rolled(game(), [3, 4], seat=0)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, action)
    assert state == before


@pytest.mark.parametrize("seat", [1, 2, -1, None, "0", True])
def test_only_the_player_to_act_may_act(seat):
    with pytest.raises(IllegalAction):
        ENGINE.apply(game(), seat, {"type": "roll"})
    assert ENGINE.legal_actions(game(), seat) == []


def test_a_finished_game_takes_no_actions():
    state = game()
    state["phase"] = "over"
    state["winner"] = 0
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 0, {"type": "roll"})
    assert ENGINE.to_act(state) == []


def test_timeout_action_is_legal():
    state = ENGINE.new_game(2, "timeout", {})
    for _ in range(40):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_act(state)[0]
        action = ENGINE.timeout_action(state, seat)
        assert action in ENGINE.legal_actions(state, seat)
        state, _ = ENGINE.apply(state, seat, action)


def test_every_listed_action_applies():
    """legal_actions offers nothing apply refuses."""
    state = ENGINE.new_game(4, "every", {"powder_ship": True, "flotilla": True})
    rnd = random.Random(1)
    for _ in range(80):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_act(state)[0]
        for action in ENGINE.legal_actions(state, seat):
            ENGINE.apply(state, seat, action)
        state, _ = ENGINE.apply(state, seat, random_action(state, seat, rnd))


def test_describe_puts_every_event_into_words():
    names = ["Anna", "Bo", "Cia", "Dan", "Eve", "Fia", "Gus", "Hal"]
    seen = {}
    for options, players in COMBINATIONS:
        state, log = playout(options, players, "words", limit=600, check=False)
        for event in state["start"]:
            seen.setdefault(event["type"], event)
        for _, _, events in log:
            for event in events:
                seen.setdefault(event["type"], event)
    for kind in ("start_roll", "first_player", "roll", "move", "turn", "treasure_loaded", "win"):
        assert kind in seen
    for kind, event in seen.items():
        text = ENGINE.describe(event, names)
        assert isinstance(text, str) and text and text != kind
    roll = ENGINE.describe({"type": "roll", "seat": 0, "dice": [5, 2]}, names)
    assert roll == "Anna rolled 5 and 2"
    moved = ENGINE.describe({"type": "move", "seat": 0, "ship": 0, "ships": [0], "die": 5,
                             "direction": "n", "captured": [{"ship": 4, "seat": 1}]}, names)
    assert moved == "Anna's ship sailed 5 squares north and captured Bo's ship"


def test_standings_rank_the_winner_first_then_by_ships_left():
    state = game(3)
    state["ships"][3]["at"] = None      # seat 1 has lost one ship
    table = ENGINE.standings(state)
    assert [r["seat"] for r in table] == [0, 2, 1]
    assert [r["rank"] for r in table] == [1, 1, 3]
    assert table[2]["score"] == 2 and table[2]["detail"]["ships"] == 2
    state["winner"], state["phase"] = 2, "over"
    assert [r["seat"] for r in ENGINE.standings(state)] == [2, 0, 1]


def test_the_engine_imports_no_django():
    for path in PACKAGE.glob("*.py"):
        assert "django" not in path.read_text(), path.name


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 100) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6)
FIELDS = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["roll", "move", "declare_powder", "pass"]) | JSONISH,
    "die": st.integers(0, 7) | JSONISH,
    "ship": st.integers(-1, 13) | JSONISH,
    "direction": st.sampled_from(["n", "ne", "e", "se", "s", "sw", "w", "nw"]) | JSONISH,
    "split": st.booleans() | JSONISH,
})


@settings(max_examples=300, deadline=None)
@given(action=FIELDS | JSONISH, phase=st.sampled_from(["roll", "move"]), seat=st.integers(-1, 2))
def test_any_input_is_applied_or_refused_as_illegal(action, phase, seat):
    """apply answers anything with a new state or IllegalAction, never another error."""
    state = ENGINE.new_game(2, "fuzz", {"flotilla": True, "powder_ship": True})
    state["current"] = 0
    if phase == "move":
        state = rolled(state, [3, 5], seat=0)
    before = copy.deepcopy(state)
    try:
        ENGINE.apply(state, seat, action)
    except IllegalAction:
        pass
    assert state == before
