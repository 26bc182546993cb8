"""The base game as the engine plays it (ships: false): setup, production, the robber, building,
longest road, largest army, trade, development cards, the 5-6 player extension."""
import copy
import re
from pathlib import Path

import pytest

from catan_support import (ENGINE, RESOURCES, act, empty_board, fresh, geometry, give, hand, path,
                           place, road)
from games.engines import IllegalAction
from games.engines.catan_ships import scoring, trade
from games.engines.catan_ships.roll import produce, roll_two
from games.engines.catan_ships.state import Work
from games.engines.catan_ships.board import drawn_geometry


def setup_done(players=4, seed="setup"):
    s = fresh(players, False, seed)
    while s["phase"] == "setup":
        seat = ENGINE.to_act(s)[0]
        s, _ = act(s, seat, ENGINE.legal_actions(s, seat)[0])
    return s


@pytest.mark.rule("B-board")
def test_standard_boards_have_the_base_games_hexes_numbers_and_harbours():
    for players, land, harbours, desert in ((4, 19, 9, 1), (6, 30, 11, 2)):
        geo = geometry(fresh(players)["board"])
        assert sum(geo.land) == land
        assert len(geo.harbours) == harbours
        assert sum(1 for t in geo.terrain if t == "desert") == desert
        numbers = sorted(geo.number[h] for h in geo.land_hexes if geo.number[h])
        assert len(numbers) == land - desert and 7 not in numbers
        for e, _ in geo.harbours:
            assert geo.edge_kind[e] == "coast"
        # no corner of the land touches the board's edge: the water frame surrounds it
        assert all(len(geo.vertex_hexes[v]) == 3 for v in range(geo.vertex_count) if geo.vertex_on_land[v])


@pytest.mark.rule("B-board")
def test_same_seed_same_board_other_seed_other_board():
    assert fresh(4, False, "a")["board"] == fresh(4, False, "a")["board"]
    assert fresh(4, False, "a")["board"] != fresh(4, False, "b")["board"]


@pytest.mark.rule("B-board")
@pytest.mark.parametrize("players, ships", [(4, False), (6, False), (3, True)])
def test_the_viewed_board_leads_back_to_the_rules_geometry(players, ships):
    """A page reads corners and edges from the geometry the rules use, found from the view."""
    state = fresh(players, ships)
    assert drawn_geometry(ENGINE.view(state, None)["board"]) is geometry(state["board"])


@pytest.mark.rule("B-setup")
def test_setup_runs_in_snake_order_and_the_second_settlement_pays():
    s = fresh(4, False, "snake")
    order = []
    while s["phase"] == "setup":
        seat = ENGINE.to_act(s)[0]
        action = ENGINE.legal_actions(s, seat)[0]
        if action["type"] == "place_settlement":
            order.append(seat)
            second = len(order) > 4
            s, events = act(s, seat, action)
            geo = geometry(s["board"])
            expected = {}
            for h in geo.vertex_land_hexes[action["vertex"]]:
                if geo.resource[h]:
                    expected[geo.resource[h]] = expected.get(geo.resource[h], 0) + 1
            got = next((e["goods"] for e in events if e["type"] == "start_goods"), {})
            assert got == (expected if second else {})
        else:
            with pytest.raises(IllegalAction):
                act(s, seat, {"type": "place_settlement", "vertex": 0})
            s, _ = act(s, seat, action)
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]
    assert s["phase"] == "roll" and s["current"] == 0
    assert all(p[1] == 2 and p[0] == 2 for p in s["pieces"])


@pytest.mark.rule("B-build")
def test_distance_rule_and_roads_join_the_network():
    s = empty_board()
    geo = geometry(s["board"])
    v = next(v for v in range(geo.vertex_count) if geo.vertex_on_land[v] and len(geo.vertex_land_hexes[v]) == 3)
    place(s, 1, v)
    give(s, 0, brick=5, lumber=5, wool=5, grain=5)
    edges, vertices = path(geo, geo.vertex_adjacent[v][0], 2, avoid=geo.vertex_edges[v])
    road(s, 0, *edges)
    legal = {a["vertex"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "build_settlement"}
    assert geo.vertex_adjacent[v][0] not in legal          # next to seat 1's settlement
    assert vertices[2] in legal
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "build_settlement", "vertex": geo.vertex_adjacent[v][0]})
    far = next(e for e in range(geo.edge_count) if geo.road_edge[e]
               and not set(geo.edge_vertices[e]) & set(vertices) and not set(geo.edge_vertices[e]) & {v})
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "build_road", "edge": far})
    s2, _ = act(s, 0, {"type": "build_settlement", "vertex": vertices[2]})
    assert s2["owner"][vertices[2]] == 0 and s2["hands"][0]["brick"] == 4


@pytest.mark.rule("B-production")
def test_production_pays_settlements_one_and_cities_two_but_not_under_the_robber():
    s = empty_board()
    geo = geometry(s["board"])
    h = next(h for h in geo.land_hexes if geo.number[h] and h != s["robber"])
    a, b = geo.hex_vertices[h][0], geo.hex_vertices[h][3]
    place(s, 0, a)
    place(s, 1, b, city=True)
    w = Work(s)
    produce(w, geo.number[h], [])
    r = geo.resource[h]
    assert w.s["hands"][0][r] >= 1 and w.s["hands"][1][r] >= 2
    s["robber"] = h
    w = Work(s)
    produce(w, geo.number[h], [])
    assert w.s["hands"][0][r] == sum(1 for x in geo.vertex_land_hexes[a] if x != h and geo.number[x] == geo.number[h]
                                     and geo.resource[x] == r)


@pytest.mark.rule("B-shortage")
def test_bank_shortage_pays_nobody_unless_only_one_player_is_owed():
    s = empty_board()
    geo = geometry(s["board"])
    h = next(h for h in geo.land_hexes if geo.number[h] and h != s["robber"])
    r = geo.resource[h]
    a, b = geo.hex_vertices[h][0], geo.hex_vertices[h][3]
    place(s, 0, a, city=True)
    place(s, 1, b, city=True)
    s["bank"] = dict(s["bank"], **{r: 3})
    w = Work(s)
    events = []
    produce(w, geo.number[h], events)
    assert w.s["hands"][0][r] == 0 and w.s["hands"][1][r] == 0
    assert {"type": "shortage", "resource": r} in events
    # only one player owed: he gets what is left
    s["owner"] = list(s["owner"])
    s["owner"][b] = -1
    s["bank"] = dict(s["bank"], **{r: 1})
    w = Work(s)
    produce(w, geo.number[h], [])
    assert w.s["hands"][0][r] == 1 and w.s["bank"][r] == 0


def seven_state():
    s = empty_board()
    s.update(phase="roll", rolled=False, dice=None)
    for draws in range(500):
        trial = dict(s, draws=draws)
        if sum(roll_two(dict(trial))) == 7:
            return dict(s, draws=draws)
    raise AssertionError("no seven")


@pytest.mark.rule("B-seven")
def test_a_seven_makes_big_hands_discard_half_rounded_down():
    s = seven_state()
    give(s, 1, ore=5, grain=4)          # 9 cards: discards 4
    give(s, 2, wool=7)                  # 7 cards: keeps them
    give(s, 3, brick=8, lumber=3)       # 11: discards 5
    s, events = act(s, 0, {"type": "roll"})
    assert s["phase"] == "discard" and s["discarding"] == {"1": 4, "3": 5}
    assert ENGINE.to_act(s) == [1, 3]
    for bundle in ENGINE.legal_actions(s, 1):
        assert sum(bundle["cards"].values()) == 4
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "discard", "cards": {"ore": 3}})
    with pytest.raises(IllegalAction):
        act(s, 2, {"type": "discard", "cards": {"wool": 3}})
    s, _ = act(s, 1, {"type": "discard", "cards": {"ore": 2, "grain": 2}})
    assert s["hands"][1] == hand(ore=3, grain=2)
    s, _ = act(s, 3, ENGINE.legal_actions(s, 3)[0])
    assert sum(s["hands"][3].values()) == 6 and s["phase"] == "robber"


@pytest.mark.rule("B-robber")
def test_the_robber_moves_and_steals_one_card_told_only_to_the_two_players():
    s = seven_state()
    geo = geometry(s["board"])
    h = next(h for h in geo.land_hexes if h != s["robber"])
    place(s, 2, geo.hex_vertices[h][0])
    give(s, 2, ore=1)
    s, _ = act(s, 0, {"type": "roll"})
    assert s["phase"] == "robber"
    choices = [a for a in ENGINE.legal_actions(s, 0) if a["hex"] == h]
    assert choices == [{"type": "move_robber", "hex": h, "steal_from": 2}]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "move_robber", "hex": h, "steal_from": None})
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "move_robber", "hex": s["robber"], "steal_from": None})
    s, events = act(s, 0, choices[0])
    assert s["robber"] == h and s["hands"][0]["ore"] == 1 and s["hands"][2]["ore"] == 0
    secret = [e for e in events if e["type"] == "stole"]
    public = [e for e in events if e["type"] == "stole_card"]
    assert secret[0]["private"] == [0, 2] and secret[0]["resource"] == "ore"
    assert "resource" not in public[0] and "private" not in public[0]
    assert s["phase"] == "main"


@pytest.mark.rule("B-longest-road")
def test_longest_road_needs_five_and_counts_forks_and_cycles():
    s = empty_board()
    geo = geometry(s["board"])
    centre = next(h for h in geo.land_hexes if all(len(geo.vertex_land_hexes[v]) == 3 for v in geo.hex_vertices[h]))
    ring = list(geo.hex_edges[centre])
    # a ring of six around one hex: a cycle of length 6
    road(s, 0, *ring)
    assert scoring.road_length(s, 0) == 6
    # a spur off the ring: the trail runs round the ring and out along the spur
    v = geo.hex_vertices[centre][0]
    spur = next(e for e in geo.vertex_edges[v] if e not in ring)
    road(s, 0, spur)
    assert scoring.road_length(s, 0) == 7
    # a fork: a line of three with two branches at its end counts the longer branch only
    t = empty_board()
    line, vs = path(geo, geo.hex_vertices[centre][0], 3)
    road(t, 1, *line)
    branches = [e for e in geo.vertex_edges[vs[-1]] if e not in line]
    road(t, 1, *branches)
    assert scoring.road_length(t, 1) == 4


def _two_far_paths(geo):
    """Two lines of five road edges whose corners are at least two apart."""
    inland = [v for v in range(geo.vertex_count) if len(geo.vertex_land_hexes[v]) == 3]
    for start in inland:
        try:
            edges, vertices = path(geo, start, 5)
        except StopIteration:
            continue
        if not any(e not in edges and geo.road_edge[e] for e in geo.vertex_edges[vertices[3]]):
            continue
        near = set(vertices) | {u for v in vertices for u in geo.vertex_adjacent[v]}
        for other in inland:
            if other in near:
                continue
            try:
                e1, v1 = path(geo, other, 5, avoid=edges)
            except StopIteration:
                continue
            if not set(v1) & near:
                return (edges, vertices), (e1, v1)
    raise AssertionError("the board has room for two roads")


@pytest.mark.rule("B-longest-road")
def test_longest_road_goes_to_the_first_with_five_ties_keep_it_and_a_cut_recomputes():
    s = empty_board()
    geo = geometry(s["board"])
    (edges, vertices), (e1, v1) = _two_far_paths(geo)
    road(s, 0, *edges[:4])
    place(s, 0, vertices[0])
    give(s, 0, brick=3, lumber=3)
    s, events = act(s, 0, {"type": "build_road", "edge": edges[4]})
    assert s["longest"] == 0 and s["road_length"][0] == 5
    assert scoring.public_points(s, 0) == 3
    assert {"type": "longest_road", "seat": 0, "length": 5, "lost_by": None} in events
    # seat 1 builds an equal road elsewhere: the holder keeps it
    road(s, 1, *e1[:4])
    place(s, 1, v1[0])
    give(s, 1, brick=2, lumber=2, wool=1, grain=1)
    s = dict(s, current=1)
    s, _ = act(s, 1, {"type": "build_road", "edge": e1[4]})
    assert s["road_length"][1] == 5 and s["longest"] == 0
    # seat 1 reaches seat 0's road and cuts it with a settlement at its third corner: seat 0
    # drops to 3 and seat 1 (5) holds it alone
    cut = vertices[3]
    spur = next(e for e in geo.vertex_edges[cut] if e not in edges and geo.road_edge[e])
    road(s, 1, spur)
    s["owner"] = list(s["owner"])
    for u in geo.vertex_adjacent[cut]:
        assert s["owner"][u] < 0
    give(s, 1, brick=1, lumber=1, wool=1, grain=1)
    s, events = act(s, 1, {"type": "build_settlement", "vertex": cut})
    assert s["road_length"][0] == 3
    assert s["longest"] == 1


@pytest.mark.rule("B-longest-road")
def test_a_holder_who_loses_the_lead_to_a_tie_leaves_it_to_nobody():
    s = empty_board()
    # seat 0 held it with 7; a cut leaves it 4 while seats 1 and 2 tie at 6
    s = dict(s, longest=0, road_length=[7, 6, 6, 0])
    w = Work(s)
    original = scoring.road_length
    try:
        scoring.road_length = lambda state, seat, geo=None: {0: 4}.get(seat, state["road_length"][seat])
        scoring.update_longest(w, [0])
    finally:
        scoring.road_length = original
    assert w.s["longest"] is None


@pytest.mark.rule("B-harbour")
def test_harbour_rates_two_three_and_four_to_one():
    s = empty_board()
    geo = geometry(s["board"])
    specific = next((e, k) for e, k in geo.harbours if k != "3:1")
    generic = next(e for e, k in geo.harbours if k == "3:1")
    give(s, 0, **{r: 4 for r in RESOURCES})
    assert trade.rates(s, 0, geo) == {r: 4 for r in RESOURCES}
    place(s, 0, geo.edge_vertices[generic][0])
    assert trade.rates(s, 0, geo) == {r: 3 for r in RESOURCES}
    place(s, 0, geo.edge_vertices[specific[0]][1])
    rates = trade.rates(s, 0, geo)
    assert rates[specific[1]] == 2 and all(rates[r] == 3 for r in RESOURCES if r != specific[1])
    s2, _ = act(s, 0, {"type": "bank_trade", "give": specific[1], "get": "ore" if specific[1] != "ore" else "wool"})
    assert s2["hands"][0][specific[1]] == 2
    t = empty_board()
    give(t, 0, brick=3)
    with pytest.raises(IllegalAction):
        act(t, 0, {"type": "bank_trade", "give": "brick", "get": "ore"})
    give(t, 0, brick=1)
    t2, _ = act(t, 0, {"type": "bank_trade", "give": "brick", "get": "ore"})
    assert t2["hands"][0] == hand(ore=1)


@pytest.mark.rule("B-dev-wait")
def test_development_cards_wait_a_turn_and_only_one_is_played_per_turn():
    s = empty_board()
    give(s, 0, ore=2, wool=2, grain=2)
    s["deck"] = ["monopoly", "knight"]
    s, events = act(s, 0, {"type": "buy_development"})
    assert s["dev"][0] == [["knight", 5]]
    assert [e for e in events if e["type"] == "bought_card"][0]["private"] == [0]
    assert "card" not in [e for e in events if e["type"] == "bought_development"][0]
    assert not [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "play_knight"]
    with pytest.raises(IllegalAction) as caught:
        act(s, 0, {"type": "play_knight", "hex": 0, "steal_from": None})
    assert "turn it was bought" in str(caught.value)
    s, _ = act(s, 0, {"type": "buy_development"})
    # the next turn of seat 0: both playable, but only one
    s = dict(s, turn=9, phase="roll", rolled=False)
    knights = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "play_knight"]
    assert knights, "a knight may be played before the roll"
    s, _ = act(s, 0, knights[0])
    assert s["knights"][0] == 1 and s["phase"] == "roll"
    s = dict(s, phase="main", rolled=True)
    assert not [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "play_monopoly"]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "play_monopoly", "resource": "ore"})
    s, _ = act(s, 0, {"type": "end_turn"})
    assert s["played_dev"] is False


@pytest.mark.rule("B-dev-cards")
def test_monopoly_year_of_plenty_and_road_building():
    s = empty_board()
    geo = geometry(s["board"])
    s["dev"] = [[["monopoly", 1], ["year_of_plenty", 1], ["road_building", 1]], [], [], []]
    give(s, 1, ore=2)
    give(s, 2, ore=1, wool=1)
    m, events = act(s, 0, {"type": "play_monopoly", "resource": "ore"})
    assert m["hands"][0]["ore"] == 3 and m["hands"][1]["ore"] == 0 and m["hands"][2] == hand(wool=1)
    y, _ = act(s, 0, {"type": "play_year_of_plenty", "resources": ["brick", "brick"]})
    assert y["hands"][0]["brick"] == 2
    v = next(v for v in range(geo.vertex_count) if geo.vertex_on_land[v] and len(geo.vertex_land_hexes[v]) == 3)
    place(s, 0, v)
    pairs = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "play_road_building"]
    assert pairs and all(len(a["edges"]) == 2 for a in pairs)
    r, _ = act(s, 0, pairs[0])
    assert r["pieces"][0][0] == 2 and r["hands"][0] == hand()


@pytest.mark.rule("B-largest-army")
def test_largest_army_needs_three_knights_and_more_than_the_holder():
    s = empty_board()
    s["knights"] = [2, 3, 0, 0]
    s["army"] = 1
    s["dev"] = [[["knight", 1]], [], [], []]
    s, _ = act(s, 0, ENGINE.legal_actions(s, 0)[[a["type"] for a in ENGINE.legal_actions(s, 0)].index("play_knight")])
    assert s["knights"][0] == 3 and s["army"] == 1
    s = dict(s, turn=6, played_dev=False, dev=[[["knight", 1]], [], [], []])
    s, events = act(s, 0, next(a for a in ENGINE.legal_actions(s, 0) if a["type"] == "play_knight"))
    assert s["army"] == 0 and scoring.public_points(s, 0) == 2


@pytest.mark.rule("B-trade")
def test_player_trade_offer_answer_confirm_counter_and_withdraw():
    s = empty_board()
    give(s, 0, ore=2)
    give(s, 1, wool=2)
    give(s, 2, grain=1)
    s, _ = act(s, 0, {"type": "offer", "give": {"ore": 1}, "get": {"wool": 1}, "to": None})
    offer = s["offers"][0]["id"]
    assert set(ENGINE.to_act(s)) == {0, 1, 2, 3}
    with pytest.raises(IllegalAction):
        act(s, 2, {"type": "answer", "offer": offer, "accept": True})   # has no wool
    s, _ = act(s, 1, {"type": "answer", "offer": offer, "accept": True})
    s, _ = act(s, 2, {"type": "answer", "offer": offer, "accept": False,
                      "counter": {"give": {"grain": 1}, "get": {"ore": 1}}})
    assert len(s["offers"]) == 2 and s["offers"][1]["from"] == 2 and s["offers"][1]["to"] == [0]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "confirm", "offer": offer, "with": 2})
    s, events = act(s, 0, {"type": "confirm", "offer": offer, "with": 1})
    assert s["hands"][0] == hand(ore=1, wool=1) and s["hands"][1] == hand(wool=1, ore=1)
    counter = s["offers"][0]["id"]
    s, _ = act(s, 0, {"type": "answer", "offer": counter, "accept": True})
    assert 2 in ENGINE.to_act(s)
    s, _ = act(s, 2, {"type": "confirm", "offer": counter, "with": 0})
    assert s["hands"][2] == hand(ore=1) and s["hands"][0] == hand(wool=1, grain=1)
    s, _ = act(s, 0, {"type": "offer", "give": {"wool": 1}, "get": {"brick": 1}, "to": [3]})
    s, _ = act(s, 0, {"type": "withdraw", "offer": s["offers"][0]["id"]})
    assert s["offers"] == []


@pytest.mark.rule("B-pieces")
def test_piece_limits():
    s = empty_board()
    s["pieces"] = [[15, 5, 4], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    give(s, 0, brick=5, lumber=5, wool=5, grain=5, ore=5)
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 0)}
    assert not kinds & {"build_road", "build_settlement", "build_city"}
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "build_road", "edge": 0})


@pytest.mark.rule("B-extension")
@pytest.mark.rule("B-special-build")
def test_five_and_six_players_have_the_extension_bank_deck_and_special_building():
    """Edition 1: the special building phase passed on after one build (edition 2 lets a
    player build as much as he can pay for: test_catan_edition2.py)."""
    s = fresh(5)
    assert s["bank"] == {r: 24 for r in RESOURCES} and len(s["deck"]) == 34
    assert sorted(s["deck"]).count("knight") == 20
    assert len(fresh(4)["deck"]) == 25
    s = empty_board(players=5, edition=1)
    give(s, 2, brick=1, lumber=1)
    geo = geometry(s["board"])
    v = next(v for v in range(geo.vertex_count) if geo.vertex_on_land[v])
    place(s, 2, v)
    s, _ = act(s, 0, {"type": "end_turn"})
    assert s["phase"] == "special_build" and ENGINE.to_act(s) == [1]
    assert ENGINE.legal_actions(s, 1) == [{"type": "pass"}]
    s, _ = act(s, 1, {"type": "pass"})
    builds = [a for a in ENGINE.legal_actions(s, 2) if a["type"] == "build_road"]
    assert builds and not [a for a in ENGINE.legal_actions(s, 2) if a["type"] in ("bank_trade", "offer")]
    s, _ = act(s, 2, builds[0])
    for seat in (3, 4):
        s, _ = act(s, seat, {"type": "pass"})
    assert s["phase"] == "roll" and s["current"] == 1


@pytest.mark.rule("B-win")
def test_a_win_reveals_hidden_victory_points_in_the_players_own_turn():
    s = empty_board()
    s["pieces"] = [[0, 5, 2], [0, 0, 0], [0, 0, 0], [0, 0, 0]]   # 9 public points
    s["dev"] = [[["victory_point", 1]], [], [], []]
    assert ENGINE.view(s, 1)["players"][0]["points"] == 9
    assert "hidden_points" not in ENGINE.view(s, 1)["players"][0]
    # any action of seat 0 in its turn ends the game
    give(s, 0, ore=4)
    s, events = act(s, 0, {"type": "bank_trade", "give": "ore", "get": "wool"})
    assert s["phase"] == "over" and s["winner"] == 0
    win = [e for e in events if e["type"] == "win"][0]
    assert win["points"] == 10 and win["victory_cards"] == 1
    assert ENGINE.view(s, 1)["players"][0]["hidden_points"] == 1
    assert ENGINE.standings(s)[0]["seat"] == 0



def test_refusals_for_bad_input_change_nothing():
    s = empty_board()
    before = copy.deepcopy(s)
    for seat, action in ((True, {"type": "end_turn"}), (None, {"type": "end_turn"}), (1, {"type": "end_turn"}),
                         (0, {"type": "build_road", "edge": "3"}), (0, {"type": "build_road", "edge": True}),
                         (0, {"type": "bank_trade", "give": "gold", "get": "ore"}),
                         (0, {"type": "offer", "give": {"ore": -1}, "get": {"wool": 1}}),
                         (0, {"type": "unload", "ship": True}), (0, {"type": "roll"}), (0, "end_turn")):
        with pytest.raises(IllegalAction):
            act(s, seat, action)
    assert s == before


def test_every_base_game_rule_in_the_rules_document_has_a_test_naming_it():
    """docs/rules/catan-ships.md lists the base game's rule IDs (B-…); each is named by a test's
    rule marker here, as the digest's C1-C20 are."""
    root = Path(__file__).resolve().parents[3]
    listed = set(re.findall(r"\*\*(B-[a-z-]+)\*\*", (root / "docs/rules/catan-ships.md").read_text()))
    named = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        named |= set(re.findall(r'mark\.rule\("(B-[a-z-]+)"\)', path.read_text()))
    assert len(listed) >= 15 and listed <= named, sorted(listed - named)


def test_a_tokens_dots_are_the_ways_two_dice_roll_its_number():
    """B-production: the dots on a number token (the page draws them, the bots weigh hexes by
    them) count the ways of 36 two dice roll it; the desert and 7 bear none."""
    from games.engines.catan_ships.board import pips

    for number in range(2, 13):
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == number)
        assert pips(number) == (0 if number == 7 else ways)
    assert pips(None) == 0 and pips(0) == 0
