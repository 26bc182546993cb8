"""Issue 29 item 6: /health/ names what is wrong (database, cache, broker, the worker's and beat's
heartbeats, late deadlines) for a load balancer and a supervisor; /metrics counts the moves, the
sockets, the jobs and the deadlines, for Prometheus only."""
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from config import health, metrics
from games import play
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)  # the checks run on threads of their own


def _health(client=None):
    response = (client or Client()).get("/health/?format=json")
    return response.status_code, response.json()


def _failing(report):
    return {name for name, status in report.items() if status != "OK"}


def test_health_is_ok_without_a_worker_and_says_which_deadline_is_late(race_match, settings):
    status, report = _health()
    assert status == 200, report
    assert any("Database" in name for name in report) and any("Cache" in name for name in report)
    Match.objects.filter(pk=race_match.pk).update(next_due_at=timezone.now() - timedelta(minutes=10))
    status, report = _health()
    assert status == 500 and {n for n in _failing(report)} == {"DeadlineSweepLag()"}, report
    assert "a deadline has waited 6" in report["DeadlineSweepLag()"]


def test_health_with_a_worker_expects_the_broker_and_both_heartbeats(settings, private_redis):
    from tests.test_outage import _drop_connections
    from config.celery import app

    settings.JOBS_IN_PROCESS = False
    before = app.conf.broker_url
    app.conf.broker_url = private_redis.url
    _drop_connections(app)
    try:
        cache.delete_many([health.WORKER_HEARTBEAT, health.BEAT_HEARTBEAT])
        status, report = _health()
        assert status == 500 and _failing(report) == {"Heartbeat(process='worker')", "Heartbeat(process='beat')"}, report
        health.beat(health.BEAT_HEARTBEAT)  # beat queues its jobs, but the worker is gone
        cache.set(health.WORKER_HEARTBEAT, time.time() - 3600)
        status, report = _health()
        assert status == 500 and _failing(report) == {"Heartbeat(process='worker')"}, report
        assert "worker heartbeat 3600 s old" in report["Heartbeat(process='worker')"]
        health.beat(health.WORKER_HEARTBEAT)
        assert _health()[0] == 200
        private_redis.stop()  # the broker goes away
        status, report = _health()
        assert status == 500 and "Broker()" in _failing(report), report
    finally:
        app.conf.broker_url = before
        _drop_connections(app)


def test_metrics_count_moves_applied_and_refused_with_their_reason(race_match, player, opponent, staff):
    def sample(name, **labels):
        return REGISTRY.get_sample_value(name, labels) or 0.0

    applied, refused = sample("tradewinds_moves_applied_total", game="race"), \
        sample("tradewinds_moves_refused_total", reason="refused")
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    with pytest.raises(Exception):
        play.action_apply(match_id=race_match.pk, user=opponent, action={"type": "roll"})  # not their turn
    assert sample("tradewinds_moves_applied_total", game="race") == applied + 1
    assert sample("tradewinds_moves_refused_total", reason="refused") == refused + 1

    from tests.conftest import client_for

    body = client_for(staff).get("/metrics").content.decode()
    assert 'tradewinds_moves_applied_total{game="race"}' in body
    assert "django_http_requests_latency_seconds_by_view_method" in body  # django-prometheus's
    assert "tradewinds_deadline_sweep_lag_seconds" in body and "tradewinds_open_sockets" in body


def test_metrics_are_not_shown_to_anyone_else(player):
    from tests.conftest import client_for

    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 404
    assert client_for(player).get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 404
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 200


def test_metrics_read_the_visitors_address_behind_the_proxy(settings):
    """Issue 34.3: /metrics checked REMOTE_ADDR, which behind nginx is nginx's for every visitor."""
    settings.TRUSTED_PROXY_HOPS = 1
    # nginx on the machine passes on a visitor from outside, who wrote 127.0.0.1 in the header.
    outsider = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.9")
    assert outsider.get("/metrics").status_code == 404
    mapped = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="::ffff:203.0.113.9")
    assert mapped.get("/metrics").status_code == 404
    # Prometheus on the machine, through nginx, and straight at the app server.
    assert Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 200
    # The scraper's network, configured.
    settings.METRICS_ALLOWED_IPS = ["10.0.5.0/24"]
    assert Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.0.5.7").get("/metrics").status_code == 200
    mapped = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="::ffff:10.0.5.7")
    assert mapped.get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.0.6.7").get("/metrics").status_code == 404


def test_health_tells_outsiders_the_status_alone(race_match, staff, settings):
    """Issue 34.3: which process is down and why is for operators (staff, the operators' network);
    a load balancer outside needs the status only, whatever format it asks for."""
    from tests.conftest import client_for

    outsider = Client(REMOTE_ADDR="203.0.113.9")
    for query, accept in (("", "*/*"), ("?format=json", "*/*"), ("", "application/json"), ("?format=rss", "*/*"),
                          ("?format=openmetrics", "*/*"), ("", "image/png")):
        answer = outsider.get(f"/health/{query}", HTTP_ACCEPT=accept)
        assert (answer.status_code, answer.content) == (200, b"OK\n"), query
    Match.objects.filter(pk=race_match.pk).update(next_due_at=timezone.now() - timedelta(minutes=10))
    for query in ("", "?format=json", "?format=atom"):
        answer = outsider.get(f"/health/{query}")
        assert (answer.status_code, answer.content) == (500, b"Unavailable\n"), query
        assert answer["Content-Type"].startswith("text/plain")
    # Operators see which check fails: staff from anywhere, anyone from the operators' network
    # (by the visitor's address behind the proxy, not the proxy's).
    staff_client = client_for(staff)
    answer = staff_client.get("/health/?format=json", REMOTE_ADDR="203.0.113.9")
    assert answer.status_code == 500 and "a deadline has waited" in answer.json()["DeadlineSweepLag()"]
    assert "DeadlineSweepLag" in Client(REMOTE_ADDR="127.0.0.1").get("/health/?format=json").content.decode()
    settings.TRUSTED_PROXY_HOPS = 1
    behind = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.9")
    assert behind.get("/health/?format=json").content == b"Unavailable\n"


def test_open_sockets_count_only_what_was_accepted():
    class Consumer:
        pass

    before = REGISTRY.get_sample_value("tradewinds_open_sockets") or 0.0
    first, refused = Consumer(), Consumer()
    metrics.socket_opened(first)
    assert REGISTRY.get_sample_value("tradewinds_open_sockets") == before + 1
    metrics.socket_closed(refused)  # never accepted
    metrics.socket_closed(first)
    metrics.socket_closed(first)  # a second disconnect of the same socket
    assert REGISTRY.get_sample_value("tradewinds_open_sockets") == before


def test_in_multiprocess_mode_metrics_sum_every_process_and_forget_dead_sockets(tmp_path):
    """Production: every process writes to PROMETHEUS_MULTIPROC_DIR; whichever answers /metrics
    reports the sum of the moves, and the open sockets of live processes only."""
    import os
    import subprocess
    import sys

    from tests.test_faults import ROOT, _database_url

    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": _database_url(),
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    env.pop("REDIS_URL", None)
    script = [sys.executable, "tests/ops/metrics_process.py"]
    dead = subprocess.run(script + ["count", "3", "--exit"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert dead.returncode == 0, dead.stderr
    alive = subprocess.Popen(script + ["count", "2"], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        alive_pid = alive.stdout.readline().strip()
        scrape = subprocess.run(script + ["scrape"], cwd=ROOT, env=env, capture_output=True, text=True)
    finally:
        alive.stdin.close()
        alive.wait(timeout=30)
    assert scrape.returncode == 0, scrape.stderr
    lines = scrape.stdout.splitlines()
    assert 'tradewinds_moves_applied_total{game="race"} 5.0' in lines
    sockets = [line for line in lines if line.startswith("tradewinds_open_sockets{")]
    assert f'tradewinds_open_sockets{{pid="{alive_pid}"}} 1.0' in sockets, sockets
    assert not [line for line in sockets if f'pid="{dead.stdout.strip()}"' in line], sockets  # it died
    assert [line for line in sockets if not line.endswith(" 0.0")] == [f'tradewinds_open_sockets{{pid="{alive_pid}"}} 1.0']
    assert "tradewinds_jobs_queued 0.0" in lines
