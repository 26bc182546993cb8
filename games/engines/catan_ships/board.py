"""The board: hexes, number tokens, harbours, and the geometry derived from them.

A state stores its board as one compact string (`board_key`): every hex as "q,r,terrain,number"
and the harbours as "edge:kind". The geometry (vertex and edge ids, adjacency, coordinates) is
derived from that string once and cached, so a move copies none of it.

Hexes are pointy-top in axial coordinates (q, r); a hex's centre is x = sqrt(3) * (q + r/2),
y = 1.5 * r (radius 1, y grows downwards). Corner i of a hex lies at angle 60*i - 90 degrees
(0 = top, then clockwise); edge i joins corners i and i+1. Vertex and edge ids are numbered by
position (top to bottom, left to right), so the same hexes always give the same ids.
"""
from __future__ import annotations

import math
from functools import lru_cache
from operator import itemgetter

from games.engines import dice

RESOURCES = ("brick", "lumber", "wool", "grain", "ore")


def pips(number) -> int:
    """The ways of 36 that two dice roll a token's number: the dots printed on it (none on the
    desert, and no token bears 7)."""
    return 6 - abs(7 - number) if number and number != 7 else 0
TERRAIN_RESOURCE = {"hills": "brick", "forest": "lumber", "pasture": "wool", "fields": "grain",
                    "mountains": "ore", "desert": None, "water": None}
TERRAIN_LETTER = {"hills": "h", "forest": "f", "pasture": "p", "fields": "g", "mountains": "m",
                  "desert": "d", "water": "w"}
LETTER_TERRAIN = {v: k for k, v in TERRAIN_LETTER.items()}
HARBOUR_KINDS = ("3:1",) + RESOURCES
SQRT3 = math.sqrt(3)
DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))  # across edges 0..5

# The standard boards (base game and the 5-6 player extension).
STANDARD_TERRAINS = {
    4: ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + ["hills"] * 3 + ["mountains"] * 3 + ["desert"],
    6: ["forest"] * 6 + ["pasture"] * 6 + ["fields"] * 6 + ["hills"] * 5 + ["mountains"] * 5 + ["desert"] * 2,
}
STANDARD_NUMBERS = {
    4: [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12],
    6: [2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12],
}
STANDARD_HARBOURS = {
    4: ["3:1"] * 4 + list(RESOURCES),
    6: ["3:1"] * 5 + list(RESOURCES) + ["wool"],
}
# Number tokens for the generated board (C4): the base game's eighteen, repeated as needed.
TOKEN_CYCLE = STANDARD_NUMBERS[4]
LAND_CYCLE = ("forest", "pasture", "fields", "hills", "mountains")


def centre(q: int, r: int) -> tuple[float, float]:
    return SQRT3 * (q + r / 2), 1.5 * r


class Frame:
    """The positions of a set of hexes: corner and edge ids, adjacency and coordinates. Boards
    of the same shape share one frame (cached), whatever their terrains."""

    __slots__ = ("vertex_xy", "vertex_count", "hex_vertices", "edge_count", "edge_vertices",
                 "edge_hexes", "edge_xy", "hex_edges", "vertex_hexes", "vertex_edges", "vertex_adjacent",
                 "edge_adjacent")

    def __init__(self, cells: tuple):
        hex_xy = tuple(centre(q, r) for q, r in cells)
        # Corners, keyed by rounded position so that neighbouring hexes share them.
        corner_pos = {}
        hex_corner_keys = []
        for (x, y) in hex_xy:
            keys = []
            for i in range(6):
                angle = math.radians(60 * i - 90)
                cx, cy = x + math.cos(angle), y + math.sin(angle)
                k = (round(cx * 1000), round(cy * 1000))
                corner_pos.setdefault(k, (round(cx, 4), round(cy, 4)))
                keys.append(k)
            hex_corner_keys.append(keys)
        order = sorted(corner_pos, key=lambda k: (k[1], k[0]))
        vid = {k: i for i, k in enumerate(order)}
        self.vertex_xy = tuple(corner_pos[k] for k in order)
        self.vertex_count = len(order)
        self.hex_vertices = tuple(tuple(vid[k] for k in keys) for keys in hex_corner_keys)

        edge_set = {}
        for h, vs in enumerate(self.hex_vertices):
            for i in range(6):
                a, b = vs[i], vs[(i + 1) % 6]
                pair = (min(a, b), max(a, b))
                edge_set.setdefault(pair, []).append(h)
        def midpoint(pair):
            (ax, ay), (bx, by) = self.vertex_xy[pair[0]], self.vertex_xy[pair[1]]
            return ((ay + by) / 2, (ax + bx) / 2)
        pairs = sorted(edge_set, key=midpoint)
        eid = {p: i for i, p in enumerate(pairs)}
        self.edge_count = len(pairs)
        self.edge_vertices = tuple(pairs)
        self.edge_hexes = tuple(tuple(edge_set[p]) for p in pairs)
        self.edge_xy = tuple((round(midpoint(p)[1], 4), round(midpoint(p)[0], 4)) for p in pairs)
        self.hex_edges = tuple(
            tuple(eid[(min(vs[i], vs[(i + 1) % 6]), max(vs[i], vs[(i + 1) % 6]))] for i in range(6))
            for vs in self.hex_vertices)
        v_hexes = [[] for _ in range(self.vertex_count)]
        for h, vs in enumerate(self.hex_vertices):
            for v in vs:
                v_hexes[v].append(h)
        self.vertex_hexes = tuple(tuple(sorted(x)) for x in v_hexes)
        v_edges = [[] for _ in range(self.vertex_count)]
        for e, (a, b) in enumerate(self.edge_vertices):
            v_edges[a].append(e)
            v_edges[b].append(e)
        self.vertex_edges = tuple(tuple(x) for x in v_edges)
        self.vertex_adjacent = tuple(
            tuple(self.other_end(e, v) for e in v_edges[v]) for v in range(self.vertex_count))
        self.edge_adjacent = tuple(
            tuple(sorted({f for v in self.edge_vertices[e] for f in self.vertex_edges[v] if f != e}))
            for e in range(self.edge_count))

    def other_end(self, e: int, v: int) -> int:
        a, b = self.edge_vertices[e]
        return b if a == v else a


@lru_cache(maxsize=16)
def _frame(cells: tuple) -> Frame:
    return Frame(cells)


class Geometry:
    """Everything fixed by a board key, as tuples indexed by id: the hexes' layout, and the
    harbours placed on it."""

    def __init__(self, key: str):
        self.key = key
        hex_part, _, harbour_part = key.partition("|")
        self._lay_out(hex_part)
        self._place(harbour_part)

    @classmethod
    def on(cls, layout: "Geometry", key: str) -> "Geometry":
        """The board `key`, whose hexes are laid out as `layout`'s: only its harbours are worked
        out (a new board's harbours are placed on its layout, which is not laid out again)."""
        geo = cls.__new__(cls)
        geo.__dict__.update(vars(layout))
        geo.key = key
        geo._place(key.partition("|")[2])
        return geo

    def _lay_out(self, hex_part: str) -> None:
        hexes = []
        for item in hex_part.split(";"):
            q, r, letter, number = item.split(",")
            hexes.append((int(q), int(r), LETTER_TERRAIN[letter], int(number)))
        self.hexes = hexes
        self.hex_count = len(hexes)
        self.hex_at = {(q, r): i for i, (q, r, _, _) in enumerate(hexes)}
        self.terrain = tuple(h[2] for h in hexes)
        self.number = tuple(h[3] or None for h in hexes)
        self.resource = tuple(TERRAIN_RESOURCE[h[2]] for h in hexes)
        self.land = tuple(h[2] != "water" for h in hexes)
        self.hex_xy = tuple(centre(h[0], h[1]) for h in hexes)

        frame = _frame(tuple((q, r) for q, r, _, _ in hexes))
        for name in Frame.__slots__:
            setattr(self, name, getattr(frame, name))
        kinds = []
        for hs in self.edge_hexes:
            lands = sum(1 for h in hs if self.land[h])
            kinds.append("land" if lands == 2 else "coast" if lands == 1 else "sea")
        self.edge_kind = tuple(kinds)
        self.edge_land_hexes = tuple(tuple(h for h in hs if self.land[h]) for hs in self.edge_hexes)
        self.edge_water_hexes = tuple(tuple(h for h in hs if not self.land[h]) for hs in self.edge_hexes)

        self.vertex_land_hexes = tuple(tuple(h for h in hs if self.land[h]) for hs in self.vertex_hexes)
        self.vertex_on_land = tuple(bool(x) for x in self.vertex_land_hexes)
        # Edges a road may take (at least one land side) and a ship may take (at least one water side).
        self.road_edge = tuple(k != "sea" and bool(self.edge_land_hexes[e]) for e, k in enumerate(kinds))
        self.ship_edge = tuple(bool(self.edge_water_hexes[e]) for e in range(self.edge_count))
        # C10: from edge e, a wind on water hex w moves the ship to one of w's two edges that share a
        # corner with e.
        wind = []
        for e in range(self.edge_count):
            moves = []
            for w in self.edge_water_hexes[e]:
                ring = self.hex_edges[w]
                i = ring.index(e)
                moves.append((w, (ring[(i - 1) % 6], ring[(i + 1) % 6])))
            wind.append(tuple(moves))
        self.wind = tuple(wind)
        # Production: the land hexes with each number.
        by_number = {}
        water_by_number = {}
        for h in range(self.hex_count):
            n = self.number[h]
            if n is None:
                continue
            (by_number if self.land[h] else water_by_number).setdefault(n, []).append(h)
        self.land_by_number = {n: tuple(hs) for n, hs in by_number.items()}
        self.water_by_number = {n: tuple(hs) for n, hs in water_by_number.items()}
        self.land_hexes = tuple(h for h in range(self.hex_count) if self.land[h])

    def _place(self, harbour_part: str) -> None:
        harbours = []
        if harbour_part:
            for item in harbour_part.split(","):
                e, kind = item.split(":", 1)
                harbours.append((int(e), kind))
        self.harbours = tuple(harbours)
        self.edge_harbour = {e: kind for e, kind in harbours}
        v_harbour = [None] * self.vertex_count
        for e, kind in harbours:
            for v in self.edge_vertices[e]:
                v_harbour[v] = kind
        self.vertex_harbour = tuple(v_harbour)
        self.harbour_corners = tuple((v, kind) for e, kind in harbours for v in self.edge_vertices[e])
        # Who holds each harbour corner, read from a state's corner list in one C call (the
        # trade rates are remembered by these values).
        corners = [v for v, _ in self.harbour_corners]
        self.harbour_holders = ((lambda owner: ()) if not corners else
                                (lambda owner, get=itemgetter(corners[0]): (get(owner),)) if len(corners) == 1
                                else itemgetter(*corners))
        self._drawing = None

    def other_end(self, e: int, v: int) -> int:
        a, b = self.edge_vertices[e]
        return b if a == v else a

    def drawing(self) -> dict:
        """The board as the view shows it: every coordinate ready to draw (a fresh copy each
        time, made from one computed once per board)."""
        if self._drawing is None:
            self._drawing = self._draw()
        return {name: [dict(item) for item in items] for name, items in self._drawing.items()}

    def _draw(self) -> dict:
        hexes = []
        for h, (q, r, terrain, number) in enumerate(self.hexes):
            x, y = self.hex_xy[h]
            hexes.append({"id": h, "q": q, "r": r, "x": round(x, 4), "y": round(y, 4),
                          "terrain": terrain, "resource": TERRAIN_RESOURCE[terrain],
                          "number": number or None})
        return {
            "hexes": hexes,
            "vertices": [{"id": v, "x": x, "y": y} for v, (x, y) in enumerate(self.vertex_xy)],
            "edges": [{"id": e, "a": a, "b": b, "x": self.edge_xy[e][0], "y": self.edge_xy[e][1],
                       "kind": self.edge_kind[e]} for e, (a, b) in enumerate(self.edge_vertices)],
            "harbours": [{"edge": e, "kind": kind} for e, kind in self.harbours],
        }


@lru_cache(maxsize=256)
def geometry(key: str) -> Geometry:
    hex_part, _, harbour_part = key.partition("|")
    return Geometry.on(_layout(hex_part), key) if harbour_part else _layout(hex_part)


@lru_cache(maxsize=32)
def _layout(hex_part: str) -> Geometry:
    """A board's hexes laid out, without harbours: what a new board's harbours are placed on
    (`_place_harbours`), and then the board with them (`geometry`)."""
    return Geometry(hex_part + "|")


def _hex_text(hexes: list[tuple]) -> str:
    return ";".join(f"{q},{r},{TERRAIN_LETTER[t]},{n or 0}" for q, r, t, n in hexes)


def _key(hexes: list[tuple], harbours: list[tuple]) -> str:
    return _hex_text(hexes) + "|" + ",".join(f"{e}:{k}" for e, k in harbours)


def _ring_neighbours(cells: set) -> list[tuple[int, int]]:
    """Hexes next to `cells` but not in it, in a fixed order."""
    out = set()
    for q, r in cells:
        for dq, dr in DIRECTIONS:
            c = (q + dq, r + dr)
            if c not in cells:
                out.add(c)
    return sorted(out, key=lambda c: (c[1], c[0]))


def _place_harbours(state: dict, hexes: list[tuple], kinds: list[str]) -> list[tuple]:
    """Harbours on coast edges, spread round the coast: the coast edges in order of their angle
    round the board's centre, a harbour every len/len(kinds) edges from a drawn start, skipping
    on where a harbour would share a corner with another."""
    geo = _layout(_hex_text(hexes))
    coast = [e for e in range(geo.edge_count) if geo.edge_kind[e] == "coast"]
    cx = sum(x for x, _ in geo.edge_xy) / geo.edge_count
    cy = sum(y for _, y in geo.edge_xy) / geo.edge_count
    coast.sort(key=lambda e: (math.atan2(geo.edge_xy[e][1] - cy, geo.edge_xy[e][0] - cx), e))
    kinds = dice.shuffle(state, kinds)
    if not coast:
        return []
    start = dice.draw(state, len(coast))
    step = len(coast) / len(kinds)
    used_vertices: set = set()
    chosen = []
    for i, kind in enumerate(kinds):
        at = int(start + i * step)
        for extra in range(len(coast)):
            e = coast[(at + extra) % len(coast)]
            a, b = geo.edge_vertices[e]
            near = {a, b, *geo.vertex_adjacent[a], *geo.vertex_adjacent[b]}
            if not near & used_vertices:
                used_vertices |= {a, b}
                chosen.append((e, kind))
                break
    return sorted(chosen)


def _no_adjacent_reds(hexes: list[tuple]) -> bool:
    red = {(q, r) for q, r, _, n in hexes if n in (6, 8)}
    return not any((q + dq, r + dr) in red for q, r in red for dq, dr in DIRECTIONS)


def standard_board(state: dict, players: int) -> str:
    """The base game's board (3-4 players: 19 land hexes; 5-6: the extension's 30) with a frame of
    water, terrains, numbers and harbours shuffled with the state's dice."""
    size = 4 if players <= 4 else 6
    if size == 4:
        cells = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    else:
        cells = [(q, r) for r in range(-3, 4) for q in range(max(-3, -3 - r), max(-3, -3 - r) + 6 - abs(r))]
    cells.sort(key=lambda c: (c[1], c[0]))
    for _ in range(100):
        terrains = dice.shuffle(state, STANDARD_TERRAINS[size])
        numbers = dice.shuffle(state, STANDARD_NUMBERS[size])
        hexes, it = [], iter(numbers)
        for (q, r), t in zip(cells, terrains):
            hexes.append((q, r, t, 0 if t == "desert" else next(it)))
        if _no_adjacent_reds(hexes):
            break
    land = set(cells)
    hexes += [(q, r, "water", 0) for q, r in _ring_neighbours(land)]
    harbours = _place_harbours(state, hexes, STANDARD_HARBOURS[size])
    return _key(hexes, harbours)


def _spiral(count: int) -> list[tuple[int, int]]:
    """The first `count` hexes of a spiral from (0, 0) outwards."""
    out = [(0, 0)]
    radius = 1
    while len(out) < count:
        q, r = -radius, 0  # the ring's west corner; each direction walks one side
        for dq, dr in DIRECTIONS:
            for _ in range(radius):
                out.append((q, r))
                q, r = q + dq, r + dr
        radius += 1
    return out[:count]


def _water_connected(cells: list, land: set) -> bool:
    water = [c for c in cells if c not in land]
    if not water:
        return False
    cellset = set(cells)
    seen = {water[0]}
    stack = [water[0]]
    while stack:
        q, r = stack.pop()
        for dq, dr in DIRECTIONS:
            c = (q + dq, r + dr)
            if c in cellset and c not in land and c not in seen:
                seen.add(c)
                stack.append(c)
    return len(seen) == len(water)


def _makes_triangle(cell, land: set) -> bool:
    """Would `cell` be a third land hex at one corner (C3)? Corner i of a hex touches the
    neighbours across edges i-1 and i."""
    q, r = cell
    around = [(q + dq, r + dr) in land for dq, dr in DIRECTIONS]
    return any(around[i] and around[(i + 1) % 6] for i in range(6))


def ships_board(state: dict, players: int, edition: int) -> str:
    """The variant's board (C2-C4): about 4 land and 8 water hexes per player, land scattered
    at random over a roughly round sea. No corner touches three land hexes (C3); the outer ring
    is all water and the water is one connected sea, so every corner of the land touches water
    and every coast can reach every other by sea. Every hex, water too, gets a number token (C4);
    there is no desert."""
    total = 12 * players
    cells = _spiral(total)
    cellset = set(cells)
    inner = [c for c in cells if all((c[0] + dq, c[1] + dr) in cellset for dq, dr in DIRECTIONS)]
    want = 4 * players
    best: set = set()
    for _ in range(60):
        land: set = set()
        for c in dice.shuffle(state, inner):
            if len(land) >= want:
                break
            if not _makes_triangle(c, land):
                land.add(c)
        if len(land) > len(best) and _water_connected(cells, land):
            best = land
        if len(best) >= want:
            break
    land = best
    land_cells = sorted(land, key=lambda c: (c[1], c[0]))
    terrains = dice.shuffle(state, [LAND_CYCLE[i % 5] for i in range(len(land_cells))])
    water_cells = sorted((c for c in cells if c not in land), key=lambda c: (c[1], c[0]))
    if edition >= 2:
        hexes = _drawn_tokens(state, land_cells, terrains, water_cells)
        harbours = _place_harbours(state, hexes, _drawn_harbours(state, len(land_cells)))
        return _key(hexes, harbours)
    # Edition 1: land always had the first tokens of the cycle, the harbours a fixed list.
    for _ in range(100):
        land_numbers = dice.shuffle(state, [TOKEN_CYCLE[i % 18] for i in range(len(land_cells))])
        hexes = [(q, r, t, n) for (q, r), t, n in zip(land_cells, terrains, land_numbers)]
        if _no_adjacent_reds(hexes):
            break
    water_numbers = dice.shuffle(state, [TOKEN_CYCLE[i % 18] for i in range(len(water_cells))])
    hexes += [(q, r, "water", n) for (q, r), n in zip(water_cells, water_numbers)]
    kinds = ["3:1", "3:1"] + list(RESOURCES)
    kinds = [kinds[i % len(kinds)] for i in range(_harbour_count(len(land_cells)))]
    harbours = _place_harbours(state, hexes, kinds)
    return _key(hexes, harbours)


def _harbour_count(land: int) -> int:
    """About one harbour per two land hexes, as the base game's 9 for 19."""
    return max(5, round(land * 9 / 19))


def _drawn_tokens(state: dict, land_cells: list, terrains: list, water_cells: list) -> list[tuple]:
    """C4 (edition 2): every hex, land and water, draws its token from the base game's set of
    eighteen (as many sets as the board needs, the last one cut at random), so any number can
    fall on land; drawn again until no 6 and 8 are neighbours on land (the base game's spread
    rule; on water a token only brings wind)."""
    count = len(land_cells) + len(water_cells)
    sets = -(-count // len(TOKEN_CYCLE))
    hexes: list[tuple] = []
    for _ in range(100):
        tokens = dice.shuffle(state, TOKEN_CYCLE * sets)[:count]
        hexes = [(q, r, t, n) for (q, r), t, n in zip(land_cells, terrains, tokens)]
        if _no_adjacent_reds(hexes):
            break
    tokens = tokens[len(land_cells):]
    return hexes + [(q, r, "water", n) for (q, r), n in zip(water_cells, tokens)]


def _drawn_harbours(state: dict, land: int) -> list[str]:
    """C13 (edition 2): the harbours drawn from the base game's nine (four 3:1, one 2:1 for each
    resource; as many sets as needed), so every resource's 2:1 harbour can be on the board."""
    count = _harbour_count(land)
    sets = -(-count // len(STANDARD_HARBOURS[4]))
    return dice.shuffle(state, STANDARD_HARBOURS[4] * sets)[:count]


def pirate_start(geo: Geometry) -> int:
    """C18 (reading): the open-sea edge farthest from all land (ties: the lowest id)."""
    land = [geo.hexes[h][:2] for h in geo.land_hexes]
    best, best_score = None, -1.0
    for e in range(geo.edge_count):
        if geo.edge_kind[e] != "sea":
            continue
        x, y = geo.edge_xy[e]
        score = min(math.hypot(x - geo.hex_xy[h][0], y - geo.hex_xy[h][1]) for h in geo.land_hexes) if land else 0
        if score > best_score + 1e-9:
            best, best_score = e, score
    return best


def drawn_geometry(drawing: dict) -> Geometry:
    """The geometry of a board as the view draws it (`Geometry.drawing`): the same cached
    object the rules read, so a page takes which hexes meet at a corner or an edge from here."""
    hexes = [(h["q"], h["r"], h["terrain"], h["number"]) for h in drawing["hexes"]]
    return geometry(_key(hexes, [(h["edge"], h["kind"]) for h in drawing["harbours"]]))
