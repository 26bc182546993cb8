"""Faults a real site meets: a worker killed mid-job, Redis going away and coming back, and the
database connection dropping in the middle of a turn."""
import json
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError, connection
from django.urls import reverse
from django.utils import timezone

from games.play import projections
from games import play
from games.engines import ENGINES
from games.models import ActionLog, Match
from tests.celery_fault_app import SlowRace
from tests.conftest import client_for, make_user

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.django_db(transaction=True)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A private Redis on its own port, so the test may stop and start it at will."""

    def __init__(self, tmp_path):
        self.port, self.dir, self.process = _free_port(), tmp_path, None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)], stdout=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def _database_url():
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def test_killed_worker_mid_deadline_job_applies_the_deadline_exactly_once(redis_server, tmp_path):
    ENGINES["slowrace"] = SlowRace()
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="slowrace", seats=2, options={"wind": False})
    play.match_join(match_id=match.pk, user=bo)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1),
                                             next_due_at=timezone.now() - timedelta(seconds=1))
    marker = tmp_path / "running"
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_server.url,
           "SWEEP_SECONDS": "1", "SLOW_MARKER": str(marker), "SLOW_SECONDS": "30"}
    worker = [sys.executable, "-m", "celery", "-A", "tests.celery_fault_app", "worker", "--pool=solo",
              "--loglevel=warning", "--without-mingle", "--without-gossip"]
    first = subprocess.Popen(worker + ["--beat", "--schedule", str(tmp_path / "beat")], cwd=ROOT, env=env,
                             start_new_session=True)
    try:
        for _ in range(600):
            if marker.exists():
                break
            time.sleep(0.05)
        assert marker.exists(), "the worker never started the deadline job"
        os.killpg(first.pid, signal.SIGKILL)  # a crash, not a polite shutdown
        first.wait()
        assert ActionLog.objects.filter(match=match).count() == 0  # the job died before committing
        env["SLOW_SECONDS"] = "0"
        second = subprocess.Popen(worker + ["--beat", "--schedule", str(tmp_path / "beat2")], cwd=ROOT,
                                  env=env, start_new_session=True)
        try:
            for _ in range(600):
                if ActionLog.objects.filter(match=match).exists():
                    break
                time.sleep(0.05)
            time.sleep(4)  # room for a redelivered message or another sweep to act twice
        finally:
            os.killpg(second.pid, signal.SIGTERM)
            second.wait(timeout=30)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
        ENGINES.pop("slowrace", None)
    rows = list(ActionLog.objects.filter(match=match).values_list("kind", "seat", "action__type"))
    assert rows == [("timeout", 0, "roll"), ("timeout", 0, "stay")]
    match.refresh_from_db()
    assert match.turn_seats == [1] and match.seats.get(number=0).consecutive_timeouts == 1


@pytest.mark.asyncio
async def test_redis_away_actions_commit_pages_render_and_live_updates_resume(redis_server, settings):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [redis_server.url]}}}
    anna, bo = await sync_to_async(make_user)("anna"), await sync_to_async(make_user)("bo")
    match = await sync_to_async(play.match_create)(creator=anna, game="race", seats=2)
    await sync_to_async(play.match_join)(match_id=match.pk, user=bo)

    redis_server.stop()
    client = await sync_to_async(client_for)(anna)
    response = await sync_to_async(client.post)(reverse("match_action", args=[match.pk]),
                                                {"action": json.dumps({"type": "roll"}), "version": 0})
    assert response.status_code == 302
    page = await sync_to_async(client.get)(match.get_absolute_url())
    assert page.status_code == 200 and 'data-version="1"' in page.content.decode()

    redis_server.start()
    cookie = client.cookies["sessionid"].value
    socket_ = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/",
                                    headers=[(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"),
                                             (b"cookie", f"sessionid={cookie}".encode())])
    connected, _ = await socket_.connect(timeout=5)
    assert connected
    assert 'data-version="1"' in await socket_.receive_from(timeout=5)  # caught up on reconnect
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "advance"})
    assert 'data-version="2"' in await socket_.receive_from(timeout=5)  # live again
    await socket_.disconnect()


def test_database_connection_dropped_mid_turn_is_a_503_and_nothing_is_applied(monkeypatch):
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="race", seats=2)
    play.match_join(match_id=match.pk, user=bo)

    def drop_connection(match, before=None):
        # After the new state is written and before the commit, the connection goes.
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        raise OperationalError("the database connection was lost")

    monkeypatch.setitem(projections.PROJECTORS, "race", drop_connection)
    response = client_for(anna).post(reverse("match_action", args=[match.pk]),
                                     {"action": json.dumps({"type": "roll"}), "version": 0})
    assert response.status_code == 503
    assert "nothing was changed" in response.content.decode()
    monkeypatch.delitem(projections.PROJECTORS, "race")
    connection.close()
    match.refresh_from_db()
    assert match.version == 0 and match.state["phase"] == "roll"
    assert not ActionLog.objects.filter(match=match).exists()
    api = client_for(anna)
    response = api.post(reverse("match_action", args=[match.pk]), {"action": json.dumps({"type": "roll"}), "version": 0})
    assert response.status_code == 302  # the site works again at once
