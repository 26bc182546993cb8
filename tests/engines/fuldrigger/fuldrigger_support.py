"""Helpers for the Fuldrigger engine tests: states built by hand, squares found by property,
and seeds searched for the dice a test needs (never hard-coded outcomes)."""
from __future__ import annotations

from games.engines.base import IllegalAction
from games.engines.fuldrigger import ENGINE
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.bots import random_action
from games.engines.fuldrigger.state import add_ship, fresh_turn

__all__ = ["ENGINE", "WORLD", "IllegalAction", "game", "play", "dealt", "choose_homes", "rolled", "put_ship", "cargo",
           "seeded", "first", "of_type", "squares", "sea_entry", "clear_ships", "ship_ids", "foreign_port",
           "attack"]


def choose_homes(state: dict) -> dict:
    """Edition 2 (F7): play the home-city picks, each seat choosing the board's home of its
    own number (so seat i sails from WORLD.homes[i], as edition 1 dealt them)."""
    while state["phase"] == "homes":
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, {"type": "choose_home", "city": WORLD.homes[seat]})
    return state


def dealt(players: int, seed: str, options: dict | None = None, edition: int | None = None) -> dict:
    """A new game past the home-city picks (edition 2), at the banker's first card."""
    return choose_homes(ENGINE.new_game(players, seed, options or {}, edition=edition))


def game(players: int = 2, seat: int = 0, edition: int | None = None, **options) -> dict:
    """A fresh game already in play at `seat`'s turn, before the roll, with no card in force;
    seat i has WORLD.homes[i] and seat 0 began (F8)."""
    opts = {"rounds": 0, "isthmus": True, "start_cash": 100, **options}
    state = dealt(players, "fuldrigger-test", opts, edition)
    state["phase"] = "play"
    state["turn"] = fresh_turn(seat)
    if "first" in state:
        state["first"] = 0
    return state


def clear_ships(state: dict, seat: int | None = None) -> None:
    for key in [k for k, s in state["ships"].items() if seat is None or s["owner"] == seat]:
        del state["ships"][key]


def ship_ids(state: dict, seat: int) -> list[int]:
    return sorted(s["id"] for s in state["ships"].values() if s["owner"] == seat)


def rolled(state: dict, total: int = 10) -> dict:
    """Pretend the seat to act has rolled `total` (faces are only for show)."""
    state["turn"]["roll"] = [1, 1, max(1, total - 2)]
    state["turn"]["total"] = total
    return state


def put_ship(state: dict, seat: int, node: str, **fields) -> dict:
    ship = add_ship(state, seat, node)
    ship.update(fields)
    return ship


def cargo(good: str, paid: int = 30, carried: int = 10, origin: str | None = None) -> dict:
    return {"good": good, "paid": paid, "carried": carried, "from": origin or WORLD.ports[0]}


def seeded(state: dict, seat, action: dict, want, tries: int = 2000):
    """Apply `action` under successive seeds until `want(new_state, events)` holds."""
    for attempt in range(tries):
        trial = dict(state)
        trial["seed"] = f"search-{attempt}"
        new, events = ENGINE.apply(trial, seat, action)
        if want(new, events):
            return new, events
    raise AssertionError("no seed gives the wanted dice")


def of_type(events: list, kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def first(events: list, kind: str) -> dict:
    found = of_type(events, kind)
    assert found, f"no {kind} event in {events}"
    return found[0]


def squares(hazard: str) -> list[str]:
    return sorted(n for n in WORLD.nodes if WORLD.hazard(n) == hazard)


def sea_entry(node: str) -> str:
    """A neighbouring sea square (without a hazard if there is one) to sail into `node` from."""
    seas = [n for n in WORLD.neighbours(node) if not WORLD.is_port(n)]
    calm = [n for n in seas if WORLD.hazard(n) is None]
    assert seas, f"{node} has no sea neighbour"
    return (calm or seas)[0]


def foreign_port(state):
    """A port that is nobody's home, with a hazard-free sea square next to it."""
    for port in WORLD.ports:
        if port in state["homes"]:
            continue
        seas = [n for n in WORLD.neighbours(port) if not WORLD.is_port(n) and not WORLD.hazard(n)]
        if seas:
            return port, seas[0]
    raise AssertionError("no foreign port")


def attack(target, ships, defender=1, **extra):
    return {"type": "attack", "target": target, "defender": defender,
            "ships": [s["id"] for s in ships], **extra}


def play(state, rnd, steps):
    """Up to `steps` random actions (the system's card when due); returns the states seen."""
    seen = [state]
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        system = ENGINE.system_action(state)
        if system:
            state, _ = ENGINE.apply(state, None, system)
        else:
            seat = rnd.choice(ENGINE.to_act(state))
            state, _ = ENGINE.apply(state, seat, random_action(state, seat, rnd))
        seen.append(state)
    return seen
