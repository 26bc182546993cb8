"""Other routes to a square a ship can reach: the engine lists one path per destination (the
one leaving the most movement); a player may prefer a longer way round a storm or a reef.
The rules are the engine's (each square costs one, tailwinds give three back, headwinds take
three, never below zero, ports end a move, no square twice); the engine checks whatever is
posted, so this only has to find candidates."""
from __future__ import annotations

from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.sailing import WIND, left_after

MAX_STEPS = 20000


def routes(start: str, dest: str, total: int, limit: int = 4, first: list[str] | None = None) -> list[list[str]]:
    """Up to `limit` different paths from `start` to `dest` with `total`, `first` (the engine's
    path) leading, the others by fewest dice hazards, then fewest squares."""
    found: list[tuple[str, ...]] = []
    budget = [MAX_STEPS]
    distance = WORLD.distances_from(dest)

    def walk(node: str, left: int, path: tuple[str, ...], seen: frozenset) -> None:
        budget[0] -= 1
        if budget[0] <= 0 or len(found) >= 40 or left < 1:
            return
        for nxt in WORLD.adjacency[node]:
            if nxt in seen:
                continue
            rest = left_after(left, nxt)
            if nxt == dest:
                found.append(path + (nxt,))
                continue
            # A port ends a move; squares too far from the destination lead nowhere (allowing
            # for one more tailwind on the way).
            if WORLD.is_port(nxt) or distance.get(nxt, 10**6) > rest + WIND:
                continue
            walk(nxt, rest, path + (nxt,), seen | {nxt})

    walk(start, total, (), frozenset({start}))
    ranked = sorted(set(found), key=lambda p: (danger(p), len(p), p))
    result = [list(first)] if first else []
    for path in ranked:
        if len(result) >= limit:
            break
        if list(path) not in result:
            result.append(list(path))
    return result


def danger(path) -> int:
    """Squares on the path whose hazard rolls dice."""
    return sum(1 for node in path if WORLD.hazard(node) in ("storm", "ice", "calm", "reef", "pirates"))
