"""The treasure, capture and the end of the game (P12–P19).

Seat 0 sails from the north-west port (anchorage (1, 1)), seat 1 from the south-east
(anchorage (12, 20)); with three players seat 1 is north-east and seat 2 south-east.
"""
import pytest

from games.engines.pirater.sailing import move_outcomes
from pirater_support import (
    ENGINE, IllegalAction, game, get_board, move, moves, only, play, rolled, treasure_on,
)

BOARD = get_board("single")


def kinds(events):
    return [e["type"] for e in events]


def test_reach_an_anchorage_load_the_treasure_and_sail_on():
    """P12 a ship loads the treasure on reaching an island anchorage, then moves on."""
    state = rolled(only(game(), {0: (3, 10), 3: (12, 20)}), [2, 4], seat=0)
    state, events = move(state, 2, 0, "s")
    assert "treasure_loaded" in kinds(events) and state["treasures"][0]["ship"] == 0
    state, events = move(state, 4, 0, "w")
    assert state["ships"][0]["at"] == [5, 6] and state["treasures"][0]["ship"] == 0


def test_both_dice_can_bring_a_ship_to_the_anchorage():
    """P12 loading with both dice: the second die ends on the anchorage."""
    state = rolled(only(game(), {0: (2, 10), 3: (12, 20)}), [1, 2], seat=0)
    state, events = move(state, 1, 0, "s")
    assert "treasure_loaded" not in kinds(events)
    state, events = move(state, 2, 0, "s")
    assert "treasure_loaded" in kinds(events)


def test_sailing_past_an_anchorage_does_not_load():
    """P12 only a move that ends on an anchorage loads the treasure."""
    state = rolled(only(game(), {0: (5, 7), 3: (12, 20)}), [5, 1], seat=0)
    state, events = move(state, 5, 0, "e")
    assert state["ships"][0]["at"] == [5, 12]
    assert state["treasures"][0]["ship"] is None


def test_treasure_ship_never_sails_away_from_home():
    """P13 a treasure ship moves towards its own port, never away from it."""
    state = rolled(only(game(), {0: (3, 6), 3: (12, 20)}), [1, 2], seat=0)
    free = {d for (_, ship, d) in moves(state) if ship == 0}
    assert free == {"n", "s", "e", "w"}
    state["treasures"][0]["ship"] = 0
    laden = {d for (_, ship, d) in moves(state) if ship == 0}
    assert laden == {"n", "w"}


def equal_distance_step(board, ports):
    """A square and a single step that keeps the same distance to the home anchorage."""
    dist = board.home_distance(tuple(ports))
    for here in range(board.size):
        for d, nxt in zip(("n", "ne", "e", "se", "s", "sw", "w", "nw"), board.step[here]):
            if nxt >= 0 and dist[nxt] == dist[here] and not board.is_strait[nxt] \
                    and board.node_kind[here] != "anchorage" and board.node_kind[nxt] != "anchorage":
                return board.cells[here][0], d, board.cells[nxt][0]
    raise AssertionError("no parallel step on this board")


def test_treasure_ship_may_move_parallel_to_home_and_use_trade_winds_and_straits():
    """P13 parallel moves (no nearer, no farther) and the trade winds and straits are allowed."""
    start, d, end = equal_distance_step(BOARD, [0])
    state = rolled(only(game(), {0: start, 3: (12, 20)}), [1, 1], seat=0)
    state["treasures"][0]["ship"] = 0
    assert (1, 0, d) in moves(state)
    # through a strait: from the bottom edge, south into the strait is towards the north-west
    state = rolled(only(game(), {0: (12, 4), 3: (12, 20)}), [1, 1], seat=0)
    state["treasures"][0]["ship"] = 0
    assert (1, 0, "s") in moves(state)
    state, _ = move(state, 1, 0, "s")
    assert moves(state) == {(1, 0, "s")}        # out of the top half, not back south


def test_treasure_ship_can_capture():
    """P14 a treasure ship captures like any ship."""
    state = rolled(only(game(), {0: (3, 3), 3: (1, 3), 4: (12, 20)}), [2, 5], seat=0)
    state["treasures"][0]["ship"] = 0
    state, events = move(state, 2, 0, "n")
    assert events[0]["captured"] == [{"ship": 3, "seat": 1}]
    assert state["ships"][3]["at"] is None and state["treasures"][0]["ship"] == 0


def test_capture_by_landing_exactly_on_an_enemy_ship():
    """P15 landing exactly on an opponent's ship captures it; own ships can't be captured."""
    state = rolled(only(game(), {0: (3, 3), 1: (3, 7), 3: (3, 6), 4: (12, 20)}), [3, 4], seat=0)
    assert (3, 0, "e") in moves(state)         # exactly onto ship 3
    assert (4, 0, "e") not in moves(state)     # can't jump ship 3 onto own ship 1
    state, events = move(state, 3, 0, "e")
    assert state["ships"][3]["at"] is None and state["ships"][3]["lost"] == "captured"
    assert state["ships"][0]["at"] == [3, 6]
    assert (1, 0, "e") not in moves(rolled(state, [1, 1]))


def test_player_without_ships_is_out_and_skipped():
    """P16 a player who has lost all ships is out; the turn skips him."""
    state = only(game(3), {0: (3, 3), 3: (3, 5), 6: (12, 20)})
    state = rolled(state, [2, 6], seat=0)
    state, events = move(state, 2, 0, "e")
    assert {"type": "player_out", "seat": 1} in events
    assert state["seats"][1]["out"] and state["phase"] != "over"
    while state["current"] == 0 and state["phase"] == "move":
        state, events = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["current"] == 2
    assert ENGINE.to_act(state) == [2]


def test_capturing_the_treasure_ship_hands_over_the_treasure():
    """P17 the captured treasure ship leaves the game and the captor takes the treasure."""
    state = rolled(only(game(), {0: (3, 3), 3: (3, 5), 4: (12, 20)}), [2, 1], seat=0)
    state["treasures"][0]["ship"] = 3
    state, events = move(state, 2, 0, "e")
    assert state["treasures"][0]["ship"] == 0
    assert "treasure_taken" in kinds(events)


def test_treasure_home_on_an_exact_die_wins():
    """P18 a treasure ship reaching its home anchorage with an exact die wins."""
    state = rolled(only(game(), {0: (1, 4), 3: (12, 20)}), [3, 5], seat=0)
    state["treasures"][0]["ship"] = 0
    state, events = move(state, 3, 0, "w")
    assert events[-1] == {"type": "win", "seat": 0, "how": "treasure"}
    assert ENGINE.is_over(state) and ENGINE.to_act(state) == []
    assert ENGINE.standings(state)[0]["seat"] == 0 and ENGINE.standings(state)[0]["rank"] == 1


def test_treasure_ship_cannot_overshoot_its_anchorage():
    """P18 only an exact die brings the treasure home."""
    state = rolled(only(game(), {0: (1, 3), 3: (12, 20)}), [3, 4], seat=0)
    state["treasures"][0]["ship"] = 0
    assert not any(ship == 0 for (_, ship, _) in moves(state))
    with pytest.raises(IllegalAction, match="Land"):
        play(state, 0, {"type": "move", "die": 3, "ship": 0, "direction": "w"})


def test_an_empty_ship_on_its_home_anchorage_does_not_win():
    """P18 it takes the treasure to win at home."""
    state = rolled(only(game(), {0: (1, 4), 3: (12, 20)}), [3, 5], seat=0)
    state, events = move(state, 3, 0, "w")
    assert state["phase"] != "over"


def test_capturing_the_last_enemy_ship_wins():
    """P19 a player wins by capturing the last of the opponents' ships."""
    state = rolled(only(game(), {0: (3, 3), 3: (3, 5)}), [2, 6], seat=0)
    state, events = move(state, 2, 0, "e")
    assert events[-1] == {"type": "win", "seat": 0, "how": "last_ships"}
    table = ENGINE.standings(state)
    assert [row["seat"] for row in table] == [0, 1] and table[1]["detail"]["out"]


def test_last_ships_win_counts_all_opponents():
    """P19 with three players, the last ship of one opponent does not end the game."""
    state = only(game(3), {0: (3, 3), 3: (3, 5), 6: (12, 20)})
    state, events = move(rolled(state, [2, 6], seat=0), 2, 0, "e")
    assert state["phase"] != "over"


def test_capturing_a_treasure_ship_on_your_own_anchorage_wins():
    """P17 P18 the captor takes the treasure where it stands: at home, that is a win."""
    state = rolled(only(game(), {0: (1, 4), 3: (1, 1), 4: (12, 20)}), [3, 5], seat=0)
    state["treasures"][0]["ship"] = 3
    state, events = move(state, 3, 0, "w")
    assert events[-1] == {"type": "win", "seat": 0, "how": "treasure"}


def test_a_moves_outcome_is_told_before_it_is_played():
    """P15, P17, P18 the outcome a page marks beforehand: taking the treasure from a ship at
    one's own home anchorage captures it, takes the treasure and wins, as playing it does."""
    state = treasure_on(rolled(only(game(), {0: (2, 1), 3: (1, 1)}), [1, 2], seat=0), 3)
    action = next(a for a in ENGINE.legal_actions(state, 0) if a["ship"] == 0 and a["to"] == [1, 1])
    moved, = move_outcomes(ENGINE.view(state, 0), [action])
    assert (moved.captured, moved.took, moved.win) == ([3], [0], "treasure")
    state, events = play(state, 0, action)
    assert state["phase"] == "over" and state["winner"] == 0
