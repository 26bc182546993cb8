"""The engine contract: options, illegal input, purity, determinism, JSON, view, words."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.fuldrigger.bots import random_action
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, cargo, first, game, play, put_ship, rolled, ship_ids,
)

ACTION_TYPES = ["roll", "move", "buy_cargo", "sell_cargo", "buy_ship", "sell_ship",
                "buy_fortress", "fit_privateer", "lay_off_privateer", "attack",
                "isthmus_unload", "isthmus_load", "offer", "accept_offer", "decline_offer",
                "withdraw_offer", "end_turn", "draw_card"]


def test_engine_members():
    """The registry's members: name, title, bounds and options."""
    assert (ENGINE.name, ENGINE.title, ENGINE.min_players, ENGINE.max_players) == \
        ("fuldrigger", "Fuldrigger", 2, 4)
    options = {o["name"]: o for o in ENGINE.options()}
    assert options["rounds"]["default"] == 0 and options["rounds"]["max"] == 200
    assert options["isthmus"]["default"] is False          # a variant: off (edition 2)
    assert options["start_cash"]["min"] == 50 and options["start_cash"]["max"] == 1000
    assert ENGINE.check_options({}, 3) == {"rounds": 0, "isthmus": False, "start_cash": 100}
    assert ENGINE.check_options({}, 3, edition=1)["isthmus"] is True
    assert ENGINE.check_options({"isthmus": "off", "rounds": "12"}, 2)["isthmus"] is False
    for players in (1, 5, "3", None):
        with pytest.raises(IllegalAction, match="2 to 4"):
            ENGINE.check_options({}, players)
    with pytest.raises(IllegalAction):
        ENGINE.check_options({"rounds": 500}, 2)
    with pytest.raises(IllegalAction):
        ENGINE.check_options({"colour": "red"}, 2)


@pytest.mark.parametrize("action,message", [
    ({"type": "teleport"}, "Unknown action"),
    ({}, "type"),
    ({"type": 7}, "type"),
    ({"type": "move"}, "ship"),
    ({"type": "move", "ship": "x", "path": []}, "ship"),
    ({"type": "move", "ship": 999, "path": ["x"]}, "no ship"),
    ({"type": "buy_cargo", "ship": 1}, "good"),
    ({"type": "buy_cargo", "ship": 1, "good": ["tea"]}, "good"),
    ({"type": "buy_fortress"}, "port"),
    ({"type": "buy_fortress", "port": "atlantis"}, "no port"),
    ({"type": "offer", "to": 0}, "yourself"),
    ({"type": "offer", "to": 1, "give": {"ducats": -5}}, "ducats"),
    ({"type": "offer", "to": 1, "give": {"gold": 5}}, "only ducats"),
    ({"type": "offer", "to": 1}, "something"),
    ({"type": "accept_offer", "offer": 3}, "no open offer"),
    ({"type": "attack", "target": "nowhere"}, "Roll"),
    ({"type": "isthmus_load", "ship": 1, "cargo": "a"}, "cargo"),
    ({"type": "end_turn"}, "Roll"),
    ({"type": "draw_card"}, "bank"),
])
def test_bad_input_is_an_illegal_action(action, message):
    """Malformed or unknown actions raise IllegalAction with a readable message."""
    state = game(2)
    with pytest.raises(IllegalAction, match=message):
        ENGINE.apply(state, 0, action)


def test_wrong_seat_and_non_dict_actions():
    """A seat that may not act, a seat that does not exist, and actions that are not objects."""
    state = game(2)
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, 1, {"type": "roll"})
    for seat in (5, -1, "0", True):
        with pytest.raises(IllegalAction, match="seat"):
            ENGINE.apply(state, seat, {"type": "roll"})
    for action in (None, "roll", ["roll"], 3):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, action)
    with pytest.raises(IllegalAction, match="system"):
        ENGINE.apply(state, None, {"type": "roll"})
    with pytest.raises(IllegalAction, match="No chance card"):
        ENGINE.apply(state, None, {"type": "draw_card"})
    assert ENGINE.legal_actions(state, 1) == []


def test_moving_too_far_selling_too_early_buying_too_poor():
    """The three refusals a player meets most: too far, too early, too poor."""
    state = rolled(game(2), 3)
    number = ship_ids(state, 0)[0]
    far = max(WORLD.distances_from(state["homes"][0]).items(), key=lambda kv: kv[1])[0]
    path = _shortest(state["homes"][0], far)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "move", "ship": number, "path": path})
    port = next(p for p in WORLD.prices for g, e in WORLD.prices[p].items() if e["sell"])
    good = next(g for g, e in WORLD.prices[port].items() if e["sell"])
    ship = put_ship(state, 0, port, cargo=cargo(good, carried=0))
    with pytest.raises(IllegalAction, match="before it can be sold"):
        ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
    state["cash"][0] = 0
    with pytest.raises(IllegalAction, match="costs"):
        ENGINE.apply(state, 0, {"type": "buy_ship"})


def _shortest(a, b):
    from collections import deque
    previous = {a: None}
    queue = deque([a])
    while queue:
        node = queue.popleft()
        for nxt in WORLD.neighbours(node):
            if nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    path = [b]
    while previous[path[-1]] != a:
        path.append(previous[path[-1]])
    return path[::-1]


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(list(WORLD.nodes)[:20] + list(WORLD.goods)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["ducats", "ships", "fortresses", "0", "1", "2"]), inner, max_size=3),
    max_leaves=8)
fields = st.dictionaries(
    st.sampled_from(["ship", "path", "good", "port", "to", "give", "take", "offer", "target",
                     "defender", "ships", "paths", "prize", "cargo"]), junk, max_size=5)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(ACTION_TYPES), body=fields, seat=st.sampled_from([0, 1, None]),
       moment=st.integers(0, 40))
def test_garbage_never_escapes_as_another_error(kind, body, seat, moment):
    """Whatever a client sends, apply answers with a new state or an IllegalAction."""
    states = _sample_states()
    state = states[moment % len(states)]
    before = json.dumps(state, sort_keys=True)
    try:
        ENGINE.apply(state, seat, {"type": kind, **body})
    except IllegalAction:
        pass
    assert json.dumps(state, sort_keys=True) == before


_SAMPLES = []


def _sample_states():
    if not _SAMPLES:
        state = ENGINE.new_game(2, "garbage", {"rounds": 10})
        _SAMPLES.extend(play(state, random.Random(3), 120)[::3])
    return _SAMPLES


def test_apply_never_mutates_its_input_and_is_deterministic():
    """apply is pure: the input is unchanged, and the same state and action give the same
    result (the dice come from the state's seed and counter)."""
    rnd = random.Random(11)
    state = ENGINE.new_game(4, "pure", {"rounds": 6})
    for _ in range(300):
        if ENGINE.is_over(state):
            break
        system = ENGINE.system_action(state)
        seat = None if system else rnd.choice(ENGINE.to_act(state))
        action = system or random_action(state, seat, rnd)
        before = json.dumps(state, sort_keys=True)
        new, events = ENGINE.apply(state, seat, action)
        assert json.dumps(state, sort_keys=True) == before
        again, events_again = ENGINE.apply(state, seat, action)
        assert again == new and events_again == events
        state = new


def test_json_round_trip():
    """The state is plain JSON: after dumps/loads play goes on identically."""
    rnd = random.Random(5)
    states = play(ENGINE.new_game(3, "json", {"rounds": 5}), rnd, 150)
    for state in states[::10]:
        copy = json.loads(json.dumps(state))
        assert copy == state
        if not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0] if ENGINE.to_act(state) else None
            action = ENGINE.system_action(state) or ENGINE.timeout_action(state, seat)
            assert ENGINE.apply(copy, seat, action) == ENGINE.apply(state, seat, action)


def test_replay_from_seed_and_log():
    """Provably fair: the same seed and action log give the same game."""
    rnd = random.Random(8)
    state = ENGINE.new_game(2, "replay", {"rounds": 4})
    log = []
    while not ENGINE.is_over(state):
        system = ENGINE.system_action(state)
        seat = None if system else rnd.choice(ENGINE.to_act(state))
        action = system or random_action(state, seat, rnd)
        log.append((seat, action))
        state, _ = ENGINE.apply(state, seat, action)
    replay = ENGINE.new_game(2, "replay", {"rounds": 4})
    for seat, action in log:
        replay, _ = ENGINE.apply(replay, seat, action)
    assert replay == state


def test_every_roll_appears_as_dice_in_an_event():
    """Every die drawn shows in an event's "dice" (shuffles of the deck aside)."""
    rnd = random.Random(2)
    state = ENGINE.new_game(3, "dice", {"rounds": 8})
    while not ENGINE.is_over(state):
        system = ENGINE.system_action(state)
        seat = None if system else rnd.choice(ENGINE.to_act(state))
        action = system or random_action(state, seat, rnd)
        new, events = ENGINE.apply(state, seat, action)
        drawn = new["draws"] - state["draws"]
        shown = sum(len(e.get("dice", [])) for e in events)
        drifts = sum(1 for e in events if e["type"] == "drift")
        if any(e["type"] == "reshuffle" for e in events):
            drawn -= 27
        assert shown <= drawn <= shown + drifts, events
        state = new


def test_view_hides_seed_deck_and_others_offers():
    """view removes the seed and the deck order; an offer shows only to its two parties."""
    state = game(3)
    state, events = ENGINE.apply(state, 0, {"type": "offer", "to": 1, "give": {"ducats": 10}})
    for seat in (None, 0, 1, 2):
        seen = ENGINE.view(state, seat)
        text = json.dumps(seen)
        assert "seed" not in seen and "deck" not in seen
        assert "fuldrigger-test" not in text
        assert seen["deck_left"] == len(state["deck"])
        assert len(seen["offers"]) == (1 if seat in (0, 1) else 0)
        assert seen["ships"] == state["ships"] and seen["cash"] == state["cash"]
    assert ENGINE.view(state, 1)["to_act"] == [0, 1]
    assert json.loads(json.dumps(ENGINE.view(state, 0)))


def test_timeout_action_is_always_legal():
    """timeout_action: roll if not rolled, else end the turn; an answering seat declines."""
    rnd = random.Random(4)
    for state in play(ENGINE.new_game(4, "timeout", {"rounds": 6}), rnd, 400):
        for seat in ENGINE.to_act(state):
            action = ENGINE.timeout_action(state, seat)
            ENGINE.apply(state, seat, action)
    state = game(2)
    state, _ = ENGINE.apply(state, 0, {"type": "offer", "to": 1, "give": {"ducats": 10}})
    assert ENGINE.timeout_action(state, 1)["type"] == "decline_offer"
    assert ENGINE.timeout_action(state, 0) == {"type": "roll"}


def test_describe_tells_every_event_in_words():
    """describe gives one plain sentence for every event, naming players and places."""
    rnd = random.Random(9)
    names = ["Anna", "Bo", "Carl", "Dora"]
    state = ENGINE.new_game(4, "words", {"rounds": 12})
    kinds = set()
    while not ENGINE.is_over(state):
        system = ENGINE.system_action(state)
        seat = None if system else rnd.choice(ENGINE.to_act(state))
        state, events = ENGINE.apply(state, seat, system or random_action(state, seat, rnd))
        for event in events:
            text = ENGINE.describe(event, names)
            assert isinstance(text, str) and text and "{" not in text
            kinds.add(event["type"])
    assert {"roll", "move", "card", "turn"} <= kinds
    storm = {"type": "storm", "seat": 0, "ship": 1, "name": "Maria", "node": WORLD.ports[0],
             "dice": [1, 2], "sunk": True, "cargo": next(iter(WORLD.goods))}
    text = ENGINE.describe(storm, names)
    assert "Anna rolled 3" in text and "Maria sinks" in text


def test_history_records_fortunes_each_round():
    """state["history"] gets every seat's fortune at the end of each round, for the chart."""
    state = game(2, rounds=3)
    for _ in range(3):
        for seat in (0, 1):
            while state["phase"] == "card":
                state, _ = ENGINE.apply(state, None, {"type": "draw_card"})
            if state["phase"] == "over":
                break
            seat = state["turn"]["seat"]
            state, _ = ENGINE.apply(state, seat, {"type": "roll"})
            state, _ = ENGINE.apply(state, seat, {"type": "end_turn"})
    assert ENGINE.is_over(state)
    assert len(state["history"]) == 3 and all(len(row) == 2 for row in state["history"])
    assert state["history"][-1] == [r["score"] for r in sorted(ENGINE.standings(state),
                                                              key=lambda r: r["seat"])]


def test_ranks_tie():
    """standings: equal fortunes share a rank."""
    table = ENGINE.standings(game(3))
    assert [r["rank"] for r in table] == [1, 1, 1]
    assert first([{"type": "x", **r} for r in table], "x")["score"] == 400


def test_offer_events_keep_the_terms_private():
    """An offer's terms reach only its two parties: the public event names only who offered
    to whom; acceptance makes the exchange public."""
    state = game(3)
    state, events = ENGINE.apply(state, 0, {"type": "offer", "to": 1, "give": {"ducats": 77}})
    event = first(events, "offer")
    assert "give" not in event and "take" not in event and "77" not in json.dumps(events)
    assert "77" not in ENGINE.describe(event, ["A", "B", "C"])
    _, events = ENGINE.apply(state, 1, {"type": "accept_offer", "offer": event["offer"]})
    assert "77 ducats" in ENGINE.describe(first(events, "accept_offer"), ["A", "B", "C"])


def test_every_listed_action_is_legal():
    """Everything legal_actions lists, apply accepts (sampled over a 4-player game)."""
    rnd = random.Random(21)
    states = play(ENGINE.new_game(4, "listed", {"rounds": 15}), rnd, 900)
    checked = set()
    for state in states[::7]:
        for seat in ENGINE.to_act(state):
            actions = ENGINE.legal_actions(state, seat)
            moves = [a for a in actions if a["type"] == "move"]
            others = [a for a in actions if a["type"] != "move"]
            for action in others + rnd.sample(moves, min(8, len(moves))):
                ENGINE.apply(state, seat, action)
                checked.add(action["type"])
    assert {"roll", "move", "end_turn", "buy_cargo", "attack", "offer"} <= checked
