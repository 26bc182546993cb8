"""The world map as the match page draws it: every node of the board placed on an SVG chart.

Longitude and latitude are projected equirectangularly with the map's edges on the date line,
so the Pacific is split: an edge whose ends lie more than 180° of longitude apart is drawn as
two stubs running off the map's edges instead of a line across the world. Nodes that would
print on top of each other (a port and its roads square) are nudged apart a little; the map is
a board, not a survey. Everything here is computed once from `WORLD` and cached; the names on
it once per language (`chart_in`).
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from games.engines.fuldrigger import view as book
from games.engines.fuldrigger.board import WORLD

SCALE = 5               # SVG units per degree
MARGIN = 6              # degrees of sea above the northernmost and below the southernmost node
SPACING = 6.5           # SVG units: nodes closer than this are pushed apart

# Land names printed faintly on the chart, where the land is (lon, lat); translated in chart_in.
LANDS = (
    (gettext_noop("EUROPE"), 18, 49), (gettext_noop("AFRICA"), 20, 8), (gettext_noop("ASIA"), 95, 45),
    (gettext_noop("INDIA"), 78, 22), (gettext_noop("NORTH AMERICA"), -100, 42),
    (gettext_noop("SOUTH AMERICA"), -60, -12), (gettext_noop("NEW HOLLAND"), 133, -25),
    (gettext_noop("ARABIA"), 46, 23),
)


COASTLINES = Path(__file__).with_name("coastlines.json")   # written by make_coastlines.py


@lru_cache(maxsize=1)
def coastlines() -> dict:
    """Natural Earth's land as one SVG path, y measured from the North Pole (make_coastlines.py)."""
    data = json.loads(COASTLINES.read_text())
    if data["scale"] != SCALE:
        raise ValueError("coastlines.json was made for another scale: run make_coastlines.py again")
    return data


def _project(lon: float, lat: float, top: float) -> tuple[float, float]:
    return (lon + 180) * SCALE, (top - lat) * SCALE


def _declutter(points: dict[str, list[float]], fixed: set[str]) -> None:
    """Push apart nodes closer than SPACING (ports stay put unless two ports clash)."""
    for _ in range(12):
        grid: dict[tuple[int, int], list[str]] = {}
        for node, (x, y) in points.items():
            grid.setdefault((int(x // SPACING), int(y // SPACING)), []).append(node)
        moved = False
        for (gx, gy), members in grid.items():
            near = [n for dx in (-1, 0, 1) for dy in (-1, 0, 1) for n in grid.get((gx + dx, gy + dy), ())]
            for a in members:
                for b in near:
                    if b <= a:
                        continue
                    ax, ay = points[a]
                    bx, by = points[b]
                    dx, dy = bx - ax, by - ay
                    dist = math.hypot(dx, dy)
                    if dist >= SPACING:
                        continue
                    if dist < 1e-6:
                        dx, dy, dist = 1.0, 0.0, 1.0
                    push = (SPACING - dist) / dist
                    a_fixed, b_fixed = a in fixed, b in fixed
                    share_a = 0.0 if a_fixed and not b_fixed else 1.0 if b_fixed and not a_fixed else 0.5
                    share_b = 1.0 - share_a
                    points[a] = [ax - dx * push * share_a, ay - dy * push * share_a]
                    points[b] = [bx + dx * push * share_b, by + dy * push * share_b]
                    moved = True
        if not moved:
            return


def _r(value: float) -> float:
    return round(value, 1)


@lru_cache(maxsize=1)
def chart() -> dict:
    """The static chart: size, node positions, the routes as one path, squares, ports, lands."""
    lats = [data["lat"] for data in WORLD.nodes.values()]
    top = math.ceil(max(lats)) + MARGIN
    bottom = math.floor(min(lats)) - MARGIN
    width, height = 360 * SCALE, (top - bottom) * SCALE
    points = {node: list(_project(data["lon"], data["lat"], top)) for node, data in WORLD.nodes.items()}
    _declutter(points, set(WORLD.ports))
    positions = {node: (_r(x), _r(y)) for node, (x, y) in points.items()}

    parts = []
    for a in sorted(WORLD.adjacency):
        for b in WORLD.adjacency[a]:
            if b <= a:
                continue
            (ax, ay), (bx, by) = positions[a], positions[b]
            if abs(WORLD.nodes[a]["lon"] - WORLD.nodes[b]["lon"]) > 180:
                # Across the date line: each end runs off its own edge of the map.
                left, right = ((ax, ay), (bx, by)) if ax < bx else ((bx, by), (ax, ay))
                gap = left[0] + (width - right[0])
                edge_y = _r(left[1] + (right[1] - left[1]) * (left[0] / gap if gap else 0.5))
                parts.append(f"M{left[0]} {left[1]}L0 {edge_y}M{right[0]} {right[1]}L{width} {edge_y}")
            else:
                parts.append(f"M{ax} {ay}L{bx} {by}")

    squares, hazards, ports = [], [], []
    for node, data in WORLD.nodes.items():
        x, y = positions[node]
        if data["kind"] == "port":
            ports.append({"id": node, "name": data["name"], "x": x, "y": y, "rx": _r(x - 2.6), "ry": _r(y - 2.6),
                          "lx": _r(x + 4), "ly": _r(y + 2),
                          "home": node in WORLD.homes, "region": data.get("region", ""),
                          "isthmus": WORLD.isthmus_partner(node) is not None})
            continue
        hazard = data.get("hazard")
        calm_square = node == WORLD.calm_square
        if hazard or calm_square:
            hazards.append({"id": node, "x": x, "y": y,
                            "hazard": hazard or "calm_square",
                            "letter": data.get("reef") or "", "title": WORLD.name(node)})
        else:
            squares.append((x, y))
    # Which port names yield to which when labels crowd (lower first): home ports, then the ports
    # with the most trade (goods bought or sold), then the isthmus ports.
    for port in ports:
        trade = len(WORLD.prices.get(port["id"], {}))
        port["rank"] = (0 if port["home"] else 100) - trade - (3 if port["isthmus"] else 0)
    ports.sort(key=lambda p: p["name"])
    lands = [{"name": name, "x": _r((lon + 180) * SCALE), "y": _r((top - lat) * SCALE)}
             for name, lon, lat in LANDS]
    homes = [positions[h] for h in WORLD.homes if h in positions]
    home = (_r(sum(p[0] for p in homes) / len(homes)), _r(sum(p[1] for p in homes) / len(homes))) if homes else None
    return {
        "width": width, "height": height, "viewbox": f"0 0 {width} {height}", "home": home,
        "land": coastlines()["d"], "land_shift": _r((90 - top) * SCALE),
        "positions": positions, "routes": "".join(parts), "squares": squares, "hazards": hazards,
        "ports": ports, "lands": lands, "equator": _r(top * SCALE),
        "tropics": (_r((top - 23.44) * SCALE), _r((top + 23.44) * SCALE)),
    }


@lru_cache(maxsize=8)
def chart_in(lang: str) -> dict:
    """The chart with its ports, squares and lands named in `lang` (the engine's phrase book for
    places), ports in that language's alphabetical order."""
    base = chart()
    with translation.override(lang):
        ports = sorted(({**p, "name": book.place_name(p["id"], lang=lang)} for p in base["ports"]),
                       key=lambda p: p["name"])
        hazards = [{**h, "title": book.place_name(h["id"], lang=lang)} for h in base["hazards"]]
        lands = [{**land, "name": gettext(land["name"])} for land in base["lands"]]
    return {**base, "ports": ports, "hazards": hazards, "lands": lands}


def position(node: str) -> tuple[float, float]:
    return chart()["positions"][node]


def polyline(path: list[str]) -> list[str]:
    """A path's points as SVG path data pieces, broken where it crosses the date line."""
    width = chart()["width"]
    pieces, current, last = [], [], None
    for node in path:
        x, y = position(node)
        if last is not None and abs(x - last) > width / 2:
            pieces.append(current)
            current = []
        current.append(f"{x} {y}")
        last = x
    pieces.append(current)
    return ["M" + "L".join(piece) for piece in pieces if piece]
