"""What a seat or spectator sees, the standings, and events in words.

Pirater has no hidden information except the dice seed, so every viewer sees the same view.
"""
from __future__ import annotations

from games.engines.pirater.rules import alive_ships, remaining
from games.engines.pirater.state import board_of

DIRECTION_WORDS = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east",
                   "s": "south", "sw": "south-west", "w": "west", "nw": "north-west"}


def view(state: dict, seat=None) -> dict:
    """The state without its seed, plus what the page needs to draw the board.

    layout: rows, cols and every square's (row, col, kind), straits marked half with their
    pair; ports: town, anchorage and owning seat; each ship's cells (both halves in a strait).
    """
    board = board_of(state)
    out = {k: v for k, v in state.items() if k != "seed"}
    last = board.height - 1
    ships = []
    for ship in state["ships"]:
        shown = dict(ship, at=None if ship["at"] is None else list(ship["at"]))
        shown["cells"] = []
        if ship["at"] is not None:
            r, c = ship["at"]
            shown["cells"] = [[r, c]] + ([[last, c]] if board.kind[(r, c)] == "strait" else [])
        shown["treasure"] = any(t["ship"] == ship["id"] for t in state["treasures"])
        ships.append(shown)
    out["ships"] = ships
    owner = {p: s["seat"] for s in state["seats"] for p in s["ports"]}
    out["ports"] = [{"id": p["id"], "name": p["name"], "town": list(p["town"]),
                     "anchorage": list(p["anchorage"]), "seat": owner.get(p["id"])}
                    for p in board.ports]
    out["layout"] = {"name": board.name, "rows": board.height, "cols": board.width,
                     "cells": board.cell_list()}
    out["dice_left"] = list(remaining(state)) if state["phase"] == "move" else []
    out["to_act"] = [] if state["phase"] == "over" else [state["current"]]
    out["viewer"] = seat
    return out


def standings(state: dict) -> list[dict]:
    """Best first. The winner ranks 1; the rest rank by ships still afloat, then by how long
    they stayed in the game; equal players share a rank. Score: ships afloat."""
    order = {seat: i for i, group in enumerate(state["eliminated"]) for seat in group}
    players = state["players"]
    rows = []
    for s in state["seats"]:
        seat = s["seat"]
        afloat = alive_ships(state, seat)
        ids = {x["id"] for x in afloat}
        treasure = any(t["ship"] in ids for t in state["treasures"])
        key = (state["winner"] == seat, len(afloat), order.get(seat, players), treasure)
        rows.append((key, {"seat": seat, "score": len(afloat), "detail": {
            "ships": len(afloat), "treasure": treasure, "out": s["out"],
            "winner": state["winner"] == seat, "ports": list(s["ports"]),
        }}))
    rows.sort(key=lambda r: (tuple(-int(x) for x in r[0]), r[1]["seat"]))
    out, previous, rank = [], None, 0
    for i, (key, row) in enumerate(rows):
        if key != previous:
            rank, previous = i + 1, key
        row["rank"] = rank
        out.append(row)
    return out


def _name(names: list[str], seat) -> str:
    if seat is None:
        return "Nobody"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"Player {seat}"


def _dice_words(faces: list[int]) -> str:
    faces = [str(f) for f in faces]
    if len(faces) <= 1:
        return "".join(faces)
    return ", ".join(faces[:-1]) + " and " + faces[-1]


def _ships(names, captured) -> str:
    owners = [_name(names, c["seat"]) for c in captured]
    if len(captured) == 1:
        return f"{owners[0]}'s ship"
    return f"{len(captured)} ships of {', '.join(sorted(set(owners)))}"


def describe(event: dict, names: list[str]) -> str:
    kind = event.get("type")
    who = _name(names, event.get("seat"))
    if kind == "start_roll":
        return f"{who} rolled {_dice_words(event['dice'])} to decide who begins"
    if kind == "first_player":
        return f"{who} begins"
    if kind == "roll":
        return f"{who} rolled {_dice_words(event['dice'])}"
    if kind == "move":
        steps = event["die"]
        fleet = len(event.get("ships", [])) > 1
        text = (f"{who}'s {'fleet of ' + str(len(event['ships'])) + ' ships' if fleet else 'ship'} "
                f"sailed {steps} square{'s' if steps != 1 else ''} "
                f"{DIRECTION_WORDS.get(event['direction'], event['direction'])}")
        if event.get("captured"):
            text += f" and captured {_ships(names, event['captured'])}"
        return text
    if kind == "treasure_loaded":
        return f"{who}'s ship loaded the treasure"
    if kind == "treasure_taken":
        return f"{who} took the treasure from {_name(names, event.get('from_seat'))}'s ship"
    if kind == "treasure_returned":
        return "The treasure went back to Treasure Island"
    if kind == "wreck":
        return "The captured ship lies there as a wreck"
    if kind == "powder_declared":
        return f"{who} declared a powder ship"
    if kind == "explosion":
        lost = event.get("destroyed", [])
        text = f"{who}'s powder ship blew up with a radius of {event['radius']}"
        return text + (f", destroying {_ships(names, lost)}" if lost else "")
    if kind == "hurricane":
        return f"A hurricane ({_dice_words(event['dice'])}) sank {who}'s ship nearest home"
    if kind == "one_two":
        return f"{who} rolled One-Two and will roll again"
    if kind == "extra_roll":
        return f"{who} rolls again"
    if kind == "split_roll":
        return f"{who}'s fleets may split and stack this turn"
    if kind == "dice_lost":
        return f"{who} could not use {_dice_words(event['dice'])}"
    if kind == "player_out":
        return f"{who} has lost all ships and is out"
    if kind == "turn":
        return f"{who}'s turn (round {event.get('round')})"
    if kind == "win":
        how = {"treasure": "brought the treasure home",
               "last_ships": "sank the last of the other ships"}.get(event.get("how"), "won")
        return f"{who} {how} and wins"
    if kind == "game_over":
        return "The game ended with no ships left afloat"
    return str(kind or "event")
