"""The Pirater board: a square grid read from `board.json`, and the double board built from it.

The layout is data; this module turns it into what the rules need: every square a ship can stand
on is a node (a strait's two halves are one node, P4), `step[node][direction]` is the node one
square away or -1, and distances to each home anchorage say which way is "towards home" (P13).
Pure Python, no Django. Design notes: docs/rules/pirater.md.
"""
from __future__ import annotations

import json
import math
from collections import deque
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Row and column change of one step; north is up (row - 1).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (-1, 0), "ne": (-1, 1), "e": (0, 1), "se": (1, 1),
    "s": (1, 0), "sw": (1, -1), "w": (0, -1), "nw": (-1, -1),
}
DIRECTION_NAMES: tuple[str, ...] = tuple(DIRECTIONS)
DIAGONALS = frozenset(d for d, (dr, dc) in DIRECTIONS.items() if dr and dc)
STRAIGHT = tuple(d for d in DIRECTION_NAMES if d not in DIAGONALS)

# Squares a ship may stand on; land, island and port towns block.
SEA_KINDS = frozenset({"sea", "trade_wind", "anchorage", "home", "passage", "strait"})


class Board:
    """One playing surface: the single board or the double board (P22)."""

    def __init__(self, name: str, rows: list[str], legend: dict[str, str], ports: list[dict]):
        self.name = name
        self.rows = list(rows)
        self.height = len(rows)
        self.width = len(rows[0])
        if any(len(r) != self.width for r in rows):
            raise ValueError("board rows differ in length")
        self.kind: dict[tuple[int, int], str] = {}
        for r, line in enumerate(rows):
            for c, ch in enumerate(line):
                if ch not in legend:
                    raise ValueError(f"unknown board character {ch!r} at {r},{c}")
                self.kind[(r, c)] = legend[ch]

        # Nodes: one per sea square, except that a strait's two halves share one.
        self.node_of: dict[tuple[int, int], int] = {}
        self.cells: list[tuple[tuple[int, int], ...]] = []
        last = self.height - 1
        for (r, c), kind in sorted(self.kind.items()):
            if kind not in SEA_KINDS or (r, c) in self.node_of:
                continue
            if kind == "strait":
                if r != 0 or self.kind.get((last, c)) != "strait":
                    raise ValueError(f"strait at {r},{c} has no partner on the other long side")
                group = ((0, c), (last, c))
            else:
                group = ((r, c),)
            for cell in group:
                self.node_of[cell] = len(self.cells)
            self.cells.append(group)
        self.size = len(self.cells)
        self.node_kind = [self.kind[group[0]] for group in self.cells]
        self.is_wind = [k == "trade_wind" for k in self.node_kind]
        self.is_strait = [k == "strait" for k in self.node_kind]

        self.step = [self._steps(n) for n in range(self.size)]
        self._islands()
        self._ports(ports)
        self._dist: dict[int, list[int]] = {}
        self._home_dist: dict[tuple[int, ...], list[int]] = {}
        self._cells: list[dict] | None = None

    def square_name(self, node: int) -> str:
        """A node as the board is labelled: column letter and row ("C7"), a strait by its
        number west to east ("S2"); the log names where a ship ended with it."""
        r, c = self.cells[node][0]
        if self.is_strait[node]:
            straits = sorted(col for (row, col), kind in self.kind.items() if kind == "strait" and row == 0)
            return f"S{straits.index(c) + 1}"
        return f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[c]}{r}"

    # ---- geometry -------------------------------------------------------------------------
    def _steps(self, node: int) -> tuple[int, ...]:
        group = self.cells[node]
        out = []
        for d in DIRECTION_NAMES:
            dr, dc = DIRECTIONS[d]
            target = -1
            if self.is_strait[node]:
                # P4: a ship leaves a strait straight inwards from either half: south from the
                # top half, north from the bottom half.
                for (r, c) in group:
                    if dc == 0 and 0 <= r + dr < self.height:
                        target = self.node_of.get((r + dr, c), -1)
                        if target >= 0:
                            break
            else:
                (r, c) = group[0]
                nxt = self.node_of.get((r + dr, c + dc), -1)
                if d in DIAGONALS:
                    # P3: diagonal steps only from trade wind to trade wind.
                    if nxt >= 0 and not (self.is_wind[node] and self.is_wind[nxt]):
                        nxt = -1
                target = nxt
            out.append(target)
        return tuple(out)

    def _islands(self) -> None:
        """Number Treasure Islands top to bottom and give each anchorage its island."""
        island_cells = sorted(cell for cell, kind in self.kind.items() if kind == "island")
        self.island_of_cell: dict[tuple[int, int], int] = {}
        for cell in island_cells:
            if cell in self.island_of_cell:
                continue
            number = len(set(self.island_of_cell.values()))
            queue = deque([cell])
            self.island_of_cell[cell] = number
            while queue:
                r, c = queue.popleft()
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nb = (r + dr, c + dc)
                    if self.kind.get(nb) == "island" and nb not in self.island_of_cell:
                        self.island_of_cell[nb] = number
                        queue.append(nb)
        self.islands = len(set(self.island_of_cell.values()))
        self.anchorage_island: dict[int, int] = {}
        for node, kind in enumerate(self.node_kind):
            if kind != "anchorage":
                continue
            r, c = self.cells[node][0]
            near = {self.island_of_cell[(r + dr, c + dc)] for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if (r + dr, c + dc) in self.island_of_cell}
            if len(near) != 1:
                raise ValueError(f"anchorage {r},{c} must touch exactly one island")
            self.anchorage_island[node] = near.pop()

    def _ports(self, ports: list[dict]) -> None:
        """Check the ports and derive their start squares (P5) and Curse Island anchorages (P20)."""
        self.ports: list[dict] = []
        for number, port in enumerate(ports):
            town, anchorage = tuple(port["town"]), tuple(port["anchorage"])
            if self.kind.get(town) != "port" or self.kind.get(anchorage) != "home":
                raise ValueError(f"port {port['name']}: town or anchorage is misplaced")
            if abs(town[0] - anchorage[0]) + abs(town[1] - anchorage[1]) != 1:
                raise ValueError(f"port {port['name']}: the anchorage must be beside the town")
            self.ports.append({
                "id": number, "name": port["name"], "town": town, "anchorage": anchorage,
                "node": self.node_of[anchorage], "sides": tuple(port.get("sides", ())),
            })
        towns = {p["town"] for p in self.ports}
        if towns != {cell for cell, kind in self.kind.items() if kind == "port"}:
            raise ValueError("every port town needs one entry in the port list")

        def near(cell, node):
            (r, c), (r2, c2) = cell, self.cells[node][0]
            return (r - r2) ** 2 + (c - c2) ** 2, r2, c2

        # P5: the three open-sea squares nearest the anchorage.
        for port in self.ports:
            sea = [n for n, kind in enumerate(self.node_kind) if kind == "sea"]
            port["start"] = tuple(sorted(sea, key=lambda n: near(port["anchorage"], n))[:3])
        # P20: each island anchorage belongs to the port nearest to it.
        for port in self.ports:
            port["curse"] = []
        for node in sorted(self.anchorage_island):
            owner = min(self.ports, key=lambda p: near(p["anchorage"], node))
            owner["curse"].append(node)
        for port in self.ports:
            port["curse"] = tuple(port["curse"])

    # ---- distances --------------------------------------------------------------------------
    def distances_from(self, node: int) -> list[int]:
        """Fewest single steps (any legal direction, ships and wrecks ignored) from node."""
        if node not in self._dist:
            far = self.size * 4
            dist = [far] * self.size
            dist[node] = 0
            queue = deque([node])
            while queue:
                here = queue.popleft()
                for nxt in self.step[here]:
                    if nxt >= 0 and dist[nxt] == far:
                        dist[nxt] = dist[here] + 1
                        queue.append(nxt)
            self._dist[node] = dist
        return self._dist[node]

    def home_distance(self, port_ids: tuple[int, ...]) -> list[int]:
        """Distance of each node to the nearest of these ports' anchorages (P13, P21, P26)."""
        key = tuple(sorted(port_ids))
        if key not in self._home_dist:
            tables = [self.distances_from(self.ports[p]["node"]) for p in key]
            self._home_dist[key] = [min(col) for col in zip(*tables)]
        return self._home_dist[key]

    # ---- the page's picture ---------------------------------------------------------------
    def cell_list(self) -> list[dict]:
        """Every square with (row, col) and kind, for drawing. Built once per board (a board
        never changes) and handed to every view of it: its readers never change it."""
        if self._cells is None:
            self._cells = self._build_cells()
        return self._cells

    def _build_cells(self) -> list[dict]:
        owner = {p["town"]: p["id"] for p in self.ports}
        owner.update({p["anchorage"]: p["id"] for p in self.ports})
        last = self.height - 1
        out = []
        for (r, c), kind in sorted(self.kind.items()):
            cell = {"row": r, "col": c, "kind": kind}
            if kind == "strait":
                cell["half"] = True
                cell["pair"] = [last - r, c]
            if (r, c) in owner:
                cell["port"] = owner[(r, c)]
            if (r, c) in self.island_of_cell:
                cell["island"] = self.island_of_cell[(r, c)]
            node = self.node_of.get((r, c))
            if node is not None and node in self.anchorage_island:
                cell["island"] = self.anchorage_island[node]
            out.append(cell)
        return out


def _read(edition: int) -> dict:
    name = "board.json" if edition == 1 else f"board{edition}.json"
    with open(HERE / name, encoding="utf-8") as fh:
        return json.load(fh)


def double_layout(data: dict) -> tuple[list[str], list[dict]]:
    """P22: two boards side by side along a long side.

    The upper board's bottom edge and the lower board's top edge meet: where both are strait
    halves they make whole squares, a passage between the boards ("="); the rest is coast.
    The outer long sides keep their straits, now joined to each other.
    """
    rows = data["rows"]
    height = len(rows)
    seam = "".join("=" if a == "S" and b == "S" else "#" for a, b in zip(rows[-1], rows[0]))
    joined = rows[:-1] + [seam] + rows[1:]
    shift = height - 1  # the lower board's row r sits at r + shift

    def lower(port):
        return dict(port, name=f"lower {port['name']}",
                    town=[port["town"][0] + shift, port["town"][1]],
                    anchorage=[port["anchorage"][0] + shift, port["anchorage"][1]])

    def upper(port):
        return dict(port, name=f"upper {port['name']}")

    up = [upper(p) for p in data["ports"]]
    down = [lower(p) for p in data["ports"]]
    # Clockwise round the joined board, starting at the upper north-west port.
    by_name = {p["name"]: p for p in up + down}
    order = ["upper north-west", "upper north-east", "upper south-east", "lower north-east",
             "lower south-east", "lower south-west", "lower north-west", "upper south-west"]
    return joined, [by_name[n] for n in order]


def double_layout_sided(data: dict) -> tuple[list[str], list[dict]]:
    """P22 on a board whose ports lie along its sides (edition 2): joined as `double_layout`
    joins them; the ports of the two sides that meet are under the seam and drop out, the rest
    are listed clockwise round the joined board from the upper board's top side."""
    rows = data["rows"]
    height, width = len(rows), len(rows[0])
    seam = "".join("=" if a == "S" and b == "S" else "#" for a, b in zip(rows[-1], rows[0]))
    shift = height - 1
    upper_rows, lower_rows = [list(r) for r in rows[:-1]], [list(r) for r in rows[1:]]
    for p in data["ports"]:               # a dropped port's anchorage becomes open sea
        r, c = p["anchorage"]
        if "bottom" in p["sides"]:
            upper_rows[r][c] = "."
        if "top" in p["sides"]:
            lower_rows[r - 1][c] = "."
    joined = ["".join(r) for r in upper_rows] + [seam] + ["".join(r) for r in lower_rows]
    up = [dict(p, name=f"upper {p['name']}") for p in data["ports"] if "bottom" not in p["sides"]]
    down = [dict(p, name=f"lower {p['name']}", town=[p["town"][0] + shift, p["town"][1]],
                 anchorage=[p["anchorage"][0] + shift, p["anchorage"][1]])
            for p in data["ports"] if "top" not in p["sides"]]
    centre_r, centre_c = (len(joined) - 1) / 2, (width - 1) / 2

    def clockwise(port):
        r, c = port["town"]
        return math.atan2(c - centre_c, centre_r - r) % (2 * math.pi)   # from north, clockwise

    ports = sorted(up + down, key=clockwise)
    start = min(range(len(ports)), key=lambda i: ports[i]["town"][1]
                if ports[i]["town"][0] == 0 else width + i)
    return joined, ports[start:] + ports[:start]


@lru_cache(maxsize=None)
def get_board(name: str) -> Board:
    """The board called "single" or "double" (edition 1), "single2" or "double2" (edition 2),
    built once per process."""
    edition = 2 if name.endswith("2") else 1
    shape = name[:-1] if edition == 2 else name
    if shape not in ("single", "double"):
        raise ValueError(f"no Pirater board called {name!r}")
    data = _read(edition)
    if shape == "single":
        return Board(name, data["rows"], data["legend"], data["ports"])
    rows, ports = double_layout(data) if edition == 1 else double_layout_sided(data)
    return Board(name, rows, data["legend"], ports)
