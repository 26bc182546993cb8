"""One visitor cannot keep the server busy through a match socket (issue 18): what a client sends
never makes the server render, a socket renders once per version it has to show, too many or
too large messages close it, and sockets per user and per address are bounded."""
import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.sockets import consumers
from games import play
from tests.platform.test_consumer import _connect, _setup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _no_sockets_counted():
    """Forget the counts of sockets that earlier tests left open (theirs, not other keys)."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    cache = caches["default"]
    if isinstance(cache, RedisCache):
        client = cache._cache.get_client(write=True)
        for key in client.scan_iter(match=cache.make_key("sockets:*")):
            client.delete(key)
    else:
        cache.clear()


@pytest.fixture
def renders(monkeypatch):
    """Every render of a live part (the publisher's, a socket's catch-up), as (whose eyes, version)."""
    from games.live import publisher

    done = []
    real = publisher.render

    def counting(match, viewer, kind, revision, *shared):
        done.append((kind, match.version))
        return real(match, viewer, kind, revision, *shared)

    monkeypatch.setattr(publisher, "render", counting)
    return done


async def _until_closed(communicator, timeout=10):
    """What the socket sent until it closed: (messages, close code)."""
    messages = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        output = await communicator.receive_output(timeout=deadline - time.monotonic())
        if output["type"] == "websocket.close":
            return messages, output.get("code")
        messages.append(output.get("text"))
    raise AssertionError("the socket was never closed")


async def test_a_thousand_messages_render_nothing_and_close_the_socket(renders, settings):
    settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGES_PER_SECOND = 10, 1
    match, anna, bo, carl = await sync_to_async(_setup)()
    # A visitor and bo (a player) spam; anna moves meanwhile, and carl watches it arrive.
    watcher, _, _ = await _connect(match.pk, carl)
    spectator_view, _, _ = await _connect(match.pk, anna)
    spammers = {}
    for name, user in (("visitor", None), ("bo", bo)):
        communicator, connected, _ = await _connect(match.pk, user)
        assert connected
        spammers[name] = communicator
    for communicator in (watcher, spectator_view, *spammers.values()):
        assert 'data-version="0"' in await communicator.receive_from(timeout=5)
    assert len(renders) == 4  # one catch-up render per socket
    renders.clear()

    for communicator in spammers.values():
        for _ in range(1000):
            await communicator.send_to(text_data="x")
    started = time.monotonic()
    move = asyncio.ensure_future(sync_to_async(play.action_apply)(match_id=match.pk, user=anna,
                                                                       action={"type": "roll"}))
    html = await watcher.receive_from(timeout=5)
    arrived = time.monotonic() - started
    await move
    assert 'data-version="1"' in html and arrived < 1.0
    assert 'data-version="1"' in await spectator_view.receive_from(timeout=5)

    for name, communicator in spammers.items():
        sent, code = await _until_closed(communicator)
        assert code == consumers.CLOSE_TOO_FAST, name
        # At most the burst of resends of the part it had, and the new version if it came first.
        assert len(sent) <= settings.SOCKET_MESSAGE_BURST + 1, name
        assert all(text and 'id="match-live"' in text for text in sent)
    # 2,000 messages later: nothing rendered but version 1, at most once per socket (the four
    # viewers are distinct) that was still open to show it.
    assert all(version == 1 for _, version in renders)
    # (anna's and bo's seats, and one for the spectators carl and the visitor)
    assert len(renders) == len(set(renders)) <= 3 and f"u{anna.pk}" in {who for who, _ in renders}
    for communicator in (watcher, spectator_view):
        await communicator.disconnect()


async def test_one_render_per_version_however_the_news_arrives(renders):
    """Duplicate and stale parts (a slow layer, two servers publishing) show nothing again, and
    the socket renders nothing itself: it forwards."""
    from channels.layers import get_channel_layer

    from games.live.viewers import group

    match, anna, bo, carl = await sync_to_async(_setup)()
    watcher, _, _ = await _connect(match.pk, bo)
    await watcher.receive_from(timeout=5)
    renders.clear()
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    assert 'data-version="1"' in await watcher.receive_from(timeout=5)
    assert renders == [(f"u{bo.pk}", 1)]
    from games.live import socket_slots

    key = (await sync_to_async(socket_slots.watchers)(match.pk))[0]
    layer, to = get_channel_layer(), group(match.pk, key)
    access = {"public": True, "invite": "", "creator": anna.pk, "seated": [anna.pk, bo.pk], "lobby": False}
    part = {"type": "live.part", "access": access, "body": "stale"}
    await layer.group_send(to, {**part, "version": 1, "revision": ""})  # the version shown, again
    await layer.group_send(to, {**part, "version": 0, "revision": ""})  # older
    assert await watcher.receive_nothing(timeout=0.5)
    await layer.group_send(to, {**part, "version": 1, "revision": "19a", "body": "a lobby change"})
    assert await watcher.receive_from(timeout=5) == "a lobby change"
    assert renders == [(f"u{bo.pk}", 1)]
    await watcher.disconnect()


async def test_a_message_too_large_closes_the_socket():
    match, anna, bo, carl = await sync_to_async(_setup)()
    communicator, _, _ = await _connect(match.pk, None)
    await communicator.receive_from(timeout=5)
    await communicator.send_to(text_data="x" * 100_000)
    assert await _until_closed(communicator) == ([], consumers.CLOSE_TOO_BIG)


async def test_a_client_message_gets_the_same_part_again_without_a_render(renders):
    match, anna, bo, carl = await sync_to_async(_setup)()
    communicator, _, _ = await _connect(match.pk, bo)
    first = await communicator.receive_from(timeout=5)
    await communicator.send_to(text_data='{"HEADERS": {}}')
    assert await communicator.receive_from(timeout=5) == first
    assert len(renders) == 1
    await communicator.disconnect()


async def test_sockets_per_user_and_per_address_are_bounded(settings):
    settings.SOCKETS_PER_USER, settings.SOCKETS_PER_ADDRESS = 2, 3
    match, anna, bo, carl = await sync_to_async(_setup)()
    first = [(await _connect(match.pk, bo))[0] for _ in range(2)]
    # Accepted, then closed with 4029: a client tells it from "not allowed" (403 at the handshake).
    over, connected, code = await _connect(match.pk, bo)
    assert connected and await _until_closed(over) == ([], consumers.CLOSE_TOO_MANY)
    await first[0].disconnect()
    again, connected, _ = await _connect(match.pk, bo)
    assert connected  # a closed socket gives its place back
    await again.disconnect()
    await first[1].disconnect()

    async def from_address(address):
        communicator = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/", headers=[
            (b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")])
        communicator.scope["client"] = (address, 50000)
        connected, code = await communicator.connect(timeout=5)
        return communicator, connected, code

    visitors = [await from_address("203.0.113.7") for _ in range(3)]
    assert all(connected for _, connected, _ in visitors)
    over, connected, code = await from_address("203.0.113.7")
    assert connected and await _until_closed(over) == ([], consumers.CLOSE_TOO_MANY)
    other, connected, _ = await from_address("203.0.113.8")  # another address is not held back
    assert connected
    await other.disconnect()
    for communicator, _, _ in visitors:
        await communicator.disconnect()
