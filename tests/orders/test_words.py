"""Every standing order does what its words say (issue 33), checked on many random positions:
seeded playouts by the engines' bots (with a few positions stirred so that rare cases come up:
fortresses of others, uneven trade offers), and at every decision each order of the game is
evaluated for the seat to act, the action it picks is applied by the engine, and the outcome is
held against the order's words — the price paid with duty, what is given and taken, whose piece
moves. An order that picks nothing is checked too, where its words say something should have
fitted. Engines only: no database."""
import importlib
import random

import pytest

from games.engines import get_engine
from games.engines.catan_ships.orders import RESOURCES, leader, leader_hexes
from games.engines.fuldrigger import trade
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.orders import DANGERS, GOODS, PORTS
from games.engines.pirater.board import get_board
from games.engines.pirater.state import port_groups

SEEDS = ("0a1b2c3d", "4e5f6a7b", "8c9d0e1f", "a2b3c4d5")


def vocab(game):
    return importlib.import_module(f"games.engines.{game}.orders")


def playout(game, players, seed, steps, stir=None):
    """(state, seat, legal) at every decision of a seeded game the bots play (random moves
    mixed with their best, so that all sorts of positions come)."""
    engine = get_engine(game)
    bots = importlib.import_module(f"games.engines.{game}.bots")
    rnd = random.Random(seed)
    state = engine.new_game(players, seed, engine.check_options({}, players))
    for _ in range(steps):
        if engine.is_over(state):
            return
        if engine.system_action(state) is not None:
            state, _ = engine.apply(state, None, engine.system_action(state))
            continue
        if stir is not None:
            state = stir(engine, state, rnd)
        for seat in engine.to_act(state):
            yield state, seat, engine.legal_actions(state, seat)
        seat = rnd.choice(engine.to_act(state))
        best = getattr(bots, "best_action", None)
        pick = best if best is not None and rnd.random() < 0.5 else bots.random_action
        state, _ = engine.apply(state, seat, pick(state, seat, rnd))


def run(game, players, lines_for, check, steps, stir=None):
    """Every line `lines_for` makes at every position of the playouts, checked by `check`;
    returns how often each kind played (a kind that never plays checks nothing)."""
    engine, orders, played = get_engine(game), vocab(game), {}
    for seed in SEEDS:
        rnd = random.Random(seed)
        for state, seat, legal in playout(game, players, seed, steps, stir):
            view = engine.view(state, seat)
            for line in lines_for(view, legal, rnd):
                assert not orders.problems([line], view), line
                chosen = orders.choose([line], view, legal)
                if chosen is None:
                    check(line, view, legal, state, seat, None, None, None)
                    continue
                action = chosen[1]
                assert action in legal or action["type"] == "discard", (line, action)
                after, events = engine.apply(state, seat, action)
                check(line, view, legal, state, seat, action, after, events)
                played[line["kind"]] = played.get(line["kind"], 0) + 1
    return played


# --- Fuldrigger ------------------------------------------------------------------------

def fuldrigger_stir(engine, state, rnd):
    """Now and then a port's fortress changes hands (F24's duty must then come up)."""
    if state["phase"] == "homes" or rnd.random() > 0.05:
        return state
    owner = rnd.randrange(state["players"])
    if sum(1 for o in state["fortresses"].values() if o == owner) >= 3:
        return state  # well within the six a player may own, offers of fortresses and all
    return dict(state, fortresses=dict(state["fortresses"], **{rnd.choice(PORTS): owner}))


def fuldrigger_lines(view, legal, rnd):
    mine = [s for s in view["ships"].values() if s["owner"] == view["viewer"]]
    lines = [{"kind": "roll"}, {"kind": "end_turn"}, {"kind": "decline_offers"},
             {"kind": "accept_offers", "at_least": rnd.choice((0, 10, 40, 200))}]
    for ship in mine:
        lines.append({"kind": "sail", "ship": ship["id"], "port": rnd.choice(PORTS)})
        if ship["cargo"]:
            lines.append({"kind": "sell", "good": ship["cargo"]["good"], "at_least": rnd.randrange(0, 60)})
    goods = sorted({a["good"] for a in legal if a["type"] == "buy_cargo"}) or [rnd.choice(GOODS)]
    lines.append({"kind": "buy", "good": rnd.choice(goods), "at_most": rnd.randrange(0, 60)})
    return lines


def fuldrigger_check(line, view, legal, state, seat, action, after, events):
    kind = line["kind"]
    paid = None if after is None else state["cash"][seat] - after["cash"][seat]
    if kind == "buy":
        ceiling = line["at_most"]
        if action is None:  # nothing it could buy costs at most that, duty included
            for a in legal:
                if a["type"] == "buy_cargo" and a["good"] == line["good"]:
                    node = state["ships"][str(a["ship"])]["node"]
                    assert trade.buy_cost(state, seat, node, a["good"]) > ceiling
            return
        ship = after["ships"][str(action["ship"])]
        assert action["type"] == "buy_cargo" and ship["owner"] == seat
        assert ship["cargo"]["good"] == line["good"]
        assert 0 < paid <= ceiling, f"paid {paid} for 'at most {ceiling}'"
    elif kind == "sell":
        if action is None:
            for a in legal:
                ship = state["ships"][str(a.get("ship"))] if a["type"] == "sell_cargo" else None
                if ship and ship["cargo"]["good"] == line["good"]:
                    assert trade.sale_takings(state, seat, ship["node"], line["good"]) < line["at_least"]
            return
        assert action["type"] == "sell_cargo"
        assert state["ships"][str(action["ship"])]["cargo"]["good"] == line["good"]
        assert -paid >= line["at_least"], f"got {-paid} for 'at least {line['at_least']}'"
    elif kind == "accept_offers":
        if action is None:
            return
        assert action["type"] == "accept_offer"
        assert -paid >= line["at_least"]
        mine = lambda s: ({k for k, x in s["ships"].items() if x["owner"] == seat},  # noqa: E731
                          {p for p, o in s["fortresses"].items() if o == seat})
        assert mine(after)[0] >= mine(state)[0] and mine(after)[1] >= mine(state)[1], "nothing of mine given"
    elif kind == "decline_offers":
        assert action is None or action["type"] == "decline_offer"
    elif kind == "roll":
        assert action is None or (action["type"] == "roll" and events[0]["type"] == "roll")
    elif kind == "end_turn":
        if action is None:
            assert {"type": "end_turn"} not in legal
            return
        assert action["type"] == "end_turn"
        assert any(e["type"] == "end_turn" and e["seat"] == seat for e in events)
        assert after["turn"]["seat"] != seat or after["round"] != state["round"], "the turn passed"
    elif kind == "sail":
        if action is None:
            return
        port, ship = line["port"], state["ships"][str(line["ship"])]
        assert action["type"] == "move" and action["ship"] == line["ship"], "only the ship named sails"
        known = set(view["known_reefs"][seat])

        def safe(path):
            return not any(WORLD.hazard(n, view["edition"]) in DANGERS
                           or (WORLD.hazard(n, view["edition"]) == "reef" and WORLD.reef_letter(n) not in known)
                           for n in path)
        assert safe(action["path"]), "never through danger"
        end = WORLD.distance(action["path"][-1], port)
        assert end < WORLD.distance(ship["node"], port), "towards the port"
        assert end == min(WORLD.distance(a["path"][-1], port) for a in legal
                          if a["type"] == "move" and a["ship"] == ship["id"] and a["path"] and safe(a["path"]))


def test_every_fuldrigger_order_does_what_it_says():
    played = run("fuldrigger", 3, fuldrigger_lines, fuldrigger_check, steps=500, stir=fuldrigger_stir)
    assert set(played) == set(vocab("fuldrigger").KINDS), played


def test_fuldrigger_buy_counts_the_duty_at_anothers_fortress():
    """F24, the case of issue 33: "at most 12" paid 22 at another's fortress (the duty)."""
    for state, seat, legal in playout("fuldrigger", 3, SEEDS[0], 2000):
        buys = [a for a in legal if a["type"] == "buy_cargo"]
        if buys:
            break
    engine, orders, buy = get_engine("fuldrigger"), vocab("fuldrigger"), buys[0]
    port = state["ships"][str(buy["ship"])]["node"]
    state = dict(state, fortresses=dict(state["fortresses"], **{port: (seat + 1) % 3}))
    price = trade.buy_price(state, port, buy["good"])
    view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
    assert orders.choose([{"kind": "buy", "good": buy["good"], "at_most": price}], view, legal) is None
    chosen = orders.choose([{"kind": "buy", "good": buy["good"], "at_most": price + 10}], view, legal)
    after, _ = engine.apply(state, seat, chosen[1])
    assert state["cash"][seat] - after["cash"][seat] == price + 10


# --- Pirater -----------------------------------------------------------------------------

def pirater_lines(view, legal, rnd):
    ports = [str(p["id"]) for p in view["ports"]]
    return [{"kind": "home_port", "port": rnd.choice(ports + ["first"])}, {"kind": "roll"},
            {"kind": "capture"}, {"kind": "treasure_home"}, {"kind": "toward_treasure"}, {"kind": "any_move"}]


def pirater_check(line, view, legal, state, seat, action, after, events):
    kind, board = line["kind"], get_board(view["board"])
    if kind == "home_port":  # P5/P7, P26-P27: a free port, or a side's ports
        free = [g for g in port_groups(board, view["options"])
                if not any(p in s["ports"] for s in view["seats"] for p in g)]
        if action is None:
            assert view["phase"] != "ports"
            return
        chose = after["seats"][seat]["ports"]
        named = [g for g in free if line["port"] != "first" and int(line["port"]) in g]
        assert chose == (named[0] if named else free[0]), "the port named if free, else the first free"
        return
    if kind == "roll":
        assert action is None or (action["type"] == "roll" and events[0]["type"] == "roll")
        return
    if action is None:
        if kind == "any_move":
            assert not any(a["type"] == "move" for a in legal)
        return
    ships = {s["id"]: s for s in view["ships"] if s.get("lost") is None}
    ship = ships[action["ship"]]
    assert action["type"] == "move" and ship["seat"] == seat, "only a ship of mine moves"
    node = lambda cell: board.node_of[tuple(cell)]  # noqa: E731
    if kind == "capture":
        enemies = {tuple(s["at"]) for s in ships.values() if s["seat"] != seat}
        assert tuple(action["to"]) in enemies
        assert any(e.get("captured") for e in events if e["type"] == "move"), "a ship was taken"
    elif kind in ("treasure_home", "toward_treasure"):
        if kind == "treasure_home":
            targets = [board.ports[p]["node"] for p in next(s["ports"] for s in view["seats"] if s["seat"] == seat)]
            assert ship["treasure"], "the ship with the treasure"
        else:
            islands = {t["island"] for t in view["treasures"] if t.get("ship") is None}
            targets = [n for n, island in board.anchorage_island.items() if island in islands]
            targets += [node(ships[t["ship"]]["at"]) for t in view["treasures"]
                        if t.get("ship") in ships and ships[t["ship"]]["seat"] != seat]
            assert not ship["treasure"]

        def far(cell):
            return min(board.distances_from(node(cell))[t] for t in targets)
        assert far(action["to"]) < far(ship["at"]), "nearer than it was"


def test_every_pirater_order_does_what_it_says():
    played = run("pirater", 3, pirater_lines, pirater_check, steps=700)
    assert set(played) == set(vocab("pirater").KINDS), played


# --- Catan with ships ---------------------------------------------------------------------

def catan_stir(engine, state, rnd):
    """Now and then the player whose turn it is offers an uneven trade to everyone (bots only
    offer one card for one), so the 'one for another' order meets offers it must not take."""
    if state["phase"] != "main" or rnd.random() > 0.15:
        return state
    seat = state["current"]
    hand = state["hands"][seat]
    have = [r for r in RESOURCES if hand[r]]
    if not have:
        return state
    give = rnd.choice(have)
    get = rnd.choice([r for r in RESOURCES if r != give])
    offer = {"type": "offer", "give": {give: rnd.randint(1, hand[give])}, "get": {get: rnd.choice((1, 1, 2, 4))},
             "to": None}
    if not any(a["type"] == "offer" for a in engine.legal_actions(state, seat)):
        return state  # no more offers this turn
    return engine.apply(state, seat, offer)[0]


def catan_lines(view, legal, rnd):
    order = rnd.sample(RESOURCES, rnd.randint(1, 5))
    roads = [a["edge"] for a in legal if a["type"] == "build_road"]
    land = [e["id"] for e in view["board"]["edges"] if e["kind"] != "sea"]
    edge = rnd.choice(roads) if roads and rnd.random() < 0.8 else rnd.choice(land)
    lines = [{"kind": "roll"}, {"kind": "discard", "order": order}, {"kind": "robber_leader"},
             {"kind": "pirate_leader"}, {"kind": "decline_trades"}, {"kind": "build_road", "edge": edge},
             {"kind": "unload"}, {"kind": "end_sailing"}, {"kind": "end_turn"}]
    for offer in view["offers"]:
        if len(offer["give"]) == 1 and len(offer["get"]) == 1:
            lines.append({"kind": "accept_trades", "give": next(iter(offer["give"])), "get": next(iter(offer["get"]))})
    return lines


def catan_check(line, view, legal, state, seat, action, after, events):
    kind, me = line["kind"], view["viewer"]
    if action is not None and kind not in ("robber_leader",):
        assert after["robber"] == state["robber"], "only the robber order moves the robber"
    if action is not None and kind != "pirate_leader":
        assert after["pirate"] == state["pirate"], "only the pirate order moves the pirate"
    if kind == "roll":
        assert action is None or action["type"] == "roll"
    elif kind == "discard":
        if action is None:
            return
        owed, hand = state["discarding"][str(seat)], state["hands"][seat]
        taken = {r: hand[r] - after["hands"][seat][r] for r in RESOURCES}
        assert sum(taken.values()) == owed
        left = owed
        for r in line["order"]:  # the resources named first go first
            assert taken[r] == min(hand[r], left), (line, hand, taken)
            left -= taken[r]
    elif kind == "robber_leader":
        if action is None:
            assert not any(a["type"] == "move_robber" and a["hex"] in leader_hexes(view, leader(view)) for a in legal)
            return
        target = leader(view)
        theirs = leader_hexes(view, target)
        assert action["type"] == "move_robber" and after["robber"] == action["hex"] != state["robber"]
        assert action["hex"] in theirs, "on a hex of the leader's"
        numbers = {h["id"]: h.get("number") or 7 for h in view["board"]["hexes"]}
        best = min(abs(7 - numbers[a["hex"]]) for a in legal if a["type"] == "move_robber" and a["hex"] in theirs)
        assert abs(7 - numbers[action["hex"]]) == best, "the leader's best hex"
        if any(a["type"] == "move_robber" and a["hex"] == action["hex"] and a.get("steal_from") == target
               for a in legal):
            assert [e["victim"] for e in events if e["type"] == "stole_card"] == [target], "stealing from them"
    elif kind == "pirate_leader":  # C17-C18: the pirate moves one edge, or stays
        if action is None:
            assert view["phase"] != "pirate"
            return
        assert action["type"] == "move_pirate"
        on_edge = {(s["edge"], s["seat"]) for s in state["ships"]}
        if action["edge"] is None:
            assert after["pirate"] == state["pirate"]
            assert not any(a["type"] == "move_pirate" and (a["edge"], leader(view)) in on_edge
                           and (a["edge"], me) not in on_edge for a in legal), "it would have reached them"
        else:
            assert after["pirate"] == action["edge"]
            assert (action["edge"], leader(view)) in on_edge, "onto the leader's ship"
            assert (action["edge"], me) not in on_edge, "never onto a ship of mine"
            assert not any(e["type"] == "pirate_attack" and e["seat"] == me for e in events)
    elif kind == "decline_trades":
        assert action is None or (action["type"] == "answer" and action["accept"] is False)
    elif kind == "accept_trades":
        answerable = [a for a in legal if a["type"] == "answer" and a["accept"] is True]
        offers = {o["id"]: o for o in state["offers"]}
        if action is None:
            assert not any(offers[a["offer"]]["give"] == {line["give"]: 1}
                           and offers[a["offer"]]["get"] == {line["get"]: 1} for a in answerable)
            return
        offer = offers[action["offer"]]
        assert action["type"] == "answer" and action["accept"] is True
        assert offer["give"] == {line["give"]: 1}, f"they give one {line['give']}: {offer}"
        assert offer["get"] == {line["get"]: 1}, f"I give one {line['get']}: {offer}"
    elif kind == "build_road":
        if action is None:
            assert {"type": "build_road", "edge": line["edge"]} not in legal
            return
        assert action == {"type": "build_road", "edge": line["edge"]} and after["roads"][line["edge"]] == seat
        spent = {r: state["hands"][seat][r] - after["hands"][seat][r] for r in RESOURCES}
        assert spent in ({r: 0 for r in RESOURCES}, dict({r: 0 for r in RESOURCES}, brick=1, lumber=1))
    elif kind == "unload":
        if action is None:
            return
        ship = next(s for s in state["ships"] if s["seat"] == seat and s["number"] == action["ship"])
        assert action["type"] == "unload" and ship["cargo"], "a ship of mine with cargo"
        assert all(after["hands"][seat][r] == state["hands"][seat][r] + ship["cargo"].get(r, 0) for r in RESOURCES)
    elif kind == "end_sailing":
        if action is None:
            return
        assert action["type"] == "end_sailing"
        where = [(s["edge"], s["cargo"]) for s in state["ships"]]
        assert [(s["edge"], s["cargo"]) for s in after["ships"]] == where, "the ships stay where they are"
    elif kind == "end_turn":
        if action is None:
            assert {"type": "end_turn"} not in legal
            return
        if action["type"] == "end_sailing":  # a step of ending the seat's own turn
            assert state["phase"] == "sail" and state["current"] == seat
            assert after["phase"] in ("sail", "main") and after["current"] == seat
            return
        assert action["type"] == "end_turn" and state["current"] == seat != after["current"]


def test_every_catan_order_does_what_it_says():
    played = run("catan_ships", 3, catan_lines, catan_check, steps=1400, stir=catan_stir)
    assert set(played) == set(vocab("catan_ships").KINDS), played


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_catan_end_the_turn_ends_the_whole_turn(seed):
    """Left with only "End the turn" (and a roll), the seat's turns end in one go: in its own
    turn the sailing step is part of the turn it ends; in another's turn it plays nothing."""
    engine, orders = get_engine("catan_ships"), vocab("catan_ships")
    bots = importlib.import_module("games.engines.catan_ships.bots")
    lines = [{"kind": "roll"}, {"kind": "discard", "order": list(RESOURCES)}, {"kind": "robber_leader"},
             {"kind": "pirate_leader"}, {"kind": "end_turn"}]
    state, rnd, ended = engine.new_game(3, seed, engine.check_options({}, 3)), random.Random(seed), 0
    for _ in range(1500):
        if engine.is_over(state):
            break
        if engine.system_action(state) is not None:
            state, _ = engine.apply(state, None, engine.system_action(state))
            continue
        seat = engine.to_act(state)[0]
        if seat == 0 and state["phase"] not in ("setup",):
            chosen = orders.choose(lines, engine.view(state, 0), engine.legal_actions(state, 0))
            if chosen is not None:
                if lines[chosen[0]]["kind"] == "end_turn":
                    assert state["current"] == 0, "ends only its own turn"
                state, events = engine.apply(state, 0, chosen[1])
                ended += any(e["type"] == "end_turn" for e in events)
                continue
        state, _ = engine.apply(state, seat, bots.best_action(state, seat, rnd))
    assert ended >= 10, ended


@pytest.mark.parametrize("game", ["fuldrigger", "pirater", "catan_ships"])
def test_every_order_of_every_game_is_in_the_players_guide(game):
    """docs/orders.md names every order in the words the panel gives it, under its game."""
    from pathlib import Path

    from django.utils import translation

    from games.reads.standing import KIND_LABELS
    guide = (Path(__file__).resolve().parents[2] / "docs" / "orders.md").read_text()
    heading = {"fuldrigger": "## Fuldrigger", "pirater": "## Pirater", "catan_ships": "## Catan with ships"}[game]
    section = guide.split(heading, 1)[1].split("\n## ", 1)[0]
    with translation.override("en"):
        missing = [kind for kind in vocab(game).KINDS if f"| {KIND_LABELS[kind]} |" not in section]
    assert missing == []
