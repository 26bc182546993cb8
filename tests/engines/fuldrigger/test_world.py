"""Fuldrigger's world map and price lists (games/engines/fuldrigger/world.json, prices.json).

Checks that the data is a playable board: connected, big enough, hazards where history put them,
price lists consistent with the rules' K and S marks, and no money to be made without sailing.
Design and figures: docs/fuldrigger-world.md.
"""
import ast
import math
from pathlib import Path

import pytest

from games.engines.fuldrigger import board
from games.engines.fuldrigger.board import HAZARDS, WORLD, load_world

MEAN_ROLL = 10.5  # 3d6 (F10)
MIN_CARRY = 10  # F30
FORTRESS_BONUS = 10  # F25
TOLL = 10  # F45
FAR_EAST = ("canton", "batavia", "nagasaki")

SEA = [n for n, d in WORLD.nodes.items() if d["kind"] == "sea"]


def squares(kind):
    return [n for n in SEA if WORLD.hazard(n) == kind]


def near(node, lon, lat, degrees):
    """Within `degrees` of a point (longitude scaled by latitude, wrapping at 180)."""
    d = WORLD.nodes[node]
    dlon = abs((d["lon"] - lon + 180) % 360 - 180) * math.cos(math.radians(lat))
    return math.hypot(dlon, d["lat"] - lat) <= degrees


def sea_distances(start):
    """Fewest steps from `start` without sailing through another port (F11 ends a move there)."""
    seen, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for node in frontier:
            if node != start and WORLD.is_port(node):
                continue
            for n in WORLD.neighbours(node):
                if n not in seen:
                    seen[n] = seen[node] + 1
                    nxt.append(n)
        frontier = nxt
    return seen


# ---------------------------------------------------------------- the module itself

def test_board_module_imports_no_django():
    tree = ast.parse(Path(board.__file__).read_text())
    names = [a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names]
    names += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [n for n in names if n.split(".")[0] == "django"]


def test_load_world_reads_the_files_beside_the_module():
    world = load_world(Path(board.__file__).parent)
    assert world.nodes == WORLD.nodes and world.adjacency == WORLD.adjacency


def test_adjacency_is_undirected_sorted_and_without_loops():
    for node, links in WORLD.adjacency.items():
        assert list(links) == sorted(links)
        assert node not in links
        for other in links:
            assert node in WORLD.adjacency[other]


def test_distance_queries_agree():
    assert WORLD.distance("london", "london") == 0
    assert WORLD.distance("london", "canton") == WORLD.distance("canton", "london")
    assert WORLD.distances_from("london")["canton"] == WORLD.distance("london", "canton")
    ring = WORLD.within("london", 2)
    assert "london" in ring and set(WORLD.neighbours("london")) <= ring
    assert all(WORLD.distance("london", n) <= 2 for n in ring)
    with pytest.raises(KeyError):
        WORLD.distance("london", "atlantis")


def test_unreachable_node_raises_value_error():
    world = board.World(
        {"homes": [], "calm_square": "a", "isthmus": [],
         "nodes": {"a": {"kind": "sea"}, "b": {"kind": "sea"}}, "edges": []},
        {"goods": {}, "ports": {}},
    )
    with pytest.raises(ValueError):
        world.distance("a", "b")


def test_names_are_readable():
    assert WORLD.name("london") == "London"
    assert WORLD.name("reef_skagens_rev") == "Skagens Rev (reef A)"
    assert WORLD.name("storm_good_hope") == "Cape of Good Hope (storm)"
    assert "calm square" in WORLD.name(WORLD.calm_square)
    assert all(WORLD.name(n) for n in WORLD.nodes)


# ---------------------------------------------------------------- shape and size

def test_graph_is_connected():
    assert set(WORLD.distances_from(WORLD.homes[0])) == set(WORLD.nodes)


def test_every_port_reachable_from_every_home_by_sea():
    """F7 homes; ships can't sail through a port (F11), so reachability must not need one."""
    for home in WORLD.homes:
        reach = sea_distances(home)
        for port in WORLD.ports:
            assert port in reach, (home, port)


def test_no_shortest_route_needs_to_pass_through_a_port():
    for a in WORLD.ports:
        by_sea, plain = sea_distances(a), WORLD.distances_from(a)
        for b in WORLD.ports:
            assert by_sea[b] == plain[b], (a, b)


def test_size_of_the_world():
    assert len(WORLD.ports) >= 28
    assert len(SEA) >= 250
    assert len(WORLD.nodes) == len(WORLD.ports) + len(SEA)


def test_four_fixed_home_ports_in_europe():
    """F7 reading: home cities are a fixed set of European ports, in seat order."""
    assert WORLD.homes == ("copenhagen", "amsterdam", "london", "hamburg")
    for home in WORLD.homes:
        assert WORLD.is_port(home)
        assert WORLD.nodes[home]["region"] == "Northern Europe"


def test_ports_cover_the_regions_of_the_game():
    regions = {WORLD.nodes[p]["region"] for p in WORLD.ports}
    for region in ("Northern Europe", "Mediterranean", "West Africa", "East Africa", "India",
                   "East Indies", "China", "Japan", "Caribbean", "North America", "South America"):
        assert region in regions
    assert {"nagasaki", "canton", "batavia", "cape_town", "alexandria", "suez", "porto_bello",
            "panama"} <= set(WORLD.ports)


def test_ports_touch_only_sea_squares():
    for port in WORLD.ports:
        assert WORLD.neighbours(port), port
        for n in WORLD.neighbours(port):
            assert not WORLD.is_port(n), (port, n)


def test_ports_have_no_hazard():
    for port in WORLD.ports:
        assert WORLD.hazard(port) is None and WORLD.reef_letter(port) is None


def test_coordinates_are_real_longitudes_and_latitudes():
    for node, d in WORLD.nodes.items():
        assert -180 <= d["lon"] <= 180 and -90 <= d["lat"] <= 90, node
    assert near("london", -0.1, 51.5, 1) and near("nagasaki", 129.9, 32.7, 1)


def test_squares_on_a_chain_are_evenly_spaced():
    """Sea squares along plausible routes: no edge jumps across an ocean (the Pacific crossing
    at longitude 180 is measured the short way round)."""
    for a, links in WORLD.adjacency.items():
        for b in links:
            A, B = WORLD.nodes[a], WORLD.nodes[b]
            dlon = abs((A["lon"] - B["lon"] + 180) % 360 - 180)
            lat = math.radians((A["lat"] + B["lat"]) / 2)
            assert math.hypot(dlon * math.cos(lat), A["lat"] - B["lat"]) < 9, (a, b)


def test_the_pacific_is_crossed_at_longitude_180():
    jumps = [(a, b) for a, links in WORLD.adjacency.items() for b in links
             if abs(WORLD.nodes[a]["lon"] - WORLD.nodes[b]["lon"]) > 180]
    assert len(jumps) == 2  # one edge, seen from both ends


# ---------------------------------------------------------------- voyage lengths

@pytest.mark.parametrize("home", ["copenhagen", "amsterdam", "london", "hamburg"])
@pytest.mark.parametrize("far", FAR_EAST)
def test_europe_to_far_east_takes_five_to_seven_turns(home, far):
    """F10: 3d6 gives 10.5 squares a turn on average; Europe to the Far East round the Cape
    should take 5 to 7 turns."""
    turns = WORLD.distance(home, far) / MEAN_ROLL
    assert 5 <= turns <= 7, (home, far, WORLD.distance(home, far))


def test_suez_shortens_the_way_to_the_indian_ocean():
    """F44: Alexandria-Suez makes Europe -> India and the Indies shorter than round the Cape."""
    for home in WORLD.homes:
        for far in ("bombay", "calicut", "batavia"):
            via_suez = WORLD.distance(home, "alexandria") + WORLD.distance("suez", far)
            assert via_suez < WORLD.distance(home, far) - 5, (home, far)


def test_panama_shortens_the_way_to_the_pacific():
    """F44: Porto Bello-Panama beats sailing round Cape Horn to Callao."""
    for home in WORLD.homes:
        via = WORLD.distance(home, "porto_bello") + WORLD.distance("panama", "callao")
        assert via < WORLD.distance(home, "callao") - 10


# ---------------------------------------------------------------- hazards

def test_hazard_kinds_are_known_and_all_present():
    """F13-F19: every hazard kind is on the board, and nothing else."""
    kinds = {WORLD.hazard(n) for n in SEA} - {None}
    assert kinds == set(HAZARDS)
    assert set(HAZARDS) == {"tailwind", "headwind", "storm", "ice", "calm", "reef", "pirates"}


def test_storms_at_the_capes():
    """F15 storms where history put them."""
    storms = squares("storm")
    places = {
        "Cape of Good Hope": (18.5, -34.4), "Cape Horn": (-67.3, -56.0), "Bay of Biscay": (-6.0, 45.5),
        "Bay of Bengal": (87.0, 17.0), "South China Sea": (113.0, 16.0), "Florida": (-80.0, 26.0),
    }
    for name, (lon, lat) in places.items():
        assert any(near(s, lon, lat, 10) for s in storms), name


def test_ice_only_in_the_far_north_and_south():
    """F16 icebergs: Grand Banks / Labrador, Drake Passage, the southern Roaring Forties."""
    ice = squares("ice")
    assert all(abs(WORLD.nodes[s]["lat"]) > 40 for s in ice)
    assert any(WORLD.nodes[s]["lat"] > 40 and -60 < WORLD.nodes[s]["lon"] < -40 for s in ice)
    assert any(near(s, -65.0, -58.0, 8) for s in ice)  # Drake Passage
    assert any(WORLD.nodes[s]["lat"] < -40 and 20 < WORLD.nodes[s]["lon"] < 120 for s in ice)


def test_calms_around_the_equator_in_the_atlantic():
    """F17: several calm squares near the Atlantic equator, and the calm square among them."""
    calms = squares("calm")
    assert len(calms) >= 3
    for s in calms:
        d = WORLD.nodes[s]
        assert -10 <= d["lat"] <= 12 and -50 <= d["lon"] <= 0, s
    c = WORLD.nodes[WORLD.calm_square]
    assert c["kind"] == "sea" and WORLD.hazard(WORLD.calm_square) is None
    assert 3 <= c["lat"] <= 9 and -35 <= c["lon"] <= -15
    assert any(WORLD.distance(WORLD.calm_square, s) <= 4 for s in calms)


def test_the_calm_square_is_a_pocket_south_of_the_calms():
    """F17: the calm square is a dead end (no short cut past the calms) whose only neighbour is
    no calm and lies south of them, so a ship becalmed on its way south wakes beyond them."""
    (exit_,) = WORLD.neighbours(WORLD.calm_square)
    assert WORLD.hazard(exit_) is None
    assert WORLD.distance(exit_, "equator") < WORLD.distance(exit_, "cape_verde")
    south = WORLD.within("equator", 1)
    assert exit_ in south


def test_every_crossing_of_the_atlantic_doldrums_meets_a_calm():
    """F17: no way from the North to the South Atlantic avoids the calms."""
    blocked = set(squares("calm"))
    north, south = "cape_verde", "south_atlantic"
    seen, frontier = {north}, [north]
    while frontier:
        node = frontier.pop()
        for n in WORLD.neighbours(node):
            if n not in seen and n not in blocked and WORLD.nodes[n]["lon"] < 60 and WORLD.nodes[n]["lon"] > -70:
                seen.add(n)
                frontier.append(n)
    assert south not in seen


def test_reefs_have_unique_letters():
    """F18: each dangerous reef is marked with its own letter."""
    reefs = squares("reef")
    letters = [WORLD.reef_letter(s) for s in reefs]
    assert len(reefs) >= 8
    assert all(isinstance(x, str) and len(x) == 1 and x.isupper() for x in letters)
    assert len(set(letters)) == len(letters)
    assert all(WORLD.reef_letter(s) is None for s in SEA if WORLD.hazard(s) != "reef")


def test_reefs_where_history_put_them():
    """F18: Skagens Rev, Goodwin Sands, Florida Reef, Houtman Abrolhos, Paracels among them."""
    reefs = squares("reef")
    for lon, lat in [(10.6, 57.7), (1.5, 51.25), (-81.0, 24.6), (113.8, -28.7), (112.0, 16.5)]:
        assert any(near(s, lon, lat, 2.5) for s in reefs), (lon, lat)


def test_pirate_waters():
    """F19: Barbary, the Caribbean, Madagascar's rovers (off the Comoros and the Swahili coast,
    where they met the shipping) and the Malacca and Sunda passages."""
    pirates = squares("pirates")
    places = {"Barbary": (-2.0, 35.0), "Caribbean": (-72.0, 19.0), "Madagascar": (44.0, -12.0),
              "Malacca": (101.0, 3.0)}
    for name, (lon, lat) in places.items():
        assert any(near(s, lon, lat, 9) for s in pirates), name


def test_a_fortress_can_protect_every_pirate_square():
    """F19 (edition 2): every pirate square lies within two squares of a port, so a fortress
    built along a route keeps its owner safe there, as the original's advice says."""
    for node in squares("pirates"):
        assert any(WORLD.is_port(n) for n in WORLD.within(node, 2)), node


def test_edition_1_keeps_its_pirate_waters():
    """F19: a match begun under edition 1 meets pirates where edition 1 put them (nine squares,
    six of them with no port within two squares)."""
    old = sorted(n for n in SEA if WORLD.hazard(n, 1) == "pirates")
    assert len(old) == 9 and old != squares("pirates")
    unprotected = [n for n in old if not any(WORLD.is_port(m) for m in WORLD.within(n, 2))]
    assert len(unprotected) == 7
    for node in SEA:                     # only pirate waters differ between the editions
        if WORLD.hazard(node, 1) != WORLD.hazard(node):
            assert "pirates" in (WORLD.hazard(node, 1), WORLD.hazard(node))


def test_wind_belts():
    """F13/F14: fair winds on the trades, the Roaring Forties and the Gulf Stream; foul winds in
    the Channel, at Cape Horn, in the Red Sea."""
    tail, head = squares("tailwind"), squares("headwind")
    assert any(-60 < WORLD.nodes[s]["lon"] < -20 and 10 < WORLD.nodes[s]["lat"] < 25 for s in tail)
    assert any(WORLD.nodes[s]["lat"] < -35 and 20 < WORLD.nodes[s]["lon"] < 110 for s in tail)
    assert any(near(s, -77.0, 32.0, 8) for s in tail)
    assert any(near(s, -2.0, 50.2, 4) for s in head)
    assert any(near(s, -70.0, -56.0, 6) for s in head)
    assert any(near(s, 38.0, 21.0, 6) for s in head)


# ---------------------------------------------------------------- isthmus crossings

def test_isthmus_pairs_are_ports():
    """F44: Suez/Alexandria and Porto Bello/Panama are the crossings, each a pair of ports."""
    assert [c["name"] for c in WORLD.isthmus] == ["Suez", "Panama"]
    assert WORLD.isthmus[0]["ports"] == ("alexandria", "suez")
    assert WORLD.isthmus[1]["ports"] == ("porto_bello", "panama")
    for crossing in WORLD.isthmus:
        a, b = crossing["ports"]
        assert WORLD.is_port(a) and WORLD.is_port(b)
        assert WORLD.isthmus_partner(a) == b and WORLD.isthmus_partner(b) == a
        assert b not in WORLD.neighbours(a)
    assert WORLD.isthmus_partner("london") is None


def test_isthmus_ports_lie_on_opposite_seas():
    """F44: the sea way between the two sides of an isthmus is long (that is its point)."""
    for crossing in WORLD.isthmus:
        a, b = crossing["ports"]
        assert WORLD.distance(a, b) > 40


# ---------------------------------------------------------------- goods and prices

def test_goods_and_cargo_tokens():
    """108 cargo tokens over at least ten goods."""
    assert len(WORLD.goods) >= 10
    assert sum(g["tokens"] for g in WORLD.goods.values()) == 108
    assert all(g["tokens"] > 0 and g["name"] for g in WORLD.goods.values())
    for good in ("tea", "silk", "porcelain", "spices", "coffee", "sugar", "tobacco", "furs", "ivory", "silver"):
        assert good in WORLD.goods


def test_every_port_has_a_price_list():
    assert set(WORLD.prices) == set(WORLD.ports)
    for port, goods in WORLD.prices.items():
        assert len(goods) >= 3, port
        assert any(e["buy"] is not None for e in goods.values()), port
        assert any(e["sell"] is not None for e in goods.values()), port
        assert set(goods) <= set(WORLD.goods), port


def test_home_ports_offer_a_cargo_a_new_player_can_afford():
    """F5: 100 ducats at the start should fill a ship in the home port."""
    for home in WORLD.homes:
        assert any(e["buy"] is not None and e["buy"] <= 50 for e in WORLD.prices[home].values())


def test_price_entries_follow_k_and_s_marks():
    """F28: K - the good can only be bought there; S - only be sold there; unmarked - both, and
    the port sells dearer than it buys."""
    for port, goods in WORLD.prices.items():
        for good, e in goods.items():
            assert set(e) == {"buy", "sell", "mark"}, (port, good)
            if e["mark"] == "K":
                assert isinstance(e["buy"], int) and e["sell"] is None, (port, good)
            elif e["mark"] == "S":
                assert isinstance(e["sell"], int) and e["buy"] is None, (port, good)
            else:
                assert e["mark"] is None, (port, good)
                assert isinstance(e["buy"], int) and isinstance(e["sell"], int), (port, good)
                assert e["buy"] > e["sell"], (port, good)
            for price in (e["buy"], e["sell"]):
                assert price is None or 5 <= price <= 150, (port, good)


def test_every_good_can_be_bought_somewhere_and_sold_somewhere_else():
    for good in WORLD.goods:
        bought = {p for p, g in WORLD.prices.items() if g.get(good, {}).get("buy") is not None}
        sold = {p for p, g in WORLD.prices.items() if g.get(good, {}).get("sell") is not None}
        assert bought and sold and sold - bought, good


def test_no_profit_buying_and_selling_at_one_port():
    """F28/F25: even a fortress owner, who sells at list price + 10, can't profit in one port."""
    for port, goods in WORLD.prices.items():
        for good, e in goods.items():
            if e["buy"] is not None and e["sell"] is not None:
                assert e["sell"] + FORTRESS_BONUS < e["buy"], (port, good)


def test_no_profit_between_ports_less_than_ten_squares_apart():
    """F30: a cargo must travel 10 squares before it is sold, so ports nearer than that must not
    offer a profit even to a fortress owner (F25) who sails about to make up the distance; an
    isthmus crossing (F44) counts as no distance at all, with its toll (F45)."""
    def gap(a, b):
        if WORLD.isthmus_partner(a) == b:
            return 0, TOLL
        return WORLD.distance(a, b), 0
    for a, goods_a in WORLD.prices.items():
        for good, ea in goods_a.items():
            if ea["buy"] is None:
                continue
            for b, goods_b in WORLD.prices.items():
                eb = goods_b.get(good)
                if b == a or eb is None or eb["sell"] is None:
                    continue
                d, toll = gap(a, b)
                if d < MIN_CARRY:
                    assert eb["sell"] + FORTRESS_BONUS - toll <= ea["buy"], (good, a, b, d)


def best_profit(from_ports, to_ports, goods=None):
    best = None
    for a in from_ports:
        for good, ea in WORLD.prices[a].items():
            if ea["buy"] is None or (goods and good not in goods):
                continue
            for b in to_ports:
                eb = WORLD.prices[b].get(good)
                if b != a and eb and eb["sell"] is not None and WORLD.distance(a, b) >= MIN_CARRY:
                    p = eb["sell"] - ea["buy"]
                    best = p if best is None else max(best, p)
    return best


EUROPE = [p for p in WORLD.ports if WORLD.nodes[p]["region"] in ("Northern Europe", "Iberia", "Mediterranean")]


def test_a_short_european_run_earns_little():
    """Trade inside Europe pays a few ducats a load."""
    assert 0 < best_profit(EUROPE, EUROPE) <= 30


def test_the_far_east_spice_run_pays_most():
    """Strategy note: the Far East spice routes pay most (and carry the most danger)."""
    spice = best_profit(["batavia"], EUROPE, {"spices"})
    assert spice >= 80
    assert spice > 3 * best_profit(EUROPE, EUROPE)
    everything = best_profit(WORLD.ports, WORLD.ports)
    assert spice == everything


def test_far_east_voyages_meet_more_danger_than_atlantic_ones():
    """F15-F19: the Far East routes carry storms, reefs and pirates."""
    dangerous = {"storm", "ice", "reef", "pirates"}

    def fewest_dangers(a, b):
        # Fewest dangerous squares over all shortest routes (a breadth-first count).
        dist = WORLD.distances_from(a)
        best = {a: 0}
        for node in sorted(dist, key=dist.get):
            if node not in best or dist[node] >= dist[b]:
                continue
            for n in WORLD.neighbours(node):
                if dist.get(n) == dist[node] + 1 and (not WORLD.is_port(n) or n == b):
                    c = best[node] + (WORLD.hazard(n) in dangerous)
                    best[n] = min(best.get(n, c), c)
        return best[b]

    far = [fewest_dangers(h, p) for h in WORLD.homes for p in FAR_EAST]
    west = [fewest_dangers(h, p) for h in WORLD.homes for p in ("havana", "kingston", "boston", "norfolk")]
    assert min(far) >= 1
    assert sum(far) / len(far) > sum(west) / len(west)


def test_typical_voyages_earn_twenty_to_eighty():
    """The best sale for each cargo a player can buy: most such voyages earn 20-80 ducats."""
    best = {}
    for a, goods in WORLD.prices.items():
        for good, ea in goods.items():
            if ea["buy"] is None:
                continue
            for b, goods_b in WORLD.prices.items():
                eb = goods_b.get(good)
                if b != a and eb and eb["sell"] is not None and WORLD.distance(a, b) >= MIN_CARRY:
                    best[(a, good)] = max(best.get((a, good), -999), eb["sell"] - ea["buy"])
    profits = sorted(best.values())
    assert sum(20 <= p <= 80 for p in profits) >= len(profits) / 2
    assert 20 <= profits[len(profits) // 2] <= 80
