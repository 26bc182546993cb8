"""The match socket through the configured channel layer (Redis in CI): who may connect, what
each viewer receives after a committed action, and catching up on reconnect."""
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import play
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _cookie_for(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def _connect(match_id, user=None, origin=b"http://127.0.0.1:8000", query=""):
    headers = [(b"origin", origin), (b"host", b"127.0.0.1:8000")]
    if user is not None:
        cookie = await sync_to_async(_cookie_for)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    path = f"/ws/matches/{match_id}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


def _setup(private=False):
    anna, bo, carl = make_user("anna"), make_user("bo"), make_user("carl")
    match = play.match_create(creator=anna, game="race", seats=2, is_public=not private)
    play.match_join(match_id=match.pk, user=bo, invite_code=match.invite_code)
    return match, anna, bo, carl


async def test_each_viewer_gets_the_new_version_rendered_for_them():
    match, anna, bo, carl = await sync_to_async(_setup)()
    sockets = {}
    for name, user in (("anna", anna), ("bo", bo), ("spectator", None)):
        communicator, connected, _ = await _connect(match.pk, user)
        assert connected
        first = await communicator.receive_from(timeout=5)
        assert 'id="match-live"' in first and 'data-version="0"' in first
        sockets[name] = communicator
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    received = {name: await c.receive_from(timeout=5) for name, c in sockets.items()}
    secret = (await sync_to_async(lambda: type(match).objects.get(pk=match.pk).state)())["secrets"][0]
    for name, html in received.items():
        assert 'data-version="1"' in html
    assert f"peeked at the secret {secret}" in received["anna"]
    assert "peeked" not in received["bo"] and "peeked" not in received["spectator"]
    assert "Your turn" in received["anna"] and "Your turn" not in received["bo"]
    for c in sockets.values():
        await c.disconnect()


async def test_private_match_refuses_outsiders_and_foreign_origins():
    match, anna, bo, carl = await sync_to_async(_setup)(private=True)
    _, connected, code = await _connect(match.pk, carl)
    assert not connected and code == 4403
    communicator, connected, _ = await _connect(match.pk, carl, query=f"invite={match.invite_code}")
    assert connected
    await communicator.disconnect()
    _, connected, _ = await _connect(match.pk, anna, origin=b"http://evil.example")
    assert not connected
    _, connected, _ = await _connect(987654, anna)
    assert not connected


async def test_a_reconnecting_browser_catches_up():
    match, anna, bo, carl = await sync_to_async(_setup)()
    communicator, _, _ = await _connect(match.pk, bo)
    await communicator.receive_from(timeout=5)
    await communicator.disconnect()
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "stay"})
    communicator, _, _ = await _connect(match.pk, bo)
    html = await communicator.receive_from(timeout=5)
    assert 'data-version="2"' in html and "Your turn" in html
    await communicator.disconnect()


async def test_chat_reaches_the_players_live_but_not_spectators():
    from games.play.chat import chat_post

    match, anna, bo, carl = await sync_to_async(_setup)()
    bo_socket, _, _ = await _connect(match.pk, bo)
    await bo_socket.receive_from(timeout=5)
    watcher, _, _ = await _connect(match.pk, None)
    await watcher.receive_from(timeout=5)
    await sync_to_async(chat_post)(match=match, user=anna, text="Ahoy!")
    html = await bo_socket.receive_from(timeout=5)
    assert html.startswith('<section id="match-chat"') and "Ahoy!" in html
    assert await watcher.receive_nothing(timeout=0.5)
    await bo_socket.disconnect()
    await watcher.disconnect()


def _revision_of(html):
    import re

    return re.search(r'id="match-live"[^>]*?data-version="(\d+)"\s+data-revision="([^"]*)"', html).groups()


def _open_match_page(user):
    """A race match of three seats with two taken, and its page as `user` loads it."""
    anna, bo, carl = make_user("anna"), make_user("bo"), make_user("carl")
    match = play.match_create(creator=anna, game="race", seats=3)
    play.match_join(match_id=match.pk, user=bo)
    client = Client()
    client.force_login({"anna": anna, "bo": bo}[user])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    return match, anna, bo, carl, page


async def test_a_page_that_missed_the_deal_is_caught_up_by_its_socket():
    """Issue 33's Pirater page left on "open": the last seat was taken (and the match dealt at
    version 0) between the page's load and its socket's opening, so the deal's message reached
    no socket of that page, and the socket's catch-up (the running match, version 0) carried
    the same version and revision as the page: the page's script kept it out. The catch-up
    carries the revision the match keeps now, which the page never showed."""
    match, anna, bo, carl, page = await sync_to_async(_open_match_page)("bo")
    assert "status-open" in page
    page_version, page_revision = _revision_of(page)
    await sync_to_async(play.match_join)(match_id=match.pk, user=carl)   # the deal: still version 0
    socket, connected, _code = await _connect(match.pk, bo)
    assert connected
    caught_up = await socket.receive_from(timeout=5)
    assert "status-running" in caught_up
    version, revision = _revision_of(caught_up)
    assert version == page_version == "0"
    assert revision and revision != page_revision   # so static/js/site.js swaps it in
    await socket.disconnect()


async def test_a_page_loaded_after_a_change_that_kept_the_version_shows_its_revision():
    """The page and every socket's catch-up show the revision of the last change that kept the
    version, so a catch-up of a page that missed nothing is recognised as what it shows."""
    match, anna, bo, carl, page = await sync_to_async(_open_match_page)("anna")
    page_version, page_revision = _revision_of(page)
    assert page_revision  # bo's seat was a change that kept version 0
    socket, connected, _code = await _connect(match.pk, anna)
    assert connected
    assert _revision_of(await socket.receive_from(timeout=5)) == (page_version, page_revision)
    await socket.disconnect()


async def test_a_socket_that_missed_a_change_of_the_same_version_catches_up_by_itself(settings, monkeypatch):
    """The watch (issue 34) compares revisions too: a lost message of a change that kept the
    version (the deal) is caught up without a move after it."""
    from games.live import layer

    settings.LIVE_WATCH_SECONDS = 0.2
    match, anna, bo, carl, page = await sync_to_async(_open_match_page)("bo")
    socket, connected, _code = await _connect(match.pk, bo)
    assert connected and "status-open" in await socket.receive_from(timeout=5)
    real_send = layer.send
    monkeypatch.setattr(layer, "send", lambda messages, what: None)  # the layer is away: lost
    await sync_to_async(play.match_join)(match_id=match.pk, user=carl)
    monkeypatch.setattr(layer, "send", real_send)
    assert "status-running" in await socket.receive_from(timeout=5)
    await socket.disconnect()


async def test_a_handshake_is_answered_after_one_trip_to_the_thread_pool(monkeypatch):
    """Under load every trip to the thread pool queues behind the others', and Daphne drops a
    handshake its application has not answered in time: who asks, whether they may watch and
    their place within the sockets' bounds are settled in one trip before the answer."""
    from games.sockets import consumers

    match, anna, bo, carl = await sync_to_async(_setup)(private=True)
    trips, at_answer = [], []
    in_pool = consumers._in_pool
    monkeypatch.setattr(consumers, "_in_pool", lambda fn: trips.append(fn) or in_pool(fn))
    accept, close = consumers.MatchConsumer.accept, consumers.MatchConsumer.close

    async def accepted(self, *args, **kwargs):
        at_answer.append(len(trips))
        return await accept(self, *args, **kwargs)

    async def closed(self, *args, **kwargs):
        at_answer.append(len(trips))
        return await close(self, *args, **kwargs)

    monkeypatch.setattr(consumers.MatchConsumer, "accept", accepted)
    monkeypatch.setattr(consumers.MatchConsumer, "close", closed)
    communicator, connected, _ = await _connect(match.pk, anna)
    assert connected and at_answer == [1]
    assert 'data-version="0"' in await communicator.receive_from(timeout=5)
    await communicator.disconnect()
    trips.clear(), at_answer.clear()
    _, connected, code = await _connect(match.pk, carl)
    assert not connected and code == 4403 and at_answer == [1]


async def test_a_forwarded_part_and_a_frame_received_make_no_trip_to_the_thread_pool(monkeypatch):
    """A socket forwards: each part a change sends it, and each frame the browser sends that is
    not a move, is answered without queueing behind the database work of every other socket in
    the thread pool (channels' dispatch made a trip before every message)."""
    import asyncio

    from channels.layers import get_channel_layer

    from games.live.keys import group_name

    match, anna, bo, carl = await sync_to_async(_setup)()
    communicator, connected, _ = await _connect(match.pk, anna)
    assert connected and 'data-version="0"' in await communicator.receive_from(timeout=5)
    layer = get_channel_layer()

    async def forward(version):
        await layer.group_send(group_name(match.pk), {
            "type": "live.part", "version": version, "revision": "", "access": None,
            "body": f"<div>version {version}</div>"})
        assert await communicator.receive_from(timeout=5) == f"<div>version {version}</div>"

    await forward(1)  # the layer's connections made (a host name is resolved in the pool)
    loop, trips = asyncio.get_running_loop(), []
    run_in_executor = loop.run_in_executor
    monkeypatch.setattr(loop, "run_in_executor", lambda *args: trips.append(args) or run_in_executor(*args))
    await forward(2)
    await communicator.send_to(text_data="hello")  # not a move: the part shown, again
    assert await communicator.receive_from(timeout=5) == "<div>version 2</div>"
    assert trips == []
    monkeypatch.undo()
    await communicator.disconnect()
