"""Catan with ships against catanatron (issue 10): random four-player base games (`ships: false`)
in both engines, decisions per second of CPU time, and their ratio (target >= 2).

A decision is one `apply` of a legal action chosen at random (the loop calls legal_actions, then
apply); catanatron's is one call of its player's `decide`, the same step of its own loop. Player
trades (offer, answer, confirm, withdraw) are left out of our choice and count: catanatron's
random players never trade with each other, and since rules edition 2 allows 100 offers a turn,
a random trader would fill the count with cheap offers and withdrawals.
catanatron 3.2.1 is installed with pip into its own environment (CATANATRON_VENV, default
<tmp>/tradewinds-catanatron) on first use, so it never touches the project's. CPU time, not
wall time: both figures come from the same run and other work on a shared machine slows the
clock for both, not the CPU seconds each takes.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Figure

GAMES = 40
CATANATRON = "catanatron==3.2.1"
VENV = Path(os.environ.get("CATANATRON_VENV", Path(tempfile.gettempdir()) / "tradewinds-catanatron"))

CATANATRON_LOOP = r"""
import random, sys, time
from catanatron import Color, Game, RandomPlayer
decisions = 0
class Counting(RandomPlayer):
    def decide(self, game, playable_actions):
        global decisions
        decisions += 1
        return random.choice(playable_actions)
games = int(sys.argv[1])
start = time.process_time()
for g in range(games):
    random.seed(g)
    Game([Counting(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)]).play()
print(decisions, time.process_time() - start)
"""


PLAYER_TRADE = frozenset(("offer", "answer", "confirm", "withdraw"))


def ours(games: int = GAMES) -> tuple[float, int]:
    from games.engines.catan_ships import ENGINE

    decisions = 0
    start = time.process_time()
    for g in range(games):
        rnd = random.Random(g)
        state = ENGINE.new_game(4, f"bench-catan-{g}", {"ships": False})
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            choices = ENGINE.legal_actions(state, seat)
            if state["phase"] == "main":    # the only phase with player trades
                choices = [a for a in choices if a["type"] not in PLAYER_TRADE]
            state, _ = ENGINE.apply(state, seat, rnd.choice(choices))
            decisions += 1
    return decisions / (time.process_time() - start), decisions


def catanatron(games: int = GAMES) -> tuple[float, int]:
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    check = subprocess.run([str(python), "-c", "import catanatron"], capture_output=True)
    if check.returncode:
        subprocess.run([str(python), "-m", "pip", "install", "-q", CATANATRON], check=True)
    out = subprocess.run([str(python), "-c", CATANATRON_LOOP, str(games)], capture_output=True, text=True,
                         check=True).stdout.split()
    decisions, seconds = int(out[0]), float(out[1])
    return decisions / seconds, decisions


def measure() -> list[Figure]:
    mine, mine_n = ours()
    try:
        theirs, theirs_n = catanatron()
    except (subprocess.CalledProcessError, OSError) as error:
        return [Figure("engine_decisions_per_s.catan_ships", round(mine), "decisions/s",
                       note=f"{GAMES} random 4-player base games, CPU time; catanatron unavailable: {error}"),
                Figure("catan_vs_catanatron", None, "ratio", ">= 2", False, note="catanatron could not run")]
    ratio = mine / theirs
    return [
        Figure("engine_decisions_per_s.catan_ships", round(mine), "decisions/s",
               note=f"{GAMES} random 4-player base games (ships: false), {mine_n} decisions that are "
                    "not player trades (none are chosen), CPU time"),
        Figure("catanatron_decisions_per_s", round(theirs), "decisions/s",
               note=f"{CATANATRON}, {GAMES} games of 4 RandomPlayers, {theirs_n} decisions, CPU time"),
        Figure("catan_vs_catanatron", round(ratio, 2), "ratio", ">= 2", ratio >= 2,
               baseline=round(theirs), compared_with="catanatron decisions per CPU second",
               note="decisions that are not player trades, per CPU second, ours over catanatron's"),
    ]


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    for figure in measure():
        print(figure.name, figure.value, figure.unit, figure.note)
