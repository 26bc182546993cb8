"""Moving: open sea, trade winds, straits, the dice (P2–P4, P8–P11).

Two-player games: seat 0 sails from the north-west port (anchorage (1, 1), ships 0–2), seat 1
from the south-east port (anchorage (12, 20), ships 3–5).
"""
import pytest

from pirater_support import ENGINE, IllegalAction, game, move, moves, only, play, rolled, ships_of


def destinations(state, ship, die):
    return {a["direction"]: tuple(a["to"]) for a in ENGINE.legal_actions(state, state["current"])
            if a["type"] == "move" and a["ship"] == ship and a["die"] == die}


def lone(at, faces, extra=None):
    """Seat 0 with one ship at `at`, seat 1's ship far away in its corner, dice rolled."""
    state = only(game(), {0: at, 3: (12, 20), **(extra or {})})
    return rolled(state, faces, seat=0)


def test_open_sea_ship_moves_exactly_the_die_in_four_straight_directions():
    """P2 P8 a die moves one ship exactly that many squares straight; no diagonals at sea."""
    state = lone((3, 3), [2, 6])
    assert destinations(state, 0, 2) == {"n": (1, 3), "s": (5, 3), "e": (3, 5), "w": (3, 1)}


def test_land_blocks_a_move():
    """P2 ships never sail over land: the coast and Treasure Island stop them."""
    state = lone((3, 2), [3, 4])
    assert "w" not in destinations(state, 0, 3)
    state = lone((4, 10), [2, 1])
    assert "s" not in destinations(state, 0, 2)   # (5, 10) is an anchorage, (6, 10) island


def test_diagonal_moves_inside_the_trade_winds_only():
    """P3 inside the trade winds a ship may also move diagonally, never diagonally out."""
    state = lone((6, 5), [1, 6])
    got = destinations(state, 0, 1)
    assert got["se"] == (7, 6) and got["sw"] == (7, 4)
    assert "ne" not in got and "nw" not in got        # row 5 is open sea
    state = lone((6, 4), [2, 6])
    assert "se" not in destinations(state, 0, 2)   # (7, 5) is wind, (8, 6) open sea
    state = lone((7, 4), [1, 6])
    assert "sw" not in destinations(state, 0, 1) and "se" not in destinations(state, 0, 1)


def test_a_move_entering_the_trade_winds_ends_inside_them():
    """P3 a ship may not pass through the trade winds on one die."""
    state = lone((4, 5), [3, 4])
    got3, got4 = destinations(state, 0, 3), destinations(state, 0, 4)
    assert got3["s"] == (7, 5)              # into the winds and stop inside
    assert "s" not in got4                  # (8, 5) would be out again on the same die
    state = lone((6, 3), [6, 5])
    assert "e" not in destinations(state, 0, 6)   # through all five and out to the anchorage
    assert destinations(state, 0, 5)["e"] == (6, 8)


def test_a_ship_inside_the_trade_winds_sails_straight_out():
    """P3 from inside the trade winds a ship may sail straight out on a later die."""
    state = lone((7, 5), [4, 6])
    assert destinations(state, 0, 4)["s"] == (11, 5)
    state = lone((6, 8), [1, 2])
    assert destinations(state, 0, 1)["e"] == (6, 9)   # out to the anchorage beside the island


def test_a_move_entering_a_strait_ends_there_and_the_next_die_leaves_from_either_half():
    """P4 a ship may not pass through a strait on one die; it leaves from either half."""
    state = lone((2, 4), [2, 3])
    assert "n" in destinations(state, 0, 2)
    assert "n" not in destinations(state, 0, 3)      # would sail on past the strait
    state, events = move(state, 2, 0, "n")
    assert state["ships"][0]["at"] == [0, 4]
    got = destinations(state, 0, 3)
    assert got == {"s": (3, 4), "n": (10, 4)}        # out of the top half or the bottom half


def test_a_ship_in_a_strait_occupies_both_halves():
    """P4 a ship on one half of a strait also occupies the other half."""
    state = lone((0, 4), [1, 6], extra={4: (12, 4)})
    state = rolled(state, [1, 6], seat=1)
    assert destinations(state, 4, 1)["s"] == (0, 4)    # lands on ship 0 from the other side
    state, events = move(state, 1, 4, "s")
    assert events[0]["captured"] == [{"ship": 0, "seat": 0}]
    own = only(game(), {0: (0, 4), 1: (12, 4), 3: (12, 20)})
    own = rolled(own, [1, 6], seat=0)
    assert "s" not in destinations(own, 1, 1)


def test_roll_gives_two_dice_and_opens_the_moves():
    """P8 roll both dice; every roll appears in an event with its faces."""
    state = game()
    state, events = play(state, 0, {"type": "roll"})
    roll = next(e for e in events if e["type"] == "roll")
    assert len(roll["dice"]) == 2 and all(1 <= f <= 6 for f in roll["dice"])
    assert state["dice"] == roll["dice"]


def test_both_dice_may_move_one_ship_or_two_ships():
    """P9 one ship twice (same, opposite or two directions) or two ships, one die each."""
    base = only(game(), {0: (4, 4), 1: (10, 15), 3: (12, 20)})
    base = rolled(base, [2, 3], seat=0)
    state, _ = move(base, 2, 0, "e")
    assert {"e", "w", "s", "n"} <= {d for (die, ship, d) in moves(state) if ship == 0 and die == 3}
    for second, end in (("e", [4, 9]), ("w", [4, 3]), ("s", [7, 6])):
        after, _ = move(state, 3, 0, second)
        assert after["ships"][0]["at"] == end
    after, _ = move(state, 3, 1, "n")
    assert after["ships"][0]["at"] == [4, 6] and after["ships"][1]["at"] == [7, 15]


def test_ship_cannot_jump_over_ship():
    """P10 ships may not jump over other ships, own or not."""
    state = only(game(), {0: (3, 3), 1: (3, 5), 3: (5, 3), 4: (12, 20)})
    state = rolled(state, [3, 4], seat=0)
    assert "e" not in destinations(state, 0, 3)   # own ship at (3, 5) in the way
    assert "s" not in destinations(state, 0, 3)   # seat 1's ship at (5, 3) in the way
    assert "s" not in destinations(state, 0, 4)


def pocket(faces):
    """Ship 0 alone in a corner pocket: row 1, columns 1–3, walled by wrecks."""
    state = only(game(), {0: (1, 1), 3: (12, 20)})
    state["wrecks"] = [[2, 1], [2, 2], [2, 3], [1, 4]]
    return rolled(state, faces, seat=0)


def test_both_dice_must_be_used_if_possible():
    """P11 a move that would leave the other die unusable is refused while both can be used."""
    state = pocket([2, 1])
    assert moves(state) == {(2, 0, "e")}       # 1 first would strand the 2
    with pytest.raises(IllegalAction, match="as many dice"):
        move(state, 1, 0, "e")
    state, _ = move(state, 2, 0, "e")
    state, events = move(state, 1, 0, "w")
    assert state["current"] == 1 and not any(e["type"] == "dice_lost" for e in events)


def test_only_the_larger_die_when_either_but_not_both_can_be_used():
    """P11 if only one die can be used and either could, the larger one is used."""
    state = only(game(), {0: (1, 5), 3: (12, 20)})
    state["treasures"][0]["ship"] = 0           # a treasure ship sails only towards home
    state = rolled(state, [2, 3], seat=0)
    assert moves(state) == {(3, 0, "w")}
    state, events = move(state, 3, 0, "w")
    lost = next(e for e in events if e["type"] == "dice_lost")
    assert lost["dice"] == [2] and state["current"] == 1


def test_no_possible_move_loses_the_turn():
    """P11 if no die can be used the turn is lost and play passes on."""
    state = only(game(), {0: (3, 3), 3: (12, 20)})
    state["wrecks"] = [[2, 3], [4, 3], [3, 2], [3, 4]]
    state, events = play(state, 0, {"type": "roll"})
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["roll", "dice_lost"] and "turn" in kinds
    assert state["current"] == 1 and state["phase"] == "roll"


def test_every_offered_move_lands_where_it_says():
    """P8 the move's destination in legal_actions is where the ship ends up."""
    state, _ = play(game(), 0, {"type": "roll"})
    assert state["phase"] == "move" and state["current"] == 0
    for action in ENGINE.legal_actions(state, 0):
        after, events = ENGINE.apply(state, 0, action)
        moved = next(e for e in events if e["type"] == "move")
        assert moved["to"] == action["to"]
        assert after["ships"][action["ship"]]["at"] == action["to"]


@pytest.mark.parametrize("options", [{}, {"flotilla": True}, {"shipwreck": True, "one_two": True}])
def test_apply_accepts_exactly_the_listed_moves(options):
    """P11 apply checks a move without listing every move; across real positions of random
    games it accepts every listed move and refuses every other move the ships could make."""
    import random as _random

    from games.engines.pirater.board import get_board
    from games.engines.pirater.bots import random_action
    from games.engines.pirater.board import DIRECTION_NAMES

    rnd = _random.Random(11)
    checked, games = 0, 0
    state = ENGINE.new_game(2, "sailing-check", ENGINE.check_options(options, 2))
    while checked < 400:
        if ENGINE.is_over(state):
            games += 1
            state = ENGINE.new_game(2, f"sailing-check-{games}", ENGINE.check_options(options, 2))
        seat = state["current"]
        if state["phase"] == "move":
            checked += 1
            probe = state
            if checked % 2:
                # Wrecks strewn about make P11 bite: many rolls then have only some full plays.
                taken = {tuple(sh["at"]) for sh in state["ships"] if sh["at"]}
                sea = get_board(state["board"]).node_of
                free = sorted([list(at) for at in sea if tuple(at) not in taken])
                probe = dict(state, wrecks=rnd.sample(free, 70))
            listed = {(a["die"], a["ship"], a["direction"], a.get("split", False))
                      for a in ENGINE.legal_actions(probe, seat)}
            for die in set(probe["dice"]):
                for ship in ships_of(state, seat):
                    for direction in DIRECTION_NAMES:
                        for split in ((False, True) if state["options"]["flotilla"] else (False,)):
                            action = {"type": "move", "die": die, "ship": ship, "direction": direction}
                            if split:
                                action["split"] = True
                            try:
                                ENGINE.apply(probe, seat, action)
                                accepted = True
                            except IllegalAction:
                                accepted = False
                            if accepted:
                                assert (die, ship, direction, split) in listed or state["options"]["flotilla"], action
                            elif (die, ship, direction, split) in listed:
                                raise AssertionError(f"listed move refused: {action}")
        state, _ = ENGINE.apply(state, seat, random_action(state, seat, rnd))
