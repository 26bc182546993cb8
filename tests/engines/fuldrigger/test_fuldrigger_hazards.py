"""Hazards at sea (F13–F19): found on the map by property, dice found by seed search."""
import pytest

from games.engines.fuldrigger.sailing import check_path, reachable
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, cargo, first, game, of_type, put_ship, rolled, seeded,
    squares, sea_entry,
)

GOOD = next(iter(WORLD.goods))


def hazard_setup(hazard: str, total: int = 10, **ship_fields):
    """A game at seat 0's turn with a ship on a square next to a `hazard` square."""
    found = squares(hazard)
    assert found, f"world.json has no {hazard} square"
    node = found[0]
    state = rolled(game(2), total)
    ship = put_ship(state, 0, sea_entry(node), **ship_fields)
    return state, ship, node


def move(ship, *path):
    return {"type": "move", "ship": ship["id"], "path": list(path)}


def dice_sum(events, kind):
    return sum(first(events, kind)["dice"])


def continuation(node, previous):
    """A square beyond `node` (not back where we came from), or None."""
    onward = [n for n in WORLD.neighbours(node) if n != previous]
    return onward[0] if onward else None


def test_tailwind_adds_three_squares():
    """F13 a ship entering a tailwind square moves three squares further."""
    assert squares("tailwind"), "world.json has no tailwind square"
    node = squares("tailwind")[0]
    start = sea_entry(node)
    # With a roll of 1 the ship can still sail three squares past the tailwind.
    longest = max(reachable(start, 1).values(), key=len)
    assert longest[0] == node and len(longest) > 1
    assert len(longest) == 4 or WORLD.is_port(longest[-1])
    assert check_path(start, list(longest), 1) == list(longest)
    state, ship, _ = hazard_setup("tailwind", total=1)
    new, events = ENGINE.apply(state, 0, move(ship, *longest))
    assert first(events, "tailwind")["node"] == node
    assert new["ships"][str(ship["id"])]["node"] == longest[-1]


def test_headwind_takes_three_squares():
    """F14 a ship entering a headwind square moves three squares fewer; it may end there."""
    assert squares("headwind"), "world.json has no headwind square"
    node = squares("headwind")[0]
    start = sea_entry(node)
    beyond = continuation(node, start)
    assert beyond is not None, "the headwind square is a dead end"
    with pytest.raises(IllegalAction, match="headwind"):
        check_path(start, [node, beyond], 4)        # 1 square + 3 lost = the whole roll
    assert check_path(start, [node, beyond], 5) == [node, beyond]
    assert check_path(start, [node], 1) == [node]   # the move may end on the headwind
    state, ship, _ = hazard_setup("headwind", total=5)
    new, events = ENGINE.apply(state, 0, move(ship, node, beyond))
    assert first(events, "headwind")["node"] == node
    assert new["ships"][str(ship["id"])]["node"] == beyond


def test_storm_sinks_on_two_or_three():
    """F15 storm: two dice; on 2 or 3 the ship sinks with its cargo."""
    state, ship, node = hazard_setup("storm", cargo=cargo(GOOD))
    tokens = state["tokens"][GOOD]
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "storm") <= 3)
    assert str(ship["id"]) not in new["ships"]
    assert first(events, "storm")["sunk"] and first(events, "storm")["cargo"] == GOOD
    assert new["tokens"][GOOD] == tokens + 1       # the cargo token goes back to the bank
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "storm") >= 4)
    assert new["ships"][str(ship["id"])]["node"] == node
    assert not first(events, "storm")["sunk"]


def test_storm_stops_the_rest_of_the_move():
    """F15 a ship that sinks sails no further; one that survives goes on."""
    state, ship, node = hazard_setup("storm")
    beyond = continuation(node, ship["node"])
    assert beyond is not None and not WORLD.is_port(node), "the storm square is a dead end"
    new, events = seeded(state, 0, move(ship, node, beyond), lambda s, e: dice_sum(e, "storm") <= 3)
    assert first(events, "move")["path"] == [node] and first(events, "move")["stopped"] == "sunk"
    new, events = seeded(state, 0, move(ship, node, beyond), lambda s, e: dice_sum(e, "storm") > 3)
    assert new["ships"][str(ship["id"])]["node"] == beyond


def test_iceberg_sinks_on_exactly_five():
    """F16 iceberg: two dice; on 5 the ship sinks, on anything else it passes."""
    state, ship, node = hazard_setup("ice")
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "ice") == 5)
    assert str(ship["id"]) not in new["ships"] and first(events, "ice")["sunk"]
    for wanted in (4, 6, 2):
        new, events = seeded(state, 0, move(ship, node),
                             lambda s, e, w=wanted: dice_sum(e, "ice") == w)
        assert str(ship["id"]) in new["ships"] and not first(events, "ice")["sunk"]


def test_calm_moves_ship_to_calm_square_and_it_lies_still():
    """F17 calm: two dice; on 7 or less the ship goes to the calm square and lies still for
    its owner's next turn; on 8 or more it sails on."""
    state, ship, node = hazard_setup("calm")
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "calm") <= 7)
    assert new["ships"][str(ship["id"])]["node"] == WORLD.calm_square
    assert first(events, "calm")["becalmed"]
    # Seat 1 plays; then on seat 0's next turn the ship may not move.
    new, _ = ENGINE.apply(new, 0, {"type": "end_turn"})
    new, _ = ENGINE.apply(new, 1, {"type": "roll"})
    new, _ = ENGINE.apply(new, 1, {"type": "end_turn"})
    new, _ = ENGINE.apply(new, None, {"type": "draw_card"})
    assert new["turn"]["seat"] == 0, "the card drawn (fixed by the seed) cost seat 0 its turn"
    new, _ = ENGINE.apply(new, 0, {"type": "roll"})
    assert ship["id"] in new["turn"]["still"]
    step = WORLD.neighbours(WORLD.calm_square)[0]
    with pytest.raises(IllegalAction, match="becalmed"):
        ENGINE.apply(new, 0, move(ship, step))
    assert not any(a.get("ship") == ship["id"] for a in ENGINE.legal_actions(new, 0)
                   if a["type"] == "move")
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "calm") >= 8)
    assert new["ships"][str(ship["id"])]["node"] == node and not first(events, "calm")["becalmed"]


def test_reef_wrecks_on_two_or_three_else_is_known():
    """F18 reef: two dice; on 2 or 3 the ship is wrecked; on more the player knows that reef
    and ignores it ever after, with all his ships."""
    state, ship, node = hazard_setup("reef")
    letter = WORLD.reef_letter(node)
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "reef") <= 3)
    assert str(ship["id"]) not in new["ships"] and first(events, "reef")["wrecked"]
    assert letter not in new["known_reefs"][0]
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "reef") > 3)
    assert letter in new["known_reefs"][0]
    # Another of his ships now passes the reef without a roll.
    other = put_ship(new, 0, sea_entry(node))
    draws = new["draws"]
    after, events = ENGINE.apply(new, 0, move(other, node))
    assert not of_type(events, "reef") and after["draws"] == draws
    assert after["ships"][str(other["id"])]["node"] == node
    # The other player still rolls.
    new["turn"]["seat"] = 1
    theirs = put_ship(new, 1, sea_entry(node))
    _, events = ENGINE.apply(new, 1, move(theirs, node))
    assert of_type(events, "reef")


def test_pirates_take_cargo_on_four_ship_on_two_or_three():
    """F19 pirates: two dice; on 4 the cargo is lost; on 2 or 3 ship and cargo are lost."""
    state, ship, node = hazard_setup("pirates", cargo=cargo(GOOD))
    if any(WORLD.is_port(p) for p in WORLD.within(node, 2)):
        state["fortresses"] = {}
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "pirates") == 4)
    assert new["ships"][str(ship["id"])]["cargo"] is None
    assert first(events, "pirates")["result"] == "cargo_lost"
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "pirates") <= 3)
    assert str(ship["id"]) not in new["ships"]
    new, events = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "pirates") >= 5)
    assert new["ships"][str(ship["id"])]["cargo"]["good"] == GOOD


def test_privateers_ignore_pirates():
    """F19 privateers ignore pirate waters: no roll at all."""
    state, ship, node = hazard_setup("pirates", privateer=True)
    draws = state["draws"]
    new, events = ENGINE.apply(state, 0, move(ship, node))
    assert first(events, "pirates")["spared"] == "privateer" and new["draws"] == draws
    assert new["ships"][str(ship["id"])]["node"] == node


def test_fortress_within_two_squares_protects_from_pirates():
    """F19 a player owning a fortress within two squares of a pirate square ignores it; a
    fortress farther away does not help."""
    for node in squares("pirates"):
        near = sorted(p for p in WORLD.within(node, 2) if WORLD.is_port(p))
        if near:
            break
    else:
        raise AssertionError("world.json has no port within two squares of pirate waters")
    far = next(p for p in WORLD.ports if WORLD.distance(p, node) > 2)
    state = rolled(game(2), 10)
    ship = put_ship(state, 0, sea_entry(node), cargo=cargo(GOOD))
    state["fortresses"][near[0]] = 0
    new, events = ENGINE.apply(state, 0, move(ship, node))
    assert first(events, "pirates")["spared"] == "fortress" and new["draws"] == state["draws"]
    state["fortresses"] = {far: 0, near[0]: 1}     # the near fortress is another player's
    new, events = ENGINE.apply(state, 0, move(ship, node))
    assert "dice" in first(events, "pirates")


def test_hazard_acts_once_per_move_when_passing_through():
    """F13–F19 reading: a hazard acts on a ship entering its square, also in passing."""
    state, ship, node = hazard_setup("storm")
    beyond = continuation(node, ship["node"])
    assert beyond is not None, "the storm square is a dead end"
    new, events = seeded(state, 0, move(ship, node, beyond), lambda s, e: dice_sum(e, "storm") > 3)
    assert len(of_type(events, "storm")) == 1
    assert new["ships"][str(ship["id"])]["node"] == beyond


def test_cargo_counts_squares_sailed():
    """F30 the squares a cargo has been carried grow with each square sailed."""
    state, ship, node = hazard_setup("storm", cargo=cargo(GOOD, carried=3))
    new, _ = seeded(state, 0, move(ship, node), lambda s, e: dice_sum(e, "storm") > 3)
    assert new["ships"][str(ship["id"])]["cargo"]["carried"] == 4
