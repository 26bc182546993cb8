"""The pure helpers behind the pages: effective sale prices (F24, F25, F31,
price cards), the chart's projection, and what the live part is made of."""
import pytest

from games.engines.fuldrigger import ENGINE
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.state import fresh_turn
from games.engines.fuldrigger.trade import sale_price
from games.fuldrigger import pages, world_map


def game(players=2):
    state = ENGINE.new_game(players, "pages-helpers", {"rounds": 0})
    state["phase"] = "play"
    state["turn"] = fresh_turn(0)
    return state


@pytest.mark.rule("F31")
def test_effective_sale_prices_equal_the_engines():
    state = game(3)
    view = ENGINE.view(state, 0)
    ports = [(p, g) for p in sorted(WORLD.prices) for g, e in WORLD.prices[p].items() if e["sell"] is not None]
    for port, good in ports[:40]:
        for setup in ({}, {"fort": 0}, {"fort": 1}, {"sold": 2}, {"card": True}):
            state = game(3)
            if "fort" in setup:
                state["fortresses"][port] = setup["fort"]
            if "sold" in setup:
                state["turn"]["sold"] = {port: {good: setup["sold"]}}
            if setup.get("card"):
                state["effects"] = [{"kind": "price", "card": "glut_sugar", "port": None, "good": good, "amount": -20}]
            view = ENGINE.view(state, 0)
            assert pages.sale_terms(view, 0, port, good)["price"] == sale_price(state, 0, port, good), (port, good, setup)


def test_the_falling_price_counts_only_on_the_sellers_own_turn():
    state = game(2)
    port, good = next((p, g) for p in sorted(WORLD.prices) for g, e in WORLD.prices[p].items() if e["sell"])
    state["turn"]["sold"] = {port: {good: 1}}
    view = ENGINE.view(state, 1)
    assert pages.sale_terms(view, 1, port, good)["price"] == WORLD.prices[port][good]["sell"]


def test_the_chart_places_every_node_inside_the_map():
    chart = world_map.chart()
    assert set(chart["positions"]) == set(WORLD.nodes)
    for x, y in chart["positions"].values():
        assert 0 <= x <= chart["width"] and 0 <= y <= chart["height"]
    assert len(chart["ports"]) == len(WORLD.ports)
    assert len(chart["hazards"]) == sum(1 for d in WORLD.nodes.values() if d.get("hazard")) + 1  # + calm square


def test_a_path_across_the_date_line_is_drawn_in_two_pieces():
    crossing = next((a, b) for a in WORLD.nodes for b in WORLD.adjacency[a]
                    if abs(WORLD.nodes[a]["lon"] - WORLD.nodes[b]["lon"]) > 180)
    assert len(world_map.polyline(list(crossing))) == 2


def test_the_live_part_shows_a_spectator_no_private_choice():
    state = game(2)
    view = ENGINE.view(state, None)
    live = pages.live(view=view, seat=None, legal=[], my_turn=False, names=["Anna", "Bo"], colours=["red", "blue"],
                      query={"sail": "1", "offer": "1"})
    assert live["sail"] is None and live["fleet"] == [] and live["ports"] == [] and live["offers"]["form"] is None
    assert len(live["pieces"]["ships"]) == len(state["ships"]) and live["query"] == ""


def test_a_chosen_ship_that_cannot_move_is_ignored():
    state = game(2)
    view = ENGINE.view(state, 0)                         # not rolled: nothing may move
    live = pages.live(view=view, seat=0, legal=ENGINE.legal_actions(state, 0), my_turn=True,
                      names=["Anna", "Bo"], colours=["red", "blue"], query={"sail": "1"})
    assert live["sail"] is None and live["query"] == ""


def test_pirate_waters_on_a_path_say_why_the_engine_spares_the_ship():
    """F18, F19: a privateer, one's own fortress within two squares, a convoy card in force;
    the page says the engine's reason (sailing.pirates_spare), not one worked out again."""
    from games.engines.fuldrigger.board import WORLD
    from games.fuldrigger import pages

    pirates = sorted(n for n in WORLD.nodes if WORLD.hazard(n) == "pirates")[0]
    port = next(p for p in WORLD.within(pirates, 2) if WORLD.is_port(p))
    merchant, privateer = {"owner": 0, "privateer": False}, {"owner": 0, "privateer": True}
    calm = {"fortresses": {}, "effects": []}
    assert "harmless" not in pages.hazards_on([pirates], calm, merchant)[0]
    assert "harmless: a privateer" in pages.hazards_on([pirates], calm, privateer)[0]
    assert "your fortress near" in pages.hazards_on([pirates], {**calm, "fortresses": {port: 0}}, merchant)[0]
    assert "harmless" not in pages.hazards_on([pirates], {**calm, "fortresses": {port: 1}}, merchant)[0]
    convoy = {**calm, "effects": [{"kind": "convoy"}]}
    assert "harmless: in convoy" in pages.hazards_on([pirates], convoy, merchant)[0]

