"""bot_win_rate.<game> and the bots' move times, as figures of `make bench` (the measuring is
bench/bot_win_rate.py's, which also runs on its own)."""
from bench import bot_win_rate
from bench.common import Figure

GAMES_PER_ENGINE = 100


def measure() -> list[Figure]:
    figures = []
    for row in bot_win_rate.measure(games=GAMES_PER_ENGINE):
        limit = float(row["target"].split()[-1])
        passed = row["value"] >= limit if row["target"].startswith(">=") else row["value"] < limit
        figures.append(Figure(row["name"], row["value"], row["unit"], row["target"], passed,
                              compared_with=row["compared_with"]))
    return figures
