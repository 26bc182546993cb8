"""The web tier scales out: several web processes share one database and one Redis, and the
channel layer carries every change to every process. Here, as README's production layout runs
it: granian serves HTTP (config/wsgi.py) and two Daphne processes serve the match sockets. A
player moves through granian; a socket on each Daphne receives the new version."""
import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from accounts.models import ApiToken
from games import play
from games.models import Match
from tests.conftest import client_for, make_user

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
VERSION = re.compile(r'data-version="(\d+)"')
pytestmark = pytest.mark.django_db(transaction=True)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url():
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def redis_url(tmp_path):
    """The configured Redis (CI's), or a private redis-server on a free port."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    port = _free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait()


class WebProcesses:
    """granian on one port and Daphne processes on others, with the test's database and Redis."""

    def __init__(self, redis_url, logs: Path, daphnes=2):
        self.env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_url, "DEBUG": "0",
                    "COLLECTSTATIC": "0", "DB_CONN_MAX_AGE": "60", "LOG_LEVEL": "WARNING",
                    "DJANGO_SETTINGS_MODULE": "config.settings"}
        self.http_port, self.ws_ports = _free_port(), [_free_port() for _ in range(daphnes)]
        self.logs, self.processes = logs, []

    def _start(self, name, args):
        out = open(self.logs / f"{name}.log", "w")
        self.processes.append(subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=out,
                                               stderr=subprocess.STDOUT, start_new_session=True))

    def __enter__(self):
        self._start("granian", [str(BIN / "granian"), "--interface", "wsgi", "config.wsgi:application",
                                "--workers", "1", "--blocking-threads", "2", "--no-ws",
                                "--host", "127.0.0.1", "--port", str(self.http_port)])
        for number, port in enumerate(self.ws_ports):
            self._start(f"daphne-{number}", [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port),
                                             "config.asgi:application"])
        deadline = time.monotonic() + 90
        for port in [self.http_port, *self.ws_ports]:
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/openapi.json", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                    raise RuntimeError(f"the web processes did not start:\n{self.tail()}")
                time.sleep(0.2)
        return self

    def tail(self):
        return "\n".join(f"--- {p.name}\n{p.read_text()[-2000:]}" for p in sorted(self.logs.glob("*.log")))

    def __exit__(self, *exc):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _running_match():
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="pirater", seats=2, options={}, is_public=False)
    play.match_join(match_id=match.pk, user=bo, invite_code=match.invite_code)
    match = Match.objects.get(pk=match.pk)
    mover = anna if 0 in match.turn_seats else bo
    watcher = bo if mover is anna else anna
    return match, ApiToken.issue(mover)[1], client_for(watcher).cookies["sessionid"].value


async def _first_version(ws) -> int:
    return int(VERSION.search(await asyncio.wait_for(ws.recv(), 30)).group(1))


async def _version_at_least(ws, version, seconds=30) -> int:
    deadline = time.monotonic() + seconds
    while True:
        shown = int(VERSION.search(await asyncio.wait_for(ws.recv(), deadline - time.monotonic())).group(1))
        if shown >= version:
            return shown


@pytest.mark.asyncio
async def test_a_move_through_the_http_server_reaches_sockets_on_two_other_daphne_processes(redis_url, tmp_path):
    from websockets.asyncio.client import connect

    match, token, session = await sync_to_async(_running_match)()
    with WebProcesses(redis_url, tmp_path) as web:
        sockets = []
        try:
            for port in web.ws_ports:
                base = f"http://127.0.0.1:{port}"
                sockets.append(await connect(f"ws://127.0.0.1:{port}/ws/matches/{match.pk}/", origin=base,
                                             additional_headers={"Cookie": f"sessionid={session}"}))
            shown = [await _first_version(ws) for ws in sockets]
            assert shown == [match.version, match.version]
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{web.http_port}", timeout=30) as http:
                headers = {"Authorization": f"Token {token}"}
                listed = (await http.get(f"/api/matches/{match.pk}/actions", headers=headers)).json()
                assert listed["my_turn"], listed
                response = await http.post(f"/api/matches/{match.pk}/actions", headers=headers,
                                           json={"action": listed["actions"][0], "version": listed["version"]})
                assert response.status_code == 201, response.text
            committed = listed["version"] + 1
            for ws in sockets:
                assert await _version_at_least(ws, committed) >= committed
        except (asyncio.TimeoutError, AssertionError):
            print(web.tail())
            raise
        finally:
            for ws in sockets:
                await ws.close()
