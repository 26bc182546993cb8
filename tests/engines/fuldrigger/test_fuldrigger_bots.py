"""The trading bot, bots.best_action: legal, pure, deterministic, sensible, and better than the
random player. No timing here (bench/bot_win_rate.py measures the time a decision takes)."""
import copy
import random

import pytest

from games.engines.fuldrigger.bots import best_action, random_action
from games.engines.fuldrigger.sailing import check_path, reachable
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, cargo, clear_ships, game, put_ship, rolled,
)

DANGEROUS = ("storm", "ice", "reef", "pirates")


def is_legal(state, seat, action) -> bool:
    """One of legal_actions, or (F10) another path for a ship the listed moves let sail."""
    listed = ENGINE.legal_actions(state, seat)
    if action in listed:
        return True
    if action["type"] != "move":
        return False
    if not any(a["type"] == "move" and a["ship"] == action["ship"] for a in listed):
        return False
    ship = state["ships"][str(action["ship"])]
    check_path(ship["node"], action["path"], state["turn"]["total"])
    return True


def play(seed, players, bots, rounds, check=None):
    """A whole game; `bots` are the seats best_action plays (random_action the others)."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(players, f"bot-test-{seed}", {"rounds": rounds})
    steps = 0
    while not ENGINE.is_over(state):
        system = ENGINE.system_action(state)
        if system:
            state, _ = ENGINE.apply(state, None, system)
            continue
        seat = rnd.choice(ENGINE.to_act(state))
        if seat in bots:
            action = best_action(state, seat, rnd)
            if check:
                check(state, seat, action)
        else:
            action = random_action(state, seat, rnd)
        state, _ = ENGINE.apply(state, seat, action)
        steps += 1
        assert steps < 50_000, "the game does not end"
    return state


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_every_action_of_the_bot_is_legal_over_whole_games(players, seed):
    """F9–F11: in games of 2–4 players, every action the bot chooses is one of the listed
    legal actions or a valid path for a ship that may sail, and the game ends."""
    def check(state, seat, action):
        assert is_legal(state, seat, action), action

    bots = set(range(players)) if seed % 2 else {0, players - 1}
    state = play(seed, players, bots, rounds=12, check=check)
    assert state["ended"] in ("rounds", "last_fleet")


def test_the_bot_is_deterministic_pure_and_draws_no_global_random():
    """The same state and the same rnd seed give the same action; the state is not changed;
    the module `random`'s global state is not touched."""
    seen = []

    def check(state, seat, action):
        if len(seen) < 60:
            before = copy.deepcopy(state)
            global_random = random.getstate()
            again = best_action(state, seat, random.Random(7))
            assert random.getstate() == global_random
            assert state == before
            assert again == best_action(copy.deepcopy(state), seat, random.Random(99))
            assert again == action
            seen.append(action["type"])

    play(5, 2, {0, 1}, rounds=6, check=check)
    assert {"roll", "move", "buy_cargo", "end_turn"} <= set(seen)


def test_the_bot_beats_the_random_player_in_most_two_player_games():
    """F1, F2: over a fixed set of 2-player games of 30 rounds, seats alternated, the bot ends
    first by fortune in at least 10 of 12."""
    wins = 0
    for seed in range(12):
        bot = seed % 2
        state = play(100 + seed, 2, {bot}, rounds=30)
        first = [row["seat"] for row in ENGINE.standings(state) if row["rank"] == 1]
        wins += first == [bot]
    assert wins >= 10


# ---- sensible choices ----------------------------------------------------------------------

def test_an_empty_ship_in_a_port_with_a_profitable_good_buys_it():
    """F28, F29: in Batavia with cash, the bot loads spices (bought at 20, sold in Europe for
    over 100)."""
    state = game(2)
    clear_ships(state, 0)
    ship = put_ship(state, 0, "batavia")
    state["cash"][0] = 100
    assert best_action(state, 0, random.Random(0)) == {
        "type": "buy_cargo", "ship": ship["id"], "good": "spices"}


def test_a_cargo_carried_far_enough_is_sold_where_it_pays():
    """F28, F30: spices carried from Batavia are sold in Amsterdam (130 ducats)."""
    state = game(2)
    clear_ships(state, 0)
    ship = put_ship(state, 0, "amsterdam", cargo=cargo("spices", paid=20, carried=57,
                                                         origin="batavia"))
    assert best_action(state, 0, random.Random(0)) == {"type": "sell_cargo", "ship": ship["id"]}


def test_a_cargo_not_yet_carried_ten_squares_is_not_sold():
    """F30: the same cargo after 3 squares stays aboard (the bot rolls instead)."""
    state = game(2)
    clear_ships(state, 0)
    put_ship(state, 0, "amsterdam", cargo=cargo("spices", paid=20, carried=3, origin="london"))
    assert best_action(state, 0, random.Random(0))["type"] == "roll"


def test_a_laden_ship_sails_towards_a_port_that_buys_its_cargo():
    """F28: after the roll a laden ship at sea sails nearer a port that buys its cargo."""
    state = rolled(game(2), 10)
    clear_ships(state, 0)
    ship = put_ship(state, 0, "north_sea", cargo=cargo("spices", paid=20, carried=50,
                                                         origin="batavia"))
    action = best_action(state, 0, random.Random(0))
    assert action["type"] == "move" and action["ship"] == ship["id"]
    buyers = [p for p in WORLD.ports if WORLD.prices[p].get("spices", {}).get("sell")]
    end = action["path"][-1]
    assert min(WORLD.distance(end, p) for p in buyers) < min(WORLD.distance("north_sea", p)
                                                               for p in buyers)


def test_an_unknown_reef_is_sailed_round_and_a_known_one_sailed_over():
    """F18: in the East China Sea with spices for Europe, the bot's path avoids the Paracels
    reef while it does not know it, and takes it once it does (the reef is then harmless).
    (Edition 2's pirate waters, F19, left Hainan's best route by Malacca clear of the reef.)"""
    paths = {}
    for known in (False, True):
        state = rolled(game(2), 10)
        clear_ships(state, 0)
        put_ship(state, 0, "east_china_sea_1", cargo=cargo("spices", paid=20, carried=10,
                                                             origin="batavia"))
        if known:
            state["known_reefs"][0] = [WORLD.reef_letter("reef_paracels")]
        action = best_action(state, 0, random.Random(0))
        assert action["type"] == "move"
        assert check_path("east_china_sea_1", action["path"], 10) == action["path"]
        paths[known] = action["path"]
    assert "reef_paracels" not in paths[False]
    assert "reef_paracels" in paths[True]


def test_the_bot_prefers_a_path_without_danger_to_the_listed_one():
    """F15–F19: where the listed path to a square runs over an unknown reef (off the Celtic
    Sea, the Scilly reef on the way up the Channel), the bot sails a valid detour to the same
    square that runs over none (apply accepts any valid path)."""
    state = rolled(game(2), 10)
    clear_ships(state, 0)
    put_ship(state, 0, "celtic_sea", cargo=cargo("spices", paid=20, carried=40,
                                                   origin="batavia"))
    action = best_action(state, 0, random.Random(0))
    listed = reachable("celtic_sea", 10)[action["path"][-1]]

    def dangers(path):
        return [n for n in path if WORLD.hazard(n) in DANGEROUS]

    assert len(dangers(action["path"])) < len(dangers(listed))
    ENGINE.apply(state, 0, action)


def test_an_offer_that_raises_the_fortune_is_accepted_and_one_that_lowers_it_declined():
    """F26, F41: 50 ducats for nothing is accepted; 100 ducats for a laden ship is declined."""
    state = game(2, seat=1)
    state["offers"] = [{"id": 1, "from": 1, "to": 0, "round": 1,
                        "give": {"ducats": 50, "ships": [], "fortresses": []},
                        "take": {"ducats": 0, "ships": [], "fortresses": []}}]
    assert best_action(state, 0, random.Random(0)) == {"type": "accept_offer", "offer": 1}
    mine = next(s for s in state["ships"].values() if s["owner"] == 0)
    mine["cargo"] = cargo("tea", paid=24, carried=0)
    state["offers"] = [{"id": 2, "from": 1, "to": 0, "round": 1,
                        "give": {"ducats": 100, "ships": [], "fortresses": []},
                        "take": {"ducats": 0, "ships": [mine["id"]], "fortresses": []}}]
    assert best_action(state, 0, random.Random(0)) == {"type": "decline_offer", "offer": 2}


def test_spare_cash_buys_a_ship_and_a_full_fleet_a_fortress_where_it_sells():
    """F20, F23: with cash to spare the bot buys a ship; with six ships, a fortress in the
    port where one of them is about to sell (its sale then fetches the owner's +10, F25)."""
    state = game(2)
    state["cash"][0] = 600
    assert best_action(state, 0, random.Random(0)) == {"type": "buy_ship"}
    clear_ships(state, 0)
    seller = put_ship(state, 0, "amsterdam", cargo=cargo("spices", paid=20, carried=57))
    for _ in range(5):
        put_ship(state, 0, "copenhagen")
    action = best_action(state, 0, random.Random(0))
    assert action == {"type": "buy_fortress", "port": "amsterdam"}
    state, _ = ENGINE.apply(state, 0, action)
    assert best_action(state, 0, random.Random(0)) == {"type": "sell_cargo", "ship": seller["id"]}


def test_a_player_without_ships_buys_one_with_his_last_hundred():
    """F3, F20: with no ship left and 100 ducats, the bot buys a ship rather than wait."""
    state = game(2)
    clear_ships(state, 0)
    state["cash"][0] = 100
    assert best_action(state, 0, random.Random(0)) == {"type": "buy_ship"}


def test_the_turn_ends_when_every_ship_has_sailed():
    """F9, F10: after the roll and the moves, the bot ends its turn."""
    state = rolled(game(2), 10)
    state["turn"]["moved"] = [s["id"] for s in state["ships"].values() if s["owner"] == 0]
    assert best_action(state, 0, random.Random(0)) == {"type": "end_turn"}
