"""Fuldrigger's world map: port cities and sea squares joined by chains, and the price lists.

The map is data (`world.json`, `prices.json` beside this file); this module only loads it and
answers graph questions. Pure Python, no Django. Design notes: docs/fuldrigger-world.md.
"""
from __future__ import annotations

import json
from collections import deque
from pathlib import Path

HAZARDS = ("tailwind", "headwind", "storm", "ice", "calm", "reef", "pirates")
HERE = Path(__file__).resolve().parent


class World:
    """The board: an undirected graph of nodes (ports and sea squares) with hazards and prices."""

    def __init__(self, world: dict, prices: dict):
        self.nodes: dict[str, dict] = world["nodes"]
        links: dict[str, set[str]] = {node: set() for node in self.nodes}
        for a, b in world["edges"]:
            if a not in links or b not in links:
                raise ValueError(f"edge {a}–{b} names an unknown node")
            if a == b:
                raise ValueError(f"edge {a}–{b} is a loop")
            links[a].add(b)
            links[b].add(a)
        self.adjacency: dict[str, tuple[str, ...]] = {n: tuple(sorted(s)) for n, s in links.items()}
        self.ports: tuple[str, ...] = tuple(n for n, d in self.nodes.items() if d["kind"] == "port")
        self.homes: tuple[str, ...] = tuple(world["homes"])
        self.calm_square: str = world["calm_square"]
        self.isthmus: tuple[dict, ...] = tuple(
            {"name": i["name"], "ports": tuple(i["ports"])} for i in world["isthmus"]
        )
        self._partner = {}
        for crossing in self.isthmus:
            a, b = crossing["ports"]
            self._partner[a], self._partner[b] = b, a
        self.goods: dict[str, dict] = prices["goods"]
        self.prices: dict[str, dict[str, dict]] = prices["ports"]
        self._bfs: dict[str, dict[str, int]] = {}
        # F19: the squares whose hazard an earlier rules edition placed otherwise (edition 1's
        # pirate waters lay where no fortress could protect them); the nodes give the current.
        self.earlier_hazards: dict[int, dict[str, str | None]] = {
            int(edition): dict(change["hazards"])
            for edition, change in world.get("earlier_editions", {}).items()}
        for changes in self.earlier_hazards.values():
            for node, hazard in changes.items():
                if node not in self.nodes or (hazard is not None and hazard not in HAZARDS):
                    raise ValueError(f"earlier edition names {node} with hazard {hazard}")

    def neighbours(self, node: str) -> tuple[str, ...]:
        return self.adjacency[node]

    def is_port(self, node: str) -> bool:
        return self.nodes[node]["kind"] == "port"

    def hazard(self, node: str, edition: int | None = None) -> str | None:
        """The square's hazard; under an earlier rules `edition` where that edition differs."""
        changes = self.earlier_hazards.get(edition)
        if changes is not None and node in changes:
            return changes[node]
        return self.nodes[node].get("hazard")

    def reef_letter(self, node: str) -> str | None:
        return self.nodes[node].get("reef")

    def distances_from(self, a: str) -> dict[str, int]:
        """Fewest steps from `a` to every reachable node (breadth-first search, cached)."""
        if a not in self._bfs:
            if a not in self.nodes:
                raise KeyError(a)
            seen = {a: 0}
            queue = deque([a])
            while queue:
                node = queue.popleft()
                step = seen[node] + 1
                for nxt in self.adjacency[node]:
                    if nxt not in seen:
                        seen[nxt] = step
                        queue.append(nxt)
            self._bfs[a] = seen
        return self._bfs[a]

    def distance(self, a: str, b: str) -> int:
        """Fewest steps along edges from a to b; ValueError if b can't be reached."""
        try:
            return self.distances_from(a)[b]
        except KeyError:
            if b not in self.nodes:
                raise
            raise ValueError(f"{b} can't be reached from {a}") from None

    def within(self, node: str, steps: int) -> set[str]:
        """Nodes at most `steps` steps from `node`, `node` included."""
        return {n for n, d in self.distances_from(node).items() if d <= steps}

    def isthmus_partner(self, port: str) -> str | None:
        return self._partner.get(port)

    def name(self, node: str) -> str:
        """A port's name, or a readable square label such as "Cape of Good Hope (storm)"."""
        data = self.nodes[node]
        if data["kind"] == "port":
            return data["name"]
        label = data.get("area") or node
        hazard = data.get("hazard")
        if hazard == "reef":
            return f"{label} (reef {data['reef']})"
        if hazard:
            return f"{label} ({hazard})"
        if node == self.calm_square:
            return f"{label} (calm square)"
        return label


def load_world(directory=None) -> World:
    """Read world.json and prices.json from `directory` (default: beside this file)."""
    folder = Path(directory) if directory is not None else HERE
    with open(folder / "world.json", encoding="utf-8") as f:
        world = json.load(f)
    with open(folder / "prices.json", encoding="utf-8") as f:
        prices = json.load(f)
    return World(world, prices)


WORLD = load_world()
