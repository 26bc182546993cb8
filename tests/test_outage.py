"""Issue 14, items 1, 2 and 8: Redis goes away for 20 s while bots play 20 matches. Afterwards
every move's notification has been sent once, every deadline due during the outage has been
applied once, and the worker still runs; and it stops within seconds when told to."""
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from email import message_from_bytes
from email.header import decode_header, make_header

import pytest
from django.utils import timezone

from accounts.models import Profile
from games import play
from games.engines import ENGINES
from games.models import ActionLog, Job, Match
from notifications.models import Notification
from tests.conftest import make_user
from tests.race_engine import RaceEngine
from tests.test_faults import ROOT, _database_url, redis_server  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

BOT_MATCHES, DEADLINE_MATCHES, OUTAGE_SECONDS = 20, 5, 20


@pytest.fixture
def broker(redis_server, settings):
    """This process (the web process) queues its jobs on the private Redis."""
    from config.celery import app

    settings.JOBS_IN_PROCESS = False
    before = app.conf.broker_url
    app.conf.broker_url = redis_server.url
    _drop_connections(app)
    yield app
    app.conf.broker_url = before
    _drop_connections(app)


def _drop_connections(app):
    """Forget the connections to an earlier test's broker (as Celery does after a fork)."""
    if app._pool is not None:
        app._pool.force_close_all()
    app._after_fork()


def _worker(env, tmp_path):
    log = (tmp_path / "worker.log").open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tests.celery_fault_app", "worker", "--beat", "--concurrency=2",
         "--loglevel=info", "--without-mingle", "--without-gossip", "--schedule", str(tmp_path / "beat")],
        cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT)


def _play_human_turns(matches, humans):
    """What the players do on the site: whoever's turn it is makes their move."""
    moved = 0
    for match in matches:
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.RUNNING or current.turn_seats != [0]:
            continue
        for action in ({"type": "roll"}, {"type": "stay"}):
            play.action_apply(match_id=match.pk, user=humans[match.pk], action=action)
        moved += 1
    return moved


def _wait_for(condition, seconds):
    until = time.monotonic() + seconds
    while time.monotonic() < until and not condition():
        time.sleep(0.25)


def _mails(path):
    sent = Counter()
    for file in path.glob("*"):
        for chunk in file.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if chunk.strip():
                message = message_from_bytes(chunk)
                sent[(message["To"], str(make_header(decode_header(message["Subject"]))))] += 1
    return sent


def _unsettled(bot_matches, deadline_matches):
    return {"jobs": list(Job.objects.values_list("kind", "match_id", "created_at")),
            "system": list(Match.objects.filter(status=Match.RUNNING, needs_system=True).values_list("id", flat=True)),
            "turns": {m.pk: (m.turn_seats, m.next_due_at) for m in Match.objects.all()}}


def _settled(bot_matches, deadline_matches, deadline_seat=1):
    return (not Job.objects.exists()
            and not Match.objects.filter(status=Match.RUNNING, needs_system=True).exists()
            and all(m.turn_seats == [0] for m in Match.objects.filter(pk__in=[x.pk for x in bot_matches]))
            and all(m.turn_seats == [deadline_seat] for m in Match.objects.filter(pk__in=[x.pk for x in deadline_matches])))


def test_redis_away_for_20_seconds_while_bots_play_loses_and_doubles_nothing(broker, redis_server, tmp_path):
    ENGINES.setdefault("race", RaceEngine())
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    humans, bot_matches, deadline_matches = {}, [], []
    for n in range(BOT_MATCHES):
        human = make_user(f"skipper{n}")
        match = play.match_create(creator=human, game="race", seats=2, bot_seats=1, options={"finish": 200})
        humans[match.pk] = human
        bot_matches.append(match)
    for n in range(DEADLINE_MATCHES):
        first, second = make_user(f"late{n}"), make_user(f"waiting{n}")
        match = play.match_create(creator=first, game="race", seats=2, options={"finish": 200})
        play.match_join(match_id=match.pk, user=second)
        deadline_matches.append(match)
    Profile.objects.update(notify_email=Profile.NOTIFY_EACH)  # a mail each (the default is a digest)
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_server.url, "SWEEP_SECONDS": "2",
           "MAIL_DIR": str(mail_dir)}
    worker = _worker(env, tmp_path)
    try:
        until = time.monotonic() + 3
        while time.monotonic() < until:  # the bots play with Redis there
            _play_human_turns(bot_matches, humans)
            time.sleep(0.2)
        _wait_for(lambda: _settled(bot_matches, deadline_matches, deadline_seat=0), 30)
        # Turns that run out while Redis is away.
        Match.objects.filter(pk__in=[m.pk for m in deadline_matches]).update(
            turn_deadline=timezone.now() + timedelta(seconds=3), next_due_at=timezone.now() + timedelta(seconds=3))
        assert _play_human_turns(bot_matches, humans) == BOT_MATCHES
        time.sleep(0.3)
        redis_server.stop()  # with the worker busy playing the bots' turns
        until = time.monotonic() + OUTAGE_SECONDS
        while time.monotonic() < until:
            _play_human_turns(bot_matches, humans)
            time.sleep(0.5)
        due = Match.objects.filter(status=Match.RUNNING, next_due_at__lte=timezone.now()).count()
        redis_server.start()
        _wait_for(lambda: _settled(bot_matches, deadline_matches), 60)
        log = (tmp_path / "worker.log").read_text(errors="replace")
        assert worker.poll() is None, f"the worker died during the outage: {log[-3000:]}"
        assert _settled(bot_matches, deadline_matches), (_unsettled(bot_matches, deadline_matches), log[-3000:])
        assert due == BOT_MATCHES + DEADLINE_MATCHES  # every match had a turn waiting for the worker
        stopping = time.monotonic()
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
        output = (tmp_path / "worker.log").read_text(errors="replace")
        assert time.monotonic() - stopping < 10, "the worker took too long to stop"  # item 8
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
    assert "Unrecoverable error" not in output, output[-3000:]

    # Every turn that passed to a player is told once, on the site and by mail.
    sent = _mails(mail_dir)
    for match in bot_matches + deadline_matches:
        match.refresh_from_db()
        owner = match.seats.get(number=match.turn_seats[0])
        turns = Notification.objects.filter(match=match, kind=Notification.TURN)
        assert turns.filter(user=owner.user, key=f"{match.pk}:turn:{match.turn_key}").count() == 1, match
        for note in Notification.objects.filter(match=match):
            assert sent[(note.user.email, f"[Tradewinds] {note.text[:80]}")] >= 1, note
    texts = Counter((n.user.email, f"[Tradewinds] {n.text[:80]}") for n in Notification.objects.all())
    assert sent == texts  # no mail twice, none without its notification
    # Every bot turn played once: the log alternates seat 0, seat 1 and the wind, round by round.
    for match in bot_matches:
        rows = list(ActionLog.objects.filter(match=match).values_list("seat", "action__type"))
        turns = [seat for seat, kind in rows if kind == "stay" or kind == "advance"]
        assert turns == [0, 1] * (len(turns) // 2), (match, rows)
        assert sum(kind == "wind" for _, kind in rows) == len(turns) // 2
    # Every deadline that ran out in the outage applied once.
    for match in deadline_matches:
        rows = list(ActionLog.objects.filter(match=match).values_list("kind", "seat", "action__type"))
        assert rows == [("timeout", 0, "roll"), ("timeout", 0, "stay")]
        assert match.seats.get(number=0).consecutive_timeouts == 1


def test_worker_killed_while_jobs_are_queued_loses_and_doubles_nothing(broker, redis_server, tmp_path):
    """Issue 14: a worker SIGKILLed in the middle of a queue of deadlines and notifications."""
    from games.play import jobs
    from tests.celery_fault_app import SlowRace

    ENGINES["slowrace"] = SlowRace()
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    matches = []
    try:
        for n in range(10):
            first, second = make_user(f"first{n}"), make_user(f"second{n}")
            match = play.match_create(creator=first, game="slowrace", seats=2, options={"wind": False})
            play.match_join(match_id=match.pk, user=second)
            for action in ({"type": "roll"}, {"type": "stay"}):  # the turn passes: a notification job
                play.action_apply(match_id=match.pk, user=first, action=action)
            matches.append(match)
        Profile.objects.update(notify_email=Profile.NOTIFY_EACH)  # a mail each (the default is a digest)
        Match.objects.filter(pk__in=[m.pk for m in matches]).update(
            turn_deadline=timezone.now() - timedelta(seconds=1), next_due_at=timezone.now() - timedelta(seconds=1))
        for match in matches:
            assert jobs.queue("games.tasks.apply_deadline", match.pk)
        env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_server.url, "SWEEP_SECONDS": "2",
               "MAIL_DIR": str(mail_dir), "SLOW_SECONDS": "0.7"}
        worker = _worker(env, tmp_path)
        try:
            _wait_for(lambda: ActionLog.objects.filter(match__in=matches, kind=ActionLog.TIMEOUT).count() >= 4, 60)
            os.killpg(worker.pid, signal.SIGKILL)  # a crash, with most of the queue still waiting
            worker.wait()
            timed_out = {m for m in ActionLog.objects.filter(match__in=matches, kind=ActionLog.TIMEOUT)
                         .values_list("match_id", flat=True)}
            assert 0 < len(timed_out) < len(matches)
            worker = _worker({**env, "SLOW_SECONDS": "0"}, tmp_path)
            _wait_for(lambda: not Job.objects.exists() and not Match.objects.filter(
                pk__in=[m.pk for m in matches], next_due_at__lte=timezone.now()).exists(), 60)
            time.sleep(3)  # room for a redelivered message or another sweep to act twice
        finally:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
    finally:
        ENGINES.pop("slowrace", None)
    assert not Job.objects.exists()
    for match in matches:
        rows = list(ActionLog.objects.filter(match=match).values_list("kind", "seat", "action__type"))
        assert rows == [("player", 0, "roll"), ("player", 0, "stay"), ("timeout", 1, "roll"), ("timeout", 1, "stay")]
        match.refresh_from_db()
        assert match.turn_seats == [0] and match.seats.get(number=1).consecutive_timeouts == 1
        assert Notification.objects.filter(match=match, user=match.seats.get(number=0).user, kind=Notification.TURN,
                                           key=f"{match.pk}:turn:{match.turn_key}").count() == 1
    texts = Counter((n.user.email, f"[Tradewinds] {n.text[:80]}") for n in Notification.objects.all())
    assert _mails(mail_dir) == texts  # each notification mailed once, none twice
