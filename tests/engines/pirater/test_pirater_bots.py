"""The racing bot, bots.best_action: legal in every variant, pure, deterministic, sensible, and
better than the random player. No timing here (bench/bot_win_rate.py measures it).

Seat 0 sails from the north-west port (anchorage (1, 1)), seat 1 from the south-east
(anchorage (12, 20)); Treasure Island's anchorages are (5, 10), (5, 11), (8, 10), (8, 11),
(6, 9), (7, 9), (6, 12), (7, 12).
"""
import copy
import random

import pytest

from games.engines.pirater.bots import best_action, random_action
from pirater_support import ENGINE, game, only, rolled, treasure_on

VARIANTS = [
    ({}, 2), ({}, 3), ({}, 4),
    ({"curse_island": True}, 3),
    ({"hurricane": True}, 2),
    ({"double_board": True}, 5),
    ({"double_board": True, "double_treasure": "both_on_one"}, 6),
    ({"shipwreck": True}, 2),
    ({"powder_ship": True}, 3),
    ({"one_two": True}, 2),
    ({"opposing_realms": True}, 2),
    ({"headwind_realm": True}, 2),
    ({"flotilla": True}, 2),
    ({"flotilla": True, "flotilla_split": "any_six"}, 3),
]


def play(seed, players, options, bots, check=None, limit=4000):
    """A game from its start; `bots` are the seats best_action plays (random_action the
    others). Returns the last state (the game is over unless `limit` actions ran out)."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(players, f"bot-test-{seed}", options)
    for _ in range(limit):
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_act(state)[0]
        if seat in bots:
            action = best_action(state, seat, rnd)
            if check:
                check(state, seat, action)
        else:
            action = random_action(state, seat, rnd)
        state, _ = ENGINE.apply(state, seat, action)
    return state


def turn(state, seat=0):
    """Let the bot play the rest of its roll; the state after it and the actions played."""
    played = []
    while not ENGINE.is_over(state) and state["phase"] == "move" and state["current"] == seat:
        action = best_action(state, seat, random.Random(0))
        played.append(action)
        state, _ = ENGINE.apply(state, seat, action)
    return state, played


def exposed(state, ship_id) -> bool:
    """Could an opponent land on this ship with a single die (P8, P15)? Asked of the engine:
    the opponent's legal moves with each die value alone."""
    target = state["ships"][ship_id]["at"]
    mine = state["ships"][ship_id]["seat"]
    for foe in sorted({s["seat"] for s in state["ships"] if s["seat"] != mine and s["at"]}):
        for value in range(1, 7):
            trial = rolled(copy.deepcopy(state), [value], seat=foe)
            if any(a["to"] == target for a in ENGINE.legal_actions(trial, foe)):
                return True
    return False


@pytest.mark.parametrize("options,players", VARIANTS,
                         ids=[f"{'-'.join(o) or 'basic'}-{n}" for o, n in VARIANTS])
def test_every_action_of_the_bot_is_legal_in_every_variant(options, players):
    """P8–P11, P20–P28: whatever the variant, the bot only plays listed legal actions, in
    every seat it holds, and the games end."""
    def check(state, seat, action):
        assert action in ENGINE.legal_actions(state, seat), action

    bots = set(range(players)) if players <= 3 else {0, 2}
    for seed in range(2):
        state = play(seed, players, options, bots, check)
        assert ENGINE.is_over(state)


def test_the_bot_is_deterministic_pure_and_draws_no_global_random():
    """The same state and the same rnd seed give the same action; the state is not changed;
    the module `random`'s global state is not touched."""
    seen = []

    def check(state, seat, action):
        before = copy.deepcopy(state)
        global_random = random.getstate()
        again = best_action(state, seat, random.Random(7))
        assert random.getstate() == global_random
        assert state == before
        assert again == best_action(copy.deepcopy(state), seat, random.Random(99)) == action
        seen.append(action["type"])

    for seed in range(3):
        play(seed, 2, {"powder_ship": True}, {0, 1}, check)
    assert {"roll", "move"} <= set(seen)


def test_the_bot_beats_the_random_player_in_most_two_player_games():
    """P18, P19: over a fixed set of 2-player games with the default options, seats
    alternated, the bot wins at least 16 of 20."""
    wins = 0
    for seed in range(20):
        bot = seed % 2
        state = play(seed, 2, {}, {bot})
        wins += state["winner"] == bot
    assert wins >= 16


# ---- sensible choices ----------------------------------------------------------------------

def test_a_ship_in_line_with_the_enemy_treasure_ship_captures_it():
    """P14, P15, P17: an enemy treasure ship three squares east, a 3 among the dice: the bot
    takes it, and the treasure with it."""
    state = rolled(only(game(), {0: (3, 5), 1: (1, 2), 3: (3, 8), 4: (12, 19)}), [3, 5])
    treasure_on(state, 3)
    state, played = turn(state)
    assert state["treasures"][0]["ship"] == 0
    assert state["ships"][3]["at"] is None


def test_a_ship_beside_an_anchorage_loads_the_treasure():
    """P12: one square north of an anchorage with a 1 among the dice, the bot loads."""
    state = rolled(only(game(), {0: (4, 10), 1: (1, 2), 3: (12, 20), 4: (11, 19)}), [1, 4])
    state, _ = turn(state)
    assert state["treasures"][0]["ship"] == 0


def test_the_treasure_ship_sails_home_on_an_exact_die():
    """P18: three squares east of home with a 3 among the dice, the bot wins at once."""
    state = rolled(only(game(), {0: (1, 4), 1: (2, 2), 3: (12, 20)}), [3, 5])
    treasure_on(state, 0)
    action = best_action(state, 0, random.Random(0))
    state, _ = ENGINE.apply(state, 0, action)
    assert state["winner"] == 0 and state["win"] == "treasure"


def test_the_treasure_ship_does_not_stay_where_an_enemy_can_take_it():
    """P13, P15: an enemy four squares east of our treasure ship could take it with a 4; the
    bot sails it out of every enemy line (here towards home, as P13 wants)."""
    state = rolled(only(game(), {0: (4, 4), 1: (9, 2), 3: (4, 8), 4: (12, 19)}), [1, 2])
    treasure_on(state, 0)
    assert exposed(state, 0)
    state, _ = turn(state)
    assert state["treasures"][0]["ship"] == 0
    assert not exposed(state, 0)


def test_a_powder_ship_is_declared_beside_the_enemy_treasure_ship():
    """P24: with an enemy treasure ship next to one of its ships, the bot blows that ship up
    before rolling (the lowest die is at least 1: the blast always reaches it)."""
    state = only(game(2, powder_ship=True), {0: (6, 4), 1: (1, 2), 3: (6, 5), 4: (12, 19)})
    treasure_on(state, 3)
    assert best_action(state, 0, random.Random(0)) == {"type": "declare_powder", "ship": 0}
    state = only(game(2, powder_ship=True), {0: (6, 4), 1: (1, 2), 3: (12, 20), 4: (12, 19)})
    assert best_action(state, 0, random.Random(0)) == {"type": "roll"}
