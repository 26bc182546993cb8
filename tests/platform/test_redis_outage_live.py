"""After a Redis outage no page silently falls behind (issue 34, item 1): on the README's layout
(nginx, granian, two Daphnes), sockets open on a match; Redis is killed; moves are made; Redis
comes back empty (its groups forgotten); every socket reaches the last version within seconds,
with no further move and no reconnect. Before, all of them still showed the version from before
the outage until the next move."""
import asyncio
import importlib
import random
import re
import time

import pytest
from asgiref.sync import sync_to_async

from games import play
from games.engines import get_engine
from games.models import Match
from tests.conftest import make_user
from tests.platform.conftest import Layout
from tests.test_faults import RedisServer

pytestmark = pytest.mark.django_db(transaction=True)
VERSION = re.compile(r'data-version="(\d+)"')
SOCKETS = 4


def _match():
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="pirater", seats=2, options={}, is_public=True)
    play.match_join(match_id=match.pk, user=bo)
    return match.pk, {0: anna, 1: bo}


def _moves(match_id, players, count) -> int:
    """`count` random legal moves through the services (this process's channel layer is not the
    layout's: what it publishes reaches no socket there, as during an outage)."""
    engine, rnd = get_engine("pirater"), random.Random(34)
    bots = importlib.import_module("games.engines.pirater.bots")
    for _ in range(count):
        match = Match.objects.get(pk=match_id)
        seat = rnd.choice(engine.to_act(match.state))
        play.action_apply(match_id=match_id, user=players[seat], action=bots.random_action(match.state, seat, rnd))
    return Match.objects.get(pk=match_id).version


async def _shown(ws, until_version, seconds) -> int:
    shown, deadline = -1, time.monotonic() + seconds
    while shown < until_version:
        text = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
        found = VERSION.search(text)
        if found:
            shown = int(found.group(1))
    return shown


@pytest.mark.asyncio
async def test_every_open_socket_reaches_the_last_version_after_a_redis_outage(tmp_path):
    from websockets.asyncio.client import connect

    match_id, players = await sync_to_async(_match)()
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        with Layout(redis.url, tmp_path, LIVE_WATCH_SECONDS="1") as layout:
            url = f"ws://127.0.0.1:{layout.port}/ws/matches/{match_id}/"
            sockets = [await connect(url, origin=layout.base, open_timeout=10) for _ in range(SOCKETS)]
            try:
                for ws in sockets:
                    assert await _shown(ws, 0, 30) == 0
                redis.stop()
                last = await sync_to_async(_moves)(match_id, players, 5)
                await asyncio.sleep(1)
                redis.start()  # back, and empty: the groups are forgotten
                started = time.monotonic()
                shown = [await _shown(ws, last, 15) for ws in sockets]
                assert shown == [last] * SOCKETS
                print(f"{SOCKETS} sockets at version {last} {time.monotonic() - started:.1f} s after Redis was back")
                # and the next move reaches them too
                newer = await sync_to_async(_moves)(match_id, players, 1)
                assert [await _shown(ws, newer, 10) for ws in sockets] == [newer] * SOCKETS
            except BaseException:
                print(layout.tail()[-6000:])
                raise
            finally:
                for ws in sockets:
                    await ws.close()
    finally:
        redis.stop()
