"""The chat over the match sockets (issue 26): rendered once per message and kind of reader for
every player's socket, hidden messages for staff only, never for spectators, and never to a
session that has ended."""
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache

from games.sockets import consumers
from games.play import chat
from games import live
from games.reads import panels
from games.models import ChatMessage
from tests.platform.test_socket_authorisation import _open, _players, _signed_in, _until_closed

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_players_sockets_share_one_rendering_of_the_chat_and_staff_see_hidden_lines():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    anna_socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    bo_sockets = [await _open(match.pk, await sync_to_async(_signed_in)(bo)) for _ in range(2)]
    staff_socket = await _open(match.pk, await sync_to_async(_signed_in)(admin))
    spectator = await _open(match.pk)
    rendered = []
    real = panels.render_chat

    def counted(*args, **kwargs):
        rendered.append(args[1])
        return real(*args, **kwargs)

    with mock.patch.object(panels, "render_chat", counted):
        await sync_to_async(chat.chat_post)(match=match, user=anna, text="Ahoy!")
        for socket in (anna_socket, *bo_sockets, staff_socket):
            assert "Ahoy!" in await socket.receive_from(timeout=5)
        assert await spectator.receive_nothing(timeout=0.3)
        # One rendering for the three players' sockets (same language and zone), one for staff.
        assert len(rendered) == 2

        line = await sync_to_async(ChatMessage.objects.get)(match=match)
        await sync_to_async(chat.chat_hide)(message_id=line.pk)
        for socket in (anna_socket, *bo_sockets):
            assert "Ahoy!" not in await socket.receive_from(timeout=5)
        shown = await staff_socket.receive_from(timeout=5)
        assert "Ahoy!" in shown and "hidden-msg" in shown
    for socket in (anna_socket, *bo_sockets, staff_socket, spectator):
        await socket.disconnect()


async def test_a_chat_push_to_a_session_that_ended_closes_its_socket_unread():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    session = await sync_to_async(_signed_in)(bo)
    socket = await _open(match.pk, session)
    # The mark a logout leaves, without its message to the session's sockets (delayed, say).
    await sync_to_async(cache.set)(live.ended_key(session.session.session_key), 1, 60)
    await sync_to_async(chat.chat_post)(match=match, user=anna, text="Secret plans")
    assert await _until_closed(socket) == ([], consumers.CLOSE_SIGNED_OUT)
