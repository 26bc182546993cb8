"""One source for what the rules refuse in port (trade.cargo_refusal, ship_refusal,
fortress_refusal, sale_refusal): the move refuses with the key it finds, the legal actions list exactly what
it finds nothing against, and the pages word the same finding (tests/fuldrigger). Checked over
random playouts, at every turn where the seat to play may trade, for every ship in port, every
good (one the port does not sell, and one that does not exist), and every port (F20, F22, F23,
F24, F27, F28, F29, F30, F35, and the bank's tokens)."""
import random

from games.engines.fuldrigger import trade
from games.engines.fuldrigger.state import ships_of
from tests.engines.fuldrigger.fuldrigger_support import ENGINE, WORLD, IllegalAction, game, play


def _refused_with(state, seat, action):
    """The key of the engine's words the move is refused with, or None when it is played."""
    try:
        ENGINE.apply(state, seat, action)
    except IllegalAction as exc:
        return exc.key
    return None


def _trading_turns(seed, moves=260):
    """States of a random 3-player playout (cash enough to buy, so few to refuse, and little
    enough that some are) where a seat to play may trade in port, with that seat."""
    start = ENGINE.new_game(3, f"refusals-{seed}", {"rounds": 0, "isthmus": True, "start_cash": 260})
    for state in play(start, random.Random(seed), moves):
        for seat in ENGINE.to_act(state):
            legal = ENGINE.legal_actions(state, seat)
            if any(a["type"] in ("roll", "end_turn") for a in legal):
                yield state, seat, legal


def _every_trading_turn(seeds=(1, 2, 3, 4)):
    for seed in seeds:
        yield from _trading_turns(seed)


def test_the_move_the_legal_actions_and_the_refusal_agree_on_every_purchase_and_sale_in_port():
    seen = {"cargo": set(), "sale": set(), "ship": set(), "fortress": set()}
    for state, seat, legal in _every_trading_turn():
        before = repr(state)
        in_port = [s for s in ships_of(state, seat) if WORLD.is_port(s["node"])]
        for ship in in_port:
            port = ship["node"]
            goods = [g for g, e in WORLD.prices.get(port, {}).items() if e["buy"] is not None]
            unsold = [g for g in WORLD.goods if g not in goods][:1]
            for good in goods + unsold + ["no-such-good"]:
                action = {"type": "buy_cargo", "ship": ship["id"], "good": good}
                refusal = trade.cargo_refusal(state, seat, ship, good)
                assert (refusal is None) == (action in legal), (action, refusal)
                assert _refused_with(state, seat, action) == (refusal and refusal[0]), (action, refusal)
                seen["cargo"].add(refusal and refusal[0])
            action = {"type": "sell_cargo", "ship": ship["id"]}
            refusal = trade.sale_refusal(state, seat, ship)
            assert (refusal is None) == (action in legal), (action, refusal)
            assert _refused_with(state, seat, action) == (refusal and refusal[0]), (action, refusal)
            seen["sale"].add(refusal and refusal[0])
        refusal = trade.ship_refusal(state, seat)
        assert (refusal is None) == ({"type": "buy_ship"} in legal)
        assert _refused_with(state, seat, {"type": "buy_ship"}) == (refusal and refusal[0])
        seen["ship"].add(refusal and refusal[0])
        ports = {s["node"] for s in in_port} | {WORLD.homes[(seat + 1) % len(WORLD.homes)], "no-such-port"}
        for port in sorted(ports):
            action = {"type": "buy_fortress", "port": port}
            refusal = trade.fortress_refusal(state, seat, port)
            assert (refusal is None) == (action in legal), (action, refusal)
            assert _refused_with(state, seat, action) == (refusal and refusal[0]), (action, refusal)
            seen["fortress"].add(refusal and refusal[0])
        assert repr(state) == before            # asking changes nothing
    # The playouts reached both answers of each question, and the refusals a table meets most.
    assert None in seen["cargo"] and {"error.has_cargo", "error.not_sold_here", "error.no_good"} <= seen["cargo"]
    assert None in seen["sale"] and {"error.no_cargo", "error.not_carried_far"} <= seen["sale"]
    assert None in seen["ship"] and None in seen["fortress"]
    assert {"error.no_port", "error.fortress_no_ship"} <= seen["fortress"]


def test_a_refusal_names_what_stops_it_in_the_order_the_rules_check():
    """A privateer (F35) is refused as a privateer even in an embargoed port with no loads left:
    the first thing that stops a purchase is the one said."""
    state = game(players=2, seat=0)
    state["cash"][0] = 0
    ship = ships_of(state, 0)[0]
    good = next(g for g, e in WORLD.prices[ship["node"]].items() if e["buy"] is not None)
    assert trade.cargo_refusal(state, 0, ship, good)[0] == "error.cargo_cost"
    state["tokens"][good] = 0
    assert trade.cargo_refusal(state, 0, ship, good)[0] == "error.no_loads"
    ship["privateer"] = True
    assert trade.cargo_refusal(state, 0, ship, good)[0] == "error.privateer_no_cargo"
    assert trade.ship_refusal(state, 0) == ("error.ship_cost", {"price": 100, "cash": 0})     # F20
