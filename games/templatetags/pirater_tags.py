"""Drawing Pirater: where each square, ship and marker goes on the page's SVG, and what the
turn's forms offer. Pure helpers over the engine's board data, `engine.view` and the legal
actions; they decide nothing about the rules.

The SVG's unit is a tenth of a square. Row 0 and the last row are the half-square long sides
(coast and straits), so they are drawn half as high; a strait's two halves are one square (P4).
"""
from __future__ import annotations

import json
from functools import lru_cache

from django import template
from django.utils.safestring import mark_safe

from games.engines.pirater.board import get_board
from games.engines.pirater.rules import blast_area

register = template.Library()

UNIT = 10
HALF = UNIT // 2
MARGIN = 6  # room above and left of the grid for the column letters and row numbers
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIRECTIONS = {"n": "N", "ne": "NE", "e": "E", "se": "SE", "s": "S", "sw": "SW", "w": "W", "nw": "NW"}
MAX_BLAST = 6  # P24: the lower die is the radius, so at most 6

FLAG_WORDS = {"capture": "captures", "takes": "takes the treasure", "load": "loads the treasure",
              "win": "home: wins"}
WIN_WORDS = {"treasure": "brought the treasure home", "last_ships": "sank the last of the other ships"}
VARIANT_NAMES = ("curse_island", "hurricane", "double_board", "shipwreck", "powder_ship", "one_two",
                 "opposing_realms", "headwind_realm", "flotilla")


class Grid:
    """Square (row, col) to SVG box; the edge rows are half squares."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols, self.last = rows, cols, rows - 1
        self.width = cols * UNIT
        self.height = (rows - 1) * UNIT  # rows - 2 whole rows and two halves
        self.viewbox = f"{-MARGIN} {-MARGIN} {self.width + MARGIN} {self.height + MARGIN}"

    def box(self, row: int, col: int) -> dict:
        y = 0 if row == 0 else HALF + (row - 1) * UNIT
        h = HALF if row in (0, self.last) else UNIT
        return {"x": col * UNIT, "y": y, "w": UNIT, "h": h, "half": h == HALF}

    def square(self, row: int, col: int) -> str:
        return f"{LETTERS[col]}{row}"


def _strait_names(board) -> dict[int, str]:
    """Strait columns numbered west to east: S1, S2, …; both halves share the name."""
    cols = sorted({c for (r, c), k in board.kind.items() if k == "strait" and r == 0})
    return {c: f"S{i + 1}" for i, c in enumerate(cols)}


def _square_name(board, grid: Grid, straits: dict, row: int, col: int) -> str:
    if board.kind.get((row, col)) == "strait":
        return f"strait {straits[col]}"
    return grid.square(row, col)


def _board_name(options) -> str:
    return "double" if (options or {}).get("double_board") else "single"


@lru_cache(maxsize=4)
def _drawing(name: str) -> dict:
    board = get_board(name)
    grid = Grid(board.height, board.width)
    straits = _strait_names(board)
    cells, counts = [], {}
    for cell in board.cell_list():
        r, c, kind = cell["row"], cell["col"], cell["kind"]
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "land":
            continue  # the land is the background
        box = grid.box(r, c)
        item = dict(box, kind=kind, name=_square_name(board, grid, straits, r, c))
        if kind == "strait":
            item["label"] = straits[c]
            item["side"] = "top" if r == 0 else "bottom"
        cells.append(item)
    islands = []
    for number in range(board.islands):
        squares = [rc for rc, i in board.island_of_cell.items() if i == number]
        boxes = [grid.box(r, c) for r, c in squares]
        x0, y0 = min(b["x"] for b in boxes), min(b["y"] for b in boxes)
        x1, y1 = max(b["x"] + b["w"] for b in boxes), max(b["y"] + b["h"] for b in boxes)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        islands.append({"number": number, "cx": cx, "cy": cy, "top": y0 + 4, "bottom": y1 - 2})
    anchor_cells = [grid.box(*board.cells[n][0]) for n in board.anchorage_island]
    ports = []
    for port in board.ports:
        town, anchorage = grid.box(*port["town"]), grid.box(*port["anchorage"])
        short = "".join(w[0] for w in port["name"].replace("upper ", "").replace("lower ", "").split("-")).upper()
        ports.append({"id": port["id"], "name": port["name"], "short": short, "town": town,
                      "anchorage": anchorage})
    col_labels = [{"x": c * UNIT + HALF, "text": LETTERS[c]} for c in range(1, board.width - 1)]
    row_labels = [{"y": grid.box(r, 0)["y"] + HALF, "text": r} for r in range(1, board.height - 1)]
    pairs = [{"label": label, "top": grid.box(0, c), "bottom": grid.box(board.height - 1, c)}
             for c, label in sorted(straits.items())]
    return {
        "name": name, "viewbox": grid.viewbox, "width": grid.width, "height": grid.height,
        "rows": board.height, "cols": board.width, "cells": cells, "islands": islands,
        "anchorages": anchor_cells, "ports": ports, "col_labels": col_labels, "row_labels": row_labels,
        "straits": pairs,
        "counts": {
            "trade_wind": counts.get("trade_wind", 0), "strait": len(pairs),
            "strait_halves": counts.get("strait", 0), "anchorage": counts.get("anchorage", 0),
            "island": board.islands, "port": len(board.ports), "passage": counts.get("passage", 0),
            "sea": counts.get("sea", 0),
        },
    }


@register.simple_tag
def pirater_board(options) -> dict:
    """The static board for these match options (single, or double for P22)."""
    return _drawing(_board_name(options))


@register.filter
def pt_json(action) -> str:
    """An action as compact JSON for a single-quoted attribute value (action_json's content,
    without entity-escaping every double quote: the live part stays small)."""
    text = json.dumps(action, separators=(",", ":"), sort_keys=True)
    for raw, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&#x27;")):
        text = text.replace(raw, entity)
    return mark_safe(text)


def _blast_bands(board, grid: Grid, node: int) -> list[str]:
    """P24: path data of the squares first reached at blast radius 1, 2, … 6; the powder
    ship's own square belongs to radius 1 (it is always destroyed)."""
    seen: set[int] = set()
    bands = []
    for radius in range(1, MAX_BLAST + 1):
        fresh = [n for n in blast_area(board, node, radius) if n not in seen]
        seen.update(fresh)
        bands.append("".join(_cell_path(grid, r, c) for n in fresh for r, c in board.cells[n]))
    return bands


def _cell_path(grid: Grid, r: int, c: int) -> str:
    b = grid.box(r, c)
    return f"M{b['x']} {b['y']}h{b['w']}v{b['h']}h-{b['w']}z"


def _colour(colours, seat) -> str:
    try:
        return colours[seat]
    except (IndexError, TypeError):
        return "black"


def _name(names, seat) -> str:
    try:
        return names[seat]
    except (IndexError, TypeError):
        return f"Player {seat + 1}" if isinstance(seat, int) else "Nobody"


@register.simple_tag
def pirater_live(view, legal, colours, names, seat_number=None) -> dict | None:
    """Everything the live part draws and offers, from the viewer's view and legal actions."""
    if not view:
        return None
    board = get_board(view["board"])
    grid = Grid(board.height, board.width)
    straits = _strait_names(board)
    options = view.get("options", {})
    current = view.get("current")
    phase = view.get("phase")
    legal = list(legal or [])

    def name_of(at) -> str:
        return _square_name(board, grid, straits, at[0], at[1])

    def node_of(at) -> int:
        return board.node_of[(at[0], at[1])]

    carried = {t["ship"] for t in view["treasures"] if t["ship"] is not None}
    ships_by_id = {s["id"]: s for s in view["ships"]}

    # P13/P21: the current player's ship nearest home sinks on three equal dice.
    risk = None
    if options.get("hurricane") and phase == "roll" and current is not None:
        ports = tuple(view["seats"][current]["ports"])
        dist = board.home_distance(ports)
        afloat = [s for s in view["ships"] if s["seat"] == current and s["at"] is not None]
        if afloat:
            risk = min(afloat, key=lambda s: (dist[node_of(s["at"])], s["id"]))["id"]

    # Ships, one drawing per square: a Flotilla fleet (P28) is one ship with a count.
    groups: dict[tuple, list[dict]] = {}
    for ship in view["ships"]:
        if ship["at"] is not None:
            groups.setdefault(tuple(ship["at"]), []).append(ship)
    by_seat: dict[int, list[dict]] = {}
    for at, fleet in groups.items():
        lead = fleet[0]
        ids = [s["id"] for s in fleet]
        by_seat.setdefault(lead["seat"], []).append({
            "id": lead["id"], "ids": ids, "seat": lead["seat"], "square": name_of(at), "count": len(fleet),
            "treasure": any(i in carried for i in ids), "powder": view.get("powder") in ids,
            "risk": risk in ids, "boxes": [grid.box(r, c) for r, c in lead["cells"]],
        })
    movers = {a["ship"] for a in legal if a.get("type") == "move"}
    ships = [{"seat": seat, "colour": _colour(colours, seat), "ships": drawn,
              "movable": any(i in movers for d in drawn for i in d["ids"])}
             for seat, drawn in sorted(by_seat.items())]

    # Treasures still on their island (P6, P22); a second one on the same island sits beside.
    on_island: dict[int, int] = {}
    for t in view["treasures"]:
        if t["ship"] is None:
            on_island[t["island"]] = on_island.get(t["island"], 0) + 1
    treasures = []
    for island, count in sorted(on_island.items()):
        spot = _drawing(board.name)["islands"][island]
        for k in range(count):
            treasures.append({"x": spot["cx"] - 4 * count + 8 * k, "y": spot["cy"] - 4, "island": island})

    wrecks = [dict(grid.box(*w), square=name_of(w)) for w in view.get("wrecks", [])]

    # Home anchorages ringed in their owners' colours: one path per seat.
    rings: dict[int, list[str]] = {}
    for port in view["ports"]:
        if port.get("seat") is not None:
            b = grid.box(*port["anchorage"])
            rings.setdefault(port["seat"], []).append(f"M{b['x'] + 1} {b['y'] + 1}h8v8h-8z")
    homes = [{"colour": _colour(colours, seat), "d": "".join(d)} for seat, d in sorted(rings.items())]

    # The move: targets on the board, the die / ship / direction pickers and the full list.
    moves = [a for a in legal if a.get("type") == "move"]
    my_homes = set()
    if current is not None and 0 <= current < len(view["seats"]):
        my_homes = {tuple(board.ports[p]["anchorage"]) for p in view["seats"][current]["ports"]}
    island_treasure = {t["island"] for t in view["treasures"] if t["ship"] is None}
    targets: dict[tuple, dict] = {}
    listed: dict[tuple, dict] = {}
    for a in moves:
        to = tuple(a["to"])
        mover = ships_by_id.get(a["ship"], {})
        mover_fleet = groups.get(tuple(mover.get("at") or ()), [mover])
        loaded = any(s.get("id") in carried for s in mover_fleet)
        there = groups.get(to, [])
        enemy = [s for s in there if s["seat"] != current]
        flags = []
        if enemy:
            flags.append("capture")
            if any(s["id"] in carried for s in enemy):
                flags.append("takes")
        node = node_of(to)
        if not loaded and board.anchorage_island.get(node) in island_treasure:
            flags.append("load")
        if loaded and to in my_homes:
            flags.append("win")
        target = targets.setdefault(to, {"sq": f"{to[0]}-{to[1]}", "name": name_of(to), "flags": set(),
                                          "boxes": [grid.box(r, c) for r, c in board.cells[node]]})
        target["flags"].update(flags)
        key = (a["die"], a["ship"], bool(a.get("split")))
        group = listed.setdefault(key, {"die": a["die"], "ship": a["ship"], "split": bool(a.get("split")),
                                        "from": name_of(mover.get("at") or to),
                                        "count": 1 if a.get("split") else len(mover_fleet), "items": []})
        group["items"].append({"action": a, "dir": DIRECTIONS.get(a["direction"], a["direction"]),
                               "to": name_of(to),
                               "notes": [FLAG_WORDS[f] for f in flags]})
    for target in targets.values():
        target["cls"] = " ".join(sorted(target["flags"]))
    die_values = sorted({a["die"] for a in moves}, reverse=True)
    ship_ids = []
    for a in moves:
        if a["ship"] not in ship_ids:
            ship_ids.append(a["ship"])
    first = moves[0] if moves else {}
    die_choices = [{"value": v, "checked": v == first.get("die")} for v in die_values]
    ship_choices = []
    for sid in ship_ids:
        ship = ships_by_id[sid]
        fleet = groups.get(tuple(ship["at"]), [ship])
        ship_choices.append({"id": sid, "square": name_of(ship["at"]), "count": len(fleet),
                             "colour": _colour(colours, ship["seat"]), "checked": sid == first.get("ship"),
                             "treasure": any(s["id"] in carried for s in fleet)})

    # P24: the powder ship — its choice with each ship's blast area, or the declared one.
    powder_choices = []
    if any(a.get("type") == "declare_powder" for a in legal):
        for a in legal:
            if a.get("type") == "declare_powder":
                ship = ships_by_id[a["ship"]]
                powder_choices.append({"id": a["ship"], "square": name_of(ship["at"]),
                                       "colour": _colour(colours, ship["seat"]),
                                       "bands": _blast_bands(board, grid, node_of(ship["at"]))})
    declared = None
    if view.get("powder") is not None and ships_by_id.get(view["powder"], {}).get("at"):
        ship = ships_by_id[view["powder"]]
        declared = {"id": ship["id"], "square": name_of(ship["at"]), "owner": _name(names, ship["seat"]),
                    "bands": _blast_bands(board, grid, node_of(ship["at"]))}

    dice = [{"face": f, "used": u} for f, u in zip(view.get("dice", []), view.get("used", []))]
    hurricane_roll = bool(options.get("hurricane") and len(dice) >= 3
                          and max(sum(1 for d in dice if d["face"] == f["face"]) for f in dice) >= 3)

    fleets = []
    for s in view["seats"]:
        afloat = [x for x in view["ships"] if x["seat"] == s["seat"] and x["at"] is not None]
        fleets.append({
            "seat": s["seat"], "name": _name(names, s["seat"]), "colour": _colour(colours, s["seat"]),
            "ports": [p["name"] for p in view["ports"] if p.get("seat") == s["seat"]],
            "squares": [name_of(x["at"]) + (" (treasure)" if x["id"] in carried else "") for x in afloat],
            "afloat": len(afloat), "lost": sum(1 for x in view["ships"] if x["seat"] == s["seat"]) - len(afloat),
            "out": s.get("out"), "current": s["seat"] == current and phase != "over",
            "powder_used": s.get("powder_used"),
        })

    winner = None
    if phase == "over":
        seat = view.get("winner")
        winner = {"seat": seat, "name": _name(names, seat) if seat is not None else None,
                  "colour": _colour(colours, seat) if seat is not None else None,
                  "how": WIN_WORDS.get(view.get("win"), "won")}

    opening = [{"name": _name(names, e["seat"]), "dice": e["dice"]}
               for e in view.get("start", []) if e.get("type") == "start_roll"]
    return {
        "board": board.name, "viewbox": grid.viewbox, "last_row": grid.last, "ships": ships, "treasures": treasures,
        "wrecks": wrecks, "homes": homes, "targets": list(targets.values()), "dice": dice,
        "die_choices": die_choices, "ship_choices": ship_choices,
        "split": any(a.get("split") for a in moves), "moves": list(listed.values()),
        "move_count": len(moves),
        "roll": next((a for a in legal if a.get("type") == "roll"), None),
        "powder_choices": powder_choices, "declared": declared, "hurricane_roll": hurricane_roll,
        "fleets": fleets, "winner": winner, "phase": phase,
        "current_name": _name(names, current) if current is not None else None,
        "current_colour": _colour(colours, current),
        "extra": view.get("extra"), "split_turn": view.get("split"), "options": options,
        "opening": opening if view.get("round") == 1 and view.get("turns", 1) <= len(view["seats"]) else [],
    }


@register.filter
def pt_words(value) -> str:
    """An option value such as "one_each" in words."""
    return str(value).replace("_", " ")


@register.filter
def pt_variants(options) -> list[str]:
    """The variant names switched on in these options (for labels)."""
    return [name for name in VARIANT_NAMES if (options or {}).get(name)]
