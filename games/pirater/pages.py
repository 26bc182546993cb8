"""Drawing Pirater (the page code behind templatetags/pirater_tags.py): where each square,
ship and marker goes on the page's SVG, and what the turn's forms offer. Pure helpers over the
engine's board data, `engine.view` and the legal actions; they decide nothing about the rules.

Words are translated when a page is drawn, never inside the cached board drawing, so each
viewer reads their own language; the variants' names come from the engine's phrase book.

The SVG's unit is a tenth of a square. Row 0 and the last row are the half-square long sides
(coast and straits), so they are drawn half as high; a strait's two halves are one square (P4).
"""
from __future__ import annotations

import json
from functools import lru_cache

from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext, pgettext_lazy

from games.engines.pirater import ENGINE as PIRATER
from games.engines.pirater.board import get_board
from games.engines.pirater.rules import blast_area, brings_hurricane, hurricane_victim
from games.engines.pirater.sailing import move_outcomes
from games.engines.pirater.state import board_name as state_board_name
from games.engines.pirater.view import choice_words, option_words
from games.reads.panels import seat_colour, seat_name

UNIT = 10
HALF = UNIT // 2
MARGIN = 6  # room above and left of the grid for the column letters and row numbers
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIRECTIONS = {"n": pgettext_lazy("compass", "N"), "ne": pgettext_lazy("compass", "NE"),
              "e": pgettext_lazy("compass", "E"), "se": pgettext_lazy("compass", "SE"),
              "s": pgettext_lazy("compass", "S"), "sw": pgettext_lazy("compass", "SW"),
              "w": pgettext_lazy("compass", "W"), "nw": pgettext_lazy("compass", "NW")}
CORNERS = {"north-west": "nw", "north-east": "ne", "south-east": "se", "south-west": "sw",
           # rules edition 2's board also has two ports on each short side (P27)
           "east-north": "e", "east-south": "e", "west-south": "w", "west-north": "w"}
CORNER_WORDS = {"north-west": pgettext_lazy("pirater port", "north-west"),
                "north-east": pgettext_lazy("pirater port", "north-east"),
                "south-east": pgettext_lazy("pirater port", "south-east"),
                "south-west": pgettext_lazy("pirater port", "south-west"),
                "east-north": pgettext_lazy("pirater port", "east side, north"),
                "east-south": pgettext_lazy("pirater port", "east side, south"),
                "west-south": pgettext_lazy("pirater port", "west side, south"),
                "west-north": pgettext_lazy("pirater port", "west side, north")}
BOARD_HALVES = {"upper": pgettext_lazy("pirater port", "upper %(corner)s"),
                "lower": pgettext_lazy("pirater port", "lower %(corner)s")}
MAX_BLAST = 6  # P24: the lower die is the radius, so at most 6

FLAG_WORDS = {"capture": pgettext_lazy("pirater move", "captures"),
              "takes": pgettext_lazy("pirater move", "takes the treasure"),
              "load": pgettext_lazy("pirater move", "loads the treasure"),
              "win": pgettext_lazy("pirater move", "home: wins")}
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


@lru_cache(maxsize=None)
def _strait_names(board) -> dict[int, str]:
    """Strait columns numbered west to east: S1, S2, …; both halves share the name. Once per
    board (get_board builds each once), not once per render: it reads every square."""
    cols = sorted({c for (r, c), k in board.kind.items() if k == "strait" and r == 0})
    return {c: f"S{i + 1}" for i, c in enumerate(cols)}


def _square_name(board, grid: Grid, straits: dict, row: int, col: int) -> str:
    if board.kind.get((row, col)) == "strait":
        return pgettext("pirater", "strait %(label)s") % {"label": straits[col]}
    return grid.square(row, col)


@lru_cache(maxsize=4)
def _drawing(name: str) -> dict:
    """The static board: every square but land (the background), the islands' labels, the
    ports, the strait pairs, the coordinates and the counts the legend states."""
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
        item = dict(box, kind=kind, name=grid.square(r, c))  # the template names a strait
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
        if town["half"]:
            # A town on a long side's half row: above it are the column letters, below it its
            # anchorage, so the label goes beside it, on the coast's land square.
            label = {"x": town["x"] + UNIT + 1, "y": town["y"] + 4, "beside": True}
        else:
            label = {"x": town["x"] + HALF, "y": town["y"] - 1, "beside": False}
        ports.append({"name": port["name"], "town": town, "anchorage": anchorage, "label": label})
    col_labels = [{"x": c * UNIT + HALF, "text": LETTERS[c]} for c in range(1, board.width - 1)]
    row_labels = [{"y": grid.box(r, 0)["y"] + HALF, "text": r} for r in range(1, board.height - 1)]
    pairs = [{"label": label, "top": grid.box(0, c), "bottom": grid.box(board.height - 1, c)}
             for c, label in sorted(straits.items())]
    boards = board.islands  # one island per board (P22 joins two)
    return {
        "name": name, "viewbox": grid.viewbox, "width": grid.width, "height": grid.height,
        "size": f"{(board.height - 1 - boards) // boards} × {board.width - 2}",
        "cells": cells, "islands": islands,
        "anchorages": anchor_cells, "ports": ports, "col_labels": col_labels, "row_labels": row_labels,
        "straits": pairs,
        "counts": {
            "trade_wind": counts.get("trade_wind", 0), "strait": len(pairs),
            "anchorage": counts.get("anchorage", 0), "island": board.islands, "port": len(board.ports),
            "passage": counts.get("passage", 0),
        },
    }


def pirater_board(options, board_name=None) -> dict:
    """The static board a match is played on (its state's board: single or double for P22,
    edition 1's or 2's); before the start, the current edition's for these options."""
    return _drawing(board_name or state_board_name(options or {"double_board": False},
                                                   PIRATER.edition))


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


class Scene:
    """One viewer's picture of the game: the view on the board's grid."""

    def __init__(self, view: dict, colours, names):
        self.view, self.colours, self.names = view, colours, names
        self.board = get_board(view["board"])
        self.grid = Grid(self.board.height, self.board.width)
        self.straits = _strait_names(self.board)
        self.current = view.get("current")
        self.carried = {t["ship"] for t in view["treasures"] if t["ship"] is not None}
        self.ships = {s["id"]: s for s in view["ships"]}
        self.fleets: dict[tuple, list[dict]] = {}  # ships by square: more than one only in Flotilla
        for ship in view["ships"]:
            if ship["at"] is not None:
                self.fleets.setdefault(tuple(ship["at"]), []).append(ship)

    def name(self, at) -> str:
        return _square_name(self.board, self.grid, self.straits, at[0], at[1])

    def node(self, at) -> int:
        return self.board.node_of[(at[0], at[1])]

    def fleet_of(self, ship: dict) -> list[dict]:
        return self.fleets.get(tuple(ship["at"] or ()), [ship])

    def loaded(self, ships) -> bool:
        return any(s["id"] in self.carried for s in ships)

    def at_risk(self):
        """P21: the ship the current player would lose to a hurricane, as the engine picks it."""
        if not self.view["options"].get("hurricane") or self.view["phase"] != "roll" or self.current is None:
            return None
        victim = hurricane_victim(self.view, self.current)
        return victim["id"] if victim else None

    def drawn_ships(self, movers: set) -> list[dict]:
        """Each seat's ships, one drawing per square (a Flotilla fleet with its size, P28)."""
        risk, powder = self.at_risk(), self.view.get("powder")
        by_seat: dict[int, list[dict]] = {}
        for fleet in self.fleets.values():
            ids = [s["id"] for s in fleet]
            by_seat.setdefault(fleet[0]["seat"], []).append({
                "ids": ids, "count": len(ids), "treasure": self.loaded(fleet), "powder": powder in ids,
                "risk": risk in ids, "boxes": [self.grid.box(r, c) for r, c in fleet[0]["cells"]],
            })
        return [{"colour": seat_colour(self.colours, seat), "ships": drawn,
                 "movable": any(i in movers for d in drawn for i in d["ids"])}
                for seat, drawn in sorted(by_seat.items())]

    def island_treasures(self) -> list[dict]:
        """Treasures lying on their island (P6, P22), side by side when two share one."""
        count: dict[int, int] = {}
        for t in self.view["treasures"]:
            if t["ship"] is None:
                count[t["island"]] = count.get(t["island"], 0) + 1
        out = []
        for island, n in sorted(count.items()):
            spot = _drawing(self.board.name)["islands"][island]
            out += [{"x": spot["cx"] - 4 * n + 8 * k, "y": spot["cy"] - 4} for k in range(n)]
        return out

    def home_rings(self) -> list[dict]:
        """Home anchorages ringed in their owners' colours: one path per seat."""
        rings: dict[int, str] = {}
        for port in self.view["ports"]:
            if port.get("seat") is not None:
                b = self.grid.box(*port["anchorage"])
                rings[port["seat"]] = rings.get(port["seat"], "") + f"M{b['x'] + 1} {b['y'] + 1}h8v8h-8z"
        return [{"colour": seat_colour(self.colours, seat), "d": d} for seat, d in sorted(rings.items())]

    def offered(self, moves: list[dict]) -> list[dict]:
        """The legal moves worth listing. Splitting a Flotilla fleet (P28) is legal for each of
        its ships alike; list the fleet's first ship, and another only if the treasure makes
        it different."""
        out = []
        for a in moves:
            if a.get("split"):
                ship = self.ships[a["ship"]]
                lead = self.fleet_of(ship)[0]
                if lead["id"] != ship["id"] and self.loaded([lead]) == self.loaded([ship]):
                    continue
            out.append(a)
        return out

    @staticmethod
    def flags(moved) -> list[str]:
        """What a move does besides sailing, as the engine works it out: capture (P15), take or
        load the treasure (P17, P12), bring it home (P18)."""
        out = []
        if moved.captured:
            out.append("capture")
            if moved.took:
                out.append("takes")
        if moved.loaded is not None:
            out.append("load")
        if moved.win == "treasure":
            out.append("win")
        return out

    def choices(self, moves: list[dict]) -> dict:
        """Lit target squares, the move list by die and ship, and the die and ship pickers."""
        targets: dict[tuple, dict] = {}
        listed: dict[tuple, dict] = {}
        for a, moved in zip(moves, move_outcomes(self.view, moves)):
            to, flags = tuple(a["to"]), self.flags(moved)
            target = targets.setdefault(to, {"flags": set(), "boxes": [
                self.grid.box(r, c) for r, c in self.board.cells[self.node(to)]]})
            target["flags"].update(flags)
            ship, split = self.ships[a["ship"]], bool(a.get("split"))
            group = listed.setdefault((a["die"], a["ship"], split), {
                "die": a["die"], "from": self.name(ship["at"]), "split": split,
                "count": 1 if split else len(self.fleet_of(ship)), "items": []})
            group["items"].append({"action": a, "dir": DIRECTIONS.get(a["direction"], a["direction"]),
                                   "to": self.name(to), "notes": [FLAG_WORDS[f] for f in flags]})
        order = self.die_order(moves)
        first = min(moves, key=lambda a: order.index(a["die"])) if moves else {}
        ships = []
        for a in moves:
            if a["ship"] not in [s["id"] for s in ships]:
                ship = self.ships[a["ship"]]
                fleet = self.fleet_of(ship)
                lead = fleet[0]["id"] == ship["id"]
                ships.append({"id": ship["id"], "square": self.name(ship["at"]), "checked": ship["id"] == first["ship"],
                              "count": len(fleet) if lead else 1,
                              "treasure": self.loaded(fleet if lead else [ship])})
        return {
            "targets": [{"cls": " ".join(sorted(t["flags"])), "boxes": t["boxes"]} for t in targets.values()],
            "moves": sorted(listed.values(), key=lambda g: order.index(g["die"])), "move_count": len(moves),
            "die_choices": [{"value": v, "checked": v == first.get("die")} for v in self.die_order(moves)],
            "ship_choices": ships, "split": any(a.get("split") for a in moves),
        }

    def die_order(self, moves: list[dict]) -> list[int]:
        """The dice left to play in the order the turn line shows them (as rolled), so the
        pickers and the move list read the same way."""
        faces = [f for f, used in zip(self.view.get("dice", []), self.view.get("used", [])) if not used]
        faces += sorted({a["die"] for a in moves} - set(faces), reverse=True)
        return [f for i, f in enumerate(faces) if f not in faces[:i] and any(a["die"] == f for a in moves)]

    def blast(self, ship_id: int) -> dict:
        ship = self.ships[ship_id]
        return {"id": ship_id, "square": self.name(ship["at"]), "owner": seat_name(self.names, ship["seat"]),
                "bands": _blast_bands(self.board, self.grid, self.node(ship["at"]))}

    def players(self) -> list[dict]:
        """Each player's ships in words (squares; a fleet's size), for everyone to read."""
        out = []
        for s in self.view["seats"]:
            own = [x for x in self.view["ships"] if x["seat"] == s["seat"]]
            squares = []
            for at, fleet in self.fleets.items():
                if fleet[0]["seat"] == s["seat"]:
                    squares.append(self.name(at) + (f" ×{len(fleet)}" if len(fleet) > 1 else "")
                                   + (" " + pgettext("pirater", "(treasure)") if self.loaded(fleet) else ""))
            afloat = sum(1 for x in own if x["at"] is not None)
            out.append({"name": seat_name(self.names, s["seat"]), "colour": seat_colour(self.colours, s["seat"]),
                        "squares": squares, "lost": len(own) - afloat, "out": s.get("out"),
                        "current": s["seat"] == self.current and self.view["phase"] != "over",
                        "powder_used": s.get("powder_used")})
        return out


def live(*, view: dict | None, seat, legal: list, my_turn: bool, names, colours, match=None, query=None, log=(),
         draw_shared=True) -> dict | None:
    """Everything the live part draws and offers, from the viewer's view and legal actions (the
    presenter's shape is every game's: games_tags.game_live)."""
    if not view:
        return None
    scene = Scene(view, colours, names)
    legal = list(legal or [])
    moves = scene.offered([a for a in legal if a.get("type") == "move"])
    powder = [a["ship"] for a in legal if a.get("type") == "declare_powder"]
    declared = view.get("powder")
    dice = [{"face": f, "used": u} for f, u in zip(view.get("dice", []), view.get("used", []))]
    faces = [d["face"] for d in dice]
    current = scene.current
    winner = None
    if view["phase"] == "over":
        won = view.get("winner")
        winner = {"name": seat_name(names, won) if won is not None else None, "colour": seat_colour(colours, won),
                  "how": view.get("win")}  # the template words each way of winning
    opening = []
    if view.get("round") == 1:  # P7: who began, through the first round
        opening = [{"name": seat_name(names, e["seat"]), "dice": e["dice"]}
                   for e in view.get("start", []) if e.get("type") == "start_roll"]
    return {
        "board": scene.board.name, "viewbox": scene.grid.viewbox, "last_row": scene.grid.last,
        "ships": scene.drawn_ships({a["ship"] for a in moves}), "treasures": scene.island_treasures(),
        "wrecks": [scene.grid.box(*w) for w in view.get("wrecks", [])], "homes": scene.home_rings(),
        **scene.choices(moves),
        "roll": next((a for a in legal if a.get("type") == "roll"), None),
        "powder_choices": [scene.blast(i) for i in powder],
        "declared": scene.blast(declared) if declared is not None and scene.ships[declared]["at"] else None,
        "dice": dice, "hurricane_roll": bool(view["options"].get("hurricane") and faces and brings_hurricane(faces)),
        "players": scene.players(), "winner": winner, "phase": view["phase"],
        "current_name": seat_name(names, current) if current is not None else None,
        "current_colour": seat_colour(colours, current),
        "extra": view.get("extra"), "split_turn": view.get("split"), "opening": opening,
        "port_choices": [{"action": a, "name": port["name"]} for a in legal if a.get("type") == "choose_port"
                         for port in view.get("ports", []) if port.get("id") == a.get("port")],
        "loads": [{"action": a, "square": pt_square(scene.ships[a["ship"]]["at"])}
                  for a in legal if a.get("type") == "load" and a.get("ship") in scene.ships],
    }


def pt_square(at) -> str:
    """A square [row, col] by its board coordinates ("F5")."""
    return f"{LETTERS[at[1]]}{at[0]}" if at else ""


def pt_words(value) -> str:
    """An option value such as "one_each" in words, in the page's language."""
    return choice_words(str(value), get_language())


def pt_variants(options) -> list[str]:
    """The names of the variants switched on in these options, in the page's language."""
    return [option_words(name, get_language())[0] for name in VARIANT_NAMES if (options or {}).get(name)]


def _corner(name: str) -> tuple[str, str]:
    """A port's name ("upper north-west") as its board half ("upper", or "") and corner."""
    half, _, corner = name.rpartition(" ")
    return half, corner


def pt_port(name) -> str:
    """A port's name ("north-west", "upper north-west") in the page's language."""
    half, corner = _corner(str(name))
    words = str(CORNER_WORDS.get(corner, corner))
    return BOARD_HALVES[half] % {"corner": words} if half in BOARD_HALVES else words


def pt_port_short(name) -> str:
    """A port's label on the board: its corner as a compass point ("NW")."""
    return str(DIRECTIONS[CORNERS[_corner(str(name))[1]]])
