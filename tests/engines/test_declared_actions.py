"""games/engines/actions.py: every game's declared action fields (games/engines/<game>/actions.py)
fit every action its engine lists as legal (so no legal move is ever refused by the declaration),
and an action is kept as the engine understood it."""
import pathlib
import random

import pytest

from games.engines import ENGINES
from games.engines import actions

# Every game package that declares its actions, found by its file rather than listed.
DECLARING = sorted(path.parent.name for path in
                   (pathlib.Path(actions.__file__).parent).glob("*/actions.py"))


@pytest.mark.parametrize("game", DECLARING)
def test_every_legal_action_of_a_random_game_fits_the_declaration_and_is_kept_whole(game):
    engine = ENGINES[game]
    rng = random.Random(13)
    for seed in ("ab" * 32, "cd" * 32):
        state = engine.new_game(engine.max_players, seed, {})
        for _step in range(250):
            if engine.is_over(state):
                break
            system = engine.system_action(state)
            if system is not None:
                state, _events = engine.apply(state, None, system)
                continue
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            assert legal
            for action in legal:
                assert action["type"] in actions.declared(engine), action
                assert actions.action_problem(engine, action) is None, action
                assert actions.understood(engine, action, lambda: legal) == action
            state, _events = engine.apply(state, seat, rng.choice(legal))


def test_unknown_keys_and_wrong_types_are_named():
    pirater = ENGINES["pirater"]
    assert "junk" in actions.action_problem(pirater, {"type": "roll", "junk": 1})
    assert "whole number" in actions.action_problem(pirater, {"type": "move", "die": 3.0, "ship": 0, "direction": "n"})
    assert "whole number" in actions.action_problem(pirater, {"type": "move", "die": True, "ship": 0, "direction": "n"})
    assert "true or false" in actions.action_problem(pirater, {"type": "move", "split": "no"})
    assert actions.action_problem(pirater, {"type": "no_such_type", "x": 1}) is None  # the engine's to refuse


def test_a_derived_field_comes_from_the_matching_legal_action():
    pirater = ENGINES["pirater"]
    legal = [{"type": "move", "die": 3, "ship": 1, "direction": "n", "to": [4, 5]},
             {"type": "move", "die": 3, "ship": 1, "direction": "n", "to": [2, 2], "split": True}]
    sent = {"type": "move", "die": 3, "ship": 1, "direction": "n", "to": [9, 9]}
    kept = actions.understood(pirater, sent, lambda: legal)
    assert kept == legal[0]
    assert "[4, 5]" in actions.derived_mismatch(pirater, sent, kept)
    assert actions.understood(pirater, {**sent, "split": True}, lambda: legal) == legal[1]


def test_a_game_that_declares_nothing_keeps_the_legal_action_it_matched():
    class Undeclared:
        name = "undeclared"

    legal = [{"type": "roll"}, {"type": "trade", "give": 1}]
    assert actions.understood(Undeclared(), {"type": "roll", "junk": "x" * 1000}, lambda: legal) == {"type": "roll"}
    assert actions.understood(Undeclared(), {"type": "trade", "give": 1, "note": "x"}, lambda: legal) == legal[1]
    # open-ended: no legal action to match, so it is kept as sent (the engine alone checked it)
    assert actions.understood(Undeclared(), {"type": "trade", "give": 2}, lambda: legal) == {"type": "trade", "give": 2}
