"""Every registered engine through the same checks of the contract."""
import copy
import importlib
import json
import pathlib
import random

import pytest

from games.engines import ENGINES, IllegalAction, may_act

ENGINE_DIR = pathlib.Path(__file__).resolve().parents[2] / "games" / "engines"


@pytest.fixture(params=sorted(ENGINES))
def engine(request):
    return ENGINES[request.param]


def _playout(engine, players, seed, steps=300, options=None):
    """A random game: a random seat of those that may act (may_act: optional moves too), the
    game's own random player where it has one (it builds, so the playout reaches the later
    game: ships at sea, pirates, full holds), else any legal action. The state given to apply is
    compared deeply with a copy taken before, after every apply."""
    try:
        bots = importlib.import_module(f"games.engines.{engine.name}.bots")
    except ImportError:
        bots = None
    rnd = random.Random(seed)
    state = engine.new_game(players, seed, options or {})
    for _ in range(steps):
        if engine.is_over(state):
            break
        system = engine.system_action(state)
        if system is not None:
            seat, action = None, system
        else:
            seat = rnd.choice(may_act(engine, state))
            actions = engine.legal_actions(state, seat)
            assert actions, "a seat that may act has at least one legal action"
            if bots is not None and seat in engine.to_act(state):
                action = bots.random_action(state, seat, rnd)
            else:
                action = rnd.choice(actions)
        before = copy.deepcopy(state)
        state2, events = engine.apply(state, seat, action)
        assert state == before, ("apply never mutates its input", engine.name, players, options, action)
        assert all("type" in e for e in events)
        for e in events:
            if "dice" in e:
                assert all(1 <= d <= 20 for d in e["dice"])
        state = state2
    return state


def test_members_and_options(engine):
    for member in ("name", "title", "min_players", "max_players", "options", "new_game", "to_act",
                   "system_action", "legal_actions", "apply", "timeout_action", "is_over", "standings",
                   "view", "check_options", "describe"):
        assert hasattr(engine, member), member
    for option in engine.options():
        assert {"name", "label", "kind", "default"} <= set(option)
    assert engine.check_options({}, engine.min_players)
    with pytest.raises(IllegalAction):
        engine.check_options({"no_such_option": 1}, engine.min_players)


def test_same_seed_same_game_and_json_round_trip(engine):
    players = engine.min_players
    a = _playout(engine, players, "seed-1", steps=120)
    b = _playout(engine, players, "seed-1", steps=120)
    assert a == b
    assert json.loads(json.dumps(a)) == a
    assert _playout(engine, players, "seed-2", steps=120) != a


def test_unknown_and_out_of_turn_actions_are_illegal(engine):
    state = engine.new_game(engine.max_players, "seed-x", {})
    while engine.system_action(state) is not None:
        state, _ = engine.apply(state, None, engine.system_action(state))
    seat = engine.to_act(state)[0]
    other = next(s for s in range(engine.max_players) if s not in engine.to_act(state))
    for bad in ({"type": "teleport"}, {}, {"type": 7}):
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, bad)
    with pytest.raises(IllegalAction):
        engine.apply(state, other, engine.legal_actions(state, seat)[0])


def test_a_refusal_names_a_long_action_type_cut_short(engine):
    """A type of 20,000 characters (or a whole object as the type) came back whole in the refusal,
    in every language: the refusal names at most the first forty characters of it."""
    state = engine.new_game(engine.max_players, "seed-x", {})
    while engine.system_action(state) is not None:
        state, _ = engine.apply(state, None, engine.system_action(state))
    seat = engine.to_act(state)[0]
    for bad in ({"type": "x" * 20_000}, {"type": {"nested": ["y" * 5_000]}}):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, seat, bad)
        for lang in ("en", "da", "de", "sv"):
            words = refused.value.in_language(lang) if hasattr(refused.value, "in_language") else str(refused.value)
            assert len(words) < 200, (lang, words[:80])
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, seat, {"type": "teleport"})
    assert "teleport" in str(refused.value) or engine.name == "catan_ships"  # Catan names no type


def test_views_hide_the_seed_and_timeout_is_legal(engine):
    state = engine.new_game(engine.min_players, "secret-seed-value", {})
    while engine.system_action(state) is not None:
        state, _ = engine.apply(state, None, engine.system_action(state))
    for seat in [None, *range(engine.min_players)]:
        assert "secret-seed-value" not in json.dumps(engine.view(state, seat))
    seat = engine.to_act(state)[0]
    engine.apply(state, seat, engine.timeout_action(state, seat))
    standings = engine.standings(state)
    assert sorted(s["seat"] for s in standings) == list(range(engine.min_players))


def _variants(engine, players):
    """The default options and each yes/no option turned the other way, where the seat count
    allows it."""
    out = [{}]
    for option in engine.options():
        if option["kind"] == "bool":
            out.append({option["name"]: not option["default"]})
    allowed = []
    for options in out:
        try:
            engine.check_options(options, players)
        except IllegalAction:
            continue
        allowed.append(options)
    return allowed


@pytest.mark.parametrize("seed", ["pure-a", "pure-b"])
def test_apply_never_changes_the_state_it_was_given(engine, seed):
    """Contract: apply is pure. Random playouts (_playout compares apply's input deeply before
    and after every apply) of every seat count and yes/no variant, the system's and optional
    moves included. (A ship sunk before another was robbed once left the later ship edited in
    place.)"""
    for players in range(engine.min_players, engine.max_players + 1):
        for options in _variants(engine, players):
            _playout(engine, players, f"{seed}-{players}-{sorted(options.items())}", 400, options)


def test_no_view_carries_the_dice_machinery(engine):
    """Contract, "What a view carries": no game's view, for a seat or a spectator, carries the
    seed or the dice counter (Fuldrigger's and Pirater's once showed the counter, Catan's hid
    it)."""
    from games.engines.base import DICE_MACHINERY
    assert DICE_MACHINERY == ("seed", "draws")
    for seed in ("machinery-1", "machinery-2"):
        state = _playout(engine, engine.min_players, seed, steps=60)
        assert state.get("draws", 0) > 0                   # dice were drawn
        for seat in [None, *range(engine.min_players)]:
            seen = engine.view(state, seat)
            assert not set(DICE_MACHINERY) & set(seen), (engine.name, seat)
