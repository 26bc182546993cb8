"""Every push is authorised against the present (issue 26): a socket stops showing a match to
whoever may no longer watch it, and stops showing a seat's private hand to anyone but that
seat's player, as soon as the change is committed. Each case over a real socket."""
import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client

from config.asgi import application
from games.sockets import consumers
from games import live, play
from games.models import Match
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _signed_in(user):
    client = Client()
    client.force_login(user)
    return client


async def _open(match_id, client=None, query=""):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    path = f"/ws/matches/{match_id}/" + (f"?{query}" if query else "")
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await socket.connect(timeout=5)
    assert connected, code
    assert 'id="match-live"' in await socket.receive_from(timeout=5)
    return socket


async def _until_closed(socket, timeout=5):
    """What the socket sent until it closed: (messages, close code)."""
    messages = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        output = await socket.receive_output(timeout=deadline - time.monotonic())
        if output["type"] == "websocket.close":
            return messages, output.get("code")
        messages.append(output.get("text"))
    raise AssertionError("the socket was never closed")


def _players(private=True, seats=2):
    anna, bo, carl = make_user("anna"), make_user("bo"), make_user("carl")
    admin = make_user("admin", is_staff=True, is_superuser=True)
    match = play.match_create(creator=anna, game="race", seats=seats, is_public=not private)
    play.match_join(match_id=match.pk, user=bo, invite_code=match.invite_code)
    return match, anna, bo, carl, admin


def make_private(match):
    """As the admin does: the row saved with is_public off."""
    row = Match.objects.get(pk=match.pk)
    row.is_public = False
    row.save()


def _secret(match, seat):
    return Match.objects.get(pk=match.pk).state["secrets"][seat]


async def test_a_player_who_leaves_a_private_match_stops_receiving_it():
    match, anna, bo, carl, admin = await sync_to_async(_players)(seats=3)
    socket = await _open(match.pk, await sync_to_async(_signed_in)(bo))
    await sync_to_async(play.match_leave)(match_id=match.pk, user=bo)
    assert await _until_closed(socket) == ([], consumers.CLOSE_NOT_ALLOWED)
    # Anna, still seated, sees the lobby without bo.
    anna_socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    await sync_to_async(play.match_join)(match_id=match.pk, user=carl, invite_code=match.invite_code)
    html = await anna_socket.receive_from(timeout=5)
    assert "Carl" in html and "Bo" not in html
    await anna_socket.disconnect()


async def test_a_seat_handed_to_another_player_takes_the_match_and_the_hand_with_it():
    match, anna, bo, carl, admin = await sync_to_async(_players)()
    bo_socket = await _open(match.pk, await sync_to_async(_signed_in)(bo))
    await sync_to_async(play.seat_hand_over)(match_id=match.pk, seat_number=1, to_user=carl, actor=admin)
    assert await _until_closed(bo_socket) == ([], consumers.CLOSE_NOT_ALLOWED)


async def test_a_seat_handed_over_in_a_public_match_leaves_its_old_player_a_spectator():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    anna_socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    await sync_to_async(play.seat_hand_over)(match_id=match.pk, seat_number=0, to_user=carl, actor=admin)
    handed = await anna_socket.receive_from(timeout=5)
    assert "Your turn" not in handed
    await sync_to_async(play.action_apply)(match_id=match.pk, user=carl, action={"type": "roll"})
    html = await anna_socket.receive_from(timeout=5)
    secret = await sync_to_async(_secret)(match, 0)
    assert 'data-version="2"' in html and f"peeked at the secret {secret}" not in html
    await anna_socket.disconnect()


async def test_an_invitation_link_revoked_closes_the_sockets_it_opened():
    match, anna, bo, carl, admin = await sync_to_async(_players)()
    invited = await _open(match.pk, await sync_to_async(_signed_in)(carl), query=f"invite={match.invite_code}")
    visitor = await _open(match.pk, query=f"invite={match.invite_code}")
    anna_socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))

    def revoke():  # as the admin does: a new code, the row saved
        row = Match.objects.get(pk=match.pk)
        row.invite_code = "a-new-code"
        row.save()

    await sync_to_async(revoke)()
    assert await _until_closed(invited) == ([], consumers.CLOSE_NOT_ALLOWED)
    assert await _until_closed(visitor) == ([], consumers.CLOSE_NOT_ALLOWED)
    # The players keep theirs.
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    assert 'data-version="1"' in await anna_socket.receive_from(timeout=5)
    await anna_socket.disconnect()


async def test_an_anonymous_socket_closes_when_the_match_is_made_private():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    visitor = await _open(match.pk)
    member = await _open(match.pk, await sync_to_async(_signed_in)(carl))

    await sync_to_async(make_private)(match)
    assert await _until_closed(visitor) == ([], consumers.CLOSE_NOT_ALLOWED)
    assert await _until_closed(member) == ([], consumers.CLOSE_NOT_ALLOWED)


async def test_logging_out_closes_the_sockets_the_session_opened_and_no_private_hand_follows():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    session = await sync_to_async(_signed_in)(anna)
    other_session = await sync_to_async(_signed_in)(anna)
    socket = await _open(match.pk, session)
    elsewhere = await _open(match.pk, other_session)
    await sync_to_async(session.post)("/accounts/logout/")
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    sent, code = await _until_closed(socket)
    assert code == consumers.CLOSE_SIGNED_OUT and not any("peeked" in (text or "") for text in sent)
    # Her other browser is still signed in and still sees her hand.
    assert "peeked at the secret" in await elsewhere.receive_from(timeout=5)
    await elsewhere.disconnect()


async def test_a_push_checks_the_session_even_before_the_logout_reaches_the_socket():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    session = await sync_to_async(_signed_in)(anna)
    socket = await _open(match.pk, session)
    # The mark a logout leaves, without its message to the session's sockets (delayed, say).
    await sync_to_async(cache.set)(live.ended_key(session.session.session_key), 1, 60)
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    assert await _until_closed(socket) == ([], consumers.CLOSE_SIGNED_OUT)


async def test_a_new_password_closes_the_users_sockets():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    bo_socket = await _open(match.pk, await sync_to_async(_signed_in)(bo))

    def new_password():
        anna.set_password("a whole new secret")
        anna.save()

    await sync_to_async(new_password)()
    assert await _until_closed(socket) == ([], consumers.CLOSE_SIGNED_OUT)
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    assert 'data-version="1"' in await bo_socket.receive_from(timeout=5)
    await bo_socket.disconnect()
    await asyncio.sleep(0)
