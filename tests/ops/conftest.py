"""Fixtures of the ops tests: a private Redis on a port of its own (to stop and kill), and this
process (the web process) queueing its jobs there for a real worker."""
import socket

import pytest

from tests.test_faults import RedisServer

# The ops tests' servers listen in this range of ports (the machine is shared).
PORTS = range(9210, 9300)


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in the ops tests' range")
from tests.test_outage import _drop_connections


@pytest.fixture
def private_redis(tmp_path):
    server = RedisServer(tmp_path)
    server.port = free_port()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def web_broker(private_redis, settings):
    from config.celery import app

    settings.JOBS_IN_PROCESS = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    before, eager = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = private_redis.url, False
    _drop_connections(app)
    yield app
    app.conf.broker_url, app.conf.task_always_eager = before, eager
    _drop_connections(app)
