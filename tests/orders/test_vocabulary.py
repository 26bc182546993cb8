"""Each game's standing orders, on the engine alone (no database): what a line plays, that it
only ever plays a legal action, and the problems a bad line gets."""
import importlib
import random

import pytest

from games.engines import get_engine
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.orders import DANGERS

SEED = "ab" * 16


def drive(game, players, until, steps=600, seed=SEED):
    """Play the game's bots until some seat to act satisfies `until(state, seat, legal)`."""
    engine = get_engine(game)
    bots = importlib.import_module(f"games.engines.{game}.bots")
    state, rnd = engine.new_game(players, seed, engine.check_options({}, players)), random.Random(3)
    for _ in range(steps):
        if engine.system_action(state) is not None:
            state, _ = engine.apply(state, None, engine.system_action(state))
            continue
        for seat in engine.to_act(state):
            legal = engine.legal_actions(state, seat)
            if until(state, seat, legal):
                return engine, state, seat, legal
        if not engine.to_act(state):
            break
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, (getattr(bots, "best_action", None) or bots.random_action)(state, seat, rnd))
    raise AssertionError("never reached")


def has(kind):
    return lambda state, seat, legal: any(a["type"] == kind for a in legal)


def vocab(game):
    return importlib.import_module(f"games.engines.{game}.orders")


# --- Fuldrigger ------------------------------------------------------------------------

def test_fuldrigger_rolls_then_sails_towards_the_port_by_a_safe_route():
    engine, state, seat, legal = drive("fuldrigger", 2, has("roll"))
    view, orders = engine.view(state, seat), vocab("fuldrigger")
    lines = [{"kind": "end_turn"}, {"kind": "roll"}]
    assert orders.choose(lines, view, legal) == (1, {"type": "roll"})  # end_turn is not legal yet
    state, _ = engine.apply(state, seat, {"type": "roll"})
    while engine.system_action(state) is not None:
        state, _ = engine.apply(state, None, engine.system_action(state))
    legal, view = engine.legal_actions(state, seat), engine.view(state, seat)
    ship = next(a["ship"] for a in legal if a["type"] == "move")
    here = view["ships"][str(ship)]["node"]
    port = max((p for p in orders.PORTS if p != here), key=lambda p: WORLD.distance(here, p))
    index, action = orders.choose([{"kind": "sail", "ship": ship, "port": port}], view, legal)
    assert index == 0 and action in legal and action["ship"] == ship
    assert WORLD.distance(action["path"][-1], port) < WORLD.distance(here, port)
    assert not any(WORLD.hazard(n, view["edition"]) in DANGERS for n in action["path"])
    best = min(WORLD.distance(a["path"][-1], port) for a in legal if a["type"] == "move" and a["ship"] == ship
               and not any(WORLD.hazard(n, view["edition"]) in DANGERS or WORLD.hazard(n) == "reef"
                           for n in a["path"]))
    assert WORLD.distance(action["path"][-1], port) == best


def test_fuldrigger_buys_only_at_or_below_the_price_named():
    engine, state, seat, legal = drive("fuldrigger", 2, has("buy_cargo"))
    view, orders = engine.view(state, seat), vocab("fuldrigger")
    offer = next(a for a in legal if a["type"] == "buy_cargo")
    ship = view["ships"][str(offer["ship"])]
    price = WORLD.prices[ship["node"]][offer["good"]]["buy"]
    assert orders.choose([{"kind": "buy", "good": offer["good"], "at_most": price - 1}], view, legal) is None
    index, action = orders.choose([{"kind": "buy", "good": offer["good"], "at_most": price}], view, legal)
    assert action == offer or (action["good"] == offer["good"] and action in legal)


def test_fuldrigger_sells_only_at_or_above_the_price_named():
    engine, state, seat, legal = drive("fuldrigger", 2, has("sell_cargo"), steps=2000)
    view, orders = engine.view(state, seat), vocab("fuldrigger")
    sale = next(a for a in legal if a["type"] == "sell_cargo")
    ship = view["ships"][str(sale["ship"])]
    from games.engines.fuldrigger.trade import sale_price
    price = sale_price(view, seat, ship["node"], ship["cargo"]["good"])
    good = ship["cargo"]["good"]
    assert orders.choose([{"kind": "sell", "good": good, "at_least": price + 1}], view, legal) is None
    assert orders.choose([{"kind": "sell", "good": good, "at_least": price}], view, legal)[1]["type"] == "sell_cargo"


def test_fuldrigger_names_the_problems_of_bad_lines():
    engine, state, seat, legal = drive("fuldrigger", 2, has("roll"))
    view, orders = engine.view(state, seat), vocab("fuldrigger")
    mine = next(s["id"] for s in view["ships"].values() if s["owner"] == seat)
    theirs = [s["id"] for s in view["ships"].values() if s["owner"] != seat]
    found = orders.problems([
        {"kind": "sail", "ship": 999, "port": "lisbon"},
        {"kind": "sail", "ship": mine, "port": "atlantis"},
        {"kind": "sell", "good": "wine", "at_least": "thirty"},
        {"kind": "fly"},
        {"kind": "sail", "ship": theirs[0], "port": "lisbon"},
        {"kind": "sail", "ship": mine, "port": orders.PORTS[0]},
    ], view)
    assert [(i, code, d.get("field")) for i, code, d in found] == [
        (0, "no_such", "ship"), (1, "no_such", "port"), (2, "not_a_number", "at_least"),
        (3, "unknown_kind", None), (4, "no_such", "ship")]


def test_fuldrigger_declines_or_accepts_offers_by_what_they_pay():
    engine, state, seat, legal = drive("fuldrigger", 2, has("end_turn"))
    state, _ = engine.apply(state, seat, {"type": "offer", "to": 1 - seat, "give": {"ducats": 40}, "take": {}})
    other = 1 - seat
    legal, view = engine.legal_actions(state, other), engine.view(state, other)
    orders = vocab("fuldrigger")
    assert orders.choose([{"kind": "accept_offers", "at_least": 41}], view, legal) is None
    assert orders.choose([{"kind": "accept_offers", "at_least": 40}], view, legal)[1]["type"] == "accept_offer"
    assert orders.choose([{"kind": "decline_offers"}], view, legal)[1]["type"] == "decline_offer"


# --- Pirater -----------------------------------------------------------------------------

def test_pirater_moves_the_ship_nearest_the_treasure_towards_it():
    engine, state, seat, legal = drive("pirater", 2, has("move"))
    view, orders = engine.view(state, seat), vocab("pirater")
    assert orders.choose([{"kind": "roll"}], view, legal) is None  # already rolled
    chosen = orders.choose([{"kind": "capture"}, {"kind": "toward_treasure"}], view, legal)
    assert chosen is not None and chosen[1] in legal
    from games.engines.pirater.board import get_board
    board = get_board(view["board"])
    islands = {t["island"] for t in view["treasures"] if t.get("ship") is None}
    targets = [n for n, i in board.anchorage_island.items() if i in islands]

    def far(cell):
        return min(board.distances_from(board.node_of[tuple(cell)])[t] for t in targets)
    ships = {s["id"]: s for s in view["ships"]}
    gains = [far(ships[a["ship"]]["at"]) - far(a["to"]) for a in legal if a["type"] == "move"]
    assert far(chosen[1]["to"]) == min(far(a["to"]) for a in legal if a["type"] == "move"
                                       and far(ships[a["ship"]]["at"]) > far(a["to"]))
    assert max(gains) > 0


def test_pirater_rolls_when_the_turn_begins_and_refuses_unknown_orders():
    engine, state, seat, legal = drive("pirater", 2, has("roll"))
    view, orders = engine.view(state, seat), vocab("pirater")
    assert orders.choose([{"kind": "treasure_home"}, {"kind": "roll"}], view, legal) == (1, {"type": "roll"})
    assert orders.problems([{"kind": "dig"}, "roll"], view)[0][1] == "unknown_kind"
    assert len(orders.problems([{"kind": "dig"}, "roll"], view)) == 2


def test_pirater_captures_when_a_move_lands_on_an_enemy():
    def enemy_in_reach(state, seat, legal):
        enemies = {tuple(s["at"]) for s in state["ships"] if s["seat"] != seat and s.get("lost") is None}
        return any(a["type"] == "move" and tuple(a["to"]) in enemies for a in legal)
    for seed in ("ab" * 16, "cd" * 16, "ef" * 16, "01" * 16, "23" * 16, "45" * 16):
        try:
            engine, state, seat, legal = drive("pirater", 2, enemy_in_reach, steps=3000, seed=seed)
            break
        except AssertionError:
            continue
    view, orders = engine.view(state, seat), vocab("pirater")
    action = orders.choose([{"kind": "capture"}], view, legal)[1]
    enemies = {tuple(s["at"]) for s in view["ships"] if s["seat"] != seat and s.get("lost") is None}
    assert tuple(action["to"]) in enemies and action in legal


# --- Catan with ships ---------------------------------------------------------------------

def test_catan_discards_by_the_order_of_resources():
    engine, state, seat, legal = drive("catan_ships", 3, has("discard"), steps=4000)
    view, orders = engine.view(state, seat), vocab("catan_ships")
    hand = next(p for p in view["players"] if p["seat"] == seat)["hand"]
    owed = view["discarding"][str(seat)]
    first = max(hand, key=hand.get)
    index, action = orders.choose([{"kind": "discard", "order": [first]}], view, legal)
    assert sum(action["cards"].values()) == owed
    assert action["cards"][first] == min(hand[first], owed)
    new, _ = engine.apply(state, seat, action)  # the engine takes it
    assert str(seat) not in new["discarding"]


def test_catan_robber_goes_on_the_leaders_best_hex():
    engine, state, seat, legal = drive("catan_ships", 3, has("move_robber"), steps=4000)
    view, orders = engine.view(state, seat), vocab("catan_ships")
    chosen = orders.choose([{"kind": "robber_leader"}], view, legal)
    others = [p for p in view["players"] if p["seat"] != seat]
    leader = max(others, key=lambda p: (p["points"], -p["seat"]))["seat"]
    if not any(a.get("steal_from") == leader for a in legal if a["type"] == "move_robber"):
        assert chosen is None
        return
    numbers = {h["id"]: h.get("number") or 7 for h in view["board"]["hexes"]}
    assert chosen[1]["steal_from"] == leader
    assert abs(7 - numbers[chosen[1]["hex"]]) == min(
        abs(7 - numbers[a["hex"]]) for a in legal if a["type"] == "move_robber" and a.get("steal_from") == leader)


def test_catan_rolls_ends_and_builds_the_road_it_was_told():
    engine, state, seat, legal = drive("catan_ships", 3, has("build_road"), steps=4000)
    view, orders = engine.view(state, seat), vocab("catan_ships")
    edge = next(a["edge"] for a in legal if a["type"] == "build_road")
    lines = [{"kind": "roll"}, {"kind": "build_road", "edge": edge}, {"kind": "end_turn"}]
    assert orders.choose(lines, view, legal) == (1, {"type": "build_road", "edge": edge})
    far = next(i for i in range(len(view["board"]["edges"])) if {"type": "build_road", "edge": i} not in legal)
    assert orders.choose([{"kind": "build_road", "edge": far}, {"kind": "end_turn"}], view, legal)[0] == 1
    assert [p[1] for p in orders.problems([{"kind": "build_road", "edge": 99999},
                                           {"kind": "build_road", "edge": "north"},
                                           {"kind": "discard", "order": ["gold"]}], view)] == \
        ["no_such", "not_a_number", "no_such"]


def test_catan_answers_trades_as_told():
    engine, state, mover, legal = drive("catan_ships", 3, has("offer"), steps=4000)
    state, _ = engine.apply(state, mover, next(a for a in legal if a["type"] == "offer"))
    seat = next(s for s in range(3) if any(a["type"] == "answer" for a in engine.legal_actions(state, s)))
    legal = engine.legal_actions(state, seat)
    view, orders = engine.view(state, seat), vocab("catan_ships")
    answer = next(a for a in legal if a["type"] == "answer")
    offer = next(o for o in view["offers"] if o["id"] == answer["offer"])
    assert orders.choose([{"kind": "decline_trades"}], view, legal)[1]["accept"] is False
    give, get = next(iter(offer["give"])), next(iter(offer["get"]))
    told = orders.choose([{"kind": "accept_trades", "give": give, "get": get}], view, legal)
    can_accept = {"type": "answer", "offer": offer["id"], "accept": True} in legal
    if can_accept and len(offer["give"]) == 1 and len(offer["get"]) == 1:
        assert told[1]["accept"] is True
    other = next(r for r in ("brick", "lumber", "wool", "grain", "ore") if r != give)
    assert orders.choose([{"kind": "accept_trades", "give": other, "get": get}], view, legal) is None


# --- A seat left to its orders, the others to bots: the game goes on ---------------------

AWAY = {"fuldrigger": [{"kind": "roll"}, {"kind": "decline_offers"}, {"kind": "end_turn"}],
        "pirater": [{"kind": "roll"}, {"kind": "capture"}, {"kind": "treasure_home"},
                    {"kind": "toward_treasure"}, {"kind": "any_move"}],
        "catan_ships": [{"kind": "roll"}, {"kind": "discard", "order": ["ore", "grain"]},
                        {"kind": "robber_leader"}, {"kind": "pirate_leader"}, {"kind": "decline_trades"},
                        {"kind": "unload"}, {"kind": "end_turn"}, {"kind": "end_sailing"}]}
SETUP = {"homes", "setup", "ports", "choose_ports"}


@pytest.mark.parametrize("game,players", [("fuldrigger", 2), ("pirater", 2), ("catan_ships", 3)])
def test_a_seat_left_to_its_orders_plays_on_with_the_bots(game, players):
    engine, orders = get_engine(game), vocab(game)
    bots = importlib.import_module(f"games.engines.{game}.bots")
    state, rnd, by_order, rounds = engine.new_game(players, SEED, engine.check_options({}, players)), random.Random(1), 0, set()
    for _ in range(1500):
        if engine.is_over(state):
            break
        if engine.system_action(state) is not None:
            state, _ = engine.apply(state, None, engine.system_action(state))
            continue
        seat = engine.to_act(state)[0]
        if seat == 0 and state.get("phase") not in SETUP and not state.get("choosing"):
            legal = engine.legal_actions(state, 0)
            chosen = orders.choose(AWAY[game], engine.view(state, 0), legal)
            assert chosen is not None, f"the orders found nothing to play in phase {state.get('phase')}"
            assert chosen[1] in legal or chosen[1]["type"] == "discard"
            state, _ = engine.apply(state, 0, chosen[1])
            by_order += 1
            rounds.add(state.get("round"))
            continue
        state, _ = engine.apply(state, seat, (getattr(bots, "best_action", None) or bots.random_action)(state, seat, rnd))
    assert by_order >= 5 and len(rounds) >= 3


@pytest.mark.parametrize("game,players", [("fuldrigger", 3), ("pirater", 2), ("catan_ships", 3)])
def test_a_choice_fields_values_are_its_choices_without_their_words(game, players):
    """The Orders panel's digest and the problems of a line read the values alone; the panel
    shows them with their words: the two never differ, in any language."""
    module = vocab(game)
    fields = {field for kind in module.KINDS.values() for field, sort in kind.items() if sort in ("choice", "order")}
    assert fields
    engine = get_engine(game)
    # Once every field has something to offer (Fuldrigger's ships: after the homes are chosen).
    engine, state, seat, _legal = drive(game, players, lambda state, seat, legal: all(
        module.values(field, engine.view(state, seat)) for field in fields))
    view = engine.view(state, seat)
    for field in fields:
        for lang in ("en", "da", "de", "sv"):
            assert [value for value, _words in module.choices(field, view, lang)] == list(module.values(field, view))
    assert module.values("no such field", view) == []
