"""The peer: boardgame.io 0.50.2 on PostgreSQL (`../shared/peers/boardgameio/`), run in the same
bench as Tradewinds' own load so that CPU per move compares on the same machine at the same time.

The harness is copied into a scratch folder and installed there with `npm ci` (the lock file pins
boardgame.io 0.50.2, bgio-postgres and socket.io-client; the folder is kept between runs, keyed by
the lock file's hash, so a second bench does not install again). Its server is one Node process
(Koa + socket.io) storing every move in its own database `bgio_bench`; its load generator plays
200 two-player matches over sockets with no think time and reads CPU from /proc for the server,
the PostgreSQL backends of that database and itself, as `bench/load.py` does for Tradewinds.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from bench.common import Figure, free_port

PEER = Path(__file__).resolve().parent.parent.parent / "shared" / "peers" / "boardgameio"
PGURL_BASE = os.environ.get("BENCH_PEER_PG", "postgresql://postgres@127.0.0.1:5432")
DATABASE = "bgio_bench"
FILES = ("game.js", "server.js", "load.js", "package.json", "package-lock.json")


def _node() -> str:
    """Node and npm from Debian's packages where they are missing (the bench runs as root here)."""
    node = shutil.which("node")
    if node and shutil.which("npm"):
        return node
    if shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "nodejs", "npm"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    node = shutil.which("node")
    if not node or not shutil.which("npm"):
        raise RuntimeError("boardgame.io needs node and npm (apt-get install nodejs npm)")
    return node


def _installed() -> Path:
    lock = (PEER / "package-lock.json").read_bytes()
    folder = Path(tempfile.gettempdir()) / f"tradewinds-peer-bgio-{hashlib.sha1(lock).hexdigest()[:12]}"
    if (folder / "node_modules" / "boardgame.io").is_dir():
        for name in FILES:  # the harness's scripts may have changed without its dependencies
            shutil.copy(PEER / name, folder / name)
        return folder
    folder.mkdir(exist_ok=True)
    for name in FILES:
        shutil.copy(PEER / name, folder / name)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL, timeout=600)
    return folder


def _psql(database: str, sql: str) -> None:
    subprocess.run(["psql", f"{PGURL_BASE}/{database}", "-q", "-c", sql], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(seconds: float = 60.0, matches: int = 200, warmup: float = 15.0) -> list[Figure]:
    node = _node()
    folder = _installed()
    _psql("postgres", f"CREATE DATABASE {DATABASE}")
    _psql(DATABASE, 'TRUNCATE "Games"')  # absent on the first run: the server creates it
    port = free_port()
    log = open(folder / "server.log", "w")
    env = {**os.environ, "PORT": str(port), "PGURL": f"{PGURL_BASE}/{DATABASE}", "NODE_ENV": "production"}
    server = subprocess.Popen([node, "server.js"], cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while "listening" not in (folder / "server.log").read_text():
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the boardgame.io server did not start: "
                                   + (folder / "server.log").read_text()[-500:])
            time.sleep(0.2)
        out = folder / "result.json"
        out.unlink(missing_ok=True)
        subprocess.run([node, "load.js", "--base", f"http://127.0.0.1:{port}", "--matches", str(matches),
                        "--spectators", "0", "--warmup", str(int(warmup)), "--seconds", str(int(seconds)),
                        "--server-pid", str(server.pid), "--label", "bench", "--out", str(out)],
                       cwd=folder, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=warmup + seconds + 300)
        result = json.loads(out.read_text())
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    cpu = result["cpu_ms_per_move"]
    return [Figure("boardgameio_cpu_ms_per_move", cpu["total"], "ms",
                   note=(f"boardgame.io 0.50.2 with bgio-postgres, {matches} two-player matches over its sockets, "
                         f"no think time, {seconds:.0f} s after {warmup:.0f} s of warm-up: {result['moves_per_s']} "
                         f"moves/s; CPU per move server {cpu['server']}, PostgreSQL {cpu['postgres']}, clients "
                         f"{cpu['clients']} ms. It acknowledges a move before its write commits, stores one row "
                         f"per match, and takes moves over the socket (no GET of legal actions)"),
                   detail={"moves_per_s": result["moves_per_s"], "move_ms": result.get("move_ms"),
                           "errors": result.get("errors"), "cpu_ms_per_move": cpu})]


def compare(figures: list[Figure]) -> list[Figure]:
    """`cpu_vs_boardgameio`: Tradewinds' CPU per move (every process of the load test) over the
    peer's, both measured in this run."""
    ours = next((f for f in figures if f.name == "cpu_ms_per_move"), None)
    theirs = next((f for f in figures if f.name == "boardgameio_cpu_ms_per_move"), None)
    if ours is None or theirs is None or not ours.value or not theirs.value:
        return []
    value = ours.value / theirs.value
    return [Figure("cpu_vs_boardgameio", round(value, 2), "×", "<= 2", value <= 2,
                   baseline=theirs.value, compared_with="boardgameio_cpu_ms_per_move in the same run",
                   note=f"{ours.value} ms against {theirs.value} ms of CPU per move, all processes counted")]
