"""Catan with ships beside catanatron: the base game (4 random players, `ships: false`) played in
both engines in the same run, and how many decisions each makes a second.

    .venv/bin/python bench/catan_compare.py [--seconds 10]

A decision is one `apply` of a legal action chosen uniformly at random from the list the engine
gives, timed with the listing and the choice (catanatron's `play_tick`: its `playable_actions`,
the random player's choice, and `execute`, which checks the action and applies it). catanatron
mutates one state in place; our engine returns a new state each time (the contract), so the
comparison is not in our favour.

catanatron (PyPI, 3.2.1) lives in a virtual environment of its own in the temporary directory,
made on first use: it never enters the project's dependencies. The two engines take turns in
equal slices (catanatron in a child process that reports only its own loop's time), so a busy
moment of the shared machine hurts both alike; each figure is the median of its slices.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from bench.common import Figure, median  # noqa: E402

CATANATRON = "catanatron==3.2.1"
VENV = Path(tempfile.gettempdir()) / "tradewinds-catanatron-3.2.1"
SLICES = 5
TARGET = 2.0

# Runs inside catanatron's environment: play 4 random players for `seconds`, print decisions/s.
CHILD = r"""
import json, random, sys, time
from catanatron import Color, Game, RandomPlayer
seconds, seed = float(sys.argv[1]), int(sys.argv[2])
colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
decisions, spent, games = 0, 0.0, 0
while spent < seconds:
    seed += 1
    game = Game([RandomPlayer(c) for c in colors], seed=seed)
    start = time.perf_counter()
    while game.winning_color() is None and game.state.num_turns < 1000:
        game.play_tick()
        decisions += 1
    spent += time.perf_counter() - start
    games += 1
print(json.dumps({"decisions": decisions, "seconds": spent, "games": games}))
"""


def catanatron_python() -> Path:
    python = VENV / "bin" / "python"
    if not (python.exists() and subprocess.run([python, "-c", "import catanatron"], capture_output=True).returncode == 0):
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", CATANATRON], check=True)
    return python


def catanatron_slice(python: Path, seconds: float, seed: int) -> dict:
    out = subprocess.run([python, "-c", CHILD, str(seconds), str(seed)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def ours_slice(seconds: float, seed: int) -> dict:
    from games.engines import get_engine

    engine = get_engine("catan_ships")
    options = engine.check_options({"ships": False}, 4)
    decisions, spent, games = 0, 0.0, 0
    while spent < seconds:
        seed += 1
        rnd = random.Random(seed)
        state = engine.new_game(4, f"catan-bench-{seed}", options)
        start = time.perf_counter()
        while not engine.is_over(state) and decisions < 10_000_000:
            system = engine.system_action(state)
            if system is not None:
                state, _ = engine.apply(state, None, system)
            else:
                seat = rnd.choice(engine.to_act(state))
                state, _ = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
            decisions += 1
        spent += time.perf_counter() - start
        games += 1
    return {"decisions": decisions, "seconds": spent, "games": games}


def measure(seconds: float = 10.0) -> list[Figure]:
    python = catanatron_python()
    ours, theirs = [], []
    for n in range(SLICES):
        ours.append(ours_slice(seconds / SLICES, 1000 * n))
        theirs.append(catanatron_slice(python, seconds / SLICES, 1000 * n))
    rate_ours = median([s["decisions"] / s["seconds"] for s in ours])
    rate_theirs = median([s["decisions"] / s["seconds"] for s in theirs])
    games = sum(s["games"] for s in ours), sum(s["games"] for s in theirs)
    value = round(rate_ours / rate_theirs, 2)
    return [
        Figure("engine_decisions_per_s.catan_ships", round(rate_ours), "decisions/s",
               note=f"base game, 4 random players, ships off; median of {SLICES} slices, {games[0]} games",
               detail={"slices": ours}),
        Figure("engine_decisions_per_s.catanatron", round(rate_theirs), "decisions/s",
               note=f"{CATANATRON}, 4 RandomPlayers, same slices interleaved; {games[1]} games",
               detail={"slices": theirs}),
        Figure("catan_vs_catanatron", value, "ratio", f">= {TARGET:g}", value >= TARGET,
               baseline=round(rate_theirs), compared_with="catanatron's decisions/s in the same run"),
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for figure in measure(args.seconds):
        print(json.dumps({k: v for k, v in figure.as_json().items() if k != "detail"}))
