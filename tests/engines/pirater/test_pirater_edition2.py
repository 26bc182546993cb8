"""Rules edition 2 (docs/rules/changelog.md): the readings of the Swedish original that changed
play, on edition 2's board (ports along the sides, diagonal trade winds). Each test names its
rule; edition-1 states keep the earlier behaviour, and those checks say so."""
import pytest
from pirater_support import (ENGINE, IllegalAction, choose_ports, game, get_board, move, moves,
                             only, play, rolled, seeded_roll)

from games.engines.pirater.board import DIRECTIONS
from games.engines.pirater.sailing import Context, try_move, position

BOARD = get_board("single2")
PORT = {p["name"]: p["id"] for p in BOARD.ports}


def two(**options) -> dict:
    """Edition 2, two players: seat 0 sails from the north-west port (top side), seat 1 from
    the south-east (bottom side); ships 0-2 are seat 0's, 3-5 seat 1's; seat 0 to play."""
    state = ENGINE.new_game(2, "edition-2", options)
    order = state["choosing"]
    wanted = {0: PORT["north-west"], 1: PORT["south-east"]}
    for seat in order:
        state, _ = play(state, seat, {"type": "choose_port", "port": wanted[seat]})
    state["first"] = state["current"] = 0
    return state


def test_new_game_records_the_edition_and_deals_edition_2s_board():
    """Contract, rule editions: new_game writes the current edition and uses its board;
    edition 1 (a replay of an older match) keeps the first board and no key."""
    assert ENGINE.edition == 2 and ENGINE.editions == (1, 2)
    state = ENGINE.new_game(2, "e", {})
    assert state["edition"] == 2 and state["board"] == "single2"
    assert ENGINE.new_game(6, "e", {"double_board": True})["board"] == "double2"
    old = ENGINE.new_game(2, "e", {}, edition=1)
    assert "edition" not in old and old["board"] == "single"
    with pytest.raises(IllegalAction, match="edition"):
        ENGINE.new_game(2, "e", {}, edition=3)


# ---- P5/P7: ports chosen in roll order ------------------------------------------------------

@pytest.mark.rule("P5")
def test_players_choose_free_ports_in_roll_order_and_the_highest_begins():
    """P5/P7: everyone rolls; in roll order, highest first, each chooses a free home port; the
    ships are placed when all have chosen and the highest roller begins. Today's engine dealt
    the ports by seat."""
    chosen_by_first = set()
    for k in range(15):
        state = ENGINE.new_game(3, f"ports-{k}", {})
        assert state["phase"] == "ports" and state["ships"] == []
        assert all(s["ports"] == [] for s in state["seats"])
        rolls = [e for e in state["start"] if e["type"] == "start_roll"]
        firsts = {}
        for e in rolls:
            firsts.setdefault(e["seat"], sum(e["dice"]))
        order = state["choosing"]
        assert [firsts[s] for s in order] == sorted(firsts.values(), reverse=True)
        assert state["current"] == state["first"] == order[0]
        with pytest.raises(IllegalAction, match="chooses a home port"):
            play(state, order[0], {"type": "roll"})
        taken = []
        for seat in order:
            assert ENGINE.to_act(state) == [seat]
            free = [a["port"] for a in ENGINE.legal_actions(state, seat)]
            assert free == [p["id"] for p in BOARD.ports if p["id"] not in taken]
            pick = free[(k + seat) % len(free)]
            for other in taken:
                with pytest.raises(IllegalAction, match="taken"):
                    play(state, seat, {"type": "choose_port", "port": other})
            state, _ = play(state, seat, {"type": "choose_port", "port": pick})
            taken.append(pick)
        chosen_by_first.add(state["seats"][order[0]]["ports"][0])
        assert state["phase"] == "roll" and state["current"] == order[0]
        for seat in range(3):
            ships = [s for s in state["ships"] if s["seat"] == seat]
            port = BOARD.ports[state["seats"][seat]["ports"][0]]
            assert len(ships) == 3
            assert {tuple(s["at"]) for s in ships} == {BOARD.cells[n][0] for n in port["start"]}
    assert len(chosen_by_first) > 1


def test_a_port_choice_out_of_turn_unknown_or_timed_out():
    """P5 reading: only the seat whose choice it is chooses, a port of this board; a timed-out
    choice takes the first free one."""
    state = ENGINE.new_game(2, "refuse", {})
    seat, other = state["choosing"]
    with pytest.raises(IllegalAction):
        play(state, other, {"type": "choose_port", "port": 0})
    for wrong in (99, -1, "0", None):
        with pytest.raises(IllegalAction):
            play(state, seat, {"type": "choose_port", "port": wrong})
    assert ENGINE.timeout_action(state, seat) == {"type": "choose_port", "port": 0}
    old = ENGINE.new_game(2, "refuse", {}, edition=1)
    with pytest.raises(IllegalAction):
        play(old, old["current"], {"type": "choose_port", "port": 0})


@pytest.mark.rule("P26")
def test_realms_choose_a_side_opposing_along_the_long_sides_headwind_the_short():
    """P26/P27 still work: Opposing Realms gives each player the two ports of one long side
    (along the trade winds), Headwind Realm those of one short side; six ships each."""
    for option, sides in (("opposing_realms", ("top", "bottom")), ("headwind_realm", ("left", "right"))):
        state = choose_ports(ENGINE.new_game(2, "realms", {option: True}))
        got = set()
        for seat in state["seats"]:
            assert len(seat["ports"]) == 2
            side = {s for p in seat["ports"] for s in BOARD.ports[p]["sides"]}
            assert len(side) == 1
            got |= side
            assert len([s for s in state["ships"] if s["seat"] == seat["seat"]]) == 6
        assert got == set(sides)


# ---- P13: directions judged from the side where the port lies ---------------------------

@pytest.mark.rule("P13")
def test_a_treasure_ship_moves_towards_its_side_or_along_it_never_back():
    """P13 (as the digest now reads): towards = the step that heads for the port's side,
    parallel = the two steps along it; a treasure ship has three straight directions (and
    the diagonals that head home in the trade winds), never the step back."""
    state = two()
    only(state, {0: (10, 14), 3: (1, 19)})
    state["treasures"][0]["ship"] = 0
    state = rolled(state, [3, 2], seat=0)
    straight = {d for (_, ship, d) in moves(state) if ship == 0}
    assert straight == {"n", "e", "w"}                       # top side: never "s"
    ctx = Context(state, 0)
    assert ctx.homeward == frozenset({"n", "ne", "nw", "e", "w"})
    assert Context(state, 1).homeward == frozenset({"s", "se", "sw", "e", "w"})


@pytest.mark.rule("P13")
def test_parallel_steps_are_common_on_edition_2s_board():
    """P13: on edition 1's corner ports "parallel" almost never happened (21 of 768 open-sea
    steps); judged from the port's side, every open-sea square offers two parallel steps."""
    state = two()
    ctx = Context(state, 0)
    empty = position(state)
    empty.at = [-1] * len(empty.at)
    empty.at[0] = -1
    parallel = 0
    for node, kind in enumerate(BOARD.node_kind):
        if kind != "sea":
            continue
        for d in ("e", "w"):
            at = [-1] * len(empty.at)
            at[0] = node
            pos = type(empty)(at, [0], frozenset())
            if type(try_move(ctx, pos, 0, 1, d, False)) is not str:
                parallel += 1
    assert parallel > 300                                        # edition 1: 21


@pytest.mark.rule("P26")
def test_opposing_realms_treasure_ship_only_heads_home():
    """P26 with P13's side reading: a treasure ship must always move towards home: north for
    the top side's owner, nothing along the side."""
    state = choose_ports(ENGINE.new_game(2, "strict", {"opposing_realms": True}))
    seat = next(s["seat"] for s in state["seats"]
                if BOARD.ports[s["ports"][0]]["sides"] == ("top",))
    assert Context(state, seat).homeward == frozenset({"n", "ne", "nw"})


# ---- P3: trade winds with diagonal runs -------------------------------------------------

@pytest.mark.rule("P3")
def test_trade_winds_hold_diagonal_runs_of_several_squares():
    """P3: twenty trade-wind squares on both sides of the island, shaped so that diagonal runs
    of several squares exist (edition 1's 2x5 blocks allowed only 1)."""
    assert sum(BOARD.is_wind) == 20
    longest = 0
    for node in range(BOARD.size):
        if not BOARD.is_wind[node]:
            continue
        for d in ("ne", "se", "sw", "nw"):
            run, here = 0, node
            index = list(DIRECTIONS).index(d)
            while BOARD.step[here][index] >= 0:
                here = BOARD.step[here][index]
                run += 1
            longest = max(longest, run)
    assert longest >= 4
    old = get_board("single")
    assert not any(old.step[old.step[n][1]][1] >= 0 for n in range(old.size)
                   if old.is_wind[n] and old.step[n][1] >= 0)


@pytest.mark.rule("P3")
def test_a_treasure_ship_sails_a_diagonal_run_towards_home():
    """P3/P13: a treasure ship bound for the top side runs four squares north-west along the
    winds in one die."""
    state = two()
    only(state, {0: (8, 6), 3: (1, 19)})
    state["treasures"][0]["ship"] = 0
    state = rolled(state, [4, 1], seat=0)
    assert (4, 0, "nw") in moves(state)
    state, events = move(state, 4, 0, "nw")
    assert state["ships"][0]["at"] == [4, 2]


# ---- P12: loading is a choice -------------------------------------------------------------

@pytest.mark.rule("P12")
def test_loading_the_treasure_is_a_choice():
    """P12: a ship reaching an anchorage *may* load the treasure: the move is offered with and
    without loading, and without it the treasure stays on the island (edition 1 always
    loaded)."""
    state = two()
    only(state, {0: (3, 10), 3: (1, 19)})
    state = rolled(state, [2, 5], seat=0)
    offered = [a for a in ENGINE.legal_actions(state, 0)
               if a["type"] == "move" and a["die"] == 2 and a["direction"] == "s"]
    assert {a.get("load", False) for a in offered} == {True, False}
    left, _ = move(state, 2, 0, "s")
    assert left["treasures"][0]["ship"] is None
    loaded, events = move(state, 2, 0, "s", load=True)
    assert loaded["treasures"][0]["ship"] == 0 and any(e["type"] == "treasure_loaded" for e in events)
    with pytest.raises(IllegalAction, match="no treasure for that ship"):
        move(state, 2, 0, "n", load=True)
    old = only(game(2), {0: (3, 10), 3: (12, 19)})
    old, _ = move(rolled(old, [2, 5], seat=0), 2, 0, "s")
    assert old["treasures"][0]["ship"] == 0


@pytest.mark.rule("P12")
def test_a_curse_island_ship_on_an_anchorage_may_load_there():
    """P12/P20: a Curse Island ship that starts on an anchorage may load the treasure there,
    before rolling or between dice, without using a die."""
    state = choose_ports(ENGINE.new_game(2, "curse", {"curse_island": True}))
    seat = state["current"]
    on_anchorage = [s["id"] for s in state["ships"] if s["seat"] == seat
                    and BOARD.node_of[tuple(s["at"])] in BOARD.anchorage_island]
    assert len(on_anchorage) == 2
    listed = [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "load"]
    assert [a["ship"] for a in listed] == on_anchorage
    state, events = play(state, seat, {"type": "load", "ship": on_anchorage[0]})
    assert state["treasures"][0]["ship"] == on_anchorage[0]
    assert state["phase"] == "roll"
    with pytest.raises(IllegalAction, match="no treasure for that ship"):
        play(state, seat, {"type": "load", "ship": on_anchorage[1]})
    old = game(2, curse_island=True)
    with pytest.raises(IllegalAction):
        play(old, 0, {"type": "load", "ship": 1})


# ---- P23: a ship on a wreck can be captured -----------------------------------------------

@pytest.mark.rule("P23")
def test_a_ship_standing_on_a_wreck_can_be_captured():
    """P23: wreck squares can't be used, but a ship standing on one (the captor who made it)
    can still be captured; sailing through or onto an empty wreck stays forbidden. Edition 1
    let the wreck shield it."""
    state = two(shipwreck=True)
    only(state, {0: (3, 3), 1: (10, 10), 3: (3, 5), 4: (3, 8)})
    state, _ = move(rolled(state, [2, 1], seat=0), 2, 0, "e")       # 0 takes 3: a wreck
    assert state["wrecks"] == [[3, 5]] and state["ships"][0]["at"] == [3, 5]
    state = rolled(state, [3, 1], seat=1)
    assert (3, 4, "w") in moves(state)
    state, events = move(state, 3, 4, "w")
    assert state["ships"][0]["at"] is None and state["ships"][4]["at"] == [3, 5]
    only(state, {4: (3, 7), 1: (10, 10), 5: (12, 19)})
    state = rolled(state, [4, 1], seat=1)
    assert (4, 4, "w") not in moves(state)                         # through the wreck
    assert (2, 4, "w") not in moves(rolled(state, [2, 1], seat=1))  # onto the empty wreck
    old = only(game(2, shipwreck=True), {0: (3, 3), 1: (10, 10), 3: (3, 5), 4: (3, 8)})
    old, _ = move(rolled(old, [2, 1], seat=0), 2, 0, "e")
    assert old["ships"][0]["at"] == [3, 5]
    assert (3, 4, "w") not in moves(rolled(old, [3, 1], seat=1))


# ---- P24: three or four dice, and a confirmation --------------------------------------------

@pytest.mark.rule("P24")
def test_a_powder_ship_that_could_sink_the_last_ships_needs_confirmation():
    """P24: declaring a powder ship whose blast could sink all the player's remaining ships
    needs "confirm": true; legal_actions offers it so; elsewhere no confirmation is asked."""
    state = two(powder_ship=True)
    only(state, {0: (5, 5), 1: (5, 7), 3: (12, 19)})               # both within six squares
    with pytest.raises(IllegalAction, match="confirm"):
        play(state, 0, {"type": "declare_powder", "ship": 0})
    assert {"type": "declare_powder", "ship": 0, "confirm": True} in ENGINE.legal_actions(state, 0)
    declared, _ = play(state, 0, {"type": "declare_powder", "ship": 0, "confirm": True})
    assert declared["powder"] == 0
    only(state, {0: (5, 5), 1: (11, 18), 3: (12, 19)})              # one ship out of reach
    assert {"type": "declare_powder", "ship": 0} in ENGINE.legal_actions(state, 0)
    declared, _ = play(state, 0, {"type": "declare_powder", "ship": 0})
    assert declared["powder"] == 0
    old = only(game(2, powder_ship=True), {0: (5, 5), 1: (5, 7), 3: (12, 19)})
    declared, _ = play(old, 0, {"type": "declare_powder", "ship": 0})
    assert declared["powder"] == 0


@pytest.mark.rule("P24")
def test_with_three_dice_the_lowest_die_is_the_blast_radius():
    """P24 reading for three dice (Hurricane) or four (double board): the lowest die rolled."""
    state = two(powder_ship=True, hurricane=True)
    only(state, {0: (5, 14), 1: (10, 3), 3: (5, 16), 4: (5, 18)})
    state, _ = play(state, 0, {"type": "declare_powder", "ship": 0})
    state = seeded_roll(state, lambda f: sorted(f)[0] == 2 and sorted(f)[1] >= 4 and len(set(f)) > 1)
    state, events = play(state, 0, {"type": "roll"})
    blast = next(e for e in events if e["type"] == "explosion")
    assert blast["radius"] == 2 and {d["ship"] for d in blast["destroyed"]} == {0, 3}


def test_the_double_board_of_edition_2_drops_the_ports_under_the_seam():
    """P22 on edition 2's board: the two boards meet along a long side; its ports are under the
    seam, the other twelve are free to choose for five to eight players."""
    board = get_board("double2")
    assert len(board.ports) == 12 and board.islands == 2
    state = choose_ports(ENGINE.new_game(8, "double", {"double_board": True}))
    assert state["phase"] == "roll" and len(state["ships"]) == 24


@pytest.mark.rule("P22")
def test_the_double_board_always_has_both_treasures():
    """P22 (corrected: the original says "both treasures"): one on each island or both on one;
    edition 1's single-treasure setting is refused for new matches, kept for edition 1's."""
    with pytest.raises(IllegalAction, match="both treasures"):
        ENGINE.new_game(6, "both", {"double_board": True, "double_treasure": "one_only"})
    with pytest.raises(IllegalAction, match="both treasures"):
        ENGINE.check_options({"double_board": True, "double_treasure": "one_only"}, 6)
    for placement, islands in (("one_each", [0, 1]), ("both_on_one", [0, 0])):
        state = ENGINE.new_game(6, "both", {"double_board": True, "double_treasure": placement})
        assert [t["island"] for t in state["treasures"]] == islands
    old = ENGINE.new_game(6, "both", {"double_board": True, "double_treasure": "one_only"},
                          edition=1)
    assert len(old["treasures"]) == 1
