"""The real workers as `make worker` runs them (issue 17): webhook deliveries on their own queue
and worker, so 20 receivers that never answer hold up no game job on the other queue."""
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
from celery import Celery
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import Profile
from games import play
from games.engines import ENGINES
from games.models import Match
from notifications.models import Notification, WebhookDelivery
from tests.celery_fault_app import SlowRace
from tests.conftest import make_user
from tests.test_faults import ROOT, _database_url, redis_server  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def _wait(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_hanging_receivers_hold_up_no_deadline_job(redis_server, settings):  # noqa: F811
    silent, held = socket.socket(), []
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)

    def hold():  # take every connection and never answer
        while True:
            try:
                held.append(silent.accept()[0])
            except OSError:
                return

    threading.Thread(target=hold, daemon=True).start()
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
    anna, bo = make_user("anna"), make_user("bo")
    ENGINES["slowrace"] = SlowRace()  # the race game, as the fault tests' worker knows it
    match = play.match_create(creator=anna, game="slowrace", seats=2, options={"wind": False})
    play.match_join(match_id=match.pk, user=bo)
    users = [User.objects.create(username=f"hook{i}") for i in range(20)]
    Profile.objects.bulk_create([Profile(user=u, display_name=u.username, webhook_url=url) for u in users])
    deliveries = [WebhookDelivery.objects.create(
        url=url, next_try_at=timezone.now(),
        notification=Notification.objects.create(user=u, kind="turn", key="k", text="Your turn.")).pk
        for u in users]

    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_server.url,
           "WEBHOOK_ALLOWED_HOSTS": "127.0.0.1", "WEBHOOK_TIMEOUT": "10"}
    base = [sys.executable, "-m", "celery", "-A", "tests.celery_fault_app", "worker", "--loglevel=warning",
            "--without-mingle", "--without-gossip"]
    # As the Makefile starts them: game jobs on `celery`, deliveries on `webhooks` with threads.
    workers = [subprocess.Popen(base + ["-Q", "celery", "--pool=solo", "-n", "games@%h"], cwd=ROOT, env=env,
                                start_new_session=True),
               subprocess.Popen(base + ["-Q", "webhooks", "--pool=threads", "--concurrency=8", "-n", "hooks@%h"],
                                cwd=ROOT, env=env, start_new_session=True)]
    sender = Celery(broker=redis_server.url)
    sender.conf.task_routes = settings.CELERY_TASK_ROUTES
    try:
        assert _wait(lambda: len(sender.control.ping(timeout=0.5)) == 2, 90), "the workers did not start"
        for pk in deliveries:
            sender.send_task("notifications.tasks.deliver_webhook", args=[pk])
        # Eight deliveries hang (each waits 10 s, twice the sweep interval), twelve more queue.
        assert _wait(lambda: len(held) >= 8, 60), "the webhook worker never took a delivery"
        Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now(), next_due_at=timezone.now())
        started = time.monotonic()
        sender.send_task("games.tasks.apply_deadline", args=[match.pk])
        assert _wait(lambda: Match.objects.get(pk=match.pk).turn_seats == [1], 30)
        assert time.monotonic() - started < settings.SWEEP_SECONDS
        assert not WebhookDelivery.objects.filter(attempts__gt=0).exists()  # all still hanging or queued
        assert _wait(lambda: WebhookDelivery.objects.filter(attempts=1).count() >= 8, 30)
    finally:
        for worker in workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
        silent.close()
        for connection in held:
            connection.close()
        ENGINES.pop("slowrace", None)
    tried = WebhookDelivery.objects.filter(attempts=1)
    assert tried.exists() and all("timed out" in d.last_error.lower() for d in tried)
