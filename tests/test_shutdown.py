"""Issue 14, item 8: Daphne (manage.py serve) stops within seconds of SIGTERM, with a socket open
and Redis gone."""
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from websockets.sync.client import connect

from games import play
from tests.conftest import client_for, make_user
from tests.test_faults import ROOT, _database_url, _free_port, redis_server  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def _serve(env, port):
    process = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env,
                               start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


@pytest.mark.parametrize("redis_fault", ["stopped", "frozen"])
def test_daphne_stops_within_seconds_of_sigterm_with_a_socket_open_and_redis_gone(redis_server, redis_fault):
    """Stopped: connections are refused; frozen (SIGSTOP): they hang, as behind a lost network."""
    anna = make_user("anna")
    match = play.match_create(creator=anna, game="fuldrigger", seats=2, bot_seats=1)
    cookie = client_for(anna).cookies["sessionid"].value
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_server.url}
    server = _serve(env, port)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/matches/{match.pk}/", open_timeout=10,
                     additional_headers={"Origin": f"http://127.0.0.1:{port}", "Cookie": f"sessionid={cookie}"}) as ws:
            assert 'data-version="' in ws.recv(timeout=10)  # the live part: the socket works
            if redis_fault == "stopped":
                redis_server.stop()
            else:
                os.kill(redis_server.process.pid, signal.SIGSTOP)
            time.sleep(1)
            stopping = time.monotonic()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
            assert time.monotonic() - stopping < 8
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
