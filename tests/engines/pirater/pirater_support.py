"""Helpers for the Pirater engine tests: states built by hand, squares found by property,
and seeds searched for the dice a test needs (never hard-coded outcomes)."""
from __future__ import annotations

import copy

from games.engines import dice
from games.engines.base import IllegalAction
from games.engines.pirater import ENGINE
from games.engines.pirater.board import get_board

__all__ = ["ENGINE", "IllegalAction", "game", "choose_ports", "place", "only", "rolled", "moves", "move", "seeded_roll",
           "ships_of", "node", "cell_of", "treasure_on", "get_board", "play"]


def game(players: int = 2, edition: int = 1, **options) -> dict:
    """A fresh game (seed fixed) with seat 0 to roll. The hand-placed tests name squares of
    edition 1's board, so they deal edition 1 unless asked; edition 2's ports are chosen by
    seat in seat order (seat i takes the i-th free choice)."""
    state = ENGINE.new_game(players, "pirater-test", options, edition=edition)
    state = choose_ports(state)
    state["first"] = state["current"] = 0
    return state


def choose_ports(state: dict, pick=None) -> dict:
    """Edition 2 (P5): play the port choices, each chooser taking `pick(choices)` (default:
    the first free one)."""
    while state["phase"] == "ports":
        seat = state["current"]
        choices = [a for a in ENGINE.legal_actions(state, seat)]
        state, _ = ENGINE.apply(state, seat, (pick or (lambda c: c[0]))(choices))
    return state


def place(state: dict, where: dict) -> dict:
    """Put ships where the test wants them: {ship id: (row, col) or None}; others stay."""
    for ship_id, at in where.items():
        ship = state["ships"][ship_id]
        ship["at"] = None if at is None else [at[0], at[1]]
        ship["lost"] = None if at is not None else "captured"
    return state


def only(state: dict, where: dict) -> dict:
    """Every ship off the board except those placed here."""
    place(state, {s["id"]: None for s in state["ships"]})
    return place(state, where)


def rolled(state: dict, faces: list[int], seat: int | None = None) -> dict:
    """The state as if `seat` (default: the current player) had just rolled `faces`."""
    if seat is not None:
        state["current"] = seat
    state["phase"] = "move"
    state["dice"] = list(faces)
    state["used"] = [False] * len(faces)
    return state


def seeded_roll(state: dict, want) -> dict:
    """A copy of `state` with a seed whose next roll satisfies want(faces)."""
    count = state["dice_per_roll"]
    for k in range(20000):
        trial = {"seed": f"search-{k}", "draws": state["draws"]}
        if want(dice.roll(trial, count)):
            found = copy.deepcopy(state)
            found["seed"] = trial["seed"]
            return found
    raise AssertionError("no seed rolls what the test needs")


def moves(state: dict, seat: int | None = None) -> set[tuple]:
    """Legal moves as (die, ship, direction[, split])."""
    seat = state["current"] if seat is None else seat
    out = set()
    for a in ENGINE.legal_actions(state, seat):
        if a["type"] == "move":
            out.add((a["die"], a["ship"], a["direction"]) + (("split",) if a.get("split") else ()))
    return out


def move(state: dict, die: int, ship: int, direction: str, seat: int | None = None, **extra):
    seat = state["current"] if seat is None else seat
    return ENGINE.apply(state, seat, {"type": "move", "die": die, "ship": ship,
                                      "direction": direction, **extra})


def play(state: dict, seat: int, action: dict):
    return ENGINE.apply(state, seat, action)


def ships_of(state: dict, seat: int) -> list[int]:
    return [s["id"] for s in state["ships"] if s["seat"] == seat]


def node(state: dict, at) -> int:
    return get_board(state["board"]).node_of[tuple(at)]


def cell_of(state: dict, n: int) -> tuple[int, int]:
    return get_board(state["board"]).cells[n][0]


def treasure_on(state: dict, ship_id: int, treasure: int = 0) -> dict:
    state["treasures"][treasure]["ship"] = ship_id
    return state
