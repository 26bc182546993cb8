"""A database connection ended by the server (a PostgreSQL restart, a failover, an idle
timeout) costs no request (issue 29, item 10). With DB_CONN_MAX_AGE the web processes keep their
connections; each thread's next request on an ended one failed with 503, and its sockets were
dropped. Now a kept connection is checked before it is used again (DB_CONN_HEALTH_CHECKS)."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection, connections

from games import play
from tests.conftest import make_user
from tests.platform.conftest import Layout
from tests.platform.test_socket_slots import _open

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql",
                                 reason="ends PostgreSQL's server processes (CI runs it with DATABASE_URL)")]


async def _sockets(port, match_id, count) -> int:
    """How many of `count` sockets opened one after another are accepted and rendered."""
    opened = [await _open(port, match_id, "none") for _ in range(count)]
    for ws in opened:
        if ws is not None:
            await ws.close()
    return sum(ws is not None for ws in opened)


def _end_other_connections() -> int:
    # The async tests' sync code runs in asgiref's one thread, whose connection outlives each
    # test: closed first, so that what this ends is the servers' connections, not the next
    # async test's.
    asyncio.run(sync_to_async(connections.close_all)())
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return cursor.fetchone()[0]


def test_requests_and_sockets_after_the_database_ended_every_connection(redis_url, tmp_path):
    anna = make_user("anna")
    match = play.match_create(creator=anna, game="pirater", seats=2, options={}, is_public=True)
    with Layout(redis_url, tmp_path, daphnes=1) as layout:
        url = f"http://127.0.0.1:{layout.http_port}/matches/{match.pk}/"
        # Every one of granian's threads opens (and keeps) a connection.
        with ThreadPoolExecutor(16) as pool:
            assert set(pool.map(lambda _: httpx.get(url, timeout=30).status_code, range(48))) == {200}
        assert async_to_sync(_sockets)(layout.ws_ports[0], match.pk, 4) == 4

        assert _end_other_connections() >= 2
        codes = [httpx.get(url, timeout=30).status_code for _ in range(24)]
        assert codes == [200] * 24, layout.tail()
        assert async_to_sync(_sockets)(layout.ws_ports[0], match.pk, 8) == 8
