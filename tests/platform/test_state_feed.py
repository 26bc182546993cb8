"""The sockets' state feed (`/ws/matches/<id>/?feed=state`): a bot's live view of a match as
data instead of the page's HTML. Each viewer gets their seat's view and legal actions with every
change, never another seat's secret, and every push is authorised as the HTML's are."""
import json

import pytest
from asgiref.sync import sync_to_async

from games.sockets import consumers
from games.play import chat as match_chat
from games import play
from games.models import Match
from tests.platform.test_socket_authorisation import (
    _open, _players, _secret, _signed_in, _until_closed, make_private)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _open_feed(match_id, client=None, query="feed=state"):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    socket = WebsocketCommunicator(application, f"/ws/matches/{match_id}/?{query}", headers=headers)
    connected, code = await socket.connect(timeout=5)
    assert connected, code
    return socket, json.loads(await socket.receive_from(timeout=5))


async def test_each_viewer_gets_their_own_view_and_actions_with_every_change():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    anna_feed, first = await _open_feed(match.pk, await sync_to_async(_signed_in)(anna))
    assert first["type"] == "match.state" and first["version"] == 0 and first["my_seat"] == 0
    assert first["my_turn"] and first["actions"] == [{"type": "roll"}]
    bo_feed, first = await _open_feed(match.pk, await sync_to_async(_signed_in)(bo))
    assert first["my_seat"] == 1 and not first["my_turn"] and first["actions"] == []
    spectator, first = await _open_feed(match.pk)
    assert first["my_seat"] is None and "actions" not in first and "my_secret" not in first["view"]

    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    pushed = {name: json.loads(await feed.receive_from(timeout=5))
              for name, feed in (("anna", anna_feed), ("bo", bo_feed), ("spectator", spectator))}
    assert {state["version"] for state in pushed.values()} == {1}
    assert pushed["anna"]["view"]["my_secret"] == await sync_to_async(_secret)(match, 0)
    assert pushed["bo"]["view"]["my_secret"] == await sync_to_async(_secret)(match, 1)
    assert "my_secret" not in pushed["spectator"]["view"]
    assert "secrets" not in json.dumps(pushed)
    assert pushed["anna"]["my_turn"] and {a["type"] for a in pushed["anna"]["actions"]} == {"advance", "stay"}
    assert pushed["bo"]["actions"] == []

    # The chat is the page's HTML: a page's socket is sent it, a feed is not.
    page = await _open(match.pk, await sync_to_async(_signed_in)(anna))

    def chat():
        match_chat.chat_post(match=Match.objects.get(pk=match.pk), user=bo, text="good luck")

    await sync_to_async(chat)()
    assert "good luck" in await page.receive_from(timeout=5)
    assert await anna_feed.receive_nothing(timeout=0.5)
    for feed in (anna_feed, bo_feed, spectator, page):
        await feed.disconnect()


async def test_a_feed_closes_when_its_viewer_may_no_longer_watch():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    visitor, _ = await _open_feed(match.pk)

    await sync_to_async(make_private)(match)
    assert await _until_closed(visitor) == ([], consumers.CLOSE_NOT_ALLOWED)


async def test_a_move_on_the_feed_is_answered_there_and_other_feeds_show_it():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    anna_feed, _ = await _open_feed(match.pk, await sync_to_async(_signed_in)(anna))
    bo_feed, _ = await _open_feed(match.pk, await sync_to_async(_signed_in)(bo))
    await anna_feed.send_to(text_data=json.dumps({"action": {"type": "roll"}, "version": 0}))
    answers = [json.loads(await anna_feed.receive_from(timeout=5)) for _ in range(2)]
    assert {a["type"] for a in answers} == {"move.applied", "match.state"}
    seen = json.loads(await bo_feed.receive_from(timeout=5))
    assert seen["type"] == "match.state" and seen["version"] == 1 and seen["to_act"] == [0]
    for feed in (anna_feed, bo_feed):
        await feed.disconnect()


async def _open_with_token(match_id, header: bytes, cookie_of=None, query="feed=state"):
    """A program's socket: no page, so no Origin; its API token in the handshake."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    headers = [(b"host", b"127.0.0.1:8000"), (b"authorization", header)]
    if cookie_of is not None:
        headers.append((b"cookie", f"sessionid={cookie_of.cookies['sessionid'].value}".encode()))
    socket = WebsocketCommunicator(application, f"/ws/matches/{match_id}/?{query}", headers=headers)
    connected, code = await socket.connect(timeout=5)
    return socket, connected, code


async def test_a_bot_signs_its_feed_with_its_api_token_and_a_revoked_token_ends_it():
    from accounts.models import ApiToken

    match, anna, bo, carl, admin = await sync_to_async(_players)(private=True)
    token, key = await sync_to_async(ApiToken.issue)(bo)
    bot, connected, code = await _open_with_token(match.pk, f"Token {key}".encode())
    assert connected, code
    first = json.loads(await bot.receive_from(timeout=5))
    assert first["my_seat"] == 1 and first["view"]["my_secret"] == await sync_to_async(_secret)(match, 1)

    await sync_to_async(token.delete)()
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    assert await _until_closed(bot) == ([], consumers.CLOSE_SIGNED_OUT)


async def test_a_socket_without_a_page_needs_a_good_token_and_never_rides_on_a_cookie():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=True)
    for header in (b"Token tw_not-a-key", b"Basic Ym86cHc=", b"Token "):
        _, connected, _ = await _open_with_token(match.pk, header, cookie_of=await sync_to_async(_signed_in)(bo))
        assert not connected, header
    # Neither cookie nor token and no Origin: refused as before.
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    socket = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/", headers=[(b"host", b"127.0.0.1:8000")])
    connected, _ = await socket.connect(timeout=5)
    assert not connected
