"""Swiss pairing of one round of 1,000 players (leagues/pairing.py, no Django): the seventh
round of an event at 4-seat tables, everyone having met up to 18 others, with random scores in
few score groups (the hard case: many repeats to step around). Target: under a second."""
from __future__ import annotations

import random
import time

from bench.common import Figure, median

PLAYERS, SIZE, ROUNDS_PLAYED = 1000, 4, 6


def _field(seed: int):
    from leagues.pairing import Player, pair

    rnd = random.Random(seed)
    players = [Player(key=k, rating=rnd.gauss(0, 5)) for k in range(PLAYERS)]
    for _ in range(ROUNDS_PLAYED):
        result = pair(players, size=SIZE)
        by_key = {p.key: p for p in players}
        for table in result.tables:
            for s, k in enumerate(table):
                by_key[k].seats[s] = by_key[k].seats.get(s, 0) + 1
                for q in table:
                    if q != k:
                        by_key[k].met[q] = by_key[k].met.get(q, 0) + 1
            for place, k in enumerate(rnd.sample(table, len(table))):
                by_key[k].score += SIZE - 1 - place
    return players


def measure() -> list[Figure]:
    from leagues.pairing import pair

    players = _field(1)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        result = pair(players, size=SIZE)
        times.append(time.perf_counter() - start)
    repeats = sum(1 for t in result.tables for i, a in enumerate(t) for b in t[i + 1:]
                  if next(p for p in players if p.key == a).met.get(b))
    seconds = median(times)
    return [Figure("pairing: a round of 1,000 players", seconds, "s", "< 1", seconds < 1.0),
            Figure("pairing: repeat meetings in that round", repeats, "pairs", note="after six rounds")]


if __name__ == "__main__":
    for figure in measure():
        print(figure)
