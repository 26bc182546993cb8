"""Figure 1: the engines alone, no Django. Random legal playouts of every registered engine with
its own bot (bots.random_action): how many legal_actions + apply a second, and what one apply
costs beside a JSON round trip of the same state (the database stores and reads the state as
JSON on every action, so an apply dearer than that would be the engine's fault)."""
from __future__ import annotations

import importlib
import json
import random
import time

from bench.common import Figure, median

PLAYERS = 4
OPTIONS = {"fuldrigger": {"rounds": 40, "isthmus": True}}
SECONDS_PER_ENGINE = 2.5
ROUNDS = 5  # the rate is the median of this many equal slices of playing


def _players(engine) -> int:
    return max(engine.min_players, min(PLAYERS, engine.max_players))


def _playout(engine, bots, seed: int, samples: list | None = None):
    """One game to its end; returns (steps, seconds spent in legal_actions + apply)."""
    rnd = random.Random(seed)
    state = engine.new_game(_players(engine), f"bench-{seed}", engine.check_options(
        OPTIONS.get(engine.name, {}), _players(engine)))
    steps, spent = 0, 0.0
    while not engine.is_over(state) and steps < 20000:
        start = time.perf_counter()
        system = engine.system_action(state)
        if system is not None:
            seat, action = None, system
            spent += time.perf_counter() - start
        else:
            seat = rnd.choice(engine.to_act(state))
            engine.legal_actions(state, seat)
            spent += time.perf_counter() - start
            action = bots.random_action(state, seat, rnd)  # the bot's choice is not timed
        if samples is not None:
            samples.append((state, seat, action))
        start = time.perf_counter()
        state, _ = engine.apply(state, seat, action)
        spent += time.perf_counter() - start
        steps += 1
    return steps, spent


def _apply_vs_json(engine, samples) -> tuple[float, float]:
    """Median time of one apply and of one json.dumps + json.loads of the same state; each
    sample timed three times interleaved, its best kept, so a busy moment hurts both alike."""
    apply_times, json_times = [], []
    for state, seat, action in samples:
        best_apply = best_json = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            engine.apply(state, seat, action)
            middle = time.perf_counter()
            json.loads(json.dumps(state))
            end = time.perf_counter()
            best_apply, best_json = min(best_apply, middle - start), min(best_json, end - middle)
        apply_times.append(best_apply)
        json_times.append(best_json)
    return median(apply_times), median(json_times)


def measure() -> list[Figure]:
    from games.engines import ENGINES

    figures = []
    for name, engine in sorted(ENGINES.items()):
        bots = importlib.import_module(f"games.engines.{name}.bots")
        rates, seed, samples = [], 0, []
        for _ in range(ROUNDS):
            steps = spent = 0
            while spent < SECONDS_PER_ENGINE / ROUNDS:
                seed += 1
                n, s = _playout(engine, bots, seed, samples if len(samples) < 3000 else None)
                steps, spent = steps + n, spent + s
            rates.append(steps / spent)
        apply_s, json_s = _apply_vs_json(engine, random.Random(0).sample(samples, min(400, len(samples))))
        options = OPTIONS.get(name, {})
        figures.append(Figure(
            f"engine_actions_per_s.{name}", round(median(rates)), "actions/s",
            note=f"{_players(engine)} players, options {options or 'default'}; median of {ROUNDS} slices, "
                 f"{seed} playouts",
            detail={"rates": [round(r) for r in rates]}))
        figures.append(Figure(
            f"engine_apply_vs_json.{name}", round(apply_s / json_s, 3), "ratio", "<= 1",
            apply_s / json_s <= 1, baseline=round(json_s * 1e6, 1),
            compared_with="median µs of json.dumps+json.loads of the same state",
            note=f"apply median {apply_s * 1e6:.1f} µs, JSON round trip {json_s * 1e6:.1f} µs",
            detail={"apply_us": round(apply_s * 1e6, 1), "json_us": round(json_s * 1e6, 1),
                    "samples": min(400, len(samples))}))
    return figures
