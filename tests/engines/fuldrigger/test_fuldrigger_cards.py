"""Chance cards (F43): the deck, reshuffling, and every card's effect."""
import math

import pytest

from games.engines.fuldrigger.cards import CARDS, EFFECTS
from games.engines.fuldrigger.state import fortunes
from games.engines.fuldrigger.trade import sale_price
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, cargo, clear_ships, dealt, first, game, of_type, put_ship, rolled,
    seeded, squares,
)

GOOD = next(iter(WORLD.goods))


def cards_of(effect):
    return sorted(c for c, data in CARDS.items() if data["effect"] == effect)


def at_card(state, card_id):
    """A copy of the state turned back to the start of its round with `card_id` on top of the
    deck."""
    state = dict(state)
    state["phase"] = "card"
    state["deck"] = [card_id] + [c for c in state["deck"] if c != card_id]
    return state


def draw(state, card_id):
    return ENGINE.apply(at_card(state, card_id), None, {"type": "draw_card"})


def seeded_draw(state, card_id, want):
    return seeded(at_card(state, card_id), None, {"type": "draw_card"}, want)


def sea_within(port, radius, *, beyond=False):
    """A sea square within (or, with beyond, farther than) `radius` squares of `port`."""
    dist = WORLD.distances_from(port)
    for node in sorted(dist):
        if WORLD.is_port(node):
            continue
        if (dist[node] > radius) if beyond else (1 <= dist[node] <= radius):
            return node
    pytest.fail(f"no sea square {'beyond' if beyond else 'within'} {radius} of {port}")


def test_deck_has_28_cards_of_known_effects_on_real_ports_and_goods():
    """F43 28 chance cards, each with a known effect; named ports and goods exist."""
    assert len(CARDS) == 28
    for card_id, data in CARDS.items():
        assert data["effect"] in EFFECTS, card_id
        assert data["text"] and data["title"]
        if data.get("port") is not None:
            assert data["port"] in WORLD.ports, card_id
        if data.get("good") is not None:
            assert data["good"] in WORLD.goods, card_id


def test_deck_shuffled_at_start_hidden_and_turned_each_round():
    """F43 shuffled face down at the start (the order depends on the seed and is hidden); one
    card is turned each time the banker's turn comes."""
    orders = {tuple(ENGINE.new_game(2, f"seed{i}", {})["deck"]) for i in range(5)}
    assert len(orders) > 1 and all(sorted(o) == sorted(CARDS) for o in orders)
    state = dealt(2, "deck")
    top = state["deck"][0]
    state, events = ENGINE.apply(state, None, {"type": "draw_card"})
    assert first(events, "card")["card"] == top and state["last_card"] == top
    assert len(state["deck"]) == 27
    seen = ENGINE.view(state, 0)
    assert "deck" not in seen and seen["deck_left"] == 27 and seen["last_card"]["id"] == top


def test_used_up_deck_is_reshuffled_with_claimed_bounties_void_in_edition_1():
    """F43, edition 1's reading: when the pile is used up all 28 cards are reshuffled, claimed
    "first to reach" cards too, which then do nothing."""
    bounty = cards_of("first_to_reach")[0]
    state = game(2, edition=1)
    state["phase"] = "card"
    state["deck"] = []
    state["claimed"] = [bounty]
    state, events = ENGINE.apply(state, None, {"type": "draw_card"})
    assert of_type(events, "reshuffle") and len(state["deck"]) == 27
    state = game(2, edition=1)
    state["claimed"] = [bounty]
    state, events = draw(state, bounty)
    assert first(events, "card")["void"] and bounty not in state["bounties"]


@pytest.mark.parametrize("card_id", cards_of("first_to_reach"))
def test_first_to_reach_port_is_paid_once(card_id):
    """F43 "first to reach" cards: the first ship to enter the port after the draw is paid."""
    data = CARDS[card_id]
    port = data["port"]
    seas = [n for n in WORLD.neighbours(port) if not WORLD.is_port(n) and not WORLD.hazard(n)]
    if not seas:
        pytest.fail(f"no quiet approach to {port}")
    sea = seas[0]
    state = game(2)
    put_ship(state, 1, port)                       # already there: does not count
    state, _ = draw(state, card_id)
    assert card_id in state["bounties"]
    state["skip"] = [False, False]
    state["turn"]["seat"] = 0
    rolled(state, 2)
    state["effects"] = []
    a = put_ship(state, 0, sea)
    b = put_ship(state, 0, sea)
    state, events = ENGINE.apply(state, 0, {"type": "move", "ship": a["id"], "path": [port]})
    assert first(events, "bounty")["amount"] == data["amount"]
    assert state["cash"][0] == 100 + data["amount"] and card_id in state["claimed"]
    state, events = ENGINE.apply(state, 0, {"type": "move", "ship": b["id"], "path": [port]})
    assert not of_type(events, "bounty") and state["cash"][0] == 100 + data["amount"]


@pytest.mark.parametrize("card_id", cards_of("price"))
def test_price_cards_change_sale_prices_for_the_round(card_id):
    """F43 price booms and busts at a named port (or everywhere) for one round."""
    data = CARDS[card_id]
    places = [(p, g) for p in sorted(WORLD.prices) for g, e in sorted(WORLD.prices[p].items())
              if e["sell"] is not None and data["port"] in (None, p) and data["good"] in (None, g)]
    assert places, f"{card_id} changes no price on this map"
    port, good = places[0]
    base = WORLD.prices[port][good]["sell"]
    state, _ = draw(game(2), card_id)
    state["turn"]["seat"] = 0
    assert sale_price(state, 0, port, good) == max(0, base + data["amount"])
    ship = put_ship(state, 0, port, cargo=cargo(good, carried=10))
    state["turn"]["seat"] = 0
    sold, events = ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
    assert first(events, "sell_cargo")["price"] == max(0, base + data["amount"])
    # The next card ends it.
    state, _ = draw(state, next(c for c in CARDS if CARDS[c]["effect"] == "windfall"))
    assert sale_price(state, 0, port, good) == base


@pytest.mark.parametrize("card_id", cards_of("storm"))
def test_storm_cards_sink_ships_at_sea_near_the_port(card_id):
    """F43 storms near a named port: each ship at sea within the radius rolls two dice."""
    data = CARDS[card_id]
    state = game(2)
    near = put_ship(state, 0, sea_within(data["port"], data["radius"]))
    safe = put_ship(state, 1, data["port"])
    far = put_ship(state, 1, sea_within(data["port"], data["radius"], beyond=True))
    new, events = seeded_draw(state, card_id,
                              lambda s, e: sum(first(e, "card_storm")["dice"]) <= data["sinks_upto"])
    assert str(near["id"]) not in new["ships"]
    assert str(safe["id"]) in new["ships"] and str(far["id"]) in new["ships"]
    assert [e["ship"] for e in of_type(events, "card_storm")] == [near["id"]]
    new, events = seeded_draw(state, card_id,
                              lambda s, e: sum(first(e, "card_storm")["dice"]) > data["sinks_upto"])
    assert str(near["id"]) in new["ships"]


def test_gale_drives_ships_at_sea_one_square():
    """F43 gale: every ship at sea is driven to a neighbouring sea square; ships in port stay."""
    state = game(2)
    sea = next(n for n in sorted(WORLD.nodes) if not WORLD.is_port(n)
               and len([m for m in WORLD.neighbours(n) if not WORLD.is_port(m)]) >= 2)
    drifting = put_ship(state, 0, sea, cargo=cargo(GOOD, carried=3))
    docked = ENGINE.view(state, 0)["ships"]
    new, events = draw(state, "gale")
    moved = new["ships"][str(drifting["id"])]
    assert moved["node"] in WORLD.neighbours(sea) and not WORLD.is_port(moved["node"])
    assert moved["cargo"]["carried"] == 3
    for key, ship in docked.items():
        if WORLD.is_port(ship["node"]):
            assert new["ships"][key]["node"] == ship["node"]


def test_pirate_raid_takes_cargo_near_pirate_waters():
    """F43 pirate raid: laden merchants on or next to pirate squares roll; 5 or less loses
    the cargo; the F19 protections (privateer, fortress within two squares) hold."""
    data = CARDS["pirate_raid"]
    node = squares("pirates")[0] if squares("pirates") else pytest.fail("no pirates")
    state = game(2)
    ship = put_ship(state, 0, node, cargo=cargo(GOOD))
    empty = put_ship(state, 1, node)
    new, events = seeded_draw(state, "pirate_raid",
                              lambda s, e: sum(first(e, "card_raid")["dice"]) <= data["loses_upto"])
    assert new["ships"][str(ship["id"])]["cargo"] is None
    assert [e["ship"] for e in of_type(events, "card_raid")] == [ship["id"]]
    assert str(empty["id"]) in new["ships"]
    new, _ = seeded_draw(state, "pirate_raid",
                         lambda s, e: sum(first(e, "card_raid")["dice"]) > data["loses_upto"])
    assert new["ships"][str(ship["id"])]["cargo"]["good"] == GOOD
    ports = [p for p in WORLD.within(node, 2) if WORLD.is_port(p)]
    if ports:
        state["fortresses"][ports[0]] = 0
        new, events = draw(state, "pirate_raid")
        assert not of_type(events, "card_raid")


@pytest.mark.parametrize("card_id,per,count", [
    ("tax_ships", "amount", lambda s, seat: sum(1 for x in s["ships"].values() if x["owner"] == seat)),
    ("garrison_pay", "amount", lambda s, seat: sum(1 for o in s["fortresses"].values() if o == seat)),
    ("privateer_licence", "amount",
     lambda s, seat: sum(1 for x in s["ships"].values() if x["owner"] == seat and x["privateer"])),
])
def test_per_item_taxes(card_id, per, count):
    """F43 taxes per ship, per fortress and per privateer; cash never goes below zero."""
    state = game(3)
    state["fortresses"] = {WORLD.ports[4]: 0, WORLD.ports[5]: 0, WORLD.ports[6]: 1}
    state["ships"][next(iter(state["ships"]))]["privateer"] = True
    state["cash"] = [100, 100, 5]
    expected = [max(0, state["cash"][seat] - CARDS[card_id][per] * count(state, seat))
                for seat in range(3)]
    new, _ = draw(state, card_id)
    assert new["cash"] == expected


def test_war_loan_takes_a_tenth():
    """F43 tax on cash: a tenth of each player's cash, rounded down."""
    state = game(2)
    state["cash"] = [125, 9]
    new, _ = draw(state, "tax_cash")
    assert new["cash"] == [113, 9]


def test_windfall_dividend_and_interest():
    """F43 windfalls: 50 each; 10 per ship; a tenth of cash as interest, at most 50."""
    state = game(2)
    clear_ships(state, 1)
    state["cash"] = [700, 120]
    assert draw(state, "windfall")[0]["cash"] == [750, 170]
    assert draw(state, "dividend")[0]["cash"] == [730, 120]
    assert draw(state, "interest")[0]["cash"] == [750, 132]


def test_scurvy_costs_the_richest_his_next_turn():
    """F43 scurvy: the player with the largest fortune loses his next turn."""
    state = game(3)
    state["cash"] = [100, 500, 100]
    new, events = draw(state, "scurvy")
    assert [e["seat"] for e in of_type(events, "scurvy")] == [1]
    assert new["turn"]["seat"] == 0
    new, _ = ENGINE.apply(new, 0, {"type": "roll"})
    new, events = ENGINE.apply(new, 0, {"type": "end_turn"})
    assert first(events, "turn_lost")["seat"] == 1 and new["turn"]["seat"] == 2
    assert new["skip"] == [False, False, False]


def test_scurvy_on_the_banker_passes_the_first_turn():
    """F43 scurvy on the first seat of the round: play begins with the next seat."""
    state = game(2)
    state["cash"] = [900, 100]
    new, events = draw(state, "scurvy")
    assert first(events, "turn_lost")["seat"] == 0 and new["turn"]["seat"] == 1


@pytest.mark.rule("F43")
def test_scurvy_passes_when_every_fortune_is_the_same():
    """F43 scurvy, edition 3 (docs/rules/fuldrigger.md, "Scurvy"): the card strikes "the richest
    fleet"; where every player still in has the same fortune — as at the first card — no fleet
    is the richest and nobody loses a turn (the event says so), so the round is played."""
    state = dealt(3, "scurvy-at-the-start")
    assert state["edition"] == 3 and state["phase"] == "card"
    assert len(set(fortunes(state))) == 1                  # everyone starts with the same
    new, events = draw(state, "scurvy")
    assert of_type(events, "scurvy") == [] and len(of_type(events, "scurvy_spared")) == 1
    assert new["skip"] == [False, False, False] and new["phase"] == "play"
    assert of_type(events, "turn_lost") == [] and new["turn"]["seat"] == new["first"]
    assert "nobody loses a turn" in ENGINE.describe(first(events, "scurvy_spared"), ["a", "b", "c"])
    # Two of three sharing the largest fortune are still the richest: both lose the turn.
    state = game(3)
    state["cash"] = [500, 500, 100]
    new, events = draw(state, "scurvy")
    assert [e["seat"] for e in of_type(events, "scurvy")] == [0, 1]
    assert of_type(events, "scurvy_spared") == []
    # A player who is out does not count: the two still in tie, so nobody is the richest.
    state = game(3)
    state["cash"] = [300, 300, 0]
    state["out"][2] = True
    new, events = draw(state, "scurvy")
    assert of_type(events, "scurvy") == [] and new["skip"] == [False, False, False]


@pytest.mark.rule("F43")
def test_scurvy_under_earlier_editions_still_takes_every_tied_turn():
    """F43 scurvy, editions 1 and 2: a match dealt under them keeps its rule, and everyone
    tied at the top loses the next turn even when that is everyone (it replays as played)."""
    for edition in (1, 2):
        state = dealt(2, "scurvy-at-the-start", edition=edition)
        assert len(set(fortunes(state))) == 1
        new, events = draw(state, "scurvy")
        assert [e["seat"] for e in of_type(events, "scurvy")] == [0, 1]
        assert of_type(events, "scurvy_spared") == []


def test_letter_of_marque_fits_privateers_anywhere():
    """F43 letter of marque: this round privateers are fitted out in any port."""
    state = game(2)
    port = next(p for p in WORLD.ports if p not in state["homes"])
    ship = put_ship(state, 0, port)
    new, _ = draw(state, "marque")
    new["turn"]["seat"] = 0
    new, _ = ENGINE.apply(new, 0, {"type": "fit_privateer", "ship": ship["id"]})
    assert new["ships"][str(ship["id"])]["privateer"]


def test_convoy_makes_pirate_waters_harmless():
    """F43 convoy: this round pirates attack nobody."""
    node = squares("pirates")[0] if squares("pirates") else pytest.fail("no pirates")
    state = game(2)
    entry = next(n for n in WORLD.neighbours(node) if not WORLD.is_port(n))
    ship = put_ship(state, 0, entry, cargo=cargo(GOOD))
    state, _ = draw(state, "convoy")
    state["turn"]["seat"] = 0
    state["skip"] = [False, False]
    rolled(state, 3)
    new, events = ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": [node]})
    assert first(events, "pirates")["spared"] == "convoy"


def test_canal_closed_stops_isthmus_crossings():
    """F43 the isthmus roads close for a round."""
    port = WORLD.isthmus[0]["ports"][0]
    state = game(2)
    ship = put_ship(state, 0, port, cargo=cargo(GOOD))
    state, _ = draw(state, "canal_closed")
    state["turn"]["seat"] = 0
    with pytest.raises(IllegalAction, match="closed"):
        ENGINE.apply(state, 0, {"type": "isthmus_unload", "ship": ship["id"]})


def test_embargo_closes_a_port_for_the_round():
    """F43 embargo: nothing is bought or sold at the named port this round."""
    port = CARDS["embargo_cadiz"]["port"]
    good = next(g for g, e in WORLD.prices[port].items() if e["buy"] is not None)
    state = game(2)
    ship = put_ship(state, 0, port)
    new, _ = draw(state, "embargo_cadiz")
    new["turn"]["seat"] = 0
    with pytest.raises(IllegalAction, match="embargo"):
        ENGINE.apply(new, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})
    ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})


@pytest.mark.parametrize("card_id", ["fog", "fair_winds"])
def test_fog_halves_and_fair_winds_add_to_the_roll(card_id):
    """F43 fog: every roll counts half (rounded up); fair winds: 3 more."""
    state, _ = draw(game(2), card_id)
    state["turn"]["seat"] = 0
    state["skip"] = [False, False]
    new, events = ENGINE.apply(state, 0, {"type": "roll"})
    faces = first(events, "roll")["dice"]
    expected = math.ceil(sum(faces) / 2) if card_id == "fog" else sum(faces) + 3
    assert new["turn"]["total"] == expected


def test_dead_calm_holds_ships_near_the_calm_square():
    """F43 dead calm: ships at sea near the calm square lie still for their owner's next turn."""
    state = game(2)
    ship = put_ship(state, 0, WORLD.calm_square)
    far = put_ship(state, 0, sea_within(WORLD.calm_square, CARDS["dead_calm"]["radius"], beyond=True))
    state["cash"] = [100, 900]                     # scurvy-proof: irrelevant here
    new, events = draw(state, "dead_calm")
    assert [e["ship"] for e in of_type(events, "becalmed")] == [ship["id"]]
    assert new["turn"]["seat"] == 0 and ship["id"] in new["turn"]["still"]
    assert far["id"] not in new["turn"]["still"]


def test_every_effect_kind_is_tested():
    """F43 the deck's effects are all covered by the tests above."""
    tested = {"first_to_reach", "price", "storm", "gale", "pirate_raid", "tax_ships",
              "tax_cash", "tax_fortresses", "tax_privateers", "windfall", "dividend",
              "interest", "scurvy", "marque", "convoy", "canal_closed", "embargo", "fog",
              "fair_winds", "dead_calm"}
    assert {data["effect"] for data in CARDS.values()} <= tested
    assert fortunes(game(2)) == [400, 400]
