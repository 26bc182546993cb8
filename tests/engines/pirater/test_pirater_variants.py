"""The variants (P20–P28)."""
import pytest

from pirater_support import (ENGINE, IllegalAction, game, get_board, move, moves, only, play,
                             rolled, seeded_roll)

SINGLE = get_board("single")
DOUBLE = get_board("double")


def kinds(events):
    return [e["type"] for e in events]


def nodes_of(state, seat, board=SINGLE):
    return sorted(board.node_of[tuple(s["at"])] for s in state["ships"]
                  if s["seat"] == seat and s["at"] is not None)


# ---- P20 Curse Island --------------------------------------------------------------------
def test_curse_island_starts_one_ship_in_port_and_two_at_the_island():
    """P20 one ship in port, two at anchorages of Treasure Island."""
    state = game(4, curse_island=True)
    for seat in range(4):
        port = SINGLE.ports[state["seats"][seat]["ports"][0]]
        assert nodes_of(state, seat) == sorted([port["start"][0], *port["curse"]])
        at_island = [n for n in nodes_of(state, seat) if n in SINGLE.anchorage_island]
        assert len(at_island) == 2


def test_curse_island_ship_loads_by_sailing_to_another_anchorage():
    """P20 P12 a ship already at the island loads the treasure by ending a move on an anchorage."""
    state = game(2, curse_island=True)
    ship = next(s["id"] for s in state["ships"] if s["at"] == [5, 10])
    state = rolled(state, [1, 1], seat=0)
    assert (1, ship, "e") in moves(state)      # (5, 11) is the next anchorage
    state, events = move(state, 1, ship, "e")
    assert "treasure_loaded" in kinds(events)


# ---- P21 Hurricane -------------------------------------------------------------------------
def test_hurricane_rolls_three_dice():
    """P21 play with a third die."""
    state = game(2, hurricane=True)
    state, events = play(state, 0, {"type": "roll"})
    assert len(events[0]["dice"]) == 3


def test_three_equal_dice_sink_the_ship_nearest_home():
    """P21 three equal dice: the player loses his ship nearest to his home port."""
    state = only(game(2, hurricane=True), {0: (9, 9), 1: (3, 4), 2: (6, 15), 3: (12, 20)})
    state["treasures"][0]["ship"] = 1
    state = seeded_roll(state, lambda f: len(set(f)) == 1)
    state, events = play(state, 0, {"type": "roll"})
    storm = next(e for e in events if e["type"] == "hurricane")
    assert storm["ship"] == 1 and state["ships"][1]["at"] is None
    assert state["ships"][0]["at"] and state["ships"][2]["at"]
    assert state["treasures"][0]["ship"] is None     # back to the island (reading)


def test_no_hurricane_without_three_equal_dice():
    """P21 any other roll sinks nothing."""
    state = seeded_roll(game(2, hurricane=True), lambda f: len(set(f)) > 1)
    state, events = play(state, 0, {"type": "roll"})
    assert "hurricane" not in kinds(events)
    assert all(s["at"] for s in state["ships"])


# ---- P22 Double board --------------------------------------------------------------------
def test_double_board_rolls_four_dice_for_five_to_eight():
    """P22 four dice are used at the same time; eight ports for up to eight players."""
    state = game(5, double_board=True)
    assert state["board"] == "double" and len(state["ships"]) == 15
    assert len({s["ports"][0] for s in state["seats"]}) == 5
    state, events = play(state, 0, {"type": "roll"})
    assert len(events[0]["dice"]) == 4
    used = 0
    while state["current"] == 0 and state["phase"] == "move":
        state, _ = play(state, 0, ENGINE.legal_actions(state, 0)[0])
        used += 1
    assert 1 <= used <= 4


def test_the_joined_strait_is_a_passage_sailed_through_on_one_die():
    """P22 the strait between the boards becomes a passage."""
    state = only(game(5, double_board=True), {0: (11, 4), 3: (25, 20)})
    state = rolled(state, [3, 1, 1, 1], seat=0)
    got = {a["direction"]: a["to"] for a in ENGINE.legal_actions(state, 0)
           if a["die"] == 3 and a["ship"] == 0}
    assert got["s"] == [14, 4]


def test_double_board_outer_straits_join_the_far_sides():
    """P22 the outer straits work as usual: top of one board, bottom of the other."""
    state = only(game(5, double_board=True), {0: (1, 4), 3: (25, 20)})
    state = rolled(state, [1, 2, 2, 2], seat=0)
    state, _ = move(state, 1, 0, "n")
    got = {a["direction"]: a["to"] for a in ENGINE.legal_actions(state, 0) if a["ship"] == 0}
    assert got["n"] == [DOUBLE.height - 3, 4]


@pytest.mark.parametrize("placement, islands", [
    ("one_each", [0, 1]), ("both_on_one", [0, 0]), ("one_only", [0])])
def test_double_board_treasure_placement(placement, islands):
    """P22 one treasure on each island, both on one, or only one (chosen at creation)."""
    state = game(6, double_board=True, double_treasure=placement)
    assert [t["island"] for t in state["treasures"]] == islands
    assert all(t["ship"] is None for t in state["treasures"])


def test_double_board_ship_loads_the_treasure_of_its_own_island():
    """P22 P12 each island's anchorages give that island's treasure."""
    state = only(game(5, double_board=True), {0: (16, 10), 3: (25, 20)})
    state = rolled(state, [2, 1, 1, 1], seat=0)
    state, events = move(state, 2, 0, "s")
    loaded = next(e for e in events if e["type"] == "treasure_loaded")
    assert state["treasures"][loaded["treasure"]]["island"] == 1


# ---- P23 Shipwreck -------------------------------------------------------------------------
def test_captured_ship_stays_as_a_wreck_nobody_may_enter():
    """P23 captured ships stay where captured; the square can't be used again."""
    state = only(game(2, shipwreck=True), {0: (3, 3), 1: (3, 9), 3: (3, 5), 4: (12, 20)})
    state = rolled(state, [2, 1], seat=0)
    state, events = move(state, 2, 0, "e")
    assert state["wrecks"] == [[3, 5]] and "wreck" in kinds(events)
    state, _ = move(state, 1, 0, "s")                  # the captor may leave the wreck
    state = rolled(state, [4, 5], seat=0)
    assert (4, 1, "w") not in moves(state)             # nobody may end on the wreck
    assert (5, 1, "w") not in moves(state)             # nor sail through it
    state = rolled(state, [3, 1], seat=0)
    assert (1, 0, "n") not in moves(state)
    assert (3, 1, "w") in moves(state)                 # up to it is fine


def test_without_shipwreck_captured_ships_leave_no_wreck():
    """P23 only the variant leaves wrecks."""
    state = only(game(2), {0: (3, 3), 3: (3, 5), 4: (12, 20)})
    state, _ = move(rolled(state, [2, 1], seat=0), 2, 0, "e")
    assert state["wrecks"] == []


# ---- P24 Powder ship -------------------------------------------------------------------------
def test_powder_ship_blows_up_everything_within_the_lower_die():
    """P24 declare before rolling; the lower die is the blast radius in four directions."""
    placed = {0: (5, 5), 1: (5, 9), 2: (12, 2), 3: (5, 3), 4: (7, 5), 5: (6, 6)}
    state = only(game(2, powder_ship=True), placed)
    state["treasures"][0]["ship"] = 3
    assert {"type": "declare_powder", "ship": 0} in ENGINE.legal_actions(state, 0)
    state, events = play(state, 0, {"type": "declare_powder", "ship": 0})
    assert ENGINE.legal_actions(state, 0) == [{"type": "roll"}]
    state = seeded_roll(state, lambda f: min(f) == 2 and max(f) >= 5)
    state, events = play(state, 0, {"type": "roll"})
    blast = next(e for e in events if e["type"] == "explosion")
    assert blast["radius"] == 2
    gone = {d["ship"] for d in blast["destroyed"]}
    assert gone == {0, 3, 4}                 # (5, 3) and (7, 5) are two squares off, straight
    assert state["ships"][5]["at"] == [6, 6]  # diagonal neighbour survives
    assert state["ships"][1]["at"] == [5, 9]  # four squares east
    assert state["treasures"][0]["ship"] is None   # treasure back on the island (reading)


def test_powder_ship_only_once_and_only_before_rolling():
    """P24 the powder ship is declared before rolling, once a game."""
    state = game(2, powder_ship=True)
    state, _ = play(state, 0, {"type": "declare_powder", "ship": 0})
    with pytest.raises(IllegalAction):
        play(state, 0, {"type": "declare_powder", "ship": 1})
    state["powder"] = None
    state["current"] = 0
    with pytest.raises(IllegalAction, match="already"):
        play(state, 0, {"type": "declare_powder", "ship": 1})
    plain = game(2)
    with pytest.raises(IllegalAction, match="without powder"):
        play(plain, 0, {"type": "declare_powder", "ship": 0})
    rolled_state = rolled(game(2, powder_ship=True), [3, 4], seat=0)
    with pytest.raises(IllegalAction, match="before rolling"):
        play(rolled_state, 0, {"type": "declare_powder", "ship": 0})


# ---- P25 One-Two -------------------------------------------------------------------------
def test_one_and_two_give_an_extra_roll():
    """P25 a roll of 1 and 2 moves as usual, then the same player rolls again."""
    state = seeded_roll(game(2, one_two=True), lambda f: sorted(f) == [1, 2])
    state, events = play(state, 0, {"type": "roll"})
    assert "one_two" in kinds(events)
    while state["phase"] == "move":
        state, events = play(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert "extra_roll" in kinds(events)
    assert state["current"] == 0 and state["phase"] == "roll" and state["round"] == 1


def test_one_and_two_without_the_variant_pass_the_turn():
    """P25 only the variant gives the extra roll."""
    state = seeded_roll(game(2), lambda f: sorted(f) == [1, 2])
    state, events = play(state, 0, {"type": "roll"})
    while state["current"] == 0:
        state, events = play(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["current"] == 1


# ---- P26 Opposing Realms, P27 Headwind Realm ------------------------------------------------
def side_ports(state):
    return [[set(SINGLE.ports[p]["sides"]) for p in s["ports"]] for s in state["seats"]]


def test_opposing_realms_six_ships_two_ports_on_one_long_side():
    """P26 six ships and two home ports each, on the same long side."""
    state = game(2, opposing_realms=True)
    assert [len([s for s in state["ships"] if s["seat"] == seat]) for seat in (0, 1)] == [6, 6]
    tops, bottoms = side_ports(state)
    assert all("top" in s for s in tops) and all("bottom" in s for s in bottoms)


def test_headwind_realm_six_ships_ports_on_the_short_sides():
    """P27 six ships each; the short sides' ports are the home ports; half the board each."""
    state = game(2, headwind_realm=True)
    assert [len([s for s in state["ships"] if s["seat"] == seat]) for seat in (0, 1)] == [6, 6]
    lefts, rights = side_ports(state)
    assert all("left" in s for s in lefts) and all("right" in s for s in rights)
    left = [s for s in state["ships"] if s["seat"] == 0]
    assert all(s["at"][1] < SINGLE.width / 2 for s in left)


def test_realms_treasure_ship_wins_at_either_home_port():
    """P26 any of a player's two ports is home."""
    state = only(game(2, opposing_realms=True), {3: (1, 17), 6: (12, 20)})
    state["treasures"][0]["ship"] = 3
    state, events = move(rolled(state, [3, 5], seat=0), 3, 3, "e")
    assert events[-1]["type"] == "win"


def test_opposing_realms_treasure_ship_always_moves_towards_home():
    """P26 a treasure ship must always move towards home: no parallel moves."""
    dist = SINGLE.home_distance((0, 1))
    start = step = None
    for here in range(SINGLE.size):
        for d, nxt in zip(("n", "ne", "e", "se", "s", "sw", "w", "nw"), SINGLE.step[here]):
            if nxt >= 0 and dist[nxt] == dist[here] and SINGLE.node_kind[nxt] == "trade_wind":
                start, step = SINGLE.cells[here][0], d
                break
        if start:
            break
    assert start, "the board has a parallel step in the trade winds"
    realms = only(game(2, opposing_realms=True), {0: start, 6: (12, 20)})
    realms["treasures"][0]["ship"] = 0
    realms = rolled(realms, [1, 1], seat=0)
    assert (1, 0, step) not in moves(realms)
    relaxed = dict(realms, options=dict(realms["options"], opposing_realms=False))
    assert (1, 0, step) in moves(relaxed)


# ---- P28 Flotilla ----------------------------------------------------------------------------
def test_flotilla_starts_stacked_on_the_home_anchorage():
    """P28 all ships start stacked on the home anchorage."""
    state = game(3, flotilla=True)
    for seat in range(3):
        port = SINGLE.ports[state["seats"][seat]["ports"][0]]
        assert nodes_of(state, seat) == [port["node"]] * 3


def test_the_fleet_moves_as_one():
    """P28 the stack moves as one fleet."""
    state = rolled(game(2, flotilla=True), [3, 4], seat=0)
    assert {ship for (_, ship, _) in moves(state)} == {0}
    state, events = move(state, 3, 2, "e")          # naming any ship moves its fleet
    assert events[0]["ships"] == [0, 1, 2]
    assert {tuple(state["ships"][i]["at"]) for i in (0, 1, 2)} == {(1, 4)}
    assert "fleet of 3" in ENGINE.describe(events[0], ["Anna", "Bo"])
    with pytest.raises(IllegalAction, match="agreed roll"):
        move(state, 4, 1, "s", split=True)


def test_the_fleet_splits_and_stacks_on_the_agreed_roll():
    """P28 on the agreed roll ships leave the fleet singly and may stack again."""
    state = rolled(game(2, flotilla=True), [3, 3], seat=0)
    state["split"] = True
    assert (3, 1, "e", "split") in moves(state)
    state, events = move(state, 3, 1, "e", split=True)
    assert state["ships"][1]["at"] == [1, 4] and state["ships"][0]["at"] == [1, 1]
    state, events = move(state, 3, 0, "e")          # the remaining pair joins ship 1
    assert {tuple(state["ships"][i]["at"]) for i in (0, 1, 2)} == {(1, 4)}


def test_without_the_agreed_roll_ships_do_not_stack():
    """P28 outside the agreed roll a fleet may not end on an own ship."""
    state = only(game(2, flotilla=True), {0: (3, 3), 1: (3, 6), 3: (12, 20)})
    state = rolled(state, [3, 5], seat=0)
    assert (3, 0, "e") not in moves(state)
    state["split"] = True
    assert (3, 0, "e") in moves(state)


def test_capturing_a_fleet_takes_every_ship_in_it():
    """P28 P15 landing on an enemy fleet captures the whole stack."""
    state = only(game(2, flotilla=True), {0: (3, 3), 3: (3, 6), 4: (3, 6), 5: (12, 20)})
    state, events = move(rolled(state, [3, 5], seat=0), 3, 0, "e")
    assert {c["ship"] for c in events[0]["captured"]} == {3, 4}


@pytest.mark.parametrize("rule, faces, split", [
    ("doubles", [4, 4], True), ("doubles", [4, 5], False),
    ("double_six", [6, 6], True), ("double_six", [5, 5], False),
    ("any_six", [6, 1], True), ("any_six", [5, 1], False),
    ("sum_seven", [3, 4], True), ("sum_seven", [3, 3], False),
])
def test_the_agreed_split_roll(rule, faces, split):
    """P28 the roll agreed at the start opens splitting and stacking for that turn."""
    state = game(2, flotilla=True, flotilla_split=rule)
    state = seeded_roll(state, lambda f: sorted(f) == sorted(faces))
    state, events = play(state, 0, {"type": "roll"})
    assert ("split_roll" in kinds(events)) == split


def test_after_a_hurricane_the_player_moves_with_all_three_dice():
    """P21 reading: the loss comes first, then the three dice are moved as usual."""
    state = only(game(2, hurricane=True), {0: (9, 9), 1: (3, 4), 3: (12, 20)})
    state = seeded_roll(state, lambda f: len(set(f)) == 1)
    state, events = play(state, 0, {"type": "roll"})
    assert state["phase"] == "move" and state["current"] == 0
    assert len(state["dice"]) == 3 and not any(state["used"])


def test_a_hurricane_sinking_the_last_ship_hands_the_game_over():
    """P21 P16 P19 losing the last ship to a hurricane puts the player out; the last fleet wins."""
    state = only(game(2, hurricane=True), {0: (9, 9), 3: (12, 20)})
    state = seeded_roll(state, lambda f: len(set(f)) == 1)
    state, events = play(state, 0, {"type": "roll"})
    assert {"type": "player_out", "seat": 0} in events
    assert events[-1] == {"type": "win", "seat": 1, "how": "last_ships"}


def test_after_the_blast_the_player_moves_with_the_same_dice():
    """P24 reading: the blast roll is the turn's roll."""
    state = only(game(2, powder_ship=True), {0: (3, 3), 1: (9, 9), 3: (12, 20)})
    state, _ = play(state, 0, {"type": "declare_powder", "ship": 0})
    state = seeded_roll(state, lambda f: min(f) >= 1)
    state, events = play(state, 0, {"type": "roll"})
    assert state["ships"][0]["at"] is None
    assert state["phase"] == "move" and {a["ship"] for a in ENGINE.legal_actions(state, 0)} == {1}


def test_a_blast_that_sinks_everyone_ends_the_game_without_a_winner():
    """P24 P19 if the last ships of all players go down together, nobody wins."""
    state = only(game(2, powder_ship=True), {0: (3, 3), 3: (3, 4)})
    state, _ = play(state, 0, {"type": "declare_powder", "ship": 0})
    state, events = play(state, 0, {"type": "roll"})
    assert events[-1] == {"type": "game_over", "winner": None}
    assert ENGINE.is_over(state) and state["winner"] is None
    assert [r["rank"] for r in ENGINE.standings(state)] == [1, 1]   # out together, ranked alike
