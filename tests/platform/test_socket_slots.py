"""Socket counts heal when a server process dies (issue 29, item 5; games/live/socket_slots.py).
A Daphne killed with a user's sockets open left them counted for 6 hours: the user, with no
socket open anywhere, was refused below SOCKETS_PER_USER. Now each process's counts are
forgotten within SOCKET_SLOT_SECONDS of its last refresh."""
import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from games import play
from tests.conftest import client_for, make_user
from tests.platform.conftest import Layout

pytestmark = pytest.mark.django_db(transaction=True)
PER_USER, SLOT_SECONDS = 4, 3


def _setup():
    anna = make_user("anna")
    match = play.match_create(creator=anna, game="pirater", seats=2, options={}, is_public=True)
    return match, client_for(anna).cookies["sessionid"].value


async def _open(port, match_id, session):
    """A socket straight to one Daphne, signed in: None if refused."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    try:
        ws = await connect(f"ws://127.0.0.1:{port}/ws/matches/{match_id}/", origin=f"http://127.0.0.1:{port}",
                           additional_headers={"Cookie": f"sessionid={session}"}, open_timeout=20)
    except InvalidStatus as refused:  # not allowed: refused at the handshake
        assert refused.response.status_code == 403
        return None
    try:
        await asyncio.wait_for(ws.recv(), 20)
    except ConnectionClosed as closed:  # too many sockets: accepted, then closed with 4029
        assert closed.rcvd is not None and closed.rcvd.code == 4029
        return None
    return ws


@pytest.mark.asyncio
async def test_a_killed_daphnes_sockets_stop_counting_within_the_slot_expiry(redis_url, tmp_path):
    match, session = await sync_to_async(_setup)()
    with Layout(redis_url, tmp_path, SOCKETS_PER_USER=str(PER_USER), SOCKET_SLOT_SECONDS=str(SLOT_SECONDS),
                SOCKETS_PER_ADDRESS="1000") as layout:
        doomed, other = layout.ws_ports
        held = [await _open(doomed, match.pk, session) for _ in range(PER_USER)]
        assert all(held)
        # Counted across processes: the other Daphne refuses one more.
        assert await _open(other, match.pk, session) is None

        layout.kill_daphne(0)
        killed = time.monotonic()
        opened = []
        while len(opened) < PER_USER and time.monotonic() < killed + SLOT_SECONDS + 10:
            ws = await _open(other, match.pk, session)
            if ws is None:
                await asyncio.sleep(0.25)
            else:
                opened.append(ws)
        healed = time.monotonic() - killed
        assert len(opened) == PER_USER, f"{len(opened)} of {PER_USER} accepted {healed:.1f} s after the kill"
        assert healed < SLOT_SECONDS + 5
        # The bound itself still holds.
        assert await _open(other, match.pk, session) is None
        for ws in opened:
            await ws.close()
