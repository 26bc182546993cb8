"""Victory points and the titles that carry them: buildings, longest road (B-longest-road),
largest army's bound (B-largest-army), docked ships (C20), hidden victory cards, and the win in
one's own turn with those cards revealed (B-win, C20)."""
from __future__ import annotations

from games.engines.catan_ships.board import geometry
from games.engines.catan_ships.state import Work, at_own_shore

LONGEST_MIN, ARMY_MIN = 5, 3


def hidden_points(state: dict, seat: int) -> int:
    return sum(1 for kind, _ in state["dev"][seat] if kind == "victory_point")


def docked_ships(state: dict, seat: int, geo=None) -> int:
    """C20: own ships on shore edges at an own settlement, city or road."""
    geo = geo or geometry(state["board"])
    count = 0
    for ship in state["ships"]:
        if ship["seat"] == seat and at_own_shore(state, geo, ship["edge"], seat, roads=True):
            count += 1
    return count


def ship_points(state: dict, seat: int, geo=None) -> int:
    """C20: 2 ships docked at once count 1 point, 3 ships 2 points."""
    if not state["ships_variant"]:
        return 0
    n = docked_ships(state, seat, geo)
    return 2 if n >= 3 else 1 if n == 2 else 0


def public_points(state: dict, seat: int) -> int:
    built = state["pieces"][seat]
    points = built[1] + 2 * built[2]
    if state["longest"] == seat:
        points += 2
    if state["army"] == seat:
        points += 2
    if state["ships_variant"]:
        points += ship_points(state, seat)
    return points


def total_points(state: dict, seat: int) -> int:
    points = public_points(state, seat)
    for kind, _ in state["dev"][seat]:
        if kind == "victory_point":
            points += 1
    return points


def road_length(state: dict, seat: int, geo=None) -> int:
    """The longest trail of the seat's roads (no edge twice); an opponent's building breaks it.

    A longest trail can be taken to start at a network end: a corner with one or three of the
    seat's roads, or an opponent's building. (A trail starting at a free corner with two roads
    either extends there or is closed, and a closed trail can start at any of its corners with
    three roads.) Only a component that is a plain ring has no end; its length is its size."""
    geo = geo or geometry(state["board"])
    roads, owner = state["roads"], state["owner"]
    vertex_edges, edge_vertices = geo.vertex_edges, geo.edge_vertices
    mine = [e for e, o in enumerate(roads) if o == seat]
    if len(mine) <= 1:
        return len(mine)
    degree: dict = {}
    for e in mine:
        for v in edge_vertices[e]:
            degree[v] = degree.get(v, 0) + 1
    ends = [v for v, d in degree.items() if d != 2 or (owner[v] >= 0 and owner[v] != seat)]
    best = 0
    used = set()
    total = len(mine)

    def walk(v: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if length and owner[v] >= 0 and owner[v] != seat:
            return
        for f in vertex_edges[v]:
            if roads[f] == seat and f not in used:
                used.add(f)
                a, b = edge_vertices[f]
                walk(b if a == v else a, length + 1)
                used.discard(f)

    for v in sorted(ends):
        walk(v, 0)
        if best == total:
            return best
    # Rings with no end anywhere in their component.
    seen = set()
    for v in sorted(ends):
        _component(v, roads, seat, vertex_edges, edge_vertices, seen)
    for e in mine:
        if e not in seen:
            ring: set = set()
            _component(edge_vertices[e][0], roads, seat, vertex_edges, edge_vertices, ring)
            seen |= ring
            best = max(best, len(ring))
    return best


def _component(v, roads, seat, vertex_edges, edge_vertices, seen: set) -> None:
    stack = [v]
    while stack:
        u = stack.pop()
        for f in vertex_edges[u]:
            if roads[f] == seat and f not in seen:
                seen.add(f)
                a, b = edge_vertices[f]
                stack.append(b if a == u else a)


def update_longest(w: Work, seats) -> list[dict]:
    s = w.s
    lengths = w.list("road_length")
    for seat in seats:
        lengths[seat] = road_length(s, seat, w.geo)
    holder = s["longest"]
    top = max(lengths)
    if holder is not None and lengths[holder] == top and top >= LONGEST_MIN:
        return []
    leaders = [p for p, n in enumerate(lengths) if n == top]
    new = leaders[0] if top >= LONGEST_MIN and len(leaders) == 1 else None
    if new == holder:
        return []
    s["longest"] = new
    return [{"type": "longest_road", "seat": new, "length": top if new is not None else None,
             "lost_by": holder}]


def declare_win(w: Work, seat: int, events: list) -> None:
    s = w.s
    s["phase"] = "over"
    s["winner"] = seat
    s["offers"] = []
    s["sailing"] = None
    events.append({"type": "win", "seat": seat, "points": total_points(s, seat),
                   "victory_cards": hidden_points(s, seat)})
