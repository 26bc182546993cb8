"""The change path in this process, per game (issue 32): what one move's write costs, and what
the parts one change needs cost with every seat and one spectator watching.

On the bench database, one match per game (Catan with ships and Fuldrigger with four seats,
Pirater with two) is played by random legal moves through play.action_apply, nobody
watching: `write_cpu_ms.<game>` is the median CPU time (time.process_time) of one call — lock,
engine, save, log row, Job row; the jobs it queues are not run here (a worker runs them). Then
the same Change is published as if each seat and one spectator watched (the watchers a socket
registers, in English and one zone): `change_render_cpu_ms.<game>` is the median CPU time of
games.live.publisher.publish for it (the renders and the group messages of the in-memory
layer), and `renders_per_move` how many parts that took (one per watching seat and one for the
spectators).

For a profile: CHANGE_MOVES (moves per game, 120) and CHANGE_GAMES (a comma-separated list of
the games to play, all three if unset)."""
from __future__ import annotations

import importlib
import os
import random
import statistics
import time

from bench.common import Figure, make_users, start_match

GAMES = [("catan_ships", 4, {}), ("fuldrigger", 4, {"rounds": 0, "start_cash": 1000}), ("pirater", 2, {})]
MOVES = int(os.environ.get("CHANGE_MOVES", 120))
WRITE_TARGET, RENDER_TARGET = 3.0, 6.0


def _play(game, seats, options, rnd):
    from games import play
    from games.live import socket_slots
    from games.engines import get_engine
    from games.live import publisher
    from games.live.viewers import Viewer
    from games.models import Match

    engine = get_engine(game)
    bots = importlib.import_module(f"games.engines.{game}.bots")
    users = make_users(f"c{game[:3]}{rnd.randrange(10**6)}_", seats)
    match = start_match(game, users, options)
    by_seat = {s.number: s.user for s in match.seats.all()}
    viewers = [Viewer(user_id=u.pk, staff=False, invite="", session="", credentials="", language="en",
                      zone="Europe/Copenhagen", feed="html") for u in by_seat.values()]
    viewers.append(Viewer(user_id=None, staff=False, invite="", session="", credentials="", language="en",
                          zone="Europe/Copenhagen", feed="html"))
    watching = [(v.key(), v) for v in viewers]
    renders = []
    real_render = publisher.render

    def counted(*args):
        renders.append(1)
        return real_render(*args)

    writes, parts, counts = [], [], []
    for _ in range(MOVES):
        match = Match.objects.get(pk=match.pk)
        while match.needs_system:
            play.system_action_apply(match_id=match.pk)
            match = Match.objects.get(pk=match.pk)
        if match.status != Match.RUNNING:
            break
        seat = rnd.choice(engine.to_act(match.state))
        action = bots.random_action(match.state, seat, rnd)
        started = time.process_time()
        change = play.action_apply(match_id=match.pk, user=by_seat[seat], action=action,
                                       expected_version=match.version)
        writes.append(time.process_time() - started)
        # The same Change as every seat and a spectator would have it published.
        real_watchers, publisher._watchers = publisher._watchers, lambda match_id: watching
        publisher.render, renders[:] = counted, []
        try:
            started = time.process_time()
            publisher.publish(change)
            parts.append(time.process_time() - started)
        finally:
            publisher._watchers, publisher.render = real_watchers, real_render
        counts.append(len(renders))
    del socket_slots
    return writes, parts, counts


def measure() -> list[Figure]:
    from games.play import jobs

    real_queue = jobs.queue
    jobs.queue = lambda name, *args: True  # the worker's jobs are not this figure's
    figures, all_counts = [], []
    try:
        for game, seats, options in GAMES:
            if os.environ.get("CHANGE_GAMES") and game not in os.environ["CHANGE_GAMES"].split(","):
                continue
            writes, parts, counts = _play(game, seats, options, random.Random(32))
            write_ms = round(statistics.median(writes) * 1000, 2)
            render_ms = round(statistics.median(parts) * 1000, 2)
            all_counts += counts
            figures += [
                Figure(f"write_cpu_ms.{game}", write_ms, "ms", f"<= {WRITE_TARGET}", write_ms <= WRITE_TARGET,
                       note=f"play.action_apply, median of {len(writes)} random moves, {seats} seats"),
                Figure(f"change_render_cpu_ms.{game}", render_ms, "ms", f"<= {RENDER_TARGET}",
                       render_ms <= RENDER_TARGET,
                       note=f"publisher.publish with {seats} seats and a spectator watching, median"),
            ]
    finally:
        jobs.queue = real_queue
    figures.append(Figure("renders_per_move", statistics.median(all_counts), "parts", "seats + 1", None,
                          note="parts rendered for one change with every seat and one spectator watching"))
    return figures
