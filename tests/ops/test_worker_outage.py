"""Issue 29 item 1: the worker, started as `make worker` starts it (beat a process of its own),
outlives Redis going away while players and bots play, and comes back to work.

Before config/broker.py the worker died on the second or third 20 s outage ("Unrecoverable
error: AttributeError('NoneType' object has no attribute 'hostname')"): this is that
reproduction, kept. It runs against the test database (PostgreSQL in CI) and a private Redis."""
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from games import play
from games.play.bots import bot_action
from games.models import Job, Match
from tests.conftest import make_user
from tests.test_faults import ROOT, _database_url

pytestmark = pytest.mark.django_db(transaction=True)

OUTAGES, OUTAGE_SECONDS, PLAY_SECONDS = 3, 20, 8


def makefile_command(name: str) -> list[str]:
    """A command of the Makefile (WORKER, BEAT), as `make worker` runs it."""
    text = (ROOT / "Makefile").read_text()
    line = re.search(rf"^{name} = (.+)$", text, re.M).group(1)
    return line.replace("$(VENV)", str(ROOT / ".venv")).split()


def _start(command, env, log: Path):
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT)


def _play(humans, seconds):
    """The humans move whenever it is their turn (bots answer through the worker's jobs)."""
    moved, until = 0, time.monotonic() + seconds
    while time.monotonic() < until:
        for match_id, user in humans.items():
            match = Match.objects.get(pk=match_id)
            seat = match.seats.get(user=user).number
            if match.status == Match.RUNNING and seat in match.turn_seats:
                play.action_apply(match_id=match_id, user=user, action=bot_action(match.game, match.state, seat))
                moved += 1
        time.sleep(0.2)
    return moved


def _bots_answer(humans, limit=60.0) -> bool:
    """A human moves at a table still running and its bots answer: the human's turn comes back
    (another turn than the one they played), or the match ends after their move. Every table
    may have ended during the outages (bots and humans play fast): then at a new one. Waits on
    the turns, not on a fixed time."""
    running = [(m, u) for m, u in humans.items() if Match.objects.get(pk=m).status == Match.RUNNING]
    if not running:
        user = next(iter(humans.values()))
        running = [(play.match_create(creator=user, game="pirater", seats=3, bot_seats=2).pk, user)]
    played = {}  # match id: its turn key just after the human's move
    until = time.monotonic() + limit
    while time.monotonic() < until:
        for match_id, user in running:
            match = Match.objects.get(pk=match_id)
            if match.status != Match.RUNNING:
                if match_id in played:
                    return True
                continue
            seat = match.seats.get(user=user).number
            if seat in match.turn_seats:
                if match_id in played and match.turn_key != played[match_id]:
                    return True
                play.action_apply(match_id=match_id, user=user, action=bot_action(match.game, match.state, seat))
                played[match_id] = Match.objects.get(pk=match_id).turn_key
        time.sleep(0.2)
    return False


def _bots_answered(humans):
    return all(Match.objects.get(pk=m).seats.get(user=u).number in Match.objects.get(pk=m).turn_seats
               or Match.objects.get(pk=m).status != Match.RUNNING for m, u in humans.items())


def test_worker_and_beat_outlive_redis_killed_three_times_while_bots_play(web_broker, private_redis, tmp_path):
    humans = {}
    for n in range(6):
        user = make_user(f"skipper{n}")
        match = play.match_create(creator=user, game="pirater", seats=3, bot_seats=2)
        humans[match.pk] = user
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": _database_url(), "REDIS_URL": private_redis.url,
           "SWEEP_SECONDS": "2"}
    worker_log, beat_log = tmp_path / "worker.log", tmp_path / "beat.log"
    worker = _start(makefile_command("WORKER") + ["--loglevel=info"], env, worker_log)
    beat = _start(makefile_command("BEAT") + ["--loglevel=info", "--schedule", str(tmp_path / "beat")], env, beat_log)
    try:
        assert _bots_answer(humans), "the bots do not answer"
        _play(humans, PLAY_SECONDS)  # jobs in flight when Redis goes
        for outage in range(OUTAGES):
            private_redis.stop()  # killed with jobs running and the worker waiting on its queue
            _play(humans, OUTAGE_SECONDS)
            private_redis.start()
            _play(humans, PLAY_SECONDS)
            log = worker_log.read_text(errors="replace")
            assert worker.poll() is None, f"the worker died in outage {outage + 1}: {log[-4000:]}"
            assert beat.poll() is None, beat_log.read_text(errors="replace")[-3000:]
        # The worker reconnects within its back-off (up to ~10 s after a 20 s outage), then the
        # sweep finds the bots' turns and the jobs left from the outage.
        until = time.monotonic() + 60
        while time.monotonic() < until and (Job.objects.exists() or not _bots_answered(humans)):
            time.sleep(0.5)
        assert not Job.objects.exists(), list(Job.objects.values_list("kind", "created_at"))
        assert _bots_answered(humans)
        assert _bots_answer(humans), "after the outages the bots no longer answer"
        assert worker.poll() is None and beat.poll() is None
    finally:
        for process in (worker, beat):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in (worker, beat):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    log = worker_log.read_text(errors="replace")
    assert "Unrecoverable error" not in log, log[-4000:]


def test_the_readme_units_run_what_the_test_starts_and_never_stop_restarting():
    """The production units (README) start the processes this file's test starts (the Makefile's
    WORKER and BEAT), beat as a unit of its own, and restart them whatever the exit."""
    readme = (ROOT / "README.md").read_text()
    units = dict(re.findall(r"^# (worker|beat|hooks|web): +ExecStart=(.+)$", readme, re.M))
    for unit, name in (("worker", "WORKER"), ("beat", "BEAT")):
        command = units[unit].replace("/srv/tradewinds/.venv", str(ROOT / ".venv")).split()
        assert [word for word in command if not word.startswith("--loglevel")] == makefile_command(name)
    assert "--beat" not in readme.split("### Supervision")[1]
    for line in ("Restart=always", "StartLimitIntervalSec=0", "autorestart=true", "startretries=1000000"):
        assert line in readme
