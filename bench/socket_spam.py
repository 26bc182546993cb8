"""Figure: `socket_spam_cpu_s`, the server's CPU seconds for 1,000 inbound messages on one match
socket (issue 18). An anonymous visitor opens a socket on a public Fuldrigger match and sends
1,000 one-byte messages as fast as it can; the figure is the CPU time (user + system) that the
Daphne process spends from the first message until it is idle again. Before the fix each message
re-rendered the live part (about 12 ms each, 12.3 s in all); now a message costs no render and
the socket is closed once it goes beyond its allowance (close code 4008)."""
from __future__ import annotations

import asyncio
import os
import time

from bench.common import Figure, make_users, start_match

MESSAGES = 1000
TARGET = 0.5


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _settled(pid: int, quiet=0.01, every=0.25, timeout=30) -> float:
    """Wait until the process spends less than `quiet` CPU seconds in `every` seconds."""
    deadline = time.monotonic() + timeout
    last = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(every)
        now = cpu_seconds(pid)
        if now - last < quiet:
            return now
        last = now
    return last


async def _spam(url: str, origin: str) -> dict:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    ws = await connect(url, origin=origin, max_size=None, ping_interval=None)
    await ws.recv()  # the live part, rendered once on connecting
    return {"ws": ws, "ConnectionClosed": ConnectionClosed}


async def _send_all(ws, closed_error) -> dict:
    sent, received, code = 0, 0, None
    try:
        for _ in range(MESSAGES):
            await ws.send("x")
            sent += 1
    except closed_error:
        pass
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout=10)
            received += 1
    except (closed_error, asyncio.TimeoutError):
        pass
    code = ws.close_code
    await ws.close()
    return {"sent": sent, "received": received, "close_code": code}


def measure(servers) -> list[Figure]:
    users = make_users("spam-", 2)
    match = start_match("fuldrigger", users, {"rounds": 0, "start_cash": 1000})
    pid = servers.web_procs[1].pid  # the first Daphne (web_procs[0] is the HTTP server)
    url = servers.ws_bases[0].replace("http://", "ws://") + f"/ws/matches/{match.pk}/"

    async def run():
        opened = await _spam(url, servers.ws_bases[0])
        before = await asyncio.to_thread(_settled, pid)
        result = await _send_all(opened["ws"], opened["ConnectionClosed"])
        after = await asyncio.to_thread(_settled, pid)
        return result, after - before

    result, cpu = asyncio.run(run())
    passed = cpu <= TARGET and result["close_code"] == 4008
    return [Figure("socket_spam_cpu_s", round(cpu, 3), "s", f"<= {TARGET}", passed,
                   baseline=12.3, compared_with="CPU seconds before the fix (issue 18)",
                   note=f"{result['sent']} of {MESSAGES} messages sent before the server's close arrived, "
                        f"{result['received']} answers (the part again), close code {result['close_code']}",
                   detail=result)]
