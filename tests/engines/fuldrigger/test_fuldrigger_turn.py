"""Winning, setup, the turn and sailing without hazards (F1–F12)."""
import pytest

from games.engines.fuldrigger.sailing import reachable
from games.engines.fuldrigger.state import fortune
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, cargo, clear_ships, dealt, first, game, of_type, put_ship,
    rolled, ship_ids,
)


def plain_chain(length: int):
    """A run of `length` + 1 hazard-free sea squares, each next to the one before."""
    for start in sorted(WORLD.nodes):
        if WORLD.is_port(start) or WORLD.hazard(start):
            continue
        path = [start]
        while len(path) <= length:
            options = [n for n in WORLD.neighbours(path[-1]) if n not in path
                       and not WORLD.is_port(n) and not WORLD.hazard(n)]
            if not options:
                break
            path.append(options[0])
        if len(path) == length + 1:
            return path
    pytest.fail(f"no hazard-free chain of {length} squares on this map")


def end_turns(state, turns):
    for _ in range(turns):
        while state["phase"] == "card":
            state, _ = ENGINE.apply(state, None, {"type": "draw_card"})
        if state["phase"] == "over":
            break
        seat = state["turn"]["seat"]
        if state["turn"]["roll"] is None:
            state, _ = ENGINE.apply(state, seat, {"type": "roll"})
        state, _ = ENGINE.apply(state, seat, {"type": "end_turn"})
    return state


def test_rounds_limit_ends_game_richest_wins():
    """F1 the game ends when the agreed rounds are played; the largest fortune wins."""
    state = game(3, rounds=2)
    state["cash"] = [100, 400, 250]
    state = end_turns(state, 6)
    assert ENGINE.is_over(state) and state["ended"] == "rounds"
    assert ENGINE.to_act(state) == []
    table = ENGINE.standings(state)
    assert [row["seat"] for row in table] == [1, 2, 0]
    assert [row["rank"] for row in table] == [1, 2, 3]
    assert len(state["history"]) == 2


def test_no_rounds_limit_keeps_going():
    """F1 with rounds 0 only the platform's deadline ends the game."""
    state = end_turns(game(2, rounds=0), 20)
    assert not ENGINE.is_over(state) and state["round"] >= 10


def test_fortune_is_cash_ships_fortresses_and_cargo_paid():
    """F2 fortune = cash + 100 per ship + 100 per fortress + price paid for goods aboard."""
    state = game(2)
    good = next(iter(WORLD.goods))
    ship = state["ships"][str(ship_ids(state, 0)[0])]
    ship["cargo"] = cargo(good, paid=37)
    state["fortresses"][WORLD.ports[-1]] = 0
    state["cash"][0] = 55
    assert fortune(state, 0) == 55 + 3 * 100 + 100 + 37
    row = next(r for r in ENGINE.standings(state) if r["seat"] == 0)
    assert row["score"] == fortune(state, 0)
    assert row["detail"] == {"cash": 55, "ships": 3, "fortresses": 1, "cargo": 37}


def test_last_fleet_afloat_wins_early():
    """F3 when all players but one have lost their ships (and cannot buy one) the game ends."""
    state = game(2)
    rolled(state)
    clear_ships(state, 1)
    state["cash"][1] = 99
    state["cash"][0] = 0
    new, events = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert ENGINE.is_over(new) and new["ended"] == "last_fleet"
    assert first(events, "out")["seat"] == 1
    new["cash"][1] = 99                            # poorer than seat 0 would not matter
    assert ENGINE.standings(new)[0]["seat"] == 0


def test_player_without_ships_but_with_cash_stays_in():
    """F3 reading: a player with no ships but 100 ducats may buy one in his home city."""
    state = game(2, seat=1)
    clear_ships(state, 1)
    state["cash"][1] = 100
    new, _ = ENGINE.apply(state, 1, {"type": "buy_ship"})
    assert not new["out"][1] and len(ship_ids(new, 1)) == 1
    assert not ENGINE.is_over(new)


def test_out_player_is_skipped():
    """F3/F8 a player who is out is skipped in the turn order."""
    state = game(3)
    clear_ships(state, 1)
    state["cash"][1] = 10
    rolled(state)
    new, events = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert new["out"][1]
    assert new["turn"]["seat"] == 2


def test_banker_card_opens_every_round():
    """F4 the banker (seat 0) turns a chance card when his turn comes: the system acts first."""
    state = dealt(3, "banker")
    assert state["phase"] == "card"
    assert ENGINE.to_act(state) == [] and ENGINE.system_action(state) == {"type": "draw_card"}
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "roll"})
    state, events = ENGINE.apply(state, None, {"type": "draw_card"})
    assert first(events, "card")["round"] == 1
    assert ENGINE.to_act(state)[0] == state["first"] or state["skip"] != [False] * 3
    state = game(2, seat=1)
    rolled(state)
    state, _ = ENGINE.apply(state, 1, {"type": "end_turn"})
    assert state["round"] == 2 and ENGINE.system_action(state) == {"type": "draw_card"}


def test_each_player_starts_with_100_ducats():
    """F5 each player gets 100 ducats (the start_cash option may change it)."""
    assert ENGINE.new_game(4, "s", {})["cash"] == [100] * 4
    assert ENGINE.new_game(2, "s", {"start_cash": 300})["cash"] == [300, 300]


def test_three_ships_in_the_home_city():
    """F6 each player takes three ships, which start in his home city."""
    state = dealt(4, "s")
    for seat in range(4):
        ships = [s for s in state["ships"].values() if s["owner"] == seat]
        assert len(ships) == 3
        assert {s["node"] for s in ships} == {state["homes"][seat]}
        assert not any(s["privateer"] or s["cargo"] for s in ships)


def test_home_cities_are_the_boards_home_ports_in_seat_order_in_edition_1():
    """F7, edition 1's reading: seat i has the i-th home port of the board."""
    state = ENGINE.new_game(4, "s", {}, edition=1)
    assert state["homes"] == list(WORLD.homes[:4])
    assert len(set(state["homes"])) == 4 and all(WORLD.is_port(h) for h in state["homes"])


def test_first_seat_begins_and_play_passes_on_in_edition_1():
    """F8, edition 1: the first seat begins; then play passes to the next seat, and back to
    the first."""
    state = ENGINE.new_game(3, "order", {}, edition=1)
    state, _ = ENGINE.apply(state, None, {"type": "draw_card"})
    state["skip"] = [False] * 3
    seats = []
    for _ in range(3):
        seat = state["turn"]["seat"]
        seats.append(seat)
        state, _ = ENGINE.apply(state, seat, {"type": "roll"})
        state, _ = ENGINE.apply(state, seat, {"type": "end_turn"})
    assert seats[1:] == [1, 2]
    assert state["round"] == 2 and state["phase"] == "card"


def test_trade_before_rolling():
    """F9 trading and buying may come before the roll, in any order."""
    state = game(2)
    home = state["homes"][0]
    good = next(g for g, e in WORLD.prices.get(home, {}).items() if e["buy"] is not None) \
        if any(e["buy"] for e in WORLD.prices.get(home, {}).values()) else None
    state["cash"][0] = 400
    state, _ = ENGINE.apply(state, 0, {"type": "buy_ship"})
    state, _ = ENGINE.apply(state, 0, {"type": "buy_fortress", "port": home})
    if good:
        state, _ = ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship_ids(state, 0)[0],
                                           "good": good})
    assert state["turn"]["roll"] is None and len(ship_ids(state, 0)) == 4
    assert state["fortresses"][home] == 0


def test_roll_three_dice_each_ship_moves_up_to_total():
    """F10 three dice are rolled; each ship may move up to their sum, fewer too, once a turn."""
    state = game(2)
    state, events = ENGINE.apply(state, 0, {"type": "roll"})
    roll = first(events, "roll")
    assert len(roll["dice"]) == 3 and all(1 <= d <= 6 for d in roll["dice"])
    assert state["turn"]["total"] == sum(roll["dice"])
    chain = plain_chain(4)
    state = rolled(game(2), 3)
    ship = put_ship(state, 0, chain[0])
    with pytest.raises(IllegalAction, match="Too far"):
        ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": chain[1:5]})
    moved, _ = ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": chain[1:3]})
    assert moved["ships"][str(ship["id"])]["node"] == chain[2]
    with pytest.raises(IllegalAction, match="moved this turn"):
        ENGINE.apply(moved, 0, {"type": "move", "ship": ship["id"], "path": [chain[3]]})


def test_move_needs_a_roll_and_adjacent_squares():
    """F10 a move needs this turn's roll and a path of neighbouring squares."""
    state = game(2)
    chain = plain_chain(2)
    ship = put_ship(state, 0, chain[0])
    with pytest.raises(IllegalAction, match="Roll"):
        ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": chain[1:]})
    rolled(state, 10)
    with pytest.raises(IllegalAction, match="not next to"):
        ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": [chain[2]]})


def test_entering_a_port_ends_the_move():
    """F11 a ship may not enter a port and leave it in the same turn."""
    port = next(p for p in WORLD.ports if any(not WORLD.is_port(n) for n in WORLD.neighbours(p)))
    sea = next(n for n in WORLD.neighbours(port) if not WORLD.is_port(n))
    beyond = next(n for n in WORLD.neighbours(port) if n != sea) if len(WORLD.neighbours(port)) > 1 else None
    state = rolled(game(2), 12)
    ship = put_ship(state, 0, sea)
    if beyond:
        with pytest.raises(IllegalAction, match="ends the move"):
            ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": [port, beyond]})
    new, _ = ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": [port]})
    assert new["ships"][str(ship["id"])]["node"] == port
    with pytest.raises(IllegalAction, match="moved this turn"):
        ENGINE.apply(new, 0, {"type": "move", "ship": ship["id"], "path": [sea]})
    assert all(port not in path[:-1] for path in reachable(sea, 12).values())


def test_ship_starting_in_port_may_leave():
    """F11 a ship that starts its turn in port may sail out."""
    state = rolled(game(2), 5)
    home = state["homes"][0]
    number = ship_ids(state, 0)[0]
    sea = WORLD.neighbours(home)[0]
    new, _ = ENGINE.apply(state, 0, {"type": "move", "ship": number, "path": [sea]})
    assert new["ships"][str(number)]["node"] == sea


def test_ships_share_a_square():
    """F12 any number of ships may share a square, also of different players."""
    chain = plain_chain(1)
    state = rolled(game(2), 5)
    a = put_ship(state, 0, chain[0])
    b = put_ship(state, 0, chain[0])
    put_ship(state, 1, chain[1])
    state, _ = ENGINE.apply(state, 0, {"type": "move", "ship": a["id"], "path": [chain[1]]})
    state, _ = ENGINE.apply(state, 0, {"type": "move", "ship": b["id"], "path": [chain[1]]})
    assert sum(1 for s in state["ships"].values() if s["node"] == chain[1]) == 3


def test_legal_moves_list_every_reachable_square():
    """F10 legal_actions lists, for each ship, every reachable square with a valid path."""
    state = rolled(game(2), 6)
    actions = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "move"]
    assert actions
    number = ship_ids(state, 0)[0]
    mine = [a for a in actions if a["ship"] == number]
    assert {a["path"][-1] for a in mine} == set(reachable(state["homes"][0], 6, True))
    for action in mine[:10]:
        new, events = ENGINE.apply(state, 0, action)
        assert of_type(events, "move")
