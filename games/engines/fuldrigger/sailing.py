"""Sailing (F10–F19): which paths a ship may sail, what the hazards do, where a roll can reach.

A path lists the squares a ship enters, in order, without its starting square. Everything
that limits a path is static — adjacency, the roll, tailwinds (+3) and headwinds (−3), ports
ending a move (F11), no square twice — so a path is checked whole before any die is rolled;
the dice of storms, ice, calms, reefs and pirates then decide whether the ship gets to its end.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

from games.engines import dice
from games.engines.base import IllegalAction, edition_of
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.book import WORDS, Name
from games.engines.fuldrigger.cards import card
from games.engines.fuldrigger.state import effect_on, lose_cargo, remove_ship

WIND = 3  # F13, F14


def left_after(left: int, node: str) -> int:
    """Movement left once a ship with `left` to spend has entered `node`: each square costs
    one, a tailwind gives three more (F13), a headwind takes three, never below zero (F14)."""
    hazard = WORLD.hazard(node)
    if hazard == "tailwind":
        return left - 1 + WIND
    if hazard == "headwind":
        return max(0, left - 1 - WIND)
    return left - 1


def returns(state: dict) -> bool:
    """F11, edition 2: a ship may leave a port and come back to it in the same move (entering
    it ends the move). Edition 1 forbade entering the starting square again."""
    return edition_of(state) >= 2


def check_path(start: str, path, total: int, back: bool = False) -> list[str]:
    """The path as a list of node ids if a ship at `start` may sail it with `total`; else
    IllegalAction saying why. `back`: the path may end in the port it starts from (F11)."""
    if not isinstance(path, list) or not path:
        raise IllegalAction.said(WORDS, "error.path_missing")
    if path[0] == start:          # tolerate a path that names the starting square first
        path = path[1:]
        if not path:
            raise IllegalAction.said(WORDS, "error.path_stays")
    remaining = total
    seen = {start}
    previous = start
    for index, node in enumerate(path):
        if not isinstance(node, str) or node not in WORLD.nodes:
            raise IllegalAction.said(WORDS, "error.no_square", node=node)
        if node not in WORLD.adjacency[previous]:
            raise IllegalAction.said(WORDS, "error.not_next_to", square=Name("place", node),
                                     previous=Name("place", previous))
        if node in seen and not (back and node == start and WORLD.is_port(start)):
            raise IllegalAction.said(WORDS, "error.square_twice", square=Name("place", node))
        if remaining < 1:
            if WORLD.hazard(previous) == "headwind":
                raise IllegalAction.said(WORDS, "error.headwind_stops",
                                         square=Name("place", previous))
            raise IllegalAction.said(WORDS, "error.too_far", total=total)
        remaining = left_after(remaining, node)
        if WORLD.is_port(node) and index != len(path) - 1:
            raise IllegalAction.said(WORDS, "error.port_ends_move", port=Name("place", node))
        seen.add(node)
        previous = node
    return list(path)


@lru_cache(maxsize=8192)
def reachable(start: str, total: int, back: bool = False) -> dict[str, tuple[str, ...]]:
    """Every square a ship at `start` can end a move on with `total`, each with one path;
    with `back` (F11, edition 2) a port ship may also sail out and return to its own port.

    Breadth-first over (square, movement left), keeping for each square the path that leaves
    the most movement (ties: the fewest squares); the result is static, so it is cached.
    """
    best: dict[str, int] = {}
    paths: dict[str, tuple[str, ...]] = {}
    queue = deque([(start, total, ())])
    while queue:
        node, left, path = queue.popleft()
        if left < 1:
            continue
        for nxt in WORLD.adjacency[node]:
            if nxt in path or (nxt == start and not (back and path and WORLD.is_port(start))):
                continue
            rest = left_after(left, nxt)
            if nxt in best and rest <= best[nxt]:
                continue
            best[nxt] = rest
            paths[nxt] = path + (nxt,)
            if not WORLD.is_port(nxt):
                queue.append((nxt, rest, path + (nxt,)))
    return paths


def two_dice(state: dict) -> list[int]:
    return dice.roll(state, 2)


def pirates_spare(state: dict, ship: dict, node: str) -> str | None:
    """Why pirate waters leave this ship alone (F19), or None."""
    if ship["privateer"]:
        return "privateer"
    owner = ship["owner"]
    near = WORLD.within(node, 2)
    if any(state["fortresses"].get(port) == owner for port in near if WORLD.is_port(port)):
        return "fortress"
    if effect_on(state, "convoy"):
        return "convoy"
    return None


def sail(state: dict, ship: dict, path: list[str], events: list) -> str | None:
    """Sail a checked path square by square; hazards act on entering. Returns why the ship
    stopped short ("sunk", "wrecked", "becalmed") or None if it got to the end."""
    start = ship["node"]
    sailed: list[str] = []
    hazard_events: list[dict] = []
    stopped = None
    for node in path:
        ship["node"] = node
        sailed.append(node)
        if ship["cargo"] is not None:
            ship["cargo"]["carried"] += 1      # F30: squares sailed since loading
        stopped = enter(state, ship, node, hazard_events)
        if stopped:
            break
    events.append({"type": "move", "seat": ship["owner"], "ship": ship["id"], "name": ship["name"],
                   "from": start, "to": sailed[-1], "path": sailed, "stopped": stopped})
    events.extend(hazard_events)
    if stopped is None and WORLD.is_port(ship["node"]):
        arrive(state, ship, events)
    return stopped


def enter(state: dict, ship: dict, node: str, events: list) -> str | None:
    """F13–F19: the hazard of the square a ship has just entered (pirate waters lie where the
    state's edition put them, F19)."""
    hazard = WORLD.hazard(node, edition_of(state))
    if hazard is None:
        return None
    base = {"seat": ship["owner"], "ship": ship["id"], "name": ship["name"], "node": node}
    if hazard == "tailwind":                                   # F13
        events.append({"type": "tailwind", **base})
        return None
    if hazard == "headwind":                                   # F14
        events.append({"type": "headwind", **base})
        return None
    if hazard == "storm":                                      # F15
        faces = two_dice(state)
        return _sink_if(state, ship, "storm", faces, sum(faces) <= 3, events, base)
    if hazard == "ice":                                        # F16
        faces = two_dice(state)
        return _sink_if(state, ship, "ice", faces, sum(faces) == 5, events, base)
    if hazard == "calm":                                       # F17
        faces = two_dice(state)
        if sum(faces) <= 7:
            ship["node"] = WORLD.calm_square
            ship["calm"] = True
            events.append({"type": "calm", **base, "dice": faces, "becalmed": True,
                           "to": WORLD.calm_square})
            return "becalmed"
        events.append({"type": "calm", **base, "dice": faces, "becalmed": False})
        return None
    if hazard == "reef":                                       # F18
        letter = WORLD.reef_letter(node)
        known = state["known_reefs"][ship["owner"]]
        if letter in known:
            return None
        faces = two_dice(state)
        if sum(faces) <= 3:
            cargo = ship["cargo"]["good"] if ship["cargo"] else None
            remove_ship(state, ship)
            events.append({"type": "reef", **base, "letter": letter, "dice": faces,
                           "wrecked": True, "cargo": cargo})
            return "wrecked"
        known.append(letter)
        known.sort()
        events.append({"type": "reef", **base, "letter": letter, "dice": faces, "wrecked": False})
        return None
    if hazard == "pirates":                                    # F19
        spared = pirates_spare(state, ship, node)
        if spared:
            events.append({"type": "pirates", **base, "spared": spared})
            return None
        faces = two_dice(state)
        total = sum(faces)
        cargo = ship["cargo"]["good"] if ship["cargo"] else None
        if total <= 3:
            remove_ship(state, ship)
            events.append({"type": "pirates", **base, "dice": faces, "result": "ship_lost",
                           "cargo": cargo})
            return "sunk"
        if total == 4 and cargo is not None:
            lose_cargo(state, ship)
            events.append({"type": "pirates", **base, "dice": faces, "result": "cargo_lost",
                           "cargo": cargo})
            return None
        events.append({"type": "pirates", **base, "dice": faces, "result": "escaped",
                       "cargo": cargo})
        return None
    return None


def _sink_if(state, ship, kind, faces, sinks, events, base):
    cargo = ship["cargo"]["good"] if ship["cargo"] else None
    if sinks:
        remove_ship(state, ship)
    events.append({"type": kind, **base, "dice": faces, "sunk": sinks, "cargo": cargo})
    return "sunk" if sinks else None


def arrive(state: dict, ship: dict, events: list) -> None:
    """A ship entered a port: it may claim a "first to reach" reward (F43 cards)."""
    port = ship["node"]
    for card_id in list(state["bounties"]):
        data = card(card_id)
        if data["port"] == port:
            state["bounties"].remove(card_id)
            state["claimed"].append(card_id)
            state["cash"][ship["owner"]] += data["amount"]
            events.append({"type": "bounty", "seat": ship["owner"], "ship": ship["id"],
                           "name": ship["name"], "port": port, "card": card_id,
                           "amount": data["amount"]})


# ---- other routes, for the page that lets a player choose one -----------------------------------

DICE_HAZARDS = ("storm", "ice", "calm", "reef", "pirates")      # F15–F19: entering rolls dice
ROUTE_SEARCH_STEPS = 20000       # the search gives up here: it offers choices, it decides nothing


def routes(start: str, dest: str, total: int, limit: int = 4, first: list[str] | None = None) -> list[list[str]]:
    """Up to `limit` different paths from `start` to `dest` with `total`, `first` (the path
    `reachable` gave, the one leaving the most movement) leading, the others by fewest dice
    hazards, then fewest squares: a player may prefer a longer way round a storm or a reef.
    The costs are `left_after`'s; `check_path` still checks whatever is posted."""
    found: list[tuple[str, ...]] = []
    budget = [ROUTE_SEARCH_STEPS]
    distance = WORLD.distances_from(dest)

    def walk(node: str, left: int, path: tuple[str, ...], seen: frozenset) -> None:
        budget[0] -= 1
        if budget[0] <= 0 or len(found) >= 40 or left < 1:
            return
        for nxt in WORLD.adjacency[node]:
            if nxt in seen:
                continue
            rest = left_after(left, nxt)
            if nxt == dest:
                found.append(path + (nxt,))
                continue
            # A port ends a move; squares too far from the destination lead nowhere (allowing
            # for one more tailwind on the way).
            if WORLD.is_port(nxt) or distance.get(nxt, 10**6) > rest + WIND:
                continue
            walk(nxt, rest, path + (nxt,), seen | {nxt})

    walk(start, total, (), frozenset({start}))
    ranked = sorted(set(found), key=lambda p: (_dice_squares(p), len(p), p))
    result = [list(first)] if first else []
    for path in ranked:
        if len(result) >= limit:
            break
        if list(path) not in result:
            result.append(list(path))
    return result


def _dice_squares(path) -> int:
    return sum(1 for node in path if WORLD.hazard(node) in DICE_HAZARDS)
