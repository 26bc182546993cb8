"""The isthmus variant (F44–F47): cargo carried overland at Suez and Panama for a toll."""
import pytest

from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, cargo, first, game, put_ship,
)

GOOD = next(iter(WORLD.goods))
SUEZ = next(c for c in WORLD.isthmus if c["name"] == "Suez")
PANAMA = next(c for c in WORLD.isthmus if c["name"] != "Suez")


def unload(ship):
    return {"type": "isthmus_unload", "ship": ship["id"]}


def crossing_setup(crossing, side=0, **options):
    port, partner = crossing["ports"][side], crossing["ports"][1 - side]
    state = game(3, **options)
    ship = put_ship(state, 0, port, cargo=cargo(GOOD, paid=42, carried=7))
    return state, ship, port, partner


def test_cargo_crosses_and_is_picked_up_on_the_other_side():
    """F44 a cargo unloaded on one side is picked up by another ship on the other side, in
    the same round or later, keeping its price paid and squares carried."""
    state, ship, port, partner = crossing_setup(SUEZ)
    state, events = ENGINE.apply(state, 0, unload(ship))
    number = first(events, "isthmus_unload")["cargo"]
    assert state["ships"][str(ship["id"])]["cargo"] is None
    assert state["crossing"][0]["at"] == partner
    # Goods waiting at the isthmus still count in the owner's fortune (F2 reading).
    assert next(r for r in ENGINE.standings(state) if r["seat"] == 0)["detail"]["cargo"] == 42
    other = put_ship(state, 0, partner)
    action = {"type": "isthmus_load", "ship": other["id"], "cargo": number}
    assert action in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="waits in"):
        ENGINE.apply(state, 0, {"type": "isthmus_load", "ship": ship["id"], "cargo": number})
    new, _ = ENGINE.apply(state, 0, action)
    loaded = new["ships"][str(other["id"])]["cargo"]
    assert loaded["good"] == GOOD and loaded["paid"] == 42 and loaded["carried"] == 7
    assert new["crossing"] == []
    # Another player cannot take it.
    theirs = put_ship(state, 1, partner)
    state["turn"]["seat"] = 1
    with pytest.raises(IllegalAction, match="no cargo number"):
        ENGINE.apply(state, 1, {"type": "isthmus_load", "ship": theirs["id"], "cargo": number})


def test_isthmus_only_in_the_variant_and_at_its_ports():
    """F44 crossings exist only with the isthmus option, and only at the isthmus ports."""
    state, ship, _, _ = crossing_setup(PANAMA, isthmus=False)
    with pytest.raises(IllegalAction, match="variant"):
        ENGINE.apply(state, 0, unload(ship))
    assert not any(a["type"] == "isthmus_unload" for a in ENGINE.legal_actions(state, 0))
    state = game(2)
    elsewhere = next(p for p in WORLD.ports if WORLD.isthmus_partner(p) is None)
    ship = put_ship(state, 0, elsewhere, cargo=cargo(GOOD))
    with pytest.raises(IllegalAction, match="not at an isthmus"):
        ENGINE.apply(state, 0, unload(ship))


@pytest.mark.parametrize("crossing", [SUEZ, PANAMA], ids=["suez", "panama"])
def test_toll_of_ten_to_the_bank(crossing):
    """F45 10 ducats toll to the bank per cargo crossing."""
    state, ship, _, _ = crossing_setup(crossing)
    new, events = ENGINE.apply(state, 0, unload(ship))
    assert new["cash"] == [90, 100, 100] and first(events, "isthmus_unload")["toll"] == 10
    state["cash"][0] = 9
    with pytest.raises(IllegalAction, match="toll"):
        ENGINE.apply(state, 0, unload(ship))


@pytest.mark.parametrize("side", [0, 1])
def test_porto_bello_fortress_owner_crosses_free_and_collects(side):
    """F46 the Porto Bello fortress's owner pays no toll there and collects the others'."""
    porto_bello = PANAMA["ports"][0]
    state, ship, _, _ = crossing_setup(PANAMA, side=side)
    state["fortresses"][porto_bello] = 1
    new, _ = ENGINE.apply(state, 0, unload(ship))
    assert new["cash"] == [90, 110, 100]
    state["fortresses"][porto_bello] = 0
    new, _ = ENGINE.apply(state, 0, unload(ship))
    assert new["cash"] == [100, 100, 100]
    # A fortress at the Panama end alone gives nothing.
    state["fortresses"] = {PANAMA["ports"][1]: 1}
    new, _ = ENGINE.apply(state, 0, unload(ship))
    assert new["cash"] == [90, 100, 100]


def test_suez_owner_of_both_fortresses():
    """F47 the owner of both the Suez and Alexandria fortresses crosses free and collects;
    owning one of them is not enough."""
    a, b = SUEZ["ports"]
    state, ship, _, _ = crossing_setup(SUEZ)
    state["fortresses"] = {a: 1, b: 1}
    assert ENGINE.apply(state, 0, unload(ship))[0]["cash"] == [90, 110, 100]
    state["fortresses"] = {a: 0, b: 0}
    assert ENGINE.apply(state, 0, unload(ship))[0]["cash"] == [100, 100, 100]
    state["fortresses"] = {a: 1}
    assert ENGINE.apply(state, 0, unload(ship))[0]["cash"] == [90, 100, 100]


def test_suez_two_owners_cross_free_and_split():
    """F47 two different owners of the Suez and Alexandria fortresses both cross free and
    split the others' tolls equally."""
    a, b = SUEZ["ports"]
    state, ship, _, _ = crossing_setup(SUEZ)
    state["fortresses"] = {a: 1, b: 2}
    assert ENGINE.apply(state, 0, unload(ship))[0]["cash"] == [90, 105, 105]
    state["fortresses"] = {a: 0, b: 2}
    assert ENGINE.apply(state, 0, unload(ship))[0]["cash"] == [100, 100, 100]
    state["fortresses"] = {a: 1, b: 0}
    assert ENGINE.apply(state, 0, unload(ship))[0]["cash"] == [100, 100, 100]
