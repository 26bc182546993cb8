"""The bots against the random player: how often each game's best_action beats random_action, and
what one of its decisions costs.

    .venv/bin/python bench/bot_win_rate.py [--games 100] [--only fuldrigger,pirater]

Two-player games, the bot's seat alternating (game g: bot in seat g % 2, seed "bot-win-g",
random.Random(g) for both players and for who answers first when several seats may act).
Fuldrigger plays {"rounds": 30}; the winner is the only seat ranked 1 in the standings (a
shared first place is no win). Pirater plays the default options; the winner is the state's.
Every best_action call is timed in CPU time of this process, so that other work on the
machine does not count (rolls, trades and answers included, and the first calls of a process,
which fill the bot's caches).

Prints one JSON object a line per figure: name, value, unit, target, compared_with.
No Django, no database: only the engines.
"""
from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

GAMES = ("fuldrigger", "pirater", "catan_ships")
OPTIONS = {"fuldrigger": {"rounds": 30}, "pirater": {}, "catan_ships": {}}
WIN_TARGET = 90.0          # per cent of games
MEDIAN_TARGET_MS = 50.0
MAX_TARGET_MS = 1000.0


def play(game: str, number: int) -> tuple[bool, list[float]]:
    """One game of the bot against random_action (two players, or the game's least: Catan three);
    (bot won, seconds per decision)."""
    engine = importlib.import_module(f"games.engines.{game}").ENGINE
    bots = importlib.import_module(f"games.engines.{game}.bots")
    players = max(2, engine.min_players)
    bot_seat = number % players
    rnd = random.Random(number)
    state = engine.new_game(players, f"bot-win-{number}", engine.check_options(OPTIONS[game], players))
    times: list[float] = []
    steps = 0
    while not engine.is_over(state):
        steps += 1
        if steps > 100_000:
            raise RuntimeError(f"{game} game {number} does not end")
        system = engine.system_action(state)
        if system is not None:
            state, _ = engine.apply(state, None, system)
            continue
        seat = rnd.choice(engine.to_act(state))
        if seat == bot_seat:
            start = time.process_time()
            action = bots.best_action(state, seat, rnd)
            times.append(time.process_time() - start)
        else:
            action = bots.random_action(state, seat, rnd)
        state, _ = engine.apply(state, seat, action)
    table = engine.standings(state)
    first = [row["seat"] for row in table if row["rank"] == 1]
    return first == [bot_seat], times


def measure(games: int = 100, only=GAMES) -> list[dict]:
    figures = []
    for game in only:
        wins, times = 0, []
        for number in range(games):
            won, spent = play(game, number)
            wins += won
            times += spent
        players = max(2, importlib.import_module(f"games.engines.{game}").ENGINE.min_players)
        against = f"random_action, {players} players, seats alternated, {games} games"
        if game == "fuldrigger":
            against += ", 30 rounds"
        calls = f"CPU time of {len(times)} best_action calls"
        figures += [
            {"name": f"bot_win_rate.{game}", "value": round(100.0 * wins / games, 1), "unit": "%",
             "target": f">= {WIN_TARGET:g}", "compared_with": against},
            {"name": f"bot_move_ms.{game}.median",
             "value": round(1000 * statistics.median(times), 2), "unit": "ms",
             "target": f"< {MEDIAN_TARGET_MS:g}", "compared_with": calls},
            {"name": f"bot_move_ms.{game}.max", "value": round(1000 * max(times), 1), "unit": "ms",
             "target": f"< {MAX_TARGET_MS:g}", "compared_with": calls},
        ]
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per engine")
    parser.add_argument("--only", default=",".join(GAMES), help="comma-separated engines")
    args = parser.parse_args(argv)
    only = [g for g in args.only.split(",") if g]
    unknown = set(only) - set(GAMES)
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))}")
    for figure in measure(args.games, only):
        print(json.dumps(figure, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
