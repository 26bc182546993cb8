"""The readable map and trade at a glance: Natural Earth's coastlines converted into the map's own
projection, where the map opens, where each cargo aboard sells (price, squares to go, the ten
square rule F30), destinations that buy it, and a finished match without turn controls."""
import gzip
import json
import math
import re

import pytest
from django.utils import translation
from django.contrib.staticfiles import finders

from games.engines.fuldrigger import ENGINE
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.state import MIN_CARRIED, fresh_turn
from games.fuldrigger import make_coastlines, pages, world_map
from tests.conftest import client_for, make_user
from tests.fuldrigger.fuldrigger_pages_support import start


def game(players=2):
    state = ENGINE.new_game(players, "map-and-markets", {"rounds": 0})
    while state["phase"] == "homes":  # edition 2 (F7): each seat takes the home of its number
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, {"type": "choose_home", "city": WORLD.homes[seat]})
    state["phase"] = "play"
    state["turn"] = fresh_turn(0)
    return state


def live(state, seat, query=None, match=None):
    return pages.live(view=ENGINE.view(state, seat), seat=seat,
                      legal=ENGINE.legal_actions(state, seat) if seat is not None else [],
                      my_turn=seat == state["turn"]["seat"], names=["Anna", "Bo"], colours=["red", "blue"],
                      query=query or {}, match=match)


def load(state, ship_id, good, carried, paid=20):
    state["ships"][str(ship_id)]["cargo"] = {"good": good, "paid": paid, "carried": carried, "from": "london"}


# ---- coastlines -------------------------------------------------------------------------------

def tiny_topology(tmp_path):
    """One square island, 10° a side, from lon 0..10 and lat 40..50, quantised as TopoJSON does."""
    topo = {"type": "Topology", "transform": {"scale": [0.1, 0.1], "translate": [0, 40]},
            "objects": {"land": {"type": "GeometryCollection", "geometries": [
                {"type": "Polygon", "arcs": [[0]]}]}},
            "arcs": [[[0, 0], [100, 0], [0, 100], [-100, 0], [0, -100]]]}
    path = tmp_path / "land.json"
    path.write_text(json.dumps(topo))
    return path


def test_the_coastline_script_projects_as_the_map_projects_its_squares(tmp_path):
    data = make_coastlines.convert(tiny_topology(tmp_path))
    assert data["rings"] == 1 and data["scale"] == world_map.SCALE
    # Lon 0, lat 40 lies at x = 180·5 and y = (90 − 40)·5 measured from the pole: the map shifts
    # the layer by (90 − its top)·5, which puts every square's lon/lat on the same spot.
    assert data["d"].startswith("M900 250l")
    points, x, y = [(900.0, 250.0)], 900.0, 250.0
    for dx, dy in zip(*[iter(float(n) for n in data["d"][len("M900 250l"):-1].replace("-", " -").split())] * 2):
        x, y = x + dx, y + dy
        points.append((round(x, 1), round(y, 1)))
    assert set(points) == {(950.0, 250.0), (950.0, 200.0), (900.0, 200.0), (900.0, 250.0)}


def test_the_map_carries_land_in_its_own_projection():
    chart = world_map.chart()
    assert chart["land"].count("z") > 100 and chart["land_shift"] > 0
    top = max(d["lat"] for d in WORLD.nodes.values())
    # Copenhagen's port lies within a few map units of the coast drawn for Denmark's east shore.
    x, y = chart["positions"]["copenhagen"]
    lon, lat = WORLD.nodes["copenhagen"]["lon"], WORLD.nodes["copenhagen"]["lat"]
    assert abs(x - (lon + 180) * world_map.SCALE) < world_map.SPACING
    assert math.isclose(chart["land_shift"], (90 - (math.ceil(top) + world_map.MARGIN)) * world_map.SCALE)


def test_a_simplified_ring_keeps_its_corners_and_drops_what_is_within_the_tolerance():
    ring = [(0, 0), (5, 0.1), (10, 0), (10, 10), (0, 10), (0, 0)]
    assert make_coastlines.simplify(ring, 0.5) == [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]
    # Clipped to the latitudes kept (here y from 2 to 8): the corners beyond are cut off.
    assert sorted(make_coastlines.clip([(0, 0), (10, 0), (10, 10), (0, 10)], 2, 8)) == [(0, 2), (0, 8), (10, 2), (10, 8)]


# ---- where the map opens ----------------------------------------------------------------------

def test_the_map_opens_on_the_viewers_fleet_and_a_spectator_on_the_player_to_play():
    state = game(2)
    mine = [s for s in state["ships"].values() if s["owner"] == 1]
    x, y, w, h = map(float, live(state, 1)["focus"].split())
    for ship in mine:
        sx, sy = world_map.position(ship["node"])
        assert x - 1 <= sx <= x + w + 1 and y - 1 <= sy <= y + h + 1
    theirs = world_map.position(next(s for s in state["ships"].values() if s["owner"] == 0)["node"])
    x, y, w, h = map(float, live(state, None)["focus"].split())
    assert x - 1 <= theirs[0] <= x + w + 1 and y - 1 <= theirs[1] <= y + h + 1


# ---- trade at a glance --------------------------------------------------------------------------

@pytest.mark.rule("F30")
def test_each_cargo_lists_the_ports_that_buy_it_with_price_distance_and_the_ten_square_rule():
    state = game(2)
    ship = min(s["id"] for s in state["ships"].values() if s["owner"] == 0)
    load(state, ship, "tea", carried=3)
    markets = live(state, 0)["markets"]
    [cargo] = markets["cargo"]
    assert cargo["ship_id"] == ship and cargo["ports"]
    start = state["ships"][str(ship)]["node"]
    view = ENGINE.view(state, 0)
    buyers = {p for p in WORLD.ports if (WORLD.prices.get(p, {}).get("tea") or {}).get("sell") is not None}
    for row in cargo["ports"]:
        assert row["port"] in buyers
        assert row["steps"] == WORLD.distance(start, row["port"])
        assert row["far"] == (3 + row["steps"] >= MIN_CARRIED)
        assert row["price"] == pages.sale_terms(view, 0, row["port"], "tea")["price"]
    # Sales allowed first, the best price leading; every buyer is marked on the map.
    allowed = [r for r in cargo["ports"] if r["ok"]]
    assert cargo["ports"][:len(allowed)] == allowed
    assert [r["price"] for r in allowed] == sorted((r["price"] for r in allowed), reverse=True)
    assert {m["id"] for m in markets["marks"]} == {p for p in buyers if p in WORLD.distances_from(start)}
    assert len(cargo["ports"]) + cargo["more"] == len(markets["marks"])
    # Each listed port says how far it lies and whether the sale is allowed, in the reader's words.
    for row in cargo["ports"]:
        steps = "here" if row["here"] else f"{row['steps']} square{'s' if row['steps'] != 1 else ''} away"
        assert row["words"] == f"{steps} — {'sale allowed' if row['far'] else 'too near: sail on past ten squares'}"
    with translation.override("da"):
        danish = live(state, 0)["markets"]["cargo"][0]["ports"]
    assert all(("felt" in r["words"] or r["here"]) and ("salg tilladt" in r["words"] or "for nær" in r["words"])
               for r in danish)


@pytest.mark.rule("F30")
def test_a_port_too_near_for_the_ten_squares_is_marked_so():
    state = game(2)
    ship = min(s["id"] for s in state["ships"].values() if s["owner"] == 0)
    load(state, ship, "tea", carried=0)
    start = state["ships"][str(ship)]["node"]
    marks = {m["id"]: m for m in live(state, 0)["markets"]["marks"]}
    near = [p for p in marks if WORLD.distance(start, p) < MIN_CARRIED]
    far = [p for p in marks if WORLD.distance(start, p) >= MIN_CARRIED]
    assert near and far
    assert not any(marks[p]["ok"] for p in near) and all(marks[p]["ok"] for p in far)


def test_destinations_that_buy_the_chosen_ships_cargo_lead_the_list_and_say_so():
    state = game(2)
    ship = min(s["id"] for s in state["ships"].values() if s["owner"] == 0)
    load(state, ship, "wine", carried=MIN_CARRIED)
    state["turn"]["roll"], state["turn"]["total"] = [6, 6], 12
    sail = live(state, 0, {"sail": str(ship)})["sail"]
    buying = [d for d in sail["destinations"] if d.get("buys")]
    assert buying, "no destination buys wine within twelve squares"
    assert sail["destinations"][:len(buying)] == buying
    for dest in buying:
        assert WORLD.prices[dest["id"]]["wine"]["sell"] is not None
        assert "buys your wine for" in dest["label"]


def test_no_markets_for_a_spectator_and_none_without_cargo():
    state = game(2)
    assert live(state, None)["markets"] == {"cargo": [], "marks": []}
    assert live(state, 0)["markets"] == {"cargo": [], "marks": []}


# ---- the end ------------------------------------------------------------------------------------

def test_a_finished_match_shows_no_turn_controls_fleet_market_or_choice():
    state = game(2)
    ship = min(s["id"] for s in state["ships"].values() if s["owner"] == 0)
    load(state, ship, "tea", carried=MIN_CARRIED)
    state["turn"]["roll"], state["turn"]["total"] = [3, 3], 6

    class Over:
        is_over, standings = True, []

    shown = live(state, 0, {"sail": str(ship), "offer": "1"}, match=Over())
    assert shown["over"] and shown["sail"] is None and shown["fleet"] == [] and shown["ports"] == []
    assert shown["turn"]["roll"] is None and shown["turn"]["end"] is None and shown["buy_ship"] is None
    assert shown["markets"]["cargo"] == [] and shown["offers"]["form"] is None and not shown["offers"]["can_offer"]
    assert not any(p["to_play"] for p in shown["players"])


# ---- page weight ----------------------------------------------------------------------------------

def test_the_first_load_with_the_coastlines_stays_under_150_kb_gzip(player, opponent, outsider):
    """The match page and every script and stylesheet it references, compressed as a browser gets
    them (the measure of `make bench`, less the response headers): the land layer is part of it."""
    users = [player, opponent, outsider, make_user("dora")]
    match = start(users)
    body = client_for(player).get(match.get_absolute_url()).content
    assert b'class="fd-land"' in body
    total = len(gzip.compress(body))
    assets = re.findall(rb'(?:src|href)="/static/([^"?]+)', body)
    assert any(a.endswith(b"fuldrigger.js") for a in assets) and any(a.endswith(b"fuldrigger.css") for a in assets)
    for asset in assets:
        found = finders.find(asset.decode())
        assert found, asset
        with open(found, "rb") as handle:
            total += len(gzip.compress(handle.read()))
    assert total <= 150 * 1024, total
