"""Two players for playouts, tests and empty seats.

`random_action` picks among the legal actions, weighted so that a turn makes progress (roll,
sell, buy, move) and ends; golden games and benchmarks depend on its exact choices.
`best_action` trades for profit: it plans each ship's voyage and avoids danger where it can.
"""
from __future__ import annotations

import heapq
import random
from collections import deque
from functools import lru_cache

from games.engines.base import IllegalAction
from games.engines.fuldrigger import rules, trade
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.sailing import check_path, left_after, reachable
from games.engines.fuldrigger.state import (
    DUTY, FORTRESS_PRICE, MAX_SHIPS, MIN_CARRIED, OWNER_BONUS, SHIP_PRICE, effect_on, ships_of,
)

WEIGHTS = {
    "roll": 100.0, "sell_cargo": 60.0, "buy_cargo": 25.0, "isthmus_load": 30.0,
    "isthmus_unload": 4.0, "move": 20.0, "buy_ship": 3.0, "buy_fortress": 2.0, "attack": 6.0,
    "fit_privateer": 1.0, "lay_off_privateer": 1.0, "sell_ship": 0.2, "offer": 0.3,
    "accept_offer": 3.0, "decline_offer": 3.0, "withdraw_offer": 0.5, "end_turn": 8.0,
}


def random_action(state: dict, seat: int, rnd: random.Random) -> dict:
    """One legal action for `seat`, chosen at random by type (weights above), then uniformly
    within the type (moves: preferring long ones, so ships get somewhere)."""
    actions = rules.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    by_type: dict[str, list[dict]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    kinds = sorted(by_type)
    kind = rnd.choices(kinds, weights=[WEIGHTS.get(k, 1.0) for k in kinds])[0]
    choices = by_type[kind]
    if kind == "move":
        longest = max(len(a["path"]) for a in choices)
        far = [a for a in choices if len(a["path"]) >= longest - 3]
        return rnd.choice(far)
    return rnd.choice(choices)


# ---- the trading bot -----------------------------------------------------------------------
#
# best_action plays one action at a time, recomputing everything from the state, so it keeps no
# memory between calls and is deterministic (it draws nothing from `rnd`). Each ship has a plan:
# a laden ship sails to the port that pays most for its cargo once the time it takes is paid
# for; an empty ship sails to the port where the best trade of profit per expected turn starts.
# Distances are weighed: every square costs one, a tailwind nothing, a headwind four, and a
# square that may sink the ship or take the cargo costs its expected loss turned into squares.

MEAN_ROLL = 10.5                 # 3d6 (F10)
DUCATS_PER_SQUARE = 1.2          # what a trading ship earns per square: prices risk as distance
TURN_VALUE = 12                  # what a ship earns per turn: the price of a laden ship's time
SHIP_LOSS = {"storm": 3 / 36, "ice": 4 / 36, "reef": 3 / 36, "pirates": 3 / 36}  # F15–F19
CARGO_LOSS = {"pirates": 3 / 36}                 # F19: a 4 takes only the cargo
CALM_SQUARES = 21 / 36 * MEAN_ROLL               # F17: on 7 or less a turn lies still
STAKES = {"empty": (100, 0), "laden": (100, 100)}   # (ship, cargo) at stake
STEP_COST = {"tailwind": 0.0, "headwind": 4.0}      # F13, F14
PORTS = frozenset(WORLD.ports)
BASE_COST = {n: STEP_COST.get(WORLD.hazard(n), 1.0) for n in WORLD.nodes}
HAZARD_SQUARES = tuple(n for n in WORLD.nodes if WORLD.hazard(n) in ("storm", "ice", "reef",
                                                                    "pirates", "calm"))
PIRATE_SQUARES = tuple(n for n in HAZARD_SQUARES if WORLD.hazard(n) == "pirates")
PIRATES_NEAR = {port: frozenset(n for n in PIRATE_SQUARES if WORLD.distance(port, n) <= 2)
                for port in WORLD.ports}            # F19: a fortress protects these
BUYS = {port: sorted((good, e["buy"]) for good, e in goods.items() if e["buy"] is not None)
        for port, goods in WORLD.prices.items()}
SELLERS: dict[str, list[tuple[str, int]]] = {}
for _port, _goods in sorted(WORLD.prices.items()):
    for _good, _entry in sorted(_goods.items()):
        if _entry["sell"] is not None:
            SELLERS.setdefault(_good, []).append((_port, _entry["sell"]))
INF = float("inf")


def best_action(state: dict, seat: int, rnd: random.Random) -> dict:
    """A sensible legal action for `seat`: answer offers on their merits; trade where a ship
    lies (sell what pays, load what a good route starts with); buy ships with spare cash and,
    with a full fleet, a fortress where it sells; roll; sail each ship along the least
    dangerous path towards its plan; end the turn. `rnd` is not used: the choice is a function
    of the state alone."""
    actions = rules.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if state["phase"] == "homes":                 # F7: any free home city will do
        return actions[0]
    for action in actions:
        if action["type"] in ("accept_offer", "decline_offer"):
            return _answer(state, seat, action["offer"], actions)
    if seat != state["turn"]["seat"]:
        return actions[0]
    legal = {_key(a) for a in actions}
    plans = _plans(state, seat)
    fortress = _fortress_port(state, seat, plans, legal)
    if fortress:
        return {"type": "buy_fortress", "port": fortress}
    for ship in sorted(ships_of(state, seat), key=lambda s: s["id"]):
        plan = plans.get(ship["id"])
        if plan is None:
            continue
        if plan[0] == "sell" and plan[2] and ("sell_cargo", ship["id"]) in legal:
            return {"type": "sell_cargo", "ship": ship["id"]}
        if plan[0] == "buy" and ("buy_cargo", ship["id"], plan[2]) in legal:
            return {"type": "buy_cargo", "ship": ship["id"], "good": plan[2]}
        if ship["privateer"] and ("lay_off_privateer", ship["id"]) in legal:
            return {"type": "lay_off_privateer", "ship": ship["id"]}
    if ("buy_ship",) in legal and (not ships_of(state, seat) or (
            _spare_cash(state, seat, plans) >= SHIP_PRICE and _rounds_left(state) >= 8)):
        return {"type": "buy_ship"}         # a fleet lost to the sea starts again (F3)
    turn = state["turn"]
    if turn["total"] is None:
        return {"type": "roll"}
    for ship in sorted(ships_of(state, seat), key=lambda s: s["id"]):
        if ship["id"] in turn["moved"] or ship["id"] in turn["still"]:
            continue
        path = _best_path(state, seat, ship, plans.get(ship["id"]), turn["total"])
        if path:
            return {"type": "move", "ship": ship["id"], "path": path}
    return {"type": "end_turn"}


def _key(action: dict) -> tuple:
    kind = action["type"]
    if kind in ("sell_cargo", "lay_off_privateer", "fit_privateer", "sell_ship"):
        return kind, action["ship"]
    if kind == "buy_cargo":
        return kind, action["ship"], action["good"]
    if kind == "buy_fortress":
        return kind, action["port"]
    return (kind,)


# ---- offers --------------------------------------------------------------------------------

def _answer(state: dict, seat: int, number: int, actions: list[dict]) -> dict:
    """Accept an offer only when what comes in is worth more than what goes out (F26, F41)."""
    offer = next(o for o in state["offers"] if o["id"] == number)
    accept = {"type": "accept_offer", "offer": number}
    if accept in actions and _worth(state, offer["give"]) > _worth(state, offer["take"]):
        return accept
    return {"type": "decline_offer", "offer": number}


def _worth(state: dict, part: dict) -> float:
    """Ducats at face value; a ship at its price, its cargo and some turns of trade; a fortress
    at its price and a little for its duty and bonus."""
    value = float(part["ducats"])
    for number in part["ships"]:
        ship = state["ships"].get(str(number))
        cargo = ship["cargo"]["paid"] if ship and ship["cargo"] else 0
        value += SHIP_PRICE + cargo + min(_rounds_left(state), 5) * TURN_VALUE
    value += len(part["fortresses"]) * (FORTRESS_PRICE + 20)
    return value


# ---- plans ---------------------------------------------------------------------------------

def _rounds_left(state: dict) -> int:
    """Turns left to the seat to play, this one included (no limit: a long time)."""
    limit = state["options"].get("rounds", 0)
    return limit - state["round"] + 1 if limit else 1000


def _profile(state: dict, seat: int) -> tuple[frozenset, frozenset]:
    """What makes a square harmless to this seat: reefs it knows (F18), pirate waters within
    two squares of its fortresses (F19)."""
    safe = set()
    for port, owner in state["fortresses"].items():
        if owner == seat:
            safe.update(PIRATES_NEAR[port])
    return frozenset(state["known_reefs"][seat]), frozenset(safe)


@lru_cache(maxsize=64)
def _enter_costs(stake: str, profile: tuple) -> dict[str, float]:
    """The weighed cost of entering each square: one, a tailwind nothing, a headwind four, and
    a dangerous square its expected loss turned into squares."""
    known, safe = profile
    ship, cargo = STAKES[stake]
    costs = dict(BASE_COST)
    for node in HAZARD_SQUARES:
        hazard = WORLD.hazard(node)
        if hazard == "calm":
            costs[node] += CALM_SQUARES
        elif hazard == "reef" and WORLD.reef_letter(node) in known:
            continue
        elif hazard == "pirates" and node in safe:
            continue
        else:
            loss = SHIP_LOSS[hazard] * (ship + cargo) + CARGO_LOSS.get(hazard, 0) * cargo
            costs[node] += loss / DUCATS_PER_SQUARE
    return costs


def _dijkstra(origin: str, costs: dict[str, float], forward: bool) -> dict[str, float]:
    """Weighed distances from `origin` to every square (forward) or from every square to
    `origin` (backward); ships never sail through a port (F11)."""
    dist = {origin: 0.0}
    heap = [(0.0, origin)]
    done = set()
    ports = PORTS
    adjacency = WORLD.adjacency
    while heap:
        d, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        if node != origin and node in ports:
            continue
        if forward:
            for nxt in adjacency[node]:
                nd = d + costs[nxt]
                if nd < dist.get(nxt, INF):
                    dist[nxt] = nd
                    heapq.heappush(heap, (nd, nxt))
        else:
            nd = d + costs[node]
            for prev in adjacency[node]:
                if nd < dist.get(prev, INF):
                    dist[prev] = nd
                    heapq.heappush(heap, (nd, prev))
    return dist


@lru_cache(maxsize=1024)
def _to(target: str, stake: str, profile: tuple) -> dict[str, float]:
    """Weighed distance from every square to `target`."""
    return _dijkstra(target, _enter_costs(stake, profile), forward=False)


@lru_cache(maxsize=1024)
def _from(start: str, stake: str, profile: tuple) -> dict[str, float]:
    """Weighed distance from `start` to every square."""
    return _dijkstra(start, _enter_costs(stake, profile), forward=True)


@lru_cache(maxsize=64)
def _steps(start: str) -> dict[str, int]:
    """Fewest squares from `start` to every square without sailing through a port (F30)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node != start and node in PORTS:
            continue
        for nxt in WORLD.adjacency[node]:
            if nxt not in seen:
                seen[nxt] = seen[node] + 1
                queue.append(nxt)
    return seen


@lru_cache(maxsize=32)
def _markets(seat: int, profile: tuple, fortresses: tuple) -> dict[tuple[str, str], tuple]:
    """For each load a port sells, the ports at least ten squares away (F30) that buy it: (port,
    what the sale brings this seat, expected turns of the voyage)."""
    owners = dict(fortresses)
    out = {}
    for port, goods in BUYS.items():
        steps = _steps(port)
        carry = _from(port, "laden", profile)
        for good, _ in goods:
            out[(port, good)] = tuple(
                (market, _net_sale(seat, owners, market, price), _turns(carry[market]))
                for market, price in SELLERS[good]
                if steps.get(market, 0) >= MIN_CARRIED and market in carry)
    return out


def _turns(weighed: float) -> float:
    return weighed / MEAN_ROLL


def _plans(state: dict, seat: int) -> dict[int, tuple]:
    """Each ship's plan: ("sell", port, now) for a laden ship, ("buy", port, good, sale port) for an
    empty one, ("go", port) for a privateer going home to lay off; none: stay where it is.
    Ships are planned in id order; each empty ship's plan reserves a token and the cash."""
    profile = _profile(state, seat)
    left = _rounds_left(state)
    cash = state["cash"][seat]
    tokens = dict(state["tokens"])
    plans: dict[int, tuple] = {}
    ships = sorted(ships_of(state, seat), key=lambda s: s["id"])
    for ship in ships:
        if ship["privateer"]:
            plans[ship["id"]] = ("go", state["homes"][seat])
        elif ship["cargo"] is not None:
            plan = _sale_plan(state, seat, ship, profile, left)
            if plan:
                plans[ship["id"]] = plan
    # Empty ships: the best trades first, the ship nearest its trade's port first.
    for ship in ships:
        if ship["privateer"] or ship["cargo"] is not None:
            continue
        plan = _trade_plan(state, seat, ship, profile, left, cash, tokens)
        if plan:
            plans[ship["id"]] = plan
            tokens[plan[2]] -= 1
            if plan[1] == ship["node"]:
                cash -= plan[4]
    return plans


def _duty(state: dict, seat: int, port: str) -> int:
    owner = state["fortresses"].get(port)
    return DUTY if owner is not None and owner != seat else 0


def _net_sale(seat: int, owners: dict, port: str, price: int) -> int:
    """A port's sale price to this seat on a later turn: the list price, the owner's bonus
    (F25), less the duty to another's fortress (F24)."""
    owner = owners.get(port)
    if owner == seat:
        return price + OWNER_BONUS
    return price - (DUTY if owner is not None else 0)


def _sale_plan(state, seat, ship, profile, left) -> tuple | None:
    """Where to sell a cargo: the most it fetches less the value of the turns it takes."""
    cargo = ship["cargo"]
    here = ship["node"]
    steps = _steps(here)
    weighed = _from(here, "laden", profile)
    best, best_value = None, -INF
    for port, price in SELLERS.get(cargo["good"], ()):
        if port == here:
            if cargo["carried"] < MIN_CARRIED:
                continue
            now = trade.sale_price(state, seat, port, cargo["good"])
            value = now - _duty(state, seat, port)
            if not trade.embargoed(state, port) and value > best_value:
                best, best_value = ("sell", port, True), value
            # F31 (or an embargo): the price is back up next turn.
            value = _net_sale(seat, state["fortresses"], port, price) - TURN_VALUE
        else:
            if cargo["carried"] + steps.get(port, 0) < MIN_CARRIED:
                continue
            turns = _turns(weighed.get(port, INF)) + 0.5
            if turns > left:
                continue
            value = _net_sale(seat, state["fortresses"], port, price) - TURN_VALUE * turns
        if value > best_value:
            best, best_value = ("sell", port, False), value
    return best


def _trade_plan(state, seat, ship, profile, left, cash, tokens) -> tuple | None:
    """The trade with the most profit per expected turn: sail empty to a port, buy a good
    there, carry it at least ten squares (F30) to the port that pays most for it."""
    here = ship["node"]
    markets = _markets(seat, profile, tuple(sorted(state["fortresses"].items())))
    reach_all = _from(here, "empty", profile)
    best, best_rate = None, 0.0
    for port, goods in BUYS.items():
        if port == here:
            if trade.embargoed(state, port):
                continue
            reach = 0.0
        elif port in reach_all:
            reach = _turns(reach_all[port]) + 0.5   # entering a port ends the move (F11)
        else:
            continue
        if reach > left:
            continue
        duty = _duty(state, seat, port)
        for good, price in goods:
            cost = price + duty
            if tokens[good] <= 0 or cost > cash:
                continue
            for market, sale, carry in markets[(port, good)]:
                profit = sale - cost
                turns = reach + carry + 0.5
                if profit <= 0 or turns > left:
                    continue
                rate = profit / turns
                if rate > best_rate:
                    best_rate = rate
                    best = ("buy", port, good, market, cost)
    return best


def _spare_cash(state: dict, seat: int, plans: dict) -> int:
    """Cash beyond what the empty ships need for their next loads."""
    empty = sum(1 for s in ships_of(state, seat) if s["cargo"] is None and not s["privateer"])
    return state["cash"][seat] - 40 * (empty + 1)


def _fortress_port(state: dict, seat: int, plans: dict, legal: set) -> str | None:
    """With a full fleet and spare cash, a fortress in a port where a ship is about to sell a
    cargo (bought first, the sale already fetches the owner's +10, F25; others pay duty there,
    F24; pirate waters within two squares are harmless to the owner, F19)."""
    if len(ships_of(state, seat)) < MAX_SHIPS or _spare_cash(state, seat, plans) < FORTRESS_PRICE:
        return None
    for ship in sorted(ships_of(state, seat), key=lambda s: s["id"]):
        plan = plans.get(ship["id"])
        if plan and plan[0] == "sell" and plan[2] and plan[1] == ship["node"] and \
                ("buy_fortress", ship["node"]) in legal:
            return ship["node"]
    return None


# ---- sailing -------------------------------------------------------------------------------

def _best_path(state: dict, seat: int, ship: dict, plan: tuple | None, total: int) -> list | None:
    """The path (a valid one, checked with the engine's own check_path) that leaves the ship
    nearest its plan's port by weighed distance, counting the risks it runs on the way; None
    to stay where it is."""
    if plan is None:
        return None
    target = plan[1]
    stake = "laden" if ship["cargo"] is not None else "empty"
    profile = _profile(state, seat)
    table = _to(target, stake, profile)
    costs = _enter_costs(stake, profile)
    convoy = bool(effect_on(state, "convoy"))
    penalty = {n: costs[n] - BASE_COST[n] for n in HAZARD_SQUARES
               if not (convoy and WORLD.hazard(n) == "pirates")}
    start = ship["node"]
    if start == target:
        return None
    best_score, best_path = table.get(start, INF), None
    labels: dict[str, list[tuple[float, int]]] = {}
    heap = [(0.0, -total, (start,))]
    while heap:
        risk, negative, path = heapq.heappop(heap)
        node, left = path[-1], -negative
        if node != start:
            score = risk + table.get(node, INF)
            if score < best_score - 1e-9:
                best_score, best_path = score, path[1:]
            if WORLD.is_port(node):
                continue
        if left < 1:
            continue
        for nxt in WORLD.adjacency[node]:
            if nxt in path:
                continue
            rest = left_after(left, nxt)
            cost = risk + penalty.get(nxt, 0.0)
            seen = labels.setdefault(nxt, [])
            if any(r <= cost and l >= rest for r, l in seen):
                continue
            seen.append((cost, rest))
            heapq.heappush(heap, (cost, -rest, path + (nxt,)))
    if best_path is None:
        return None
    try:
        return check_path(start, list(best_path), total)
    except IllegalAction:
        listed = reachable(start, total).get(best_path[-1])
        return list(listed) if listed else None
