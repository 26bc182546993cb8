"""Convert Natural Earth's land outlines into the world map's own projection, once.

    cd /tmp && npm pack world-atlas && tar xzf world-atlas-*.tgz
    python games/fuldrigger/make_coastlines.py /tmp/package/land-50m.json

Natural Earth (public domain, naturalearthdata.com) as TopoJSON from the npm package
`world-atlas`. The script decodes the TopoJSON arcs, projects longitude and latitude as
world_map.py projects the squares (equirectangular, SCALE units per degree, x from the date line),
clips the rings to the latitudes the map can show, simplifies them (Douglas–Peucker) and drops
islands too small to see, so the layer stays a few kilobytes. It writes coastlines.json beside
this file: one SVG path whose y is measured from the North Pole (90° N); the map shifts it down
to its own top edge, so the squares in world.json may move without converting again.

Standard library only: it runs without Django, and nothing is fetched when the site runs.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

SCALE = 5               # must equal world_map.SCALE: SVG units per degree
NORTH, SOUTH = 84.0, -72.0   # latitudes kept: beyond every square the map may hold, with sea to spare
TOLERANCE = 0.5         # Douglas–Peucker tolerance, SVG units (0.14°)
MIN_AREA = 3.0          # rings smaller than this (square SVG units) are left out
OUT = Path(__file__).with_name("coastlines.json")


def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """The TopoJSON arcs as lists of (lon, lat): delta-decoded and un-quantised."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def ring_points(ring: list[int], arcs) -> list[tuple[float, float]]:
    """A ring given as arc indexes (~i means arc i reversed), each arc's first point shared with
    the previous arc's last."""
    points: list[tuple[float, float]] = []
    for index in ring:
        arc = arcs[index] if index >= 0 else list(reversed(arcs[~index]))
        points.extend(arc if not points else arc[1:])
    return points


def polygons(topo: dict, arcs) -> list[list[list[tuple[float, float]]]]:
    out = []
    for geometry in topo["objects"]["land"]["geometries"]:
        shapes = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for shape in shapes:
            out.append([ring_points(ring, arcs) for ring in shape])
    return out


def project(lon: float, lat: float) -> tuple[float, float]:
    return (lon + 180) * SCALE, (90 - lat) * SCALE


def clip(points, top: float, bottom: float):
    """Sutherland–Hodgman against the two latitude edges (longitude needs none: the map's edges
    are the date line, where Natural Earth already cuts its shapes)."""
    for keep, edge in ((lambda p: p[1] >= top, top), (lambda p: p[1] <= bottom, bottom)):
        if not points:
            return []
        out = []
        prev = points[-1]
        for cur in points:
            if keep(cur):
                if not keep(prev):
                    out.append(_cross(prev, cur, edge))
                out.append(cur)
            elif keep(prev):
                out.append(_cross(prev, cur, edge))
            prev = cur
        points = out
    return points


def _cross(a, b, y):
    t = (y - a[1]) / (b[1] - a[1])
    return (a[0] + (b[0] - a[0]) * t, y)


def simplify(points, tolerance: float):
    """Douglas–Peucker on a closed ring (iterative: rings run to thousands of points)."""
    if len(points) < 4:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    # A closed ring's first and last points coincide: split it at its farthest point as well.
    far = max(range(len(points)), key=lambda i: math.dist(points[0], points[i]))
    keep[far] = True
    stack = [(0, far), (far, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (ax, ay), (bx, by) = points[first], points[last]
        length = math.hypot(bx - ax, by - ay)
        best, index = 0.0, None
        for i in range(first + 1, last):
            px, py = points[i]
            d = (abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length if length
                 else math.hypot(px - ax, py - ay))
            if d > best:
                best, index = d, i
        if index is not None and best > tolerance:
            keep[index] = True
            stack += [(first, index), (index, last)]
    return [p for p, k in zip(points, keep) if k]


def area(points) -> float:
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1]))) / 2


def path(rings) -> str:
    """Rings as SVG path data in whole tenths relative moves, the shortest text that keeps them."""
    parts = []
    for ring in rings:
        pts = [(round(x * 10), round(y * 10)) for x, y in ring]
        cleaned = [pts[0]]
        for p in pts[1:]:
            if p != cleaned[-1]:
                cleaned.append(p)
        if len(cleaned) < 3:
            continue
        text = [f"M{_num(cleaned[0][0])} {_num(cleaned[0][1])}l"]
        for (ax, ay), (bx, by) in zip(cleaned, cleaned[1:]):
            text.append(_pair(bx - ax, by - ay))
        parts.append("".join(text) + "z")
    return "".join(parts)


def _num(tenths: int) -> str:
    text = f"{tenths / 10:.1f}".rstrip("0").rstrip(".")
    return text.replace("0.", ".", 1) if text.startswith("0.") else text.replace("-0.", "-.", 1)


def _pair(dx: int, dy: int) -> str:
    x, y = _num(dx), _num(dy)
    return (x if x.startswith("-") else " " + x) + (y if y.startswith("-") else " " + y)


def convert(source: Path, tolerance: float = TOLERANCE) -> dict:
    topo = json.loads(source.read_text())
    arcs = decode_arcs(topo)
    top, bottom = project(0, NORTH)[1], project(0, SOUTH)[1]
    rings = []
    for polygon in polygons(topo, arcs):
        for ring in polygon:
            points = clip([project(lon, lat) for lon, lat in ring], top, bottom)
            if len(points) < 3 or area(points) < MIN_AREA:
                continue
            points = simplify(points + [points[0]], tolerance)[:-1]
            if len(points) >= 3 and area(points) >= MIN_AREA:
                rings.append(points)
    return {
        "source": f"Natural Earth land ({source.name}, via the npm package world-atlas); public domain",
        "scale": SCALE, "north": NORTH, "south": SOUTH, "origin": "y = (90 - latitude) * scale",
        "rings": len(rings), "d": path(rings),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="land-50m.json or land-110m.json from world-atlas")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    data = convert(args.source, args.tolerance)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{data['rings']} rings, {len(data['d'])} characters of path -> {args.out}")


if __name__ == "__main__":
    main()
