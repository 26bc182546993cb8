"""What a seat or spectator sees, the standings, and events in words.

Pirater has no hidden information, so every viewer sees the same view: the state without the
dice machinery (base.DICE_MACHINERY: the seed and the dice counter), as every game's view.
"""
from __future__ import annotations

from games.engines.base import DICE_MACHINERY
from games.engines.pirater.book import WORDS
from games.engines.pirater.rules import alive_ships
from games.engines.pirater.sailing import remaining
from games.engines.pirater.state import OPTIONS, board_of

DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")


def view(state: dict, seat=None) -> dict:
    """The state without the dice machinery, plus what the page needs to draw the board.

    layout: rows, cols and every square's (row, col, kind), straits marked half with their
    pair; ports: town, anchorage and owning seat; each ship's cells (both halves in a strait).
    """
    board = board_of(state)
    out = {k: v for k, v in state.items() if k not in DICE_MACHINERY}
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


def options(lang: str = "en") -> list[dict]:
    """The match options with their labels and help in `lang`."""
    out = []
    for option in OPTIONS:
        label, help_text = option_words(option.name, lang)
        data = dict(option.as_dict(), label=label, help=help_text)
        if option.kind == "choice":
            data["choice_labels"] = {value: choice_words(value, lang) for value in option.choices}
        out.append(data)
    return out


def option_words(name: str, lang: str = "en") -> tuple[str, str]:
    """An option's label and help in `lang`."""
    return WORDS.say(f"option.{name}", lang), WORDS.say(f"option.{name}.help", lang)


def choice_words(value: str, lang: str = "en") -> str:
    """A choice option's value (such as "one_each") in words."""
    key = f"choice.{value}"
    return WORDS.say(key, lang) if WORDS.has(key) else str(value).replace("_", " ")


def _name(names: list[str], seat, lang: str = "en") -> str:
    if seat is None:
        return WORDS.say("name.nobody", lang)
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return WORDS.say("name.player", lang, seat=seat)


def _dice_words(faces: list[int], lang: str = "en") -> str:
    faces = [str(f) for f in faces]
    if len(faces) <= 1:
        return "".join(faces)
    return WORDS.say("dice.list", lang, most=", ".join(faces[:-1]), last=faces[-1])


def _ships(names, captured, lang: str = "en") -> str:
    owners = [_name(names, c["seat"], lang) for c in captured]
    if len(captured) == 1:
        return WORDS.say("ships.one", lang, owner=owners[0])
    return WORDS.say("ships.many", lang, count=len(captured), owners=", ".join(sorted(set(owners))))


def _direction(direction, lang: str) -> str:
    return WORDS.say(f"direction.{direction}", lang) if direction in DIRECTIONS else str(direction)


# Events whose words need only the acting seat's name.
PLAIN = ("first_player", "port_chosen", "treasure_loaded", "treasure_returned", "wreck", "powder_declared",
         "one_two", "extra_roll", "split_roll", "player_out", "game_over")


def describe(event: dict, names: list[str], lang: str = "en") -> str:
    """One event in words, in `lang` ("en", "da", "de", "sv"; anything else reads English)."""
    kind = event.get("type")
    who = _name(names, event.get("seat"), lang)

    def say(key, **fields):
        return WORDS.say(key, lang, who=who, **fields)

    if kind in PLAIN:
        return say(f"event.{kind}")
    if kind in ("start_roll", "roll", "hurricane", "dice_lost"):
        return say(f"event.{kind}", dice=_dice_words(event["dice"], lang))
    if kind == "move":
        steps, count = event["die"], len(event.get("ships", []))
        key = "event.move.{}.{}".format("fleet" if count > 1 else "ship", "one" if steps == 1 else "many")
        text = say(key, steps=steps, count=count, direction=_direction(event["direction"], lang))
        if "end" in event:  # events logged before squares were named say only the course
            text = say("event.move.where", move=text, start=event["start"], end=event["end"])
        if event.get("captured"):
            text = say("event.move.captured", move=text, ships=_ships(names, event["captured"], lang))
        return text
    if kind == "treasure_taken":
        return say("event.treasure_taken", owner=_name(names, event.get("from_seat"), lang))
    if kind == "explosion":
        lost = event.get("destroyed", [])
        if lost:
            return say("event.explosion.destroying", radius=event["radius"], ships=_ships(names, lost, lang))
        return say("event.explosion", radius=event["radius"])
    if kind == "turn":
        return say("event.turn", round=event.get("round"))
    if kind == "win":
        how = event.get("how")
        return say(f"event.win.{how}" if how in ("treasure", "last_ships") else "event.win")
    return str(kind) if kind else WORDS.say("event.unknown", lang)
