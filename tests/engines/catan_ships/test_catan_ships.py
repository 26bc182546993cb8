"""The ships variant, rules C1-C20 (shared/rules/catan-ships.md), each test naming its rule."""
import pytest

from catan_support import (ENGINE, RESOURCES, act, add_ship, coast_spot, docked_ship, empty_board, fresh,
                           gathering, geometry, give, hand, pirate_state, place, road, rolling, ships_board)
from games.engines import IllegalAction, dice
from games.engines.catan_ships import scoring
from games.engines.catan_ships.ships import ship_capacity_ok
from games.engines.catan_ships.board import DIRECTIONS


@pytest.mark.rule("C1")
def test_c1_three_to_six_players():
    """C1: 3-6 players."""
    for players in (3, 6):
        assert ENGINE.check_options({"ships": True}, players) == {"ships": True}
    for players in (2, 7):
        with pytest.raises(IllegalAction):
            ENGINE.check_options({"ships": True}, players)
    assert ENGINE.min_players == 3 and ENGINE.max_players == 6


@pytest.mark.rule("C2")
def test_c2_about_four_land_and_eight_water_hexes_per_player_mixed():
    """C2: about 4 land and 8 water hexes per player, land and water mixed."""
    for players in range(3, 7):
        for seed in ("a", "b", "c"):
            geo = geometry(fresh(players, True, seed)["board"])
            land = sum(geo.land)
            assert geo.hex_count == 12 * players
            assert 4 * players - 1 <= land <= 4 * players
            # mixed: each land hex has water on at least half its sides
            cells = {geo.hexes[x][:2] for x in geo.land_hexes}
            islands, seen = 0, set()
            for c in cells:
                if c in seen:
                    continue
                islands += 1
                stack = [c]
                seen.add(c)
                while stack:
                    q, r = stack.pop()
                    for dq, dr in DIRECTIONS:
                        n = (q + dq, r + dr)
                        if n in cells and n not in seen:
                            seen.add(n)
                            stack.append(n)
                for q, r in [c]:
                    assert sum((q + dq, r + dr) not in cells for dq, dr in DIRECTIONS) >= 3
            # and water runs between the land: some water hexes have land on three sides
            water = [geo.hexes[x][:2] for x in range(geo.hex_count) if not geo.land[x]]
            assert any(sum((q + dq, r + dr) in cells for dq, dr in DIRECTIONS) >= 3 for q, r in water)


@pytest.mark.rule("C3")
def test_c3_no_corner_touches_three_land_hexes_and_the_board_is_reproducible():
    """C3: no intersection touching 3 land hexes; the same seed gives the same board."""
    for players in range(3, 7):
        for seed in ("x", "y", "z", "w"):
            geo = geometry(fresh(players, True, seed)["board"])
            assert max(len(hs) for hs in geo.vertex_land_hexes) <= 2
        assert fresh(players, True, "x")["board"] == fresh(players, True, "x")["board"]
    assert fresh(4, True, "x")["board"] != fresh(4, True, "y")["board"]


@pytest.mark.rule("C3")
def test_c3_every_start_reaches_every_other_by_sea():
    """C2-C3 (generator): every corner of the land touches water and the sea's edges form one
    connected network, so from any coast a ship can reach any other."""
    for players in range(3, 7):
        for seed in ("p", "q", "r"):
            geo = geometry(fresh(players, True, seed)["board"])
            for v in range(geo.vertex_count):
                if geo.vertex_on_land[v]:
                    assert any(geo.ship_edge[e] for e in geo.vertex_edges[v])
            sea = [e for e in range(geo.edge_count) if geo.ship_edge[e]]
            seen, stack = {sea[0]}, [sea[0]]
            while stack:
                e = stack.pop()
                for f in geo.edge_adjacent[e]:
                    if geo.ship_edge[f] and f not in seen:
                        seen.add(f)
                        stack.append(f)
            assert seen == set(sea)


@pytest.mark.rule("C4")
def test_c4_every_hex_has_a_number_and_harbours_lie_on_coasts():
    """C4: water hexes get number tokens too; harbours stand on coast edges."""
    geo = geometry(fresh(5, True, "numbers")["board"])
    assert all(geo.number[h] in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12) for h in range(geo.hex_count))
    assert geo.harbours and all(geo.edge_kind[e] == "coast" for e, _ in geo.harbours)
    view = ENGINE.view(fresh(5, True, "numbers"), None)
    assert all(h["number"] for h in view["board"]["hexes"])
    assert view["goal"] == 12 and view["ships_variant"] is True


@pytest.mark.rule("C5")
def test_c5_a_ship_costs_wool_lumber_grain_at_a_settlement_by_the_water_three_at_most():
    """C5: ships are built at settlements bordering water for wool, lumber and grain; at most 3."""
    s = ships_board()
    geo = geometry(s["board"])
    v, e, h, w = coast_spot(geo)
    place(s, 0, v)
    assert not [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "build_ship"]
    give(s, 0, wool=4, lumber=4, grain=4)
    spots = {a["edge"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "build_ship"}
    assert spots == {f for f in geo.vertex_edges[v] if geo.ship_edge[f]}
    s, events = act(s, 0, {"type": "build_ship", "edge": e})
    assert s["hands"][0] == hand(wool=3, lumber=3, grain=3)
    assert s["ships"] == [{"seat": 0, "number": 1, "edge": e, "cargo": {}}]
    others = [f for f in spots if f != e]
    s, _ = act(s, 0, {"type": "build_ship", "edge": others[0]})
    s = add_ship(s, 0, others[0], number=3)
    assert not [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "build_ship"]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "build_ship", "edge": others[-1]})


@pytest.mark.rule("C6")
def test_c6_never_inland_never_on_an_opponents_road_own_road_allowed():
    """C6: a new ship goes on an edge next to the settlement, not inland, not on an opponent's
    road; an edge with an own road is allowed."""
    s = ships_board()
    geo = geometry(s["board"])
    v = next(v for v in range(geo.vertex_count) if len(geo.vertex_land_hexes[v]) == 2)
    place(s, 0, v)
    give(s, 0, wool=3, lumber=3, grain=3)
    inland = [e for e in geo.vertex_edges[v] if geo.edge_kind[e] == "land"]
    coast = [e for e in geo.vertex_edges[v] if geo.edge_kind[e] == "coast"]
    assert inland and len(coast) == 2
    spots = {a["edge"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "build_ship"}
    assert spots == set(coast)
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "build_ship", "edge": inland[0]})
    road(s, 1, coast[0])
    road(s, 0, coast[1])
    spots = {a["edge"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "build_ship"}
    assert spots == {coast[1]}


@pytest.mark.rule("C7")
def test_c7_loading_at_an_own_settlement_three_at_most():
    """C7: a ship carries at most 3 resources, loaded by its owner in his turn (reading: while
    docked at an own settlement or city)."""
    s, geo, v, e, h, w = docked_ship()
    give(s, 0, ore=4)
    loads = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "load"]
    assert loads == [{"type": "load", "ship": 1, "cargo": {"ore": 1}}]
    s, _ = act(s, 0, {"type": "load", "ship": 1, "cargo": {"ore": 3}})
    assert s["ships"][0]["cargo"] == {"ore": 3} and s["hands"][0]["ore"] == 1
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "load", "ship": 1, "cargo": {"ore": 1}})
    # away from own buildings: no loading
    t, geo, v, e, h, w = docked_ship()
    t["owner"] = list(t["owner"])
    t["owner"][v] = -1
    give(t, 0, ore=1)
    with pytest.raises(IllegalAction):
        act(t, 0, {"type": "load", "ship": 1, "cargo": {"ore": 1}})


@pytest.mark.rule("C8")
def test_c8_unloading_at_an_own_settlement_and_no_discard_for_it():
    """C8: unloading at an own settlement puts the cargo in the hand; having unloaded after a 7
    does not make the player discard."""
    s, geo, v, e, h, w = docked_ship({"ore": 3})
    give(s, 0, wool=6)
    s, events = act(s, 0, {"type": "unload", "ship": 1})
    assert s["hands"][0] == hand(wool=6, ore=3) and s["ships"][0]["cargo"] == {}
    assert s["phase"] == "main" and not s["discarding"]
    assert {"type": "unloaded", "seat": 0, "number": 1, "cargo": {"ore": 3}} in events


@pytest.mark.rule("C9")
def test_c9_cargo_is_not_in_the_hand_until_unloaded():
    """C9: a ship's resources can be used only after unloading them."""
    s, geo, v, e, h, w = docked_ship({"brick": 1, "lumber": 1})
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 0)}
    assert "build_road" not in kinds
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "build_road", "edge": next(f for f in geo.vertex_edges[v] if geo.road_edge[f])})
    s, _ = act(s, 0, {"type": "unload", "ship": 1})
    assert "build_road" in {a["type"] for a in ENGINE.legal_actions(s, 0)}
    # the robber's 7 counts the hand only
    t, *_ = docked_ship({"ore": 3})
    give(t, 0, wool=7)
    t, _ = act(rolling(t, 7), 0, {"type": "roll"})
    assert "0" not in t["discarding"]


def sea_ship_with_wind(s, geo, seat=0, skip=0):
    """A ship on an open-sea edge, and a roll number that gives it wind."""
    e = [e for e in range(geo.edge_count) if geo.edge_kind[e] == "sea"][skip]
    add_ship(s, seat, e)
    w, pair = geo.wind[e][0]
    return e, geo.number[w], pair


@pytest.mark.rule("C10")
def test_c10_wind_moves_a_ship_one_edge_along_the_windy_water_hex():
    """C10: when a water hex beside the ship rolls its number, the ship may move one edge along
    that hex (reading: to one of its two edges sharing a corner with the ship's edge), or stay."""
    s = ships_board()
    geo = geometry(s["board"])
    e, number, pair = sea_ship_with_wind(s, geo)
    assert number != 7
    s, events = act(rolling(s, number), 0, {"type": "roll"})
    assert s["phase"] == "sail"
    moves = {a["edge"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "sail" and a["edge"] is not None}
    expected = set()
    for water, two in geo.wind[e]:
        if geo.number[water] == number:
            expected |= set(two)
    assert set(pair) <= moves == expected
    for f in pair:
        assert set(geo.edge_vertices[f]) & set(geo.edge_vertices[e])
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "sail", "ship": 1, "edge": e})
    s, events = act(s, 0, {"type": "sail", "ship": 1, "edge": pair[0]})
    assert s["ships"][0]["edge"] == pair[0] and s["phase"] == "main"


@pytest.mark.rule("C11")
def test_c11_ships_move_after_production_in_player_order_from_the_roller():
    """C11: after the roll and the payout, ships move for all players in player order, starting
    with the active player."""
    s = ships_board()
    geo = geometry(s["board"])
    sea = [e for e in range(geo.edge_count) if geo.edge_kind[e] == "sea"]
    e = sea[0]
    w, pair = geo.wind[e][0]
    number = geo.number[w]
    # ships of seats 3, 1 and 2 on edges of the same windy water hex
    ring = [f for f in geo.hex_edges[w] if geo.edge_kind[f] == "sea"][:3]
    for seat, f in zip((3, 1, 2), ring):
        add_ship(s, seat, f)
    s = dict(rolling(s, number), current=2)
    s, events = act(s, 2, {"type": "roll"})
    assert s["sailing"]["queue"] == [2, 3, 1]
    kinds = [ev["type"] for ev in events]
    assert kinds.index("sailing") > kinds.index("roll")
    if "produced" in kinds:
        assert kinds.index("produced") < kinds.index("sailing")
    for seat in (2, 3, 1):
        assert ENGINE.to_act(s) == [seat]
        s, _ = act(s, seat, {"type": "end_sailing"})
    assert s["phase"] == "main" and ENGINE.to_act(s) == [2]


@pytest.mark.rule("C12")
def test_c12_a_ship_at_a_land_hex_gathers_its_resource():
    """C12: a ship on a land hex's edge is loaded with its resource when its number is rolled."""
    s, geo, e, h = gathering()
    s, events = act(rolling(s, geo.number[h]), 0, {"type": "roll"})
    assert s["ships"][0]["cargo"] == {geo.resource[h]: 1}
    assert s["logbook"][-1]["what"] == "gathered"


@pytest.mark.rule("C12")
def test_c12a_no_gathering_next_to_a_foreign_settlement_or_on_a_foreign_road():
    """C12 (a): not next to a foreign settlement, not docked at a foreign road."""
    s, geo, e, h = gathering()
    place(s, 1, geo.edge_vertices[e][0])
    s, _ = act(rolling(s, geo.number[h]), 0, {"type": "roll"})
    assert s["ships"][0]["cargo"] == {}
    t, geo, e, h = gathering()
    road(t, 2, e)
    t, _ = act(rolling(t, geo.number[h]), 0, {"type": "roll"})
    assert t["ships"][0]["cargo"] == {}
    # an own settlement or road is fine
    u, geo, e, h = gathering()
    road(u, 0, e)
    u, _ = act(rolling(u, geo.number[h]), 0, {"type": "roll"})
    assert u["ships"][0]["cargo"] == {geo.resource[h]: 1}


@pytest.mark.rule("C12")
def test_c12b_no_gathering_at_a_hex_with_two_buildings():
    """C12 (b): once more than one settlement (reading: or city, any owner) stands on the hex,
    ships gather nothing there."""
    s, geo, e, h = gathering()
    corners = [v for v in geo.hex_vertices[h] if v not in geo.edge_vertices[e]]
    place(s, 0, corners[1])
    one, _ = act(rolling(s, geo.number[h]), 0, {"type": "roll"})
    assert one["ships"][0]["cargo"] == {geo.resource[h]: 1}
    place(s, 0, corners[3], city=True)
    two, _ = act(rolling(s, geo.number[h]), 0, {"type": "roll"})
    assert two["ships"][0]["cargo"] == {}


@pytest.mark.rule("C12")
def test_c12c_a_full_ship_throws_one_overboard_to_take_the_new_one_or_takes_nothing():
    """C12 (c): a full ship takes the new resource only by throwing one of its choice overboard."""
    s, geo, e, h = gathering({"ore": 2, "wool": 1})
    r = geo.resource[h]
    s, _ = act(rolling(s, geo.number[h]), 0, {"type": "roll"})
    assert s["phase"] == "sail" and s["sailing"]["pending"]["0-1"]["overboard"] == r
    choices = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "overboard"]
    assert {a["resource"] for a in choices} == {"ore", "wool", None}
    kept, _ = act(s, 0, {"type": "overboard", "ship": 1, "resource": None})
    assert kept["ships"][0]["cargo"] == {"ore": 2, "wool": 1}
    thrown, _ = act(s, 0, {"type": "overboard", "ship": 1, "resource": "ore"})
    cargo = thrown["ships"][0]["cargo"]
    assert sum(cargo.values()) == 3 and cargo.get(r, 0) >= 1 and cargo.get("ore", 0) == (1 + (r == "ore"))
    # the timed-out owner keeps his cargo
    assert ENGINE.timeout_action(s, 0) == {"type": "end_sailing"}


@pytest.mark.rule("C13")
def test_c13_harbour_trade_from_the_hold():
    """C13: a ship at a harbour trades 3:1 or 2:1 as the harbour allows, from its cargo only;
    (reading) the goods received go into the hold."""
    s = ships_board()
    geo = geometry(s["board"])
    e, kind = next((e, k) for e, k in geo.harbours if k != "3:1")
    other = next(r for r in RESOURCES if r != kind)
    add_ship(s, 0, e, {kind: 2, other: 1})
    trades = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "ship_trade"]
    assert trades and all(a["give"] == kind for a in trades)
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "ship_trade", "ship": 1, "give": other, "get": kind})
    give(s, 0, **{kind: 5})
    s, _ = act(s, 0, {"type": "ship_trade", "ship": 1, "give": kind, "get": other})
    assert s["ships"][0]["cargo"] == {other: 2} and s["hands"][0][kind] == 5
    t = ships_board()
    e3 = next((e for e, k in geo.harbours if k == "3:1"))
    add_ship(t, 0, e3, {"ore": 2})
    with pytest.raises(IllegalAction):
        act(t, 0, {"type": "ship_trade", "ship": 1, "give": "ore", "get": "wool"})


@pytest.mark.rule("C14")
def test_c14_a_ship_with_three_settlement_goods_may_become_a_settlement():
    """C14: a ship carrying three of the four settlement goods at a land hex producing the fourth
    may turn into a settlement when that number is rolled; the ship leaves the game."""
    s = ships_board()
    geo = geometry(s["board"])
    e = next(e for e in range(geo.edge_count) if geo.edge_kind[e] == "coast"
             and geo.resource[geo.edge_land_hexes[e][0]] in ("brick", "lumber", "wool", "grain"))
    h = geo.edge_land_hexes[e][0]
    fourth = geo.resource[h]
    cargo = {r: 1 for r in ("brick", "lumber", "wool", "grain") if r != fourth}
    add_ship(s, 0, e, cargo)
    s = rolling(s, geo.number[h])
    s, _ = act(s, 0, {"type": "roll"})
    settles = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "settle"]
    assert {a["vertex"] for a in settles if a["vertex"] is not None} <= set(geo.edge_vertices[e])
    vertex = next(a["vertex"] for a in settles if a["vertex"] is not None)
    s, events = act(s, 0, {"type": "settle", "ship": 1, "vertex": vertex})
    assert s["owner"][vertex] == 0 and s["pieces"][0][1] == 1 and s["ships"] == []
    assert s["logbook"][-1]["what"] == "settled"
    # the three goods and the gathered fourth are used up: all back in the bank
    assert sum(s["hands"][0].values()) == 0 and s["bank"] == {r: 19 for r in RESOURCES}
    # without the three goods there is no conversion
    t = ships_board()
    add_ship(t, 0, e, {next(iter(cargo)): 1})
    t, _ = act(rolling(t, geo.number[h]), 0, {"type": "roll"})
    assert not [a for a in ENGINE.legal_actions(t, 0) if a["type"] == "settle"]


def _c14_ship(bank_fourth=None, robber=False, edition=None):
    """A ship with three settlement goods on a coast edge of a land hex producing the fourth,
    that hex's number rolled; the settle actions offered, and the fourth resource."""
    s = ships_board(edition=edition)
    geo = geometry(s["board"])
    e = next(e for e in range(geo.edge_count) if geo.edge_kind[e] == "coast"
             and geo.resource[geo.edge_land_hexes[e][0]] in ("brick", "lumber", "wool", "grain")
             and geo.edge_land_hexes[e][0] != s["robber"])
    h = geo.edge_land_hexes[e][0]
    fourth = geo.resource[h]
    add_ship(s, 0, e, {r: 1 for r in ("brick", "lumber", "wool", "grain") if r != fourth})
    if bank_fourth is not None:
        s["bank"] = dict(s["bank"], **{fourth: bank_fourth})
    if robber:
        s["robber"] = h
    s, _ = act(rolling(s, geo.number[h]), 0, {"type": "roll"})
    return [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "settle" and a["vertex"] is not None], fourth


@pytest.mark.rule("C14")
def test_c14_a_ship_settles_only_when_its_hex_pays_the_fourth_resource():
    """C14, edition 3 (docs/rules/catan-ships.md, C14): the hex must "produce the fourth" for the
    ship, as it would pay a settlement: not under the robber, and not when the bank cannot pay
    that resource (it has none, or the shortage rule denies it to everyone). Where the bank can
    pay it, the ship settles, and the fourth is used up (the bank keeps it)."""
    offered, fourth = _c14_ship()
    assert offered
    assert _c14_ship(robber=True)[0] == []
    assert _c14_ship(bank_fourth=0)[0] == []
    assert _c14_ship(bank_fourth=1)[0]                   # one left, one ship owed it: paid
    # Edition 2 matches keep their reading: the robber blocked it, the bank's stock did not.
    assert _c14_ship(robber=True, edition=2)[0] == []
    assert _c14_ship(bank_fourth=0, edition=2)[0]


@pytest.mark.rule("C15")
def test_c15_two_ships_on_open_sea_one_along_the_shore():
    """C15: at most 2 ships share an open-sea edge, at most 1 a shore edge."""
    s = ships_board()
    geo = geometry(s["board"])
    sea = next(e for e in range(geo.edge_count) if geo.edge_kind[e] == "sea")
    coast = next(e for e in range(geo.edge_count) if geo.edge_kind[e] == "coast")
    assert ship_capacity_ok(s, geo, sea)
    add_ship(s, 1, sea)
    assert ship_capacity_ok(s, geo, sea)
    add_ship(s, 2, sea)
    assert not ship_capacity_ok(s, geo, sea)
    add_ship(s, 3, coast)
    assert not ship_capacity_ok(s, geo, coast)
    v = next(v for v in geo.edge_vertices[coast] if geo.vertex_on_land[v])
    place(s, 0, v)
    give(s, 0, wool=1, lumber=1, grain=1)
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "build_ship", "edge": coast})


def collision_state(total_wanted):
    """Two ships meet on an open-sea edge by the wind; the draws make the first collision roll
    `total_wanted`."""
    s = ships_board()
    geo = geometry(s["board"])
    for e in range(geo.edge_count):
        if geo.edge_kind[e] != "sea":
            continue
        for w, pair in geo.wind[e]:
            target = next((f for f in pair if geo.edge_kind[f] == "sea"), None)
            if target is None:
                continue
            t = ships_board()
            add_ship(t, 0, e, {"ore": 2, "wool": 1})
            add_ship(t, 1, target, {"grain": 2})
            t = rolling(t, geo.number[w])
            t, _ = act(t, 0, {"type": "roll"})
            if t["phase"] != "sail" or ENGINE.to_act(t) != [0]:
                continue
            for draws in range(t["draws"], t["draws"] + 3000):
                probe = {"seed": t["seed"], "draws": draws}
                if sum(dice.roll(probe, 2)) == total_wanted:
                    return dict(t, draws=draws), target
    raise AssertionError("no collision found")


@pytest.mark.rule("C16")
@pytest.mark.parametrize("total, outcome, left", [(2, "sunk", None), (3, "lost_cargo", 0), (4, "lost_cargo", 1),
                                                  (5, "lost_cargo", 2), (8, "nothing", 3)])
def test_c16_ships_meeting_on_an_edge_roll_two_dice(total, outcome, left):
    """C16: two ships side by side on one edge after the moves roll two dice each: 2 sinks,
    3 loses all cargo, 4 two, 5 one, 6-12 nothing."""
    s, target = collision_state(total)
    s, events = act(s, 0, {"type": "sail", "ship": 1, "edge": target})
    if s["phase"] == "sail":
        s, more = act(s, ENGINE.to_act(s)[0], {"type": "end_sailing"})
        events += more
    hits = [e for e in events if e["type"] == "collision"]
    assert len(hits) == 2 and sum(hits[0]["dice"]) == total
    assert hits[0]["outcome"] == outcome
    mine = [x for x in s["ships"] if x["seat"] == 0]
    if left is None:
        assert not mine and s["logbook"][-1]["what"] in ("sunk", "lost_cargo")
    else:
        assert sum(mine[0]["cargo"].values()) == left
    # resources are never created or lost: bank + hands + holds stay 19 of each
    for r in RESOURCES:
        assert s["bank"][r] + sum(h[r] for h in s["hands"]) + sum(x["cargo"].get(r, 0) for x in s["ships"]) == 19


@pytest.mark.rule("C16")
def test_c16_no_collision_roll_for_ships_already_together():
    """C16: no roll if both ships were on the edge before the phase."""
    s = ships_board()
    geo = geometry(s["board"])
    e, number, pair = sea_ship_with_wind(s, geo)
    add_ship(s, 1, e)
    s = rolling(s, number)
    s, events = act(s, 0, {"type": "roll"})
    while s["phase"] == "sail":
        s, more = act(s, ENGINE.to_act(s)[0], {"type": "end_sailing"})
        events += more
    assert not [x for x in events if x["type"] == "collision"]


@pytest.mark.rule("C17")
def test_c17_the_pirate_moves_one_water_edge_on_a_seven_only():
    """C17: on every 7 (and only then) the pirate may move one edge, after the robber."""
    s = ships_board()
    geo = geometry(s["board"])
    start = s["pirate"]
    assert geo.edge_kind[start] == "sea"
    seven, _ = act(rolling(s, 7), 0, {"type": "roll"})
    seven, _ = act(seven, 0, next(a for a in ENGINE.legal_actions(seven, 0)))
    assert seven["phase"] == "pirate"
    moves = ENGINE.legal_actions(seven, 0)
    assert {a["edge"] for a in moves} == {f for f in geo.edge_adjacent[start] if geo.ship_edge[f]} | {None}
    far = next(f for f in range(geo.edge_count) if f not in geo.edge_adjacent[start] and f != start)
    with pytest.raises(IllegalAction):
        act(seven, 0, {"type": "move_pirate", "edge": far})
    moved, _ = act(seven, 0, moves[0])
    assert moved["pirate"] == moves[0]["edge"] and moved["phase"] == "main"
    rolled, _ = act(rolling(s, 8), 0, {"type": "roll"})
    assert rolled["phase"] != "pirate" and rolled["pirate"] == start


@pytest.mark.rule("C18")
@pytest.mark.parametrize("total, outcome", [(3, "escaped"), (7, "lost_cargo"), (12, "sunk")])
def test_c18_the_pirate_attacks_every_ship_it_meets(total, outcome):
    """C18: 2-4 escape; 5-10 the whole cargo is lost; 11-12 the ship is captured and sunk; with
    more than one resource aboard, the pirate's mover draws one as commission."""
    s, target = pirate_state(total, {"ore": 2})
    s, events = act(s, 0, {"type": "move_pirate", "edge": target})
    attack = next(e for e in events if e["type"] == "pirate_attack")
    assert sum(attack["dice"]) == total and attack["outcome"] == outcome
    ships = [x for x in s["ships"] if x["seat"] == 1]
    if outcome == "escaped":
        assert ships[0]["cargo"] == {"ore": 2} and s["hands"][0]["ore"] == 0
    else:
        assert s["hands"][0]["ore"] == 1 and attack["commission"] == "ore"
        if outcome == "sunk":
            assert not ships and s["logbook"][-1]["what"] == "sunk"
        else:
            assert ships[0]["cargo"] == {}


@pytest.mark.rule("C18")
def test_c18_no_commission_from_a_single_resource():
    """C18: commission only if the ship held more than one resource."""
    s, target = pirate_state(8, {"grain": 1})
    s, events = act(s, 0, {"type": "move_pirate", "edge": target})
    attack = next(e for e in events if e["type"] == "pirate_attack")
    assert "commission" not in attack and s["hands"][0] == hand()
    assert s["ships"][0]["cargo"] == {}


@pytest.mark.rule("C19")
def test_c19_the_logbook_is_public():
    """C19: a public logbook shows every player's ships (numbered 1-3), their cargo, when they
    were built, loaded, unloaded or sunk."""
    s, geo, v, e, h, w = docked_ship()
    give(s, 0, wool=2, lumber=1, grain=2, ore=2)
    other = next(f for f in geo.vertex_edges[v] if geo.ship_edge[f] and f != e)
    s, _ = act(s, 0, {"type": "build_ship", "edge": other})
    s, _ = act(s, 0, {"type": "load", "ship": 1, "cargo": {"ore": 2, "grain": 1}})
    s, _ = act(s, 0, {"type": "unload", "ship": 1})
    for viewer in (None, 0, 1):
        view = ENGINE.view(s, viewer)
        assert [(x["number"], x["what"], x["cargo"]) for x in view["logbook"]] == [
            (2, "built", {}), (1, "loaded", {"ore": 2, "grain": 1}), (1, "unloaded", {"ore": 2, "grain": 1})]
        assert {(x["seat"], x["number"]) for x in view["ships"]} == {(0, 1), (0, 2)}


@pytest.mark.rule("C20")
def test_c20_docked_ships_count_points_and_the_goal_is_twelve():
    """C20: 2 ships docked at once at own settlements, cities or roads count 1 point, 3 ships 2;
    the game ends at 12."""
    s = ships_board()
    geo = geometry(s["board"])
    spots = []
    used = set()
    for v in range(geo.vertex_count):
        if not geo.vertex_on_land[v] or v in used:
            continue
        coast = [e for e in geo.vertex_edges[v] if geo.edge_kind[e] == "coast"]
        if coast:
            spots.append((v, coast[0]))
            used |= {v, *geo.vertex_adjacent[v]}
        if len(spots) == 3:
            break
    (v1, e1), (v2, e2), (v3, e3) = spots
    place(s, 0, v1)
    road(s, 0, e3)                  # a road counts as a dock too
    add_ship(s, 0, e1)
    assert scoring.ship_points(s, 0) == 0
    sea = next(e for e in range(geo.edge_count) if geo.edge_kind[e] == "sea")
    add_ship(s, 0, sea)
    assert scoring.ship_points(s, 0) == 0     # at sea
    s["ships"][1] = dict(s["ships"][1], edge=e3)
    assert scoring.ship_points(s, 0) == 1
    add_ship(s, 0, e2)
    assert scoring.ship_points(s, 0) == 1     # e2 has no own piece
    place(s, 0, v2)
    assert scoring.ship_points(s, 0) == 2
    assert ENGINE.view(s, 1)["players"][0]["ship_points"] == 2
    s["pieces"] = [list(p) for p in s["pieces"]]
    s["pieces"][0][2] = 4          # 2 settlements + 4 cities + 2 ship points = 12
    give(s, 0, ore=4)
    s, events = act(s, 0, {"type": "bank_trade", "give": "ore", "get": "wool"})
    assert s["phase"] == "over" and s["winner"] == 0
    t = ships_board()
    t["pieces"] = [[0, 2, 4], [0, 0, 0], [0, 0, 0], [0, 0, 0]]  # 10 points: not yet
    give(t, 0, ore=4)
    t, _ = act(t, 0, {"type": "bank_trade", "give": "ore", "get": "wool"})
    assert t["phase"] == "main"
