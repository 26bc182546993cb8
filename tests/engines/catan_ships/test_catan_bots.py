"""The bots: best_action beats random players, and both bots only play legal actions."""
import random

import pytest

from catan_support import ENGINE
from games.engines.catan_ships.bots import best_action, random_action


def bot_game(number, players, ships):
    bot = number % players
    rnd = random.Random(number)
    state = ENGINE.new_game(players, f"bot-{number}", {"ships": ships})
    steps = 0
    while not ENGINE.is_over(state):
        steps += 1
        assert steps < 50000
        seat = ENGINE.to_act(state)[0]
        choose = best_action if seat == bot else random_action
        action = choose(state, seat, rnd)
        assert action in ENGINE.legal_actions(state, seat)
        state, _ = ENGINE.apply(state, seat, action)
    return state, bot


@pytest.mark.parametrize("ships", [False, True])
def test_best_action_beats_random_players_in_nine_games_of_ten(ships):
    wins = 0
    for n in range(20):
        state, bot = bot_game(n, 3 + n % 2, ships)
        wins += state["winner"] == bot
    assert wins >= 18


def test_best_action_plays_only_legal_actions_to_the_end_of_a_six_player_ships_game():
    state, bot = bot_game(1, 6, True)   # bot_game checks every action is a listed one
    assert state["phase"] == "over" and state["winner"] is not None
