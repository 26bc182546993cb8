"""What a move and a socket update cost, in this process (issue 26): CPU milliseconds and
database queries, on PostgreSQL, with the in-memory channel layer and the local-memory cache.

`python -m bench.live_path` plays a two-player Pirater match through play.action_apply, the
engine's bot choosing each move, first with no socket open (the move's own cost: the service,
what it leaves for the sockets, its jobs) and then with SOCKETS sockets on the match (two
players and spectators, through the ASGI application as a browser connects); a socket update is
what the process spends from the move's commit until every socket has its new part, less the
move's own cost, per socket. CPU is the whole process's (time.process_time: every thread), and
queries are counted on every connection (the sockets' reads run on the thread pool's).

It prints one JSON line of medians. It runs on any tree of this project (the code it measures
is the one on PYTHONPATH), so two trees are compared A/B by running them in turns:
`python -m bench.live_path --ab OTHER_TREE` alternates this tree and OTHER_TREE ROUNDS times."""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import threading
import time

MOVES, SOCKETS, ROUNDS = 30, 20, 3


class _Queries:
    """Counts the SQL statements every connection executes (an execute wrapper on each)."""

    def __init__(self):
        self.count, self.elsewhere, self.mover, self.lock = 0, 0, None, threading.Lock()

    def emit(self, record):
        with self.lock:
            self.count += 1
            if record.thread != self.mover:  # a socket's, not the move's
                self.elsewhere += 1


def _setup():
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/live_path")
    import django

    django.setup()
    from django.db import connection
    from django.db.backends.signals import connection_created
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0, keepdb=True)
    queries = _Queries()

    def counted(execute, sql, params, many, context):
        queries.emit(logging.makeLogRecord({"sql": sql, "thread": threading.get_ident()}))
        return execute(sql, params, many, context)

    def count_on(sender, connection, **kwargs):
        # Every connection, in whatever thread opens it (the sockets' pool threads too).
        if counted not in connection.execute_wrappers:
            connection.execute_wrappers.append(counted)

    connection_created.connect(count_on, weak=False)
    count_on(None, connection)
    return queries


def _players(tag):
    from accounts.models import Profile
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    User = get_user_model()
    encoded = make_password("bench-live-path")
    users = []
    for n in range(2):
        user = User.objects.create(username=f"lp{tag}{n}", password=encoded)
        Profile.objects.create(user=user, display_name=f"Player {n}")
        users.append(user)
    return users


def _match(users):
    from games import play

    match = play.match_create(creator=users[0], game="pirater", seats=2, turn_seconds=14 * 24 * 3600)
    play.match_join(match_id=match.pk, user=users[1])
    return match.pk


def _next(match_id, users):
    """The next player's move as the engine's bot chooses it (not measured), or None once the
    match is over."""
    from games.play import bots
    from games.models import Match

    match = Match.objects.get(pk=match_id)
    if match.status != Match.RUNNING or not match.turn_seats:
        return None
    seat = match.turn_seats[0]
    return users[seat], bots.bot_action(match.game, match.state, seat), match.version


def _apply(match_id, move, queries):
    from games import play

    queries.mover = threading.get_ident()
    user, action, version = move
    play.action_apply(match_id=match_id, user=user, action=action, expected_version=version)


async def _move(match_id, users, queries):
    """One move: its CPU ms and queries, or None once the match is over."""
    from asgiref.sync import sync_to_async

    move = await sync_to_async(_next)(match_id, users)
    if move is None:
        return None
    count, cpu = queries.count, time.process_time()
    await sync_to_async(_apply)(match_id, move, queries)
    return (time.process_time() - cpu) * 1000, queries.count - count


def _cookie(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def _sockets(match_id, users):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    sockets = []
    for n in range(SOCKETS):
        headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
        if n < len(users):
            headers.append((b"cookie", f"sessionid={await sync_to_async(_cookie)(users[n])}".encode()))
        socket = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
        connected, _ = await socket.connect(timeout=10)
        assert connected
        await socket.receive_from(timeout=10)
        sockets.append(socket)
    return sockets


async def _measure(queries):
    from asgiref.sync import sync_to_async

    move_cpu, move_queries = [], []
    users = await sync_to_async(_players)(f"{os.getpid()}q{time.monotonic_ns() % 10 ** 6}")
    match_id = await sync_to_async(_match)(users)
    for _ in range(MOVES):
        cost = await _move(match_id, users, queries)
        if cost is None:
            break
        move_cpu.append(cost[0])
        move_queries.append(cost[1])

    users = await sync_to_async(_players)(f"{os.getpid()}s{time.monotonic_ns() % 10 ** 6}")
    match_id = await sync_to_async(_match)(users)
    sockets = await _sockets(match_id, users)
    update_cpu, update_queries = [], []
    move_ms, move_q = statistics.median(move_cpu), statistics.median(move_queries)
    for _ in range(MOVES):
        # The move and its update together, less what a move costs alone: the sockets start on
        # the announcement while the move's request is still returning.
        move = await sync_to_async(_next)(match_id, users)
        if move is None:
            break
        count, cpu = queries.elsewhere, time.process_time()
        await sync_to_async(_apply)(match_id, move, queries)
        for socket in sockets:
            await socket.receive_from(timeout=10)
        update_cpu.append(((time.process_time() - cpu) * 1000 - move_ms) / SOCKETS)
        update_queries.append((queries.elsewhere - count) / SOCKETS)
    for socket in sockets:
        await socket.disconnect()
    return {"move_cpu_ms": round(move_ms, 2), "move_queries": move_q,
            "socket_update_cpu_ms": round(statistics.median(update_cpu), 3),
            "socket_update_queries": round(statistics.median(update_queries), 2),
            "moves": len(move_cpu), "updates": len(update_cpu), "sockets": SOCKETS}


def _one():
    queries = _setup()
    print(json.dumps(asyncio.run(_measure(queries))))


def _ab(other: str, rounds: int):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runs = {"this": [], "other": []}
    for _ in range(rounds):
        for name, tree in (("other", other), ("this", here)):
            env = {**os.environ, "PYTHONPATH": tree}
            out = subprocess.run([sys.executable, "-m", "bench.live_path"], cwd=tree, env=env, check=True,
                                 capture_output=True, text=True).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
    summary = {name: {key: statistics.median(r[key] for r in results) for key in results[0]}
               for name, results in runs.items()}
    print(json.dumps({"busy_machine": True, "rounds": rounds, **summary}, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ab", metavar="OTHER_TREE")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    if args.ab:
        _ab(args.ab, args.rounds)
    else:
        _one()
