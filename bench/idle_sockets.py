"""Idle sockets and fan-out (issue 26): what 2,000 spectators cost the socket processes, and how
fast a move reaches 200 spectators of one match.

Ten public Pirater matches, each with two players; 2,000 anonymous spectator sockets spread over
the layout's Daphnes as a proxy would (each match's sockets to one process, like bench/load.py),
200 of them on each match. `socket_rss_kib` is the growth of the Daphnes' resident memory from
before the first spectator to after the last one's first message, per socket. Then one match's
players make moves over the API and `fanout_200_p99_ms` is the 99th percentile, over the moves,
of the time from each POST's answer to the LAST of that match's 200 spectators receiving the
version (the slowest spectator is what the figure is about)."""
from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from bench.common import Figure, make_users, percentile, start_match

SPECTATORS, MATCHES, MOVES = 2000, 10, 20
RSS_TARGET, FANOUT_TARGET = 50, 1000  # KiB a socket; ms to the last of 200 spectators
HANDSHAKES = 32
VERSION = re.compile(r'data-version="(\d+)"')


def _rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


async def _spectate(url: str, origin: str, seen: dict, opened: asyncio.Event, counter: list, gate):
    from websockets.asyncio.client import connect

    async with gate:
        ws = await connect(url, origin=origin, max_size=None, open_timeout=120, ping_interval=None)
    try:
        async for message in ws:
            now = time.perf_counter()
            found = VERSION.search(message[:400])
            if found:
                seen.setdefault(int(found.group(1)), []).append(now)
            if not counter[1]:
                counter[1] = True
            counter[0] += 1
            opened.set()
    finally:
        await ws.close()


async def _run(servers, matches, tokens) -> dict:
    from bench.load import _Browser

    gate = asyncio.Semaphore(HANDSHAKES)
    ws_pids = servers.pids("ws")
    before = _rss_kib(ws_pids)
    seen_by = {}  # match id -> list of per-socket {version: [arrival]}
    tasks, opened = [], []
    for index in range(SPECTATORS):
        match_id = matches[index % len(matches)]
        base = servers.ws_bases[match_id % len(servers.ws_bases)]
        url = base.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
        seen, event = {}, asyncio.Event()
        seen_by.setdefault(match_id, []).append(seen)
        opened.append(event)
        tasks.append(asyncio.create_task(_spectate(url, base, seen, event, [0, False], gate)))
    started = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 300)
    ramp = time.perf_counter() - started
    await asyncio.sleep(2)
    after = _rss_kib(ws_pids)

    # Moves on the first match, one at a time, each given time to reach every spectator.
    match_id = matches[0]
    http = _Browser(servers.base)
    last_ms, version_of, missed = [], {}, []
    try:
        for _ in range(MOVES):
            for token in tokens:
                headers = {"Authorization": f"Token {token}"}
                data = (await http.get(f"/api/matches/{match_id}/actions", headers=headers)).json()
                if data["my_turn"] and data["actions"]:
                    body = {"action": data["actions"][0], "version": data["version"]}
                    answer = await http.post(f"/api/matches/{match_id}/actions", json=body, headers=headers)
                    at = time.perf_counter()
                    if answer.status_code == 201:
                        version_of[answer.json()["version"]] = at
                    await asyncio.sleep(1.5)
                    break
        for version, at in version_of.items():
            arrivals = [min((t for v, ts in seen.items() if v >= version for t in ts), default=None)
                        for seen in seen_by[match_id]]
            if all(a is not None for a in arrivals):
                last_ms.append((max(arrivals) - at) * 1e3)
            else:
                missed.append(sum(a is None for a in arrivals))
                last_ms.append(float("inf"))
    finally:
        await http.aclose()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"before": before, "after": after, "ramp": ramp, "last_ms": last_ms,
            "moves": len(version_of), "per_match": len(seen_by[match_id]),
            "missed": missed, "versions": sorted(version_of)}


def measure(servers) -> list[Figure]:
    from accounts.models import ApiToken

    users = make_users("idle", 2)
    tokens = [ApiToken.issue(u)[1] for u in users]
    matches = [start_match("pirater", users).pk for _ in range(MATCHES)]
    got = asyncio.run(_run(servers, matches, tokens))
    per_socket = (got["after"] - got["before"]) / SPECTATORS
    p99 = percentile(got["last_ms"], 99)
    reached = p99 is not None and p99 != float("inf")
    return [
        Figure("socket_rss_kib", round(per_socket, 1), "KiB", f"<= {RSS_TARGET}", per_socket <= RSS_TARGET,
               note=f"{SPECTATORS} anonymous spectator sockets on {MATCHES} public matches over "
                    f"{len(servers.ws_bases)} Daphnes, opened in {got['ramp']:.0f} s: resident memory of the "
                    f"socket processes {got['before'] / 1024:.0f} → {got['after'] / 1024:.0f} MiB"),
        Figure("fanout_200_p99_ms", round(p99, 1) if reached else None, "ms", f"<= {FANOUT_TARGET}",
               reached and p99 <= FANOUT_TARGET,
               note=f"{got['moves']} moves on one match watched by {got['per_match']} spectators (among "
                    f"{SPECTATORS}): from the POST's answer to the last spectator's message of that version; "
                    f"{len(got['missed'])} moves missed by some spectator ({got['missed'][:5]})",
               detail={"last_ms": got["last_ms"], "versions": got["versions"]}),
    ]
