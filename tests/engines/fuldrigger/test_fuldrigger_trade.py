"""Ships, fortresses and trade (F20–F31)."""
import pytest

from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, cargo, clear_ships, first, game, put_ship, rolled, ship_ids,
)


def market(kind: str):
    """(port, good, price) where the good can be bought ("buy") or sold ("sell")."""
    for port in sorted(WORLD.prices):
        for good, entry in sorted(WORLD.prices[port].items()):
            if entry[kind] is not None:
                return port, good, entry[kind]
    raise AssertionError(f"world.json has no port where a good can be {kind}")


def only(kind: str):
    """(port, good) where the good is marked K (bought only) or S (sold only): the other price
    is missing there."""
    for port in sorted(WORLD.prices):
        for good, entry in sorted(WORLD.prices[port].items()):
            if entry["mark"] == kind:
                return port, good
    raise AssertionError(f"world.json has no {kind} mark on its price lists")


def sea_of(port):
    return next(n for n in WORLD.neighbours(port) if not WORLD.is_port(n))


def test_ship_costs_100_and_starts_at_home():
    """F20 a new ship costs 100 ducats and appears in the player's home city."""
    state = game(2)
    state["cash"][0] = 150
    new, events = ENGINE.apply(state, 0, {"type": "buy_ship"})
    assert new["cash"][0] == 50
    ship = new["ships"][str(first(events, "buy_ship")["ship"])]
    assert ship["node"] == new["homes"][0] and ship["owner"] == 0
    state["cash"][0] = 99
    with pytest.raises(IllegalAction, match="costs 100"):
        ENGINE.apply(state, 0, {"type": "buy_ship"})


def test_ship_sold_for_75_cargo_lost_unpaid():
    """F21 a ship sells back to the bank for 75; goods aboard are lost unpaid (in a port)."""
    port, good, _ = market("buy")
    state = game(2)
    ship = put_ship(state, 0, port, cargo=cargo(good, paid=50))
    tokens = state["tokens"][good]
    new, _ = ENGINE.apply(state, 0, {"type": "sell_ship", "ship": ship["id"]})
    assert new["cash"][0] == 175 and str(ship["id"]) not in new["ships"]
    assert new["tokens"][good] == tokens + 1
    at_sea = put_ship(state, 0, sea_of(port))
    with pytest.raises(IllegalAction, match="at sea"):
        ENGINE.apply(state, 0, {"type": "sell_ship", "ship": at_sea["id"]})


def test_no_more_than_six_ships():
    """F22 nobody may own more than six ships."""
    state = game(2)
    state["cash"][0] = 1000
    for _ in range(3):
        state, _ = ENGINE.apply(state, 0, {"type": "buy_ship"})
    assert len(ship_ids(state, 0)) == 6
    with pytest.raises(IllegalAction, match="6 ships"):
        ENGINE.apply(state, 0, {"type": "buy_ship"})
    assert not any(a["type"] == "buy_ship" for a in ENGINE.legal_actions(state, 0))


def test_fortress_where_a_ship_stands_one_per_city():
    """F23 a fortress costs 100 and is bought in a city where one of the player's ships
    stands; one fortress per city."""
    state = game(2)
    home = state["homes"][0]
    other = next(p for p in WORLD.ports if p != home and p != state["homes"][1])
    with pytest.raises(IllegalAction, match="where one of your ships"):
        ENGINE.apply(state, 0, {"type": "buy_fortress", "port": other})
    new, _ = ENGINE.apply(state, 0, {"type": "buy_fortress", "port": home})
    assert new["fortresses"] == {home: 0} and new["cash"][0] == 0
    put_ship(new, 1, home)
    new["cash"][1] = 500
    new["turn"]["seat"] = 1
    with pytest.raises(IllegalAction, match="already has a fortress"):
        ENGINE.apply(new, 1, {"type": "buy_fortress", "port": home})


def test_duty_to_fortress_owner_on_purchase_and_sale():
    """F24 other players pay the fortress owner 10 duty for each purchase and each sale."""
    port, good, price = market("buy")
    state = game(2)
    state["fortresses"][port] = 1
    ship = put_ship(state, 0, port)
    new, events = ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})
    assert new["cash"][0] == 100 - price - 10 and new["cash"][1] == 110
    assert first(events, "buy_cargo")["duty"] == 10
    sport, sgood, sprice = market("sell")
    state = game(2)
    state["fortresses"][sport] = 1
    ship = put_ship(state, 0, sport, cargo=cargo(sgood, carried=12))
    new, _ = ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
    assert new["cash"][0] == 100 + sprice - 10 and new["cash"][1] == 110


def test_owner_sells_for_10_more_and_pays_no_duty():
    """F25 the fortress owner sells there for 10 more than the list price (and no duty)."""
    port, good, price = market("sell")
    state = game(2)
    state["fortresses"][port] = 0
    ship = put_ship(state, 0, port, cargo=cargo(good, carried=10))
    new, events = ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
    assert new["cash"][0] == 100 + price + 10 and new["cash"][1] == 100
    assert first(events, "sell_cargo")["price"] == price + 10


def test_fortresses_trade_between_players():
    """F26 players may trade fortresses among themselves at an agreed price (an offer)."""
    state = game(2)
    port = WORLD.ports[-1]
    state["fortresses"][port] = 1
    offer = {"type": "offer", "to": 1, "give": {"ducats": 80}, "take": {"fortresses": [port]}}
    state, events = ENGINE.apply(state, 0, offer)
    number = first(events, "offer")["offer"]
    assert 1 in ENGINE.to_act(state)
    state, _ = ENGINE.apply(state, 1, {"type": "accept_offer", "offer": number})
    assert state["fortresses"][port] == 0
    assert state["cash"] == [20, 180]


def test_no_more_than_six_fortresses():
    """F27 nobody may own more than six fortresses."""
    state = game(2)
    ports = [p for p in WORLD.ports if p != state["homes"][0]]
    assert len(ports) >= 6, "world.json has too few ports"
    for port in ports[:6]:
        state["fortresses"][port] = 0
    state["cash"][0] = 500
    with pytest.raises(IllegalAction, match="6 fortresses"):
        ENGINE.apply(state, 0, {"type": "buy_fortress", "port": state["homes"][0]})


def test_k_goods_only_bought_s_goods_only_sold():
    """F28 a good marked K can only be bought in that city, one marked S only sold there."""
    kport, kgood = only("K")
    state = game(2)
    ship = put_ship(state, 0, kport, cargo=cargo(kgood, carried=20))
    with pytest.raises(IllegalAction, match="does not buy"):
        ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
    sport, sgood = only("S")
    state = game(2)
    ship = put_ship(state, 0, sport)
    with pytest.raises(IllegalAction, match="cannot be bought"):
        ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": sgood})
    assert not any(a["type"] == "buy_cargo" and a["good"] == sgood
                   for a in ENGINE.legal_actions(state, 0))


def test_one_cargo_per_ship():
    """F29 a ship carries one cargo; buying puts a cargo token on it."""
    port, good, price = market("buy")
    state = game(2)
    state["cash"][0] = 500
    ship = put_ship(state, 0, port)
    tokens = state["tokens"][good]
    new, _ = ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})
    loaded = new["ships"][str(ship["id"])]["cargo"]
    assert loaded["good"] == good and loaded["paid"] == price and loaded["carried"] == 0
    assert new["tokens"][good] == tokens - 1
    with pytest.raises(IllegalAction, match="already carries"):
        ENGINE.apply(new, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})


def test_no_token_left_no_purchase():
    """F29 reading: 108 tokens; a good whose tokens are all at sea cannot be bought."""
    assert sum(g["tokens"] for g in WORLD.goods.values()) == 108
    port, good, _ = market("buy")
    state = game(2)
    state["tokens"][good] = 0
    ship = put_ship(state, 0, port)
    with pytest.raises(IllegalAction, match="at sea already"):
        ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})


def test_buying_needs_the_cash():
    """F28 buying with too little cash is refused."""
    port, good, price = market("buy")
    state = game(2)
    state["cash"][0] = price - 1
    ship = put_ship(state, 0, port)
    with pytest.raises(IllegalAction, match="costs"):
        ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})


def test_cargo_carried_ten_squares_before_sale():
    """F30 a cargo must be carried at least 10 squares before it can be sold."""
    port, good, price = market("sell")
    state = game(2)
    ship = put_ship(state, 0, port, cargo=cargo(good, carried=9))
    with pytest.raises(IllegalAction, match="carried 9 squares"):
        ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
    assert not any(a["type"] == "sell_cargo" for a in ENGINE.legal_actions(state, 0))
    ship["cargo"]["carried"] = 10
    new, _ = ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
    assert new["cash"][0] == 100 + price and new["ships"][str(ship["id"])]["cargo"] is None


def test_sailing_counts_towards_the_ten_squares():
    """F30 the squares sailed with the cargo aboard are what count."""
    port, good, price = market("sell")
    sea = sea_of(port)
    state = rolled(game(2), 5)
    ship = put_ship(state, 0, sea, cargo=cargo(good, carried=9))
    new, _ = ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": [port]})
    assert new["ships"][str(ship["id"])]["cargo"]["carried"] == 10
    new, _ = ENGINE.apply(new, 0, {"type": "sell_cargo", "ship": ship["id"]})
    assert new["cash"][0] == 100 + price


def test_price_falls_10_per_load_already_sold():
    """F31 the 2nd load of a good sold in a city in one turn fetches 10 less, the 3rd 20 less;
    next turn the price is back."""
    port, good, price = market("sell")
    state = rolled(game(2), 5)
    ships = [put_ship(state, 0, port, cargo=cargo(good, carried=10)) for _ in range(3)]
    got = []
    for ship in ships:
        state, events = ENGINE.apply(state, 0, {"type": "sell_cargo", "ship": ship["id"]})
        got.append(first(events, "sell_cargo")["price"])
    assert got == [price, max(0, price - 10), max(0, price - 20)]
    state, _ = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert state["turn"]["sold"] == {}


def test_privateer_cannot_load():
    """F35 a privateer cannot take on cargo."""
    port, good, _ = market("buy")
    state = game(2)
    ship = put_ship(state, 0, port, privateer=True)
    with pytest.raises(IllegalAction, match="privateer"):
        ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})


def test_buying_and_selling_only_in_port():
    """F28 trade happens in port cities only."""
    port, good, _ = market("buy")
    state = game(2)
    clear_ships(state, 0)
    ship = put_ship(state, 0, sea_of(port))
    with pytest.raises(IllegalAction, match="at sea"):
        ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})
