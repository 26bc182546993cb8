"""The open-loop load (issue 26): what a site meets, where players think before they move.

200 matches of all three games (Fuldrigger and Pirater with two players, Catan with ships with
three), each player with an API token, a session and a socket open on its match for the whole run,
as in `bench/load.py`. A player whose turn it is waits an exponentially distributed think time and
then plays one listed action (GET the legal actions, POST one of them with the version); the mean
think time is chosen so that the 200 matches together offer the named rate of moves a second
(at 50 a second, 4 s per move of a match). The server's answer is a small part of that time, so
the moves arrive nearly independently of how fast they are answered: an open loop, unlike the
closed one of `bench/load.py`, which measures saturation.

Measured per offered rate: the POST's latency at the client, the live latency (from the POST's
answer to the first message of that version or a later one at each other player's socket), errors,
lost versions (a committed version no socket message covered: neither its own message, nor a later
one whose log still reached back to it) and every match's replay from its seed."""
from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ThreadPoolExecutor

from bench.common import Figure, make_users, median, percentile, start_match
from bench.load import (POSTS_MAX, QUIET, QUIET_MAX, Player, Run, Table, _Browser, _socket, log_in_players,
                        post_move, replayed)

GAMES = ("fuldrigger", "pirater", "catan_ships")
SEATS = {"fuldrigger": 2, "pirater": 2, "catan_ships": 3}
OPTIONS = {"fuldrigger": {"rounds": 40, "isthmus": True}, "pirater": {}, "catan_ships": {}}
RATES = (10, 50)  # moves a second offered by all the matches together
ACTION_TARGET, LIVE_TARGET = 250, 500  # ms, p99 at 50 moves a second
USERS = 6
RAMP_MAX = 90.0
SILENCE = 15.0


async def _player(run: Run, http, player: Player, match_id: int, game: str, think: float, rnd: random.Random):
    headers = {"Authorization": f"Token {player.token}"}
    known = -1
    while not run.stop and not player.over:
        # Wait for news: a version newer than the last one read (the socket brings it).
        while not run.stop and not player.over:
            sock = player.socket
            if sock is not None and sock.messages and sock.messages[-1][0] > known:
                break
            player.event.clear()
            try:
                await asyncio.wait_for(player.event.wait(), SILENCE)
            except asyncio.TimeoutError:
                break
        if run.stop or player.over:
            return
        response = await http.get(f"/api/matches/{match_id}/actions", headers=headers)
        run.requests["GET actions"] += 1
        if response.status_code != 200:
            run.error(f"GET actions {response.status_code}: {response.text[:100]}")
            await asyncio.sleep(1)
            continue
        data = response.json()
        known = data["version"]
        if data.get("status", "running") != "running":
            player.over = True
            return
        while data["my_turn"] and data["actions"] and not run.stop:
            await asyncio.sleep(rnd.expovariate(1 / think))
            if run.stop:
                return
            data = await post_move(run, http, player, match_id, game, data, rnd, headers)
            if data is None:
                break
            known = data["version"]


async def _table(run: Run, http, table: Table, think: float) -> None:
    rnd = random.Random(table.number)
    match_id = table.match_id
    table.matches.append(match_id)
    readies = [asyncio.Event() for _ in table.players]
    sockets = [asyncio.create_task(_socket(run, p, match_id, r)) for p, r in zip(table.players, readies)]
    try:
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), RAMP_MAX)
    except asyncio.TimeoutError:
        run.error(f"sockets of match {match_id} did not open in {RAMP_MAX:.0f} s")
    run.ready_tables += 1
    await run.go.wait()
    await asyncio.gather(*(_player(run, http, p, match_id, table.game, think, rnd) for p in table.players))
    await run.closing.wait()
    for task in sockets:
        task.cancel()
    await asyncio.gather(*sockets, return_exceptions=True)


async def _main(run: Run, tables: list[Table], users: list, think: float) -> None:
    await log_in_players(run, tables, users)
    clients = [_Browser(run.base) for _ in tables]
    workers = [asyncio.create_task(_table(run, c, t, think)) for c, t in zip(clients, tables)]
    ramp = time.perf_counter()
    while run.ready_tables < len(tables) and time.perf_counter() - ramp < RAMP_MAX:
        await asyncio.sleep(0.1)
    run.started = time.perf_counter()
    run.ended = run.started + run.seconds
    run.go.set()
    await asyncio.sleep(run.seconds)
    run.stop = True
    stopped = time.perf_counter()
    while run.posting and time.perf_counter() - stopped < POSTS_MAX:
        await asyncio.sleep(0.2)
    # The last updates on their way to the sockets: until the sockets have been quiet a while
    # (a fixed 2 s counted updates still queued past a saturated live p99 as lost).
    answered = time.perf_counter()
    while (time.perf_counter() - answered < QUIET_MAX
           and time.perf_counter() - max(run.last_message, answered) < QUIET):
        await asyncio.sleep(0.2)
    run.closing.set()
    await asyncio.gather(*workers, return_exceptions=True)
    await asyncio.gather(*(c.aclose() for c in clients))


def _one_rate(servers, rate: float, seconds: float, matches: int) -> list[Figure]:
    from accounts.models import ApiToken
    from games.models import ActionLog

    users = make_users(f"open{int(rate)}-", USERS)
    tokens = {u.pk: ApiToken.issue(u)[1] for u in users}

    def make_table(number):
        from django.db import connection

        try:
            game = GAMES[number % len(GAMES)]
            seated = [users[(number + i) % USERS] for i in range(SEATS[game])]
            table = Table(number, game, start_match(game, seated, OPTIONS[game]).pk)
            table.players = [Player(table, user, tokens[user.pk], "") for user in seated]
            return table
        finally:
            connection.close()

    with ThreadPoolExecutor(4) as pool:
        tables = list(pool.map(make_table, range(matches)))
    run = Run(servers.base, servers.ws_bases, seconds)
    think = matches / rate
    asyncio.run(_main(run, tables, users, think))

    ids = [t.match_id for t in tables]
    records = set(ActionLog.objects.filter(match_id__in=ids, kind=ActionLog.RECORD).values_list("match_id", "seq"))
    live_ms, lost, commits = [], 0, 0
    for table in tables:
        for player in table.players:
            others = [p.socket for p in table.players if p is not player and p.socket is not None]
            for match_id, sent, at, _ in player.commits:
                commits += 1
                version = sent + 1 + ((match_id, sent + 2) in records)
                for sock in others:
                    messages = sock.messages
                    if not any(v == version or oldest <= version < v for v, _, oldest in messages):
                        lost += 1
                    arrivals = [t for v, t, _ in messages if v >= version]
                    if arrivals and run.started <= at <= run.ended + 1:
                        live_ms.append((min(arrivals) - at) * 1e3)
    socket_errors = [e for s in run.sockets for e in s.errors]
    bad = [pk for pk in ids if not replayed(pk)["ok"]]
    errors = len(run.errors) + len(socket_errors)
    p50, p99 = median(run.posts), percentile(run.posts, 99)
    live50, live99 = median(live_ms), percentile(live_ms, 99)
    answered = len(run.posts) / seconds
    tag = int(rate)
    judged = rate == max(RATES)
    note = (f"{matches} matches ({', '.join(GAMES)} in turn), mean think time {think:.1f} s a move of a match "
            f"(offered {rate:g} moves/s), {seconds:.0f} s: {answered:.1f} moves/s answered, {commits} committed, "
            f"{run.stale} refused as stale; POST p50 {p50 or 0:.0f} ms, p99 {p99 or 0:.0f} ms; live p50 "
            f"{live50 or 0:.0f} ms, p99 {live99 or 0:.0f} ms over {len(live_ms)} updates")
    return [
        Figure(f"open_action_p99_ms.{tag}", round(p99, 1) if p99 is not None else None, "ms",
               f"<= {ACTION_TARGET}" if judged else "", (p99 is not None and p99 <= ACTION_TARGET) if judged else None,
               note=note, detail={"p50_ms": p50, "answered_per_s": answered, "requests": dict(run.requests)}),
        Figure(f"open_live_p99_ms.{tag}", round(live99, 1) if live99 is not None else None, "ms",
               f"<= {LIVE_TARGET}" if judged else "", (live99 is not None and live99 <= LIVE_TARGET) if judged else None,
               note=f"from the POST's answer to each other player's socket; p50 {live50 or 0:.0f} ms"),
        Figure(f"open_errors.{tag}", errors + lost + len(bad), "errors", "0", errors + lost + len(bad) == 0,
               note=f"{len(run.errors)} failed requests, {len(socket_errors)} socket errors, {lost} versions lost, "
                    f"{len(bad)} of {len(ids)} matches that do not replay to their stored state",
               detail={"requests": run.errors[:20], "sockets": socket_errors[:20], "bad_replays": bad[:20]}),
    ]


def measure(servers, seconds: float = 60.0, matches: int = 200) -> list[Figure]:
    figures = []
    for rate in RATES:
        figures += _one_rate(servers, rate, seconds, matches)
    return figures
