"""Moves over the socket that is already open (issue 26): applied by play.action_apply as
the forms' and the API's are, answered on that socket after the commit with the new version
and, for the player to act, their legal actions; hostile input gets a clear message."""
import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from games.sockets import consumers
from games.models import Match
from tests.platform.test_socket_authorisation import _open, _players, _signed_in, _until_closed

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _answer(socket):
    """The move's answer, past the live parts the socket may push meanwhile."""
    for _ in range(5):
        text = await socket.receive_from(timeout=5)
        if text.startswith("{"):
            return json.loads(text)
    raise AssertionError("no answer to the move")


async def test_a_move_on_the_socket_is_applied_and_answered_with_the_new_version_and_legal_actions():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    anna_socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    bo_socket = await _open(match.pk, await sync_to_async(_signed_in)(bo))
    await anna_socket.send_to(text_data=json.dumps({"action": {"type": "roll"}, "version": 0}))
    answer = await _answer(anna_socket)
    assert answer["type"] == "move.applied" and answer["version"] == 1 and answer["your_turn"] is True
    assert {a["type"] for a in answer["legal"]} == {"advance", "stay"}
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == 1
    assert 'data-version="1"' in await bo_socket.receive_from(timeout=5)  # the others see it as ever
    # A form as htmx's ws-send sends it: the action as JSON text, the version as text.
    await anna_socket.send_to(text_data=json.dumps({"action": '{"type": "stay"}', "version": "1",
                                                    "HEADERS": {"HX-Request": "true"}}))
    answer = await _answer(anna_socket)
    assert answer == {"type": "move.applied", "version": 2, "your_turn": False, "legal": []}
    for socket in (anna_socket, bo_socket):
        await socket.disconnect()


@pytest.mark.parametrize("message, status, words", [
    ({"action": {"type": "roll"}, "version": 7}, 409, "moved on"),
    ({"action": {"type": "fly"}, "version": 0}, 400, "cannot fly"),
    ({"action": "not json", "version": 0}, 400, "JSON"),
    ({"action": ["roll"]}, 400, "JSON object"),
    ({"action": {"type": "roll"}, "version": [0]}, 400, "whole number"),
    ({"action": {"type": "roll"}, "a.x": {"deep": 1}}, 400, "does not fit"),
])
async def test_hostile_moves_get_a_clear_message_and_change_nothing(message, status, words):
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    await socket.send_to(text_data=json.dumps(message))
    answer = await _answer(socket)
    assert answer["type"] == "move.refused" and answer["status"] == status and words in answer["error"]
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == 0
    await socket.send_to(text_data='{"action": ')  # not even JSON
    assert (await _answer(socket))["status"] == 400
    await socket.disconnect()


@pytest.mark.parametrize("text, words", [
    ('{"action": ' + "[" * 1500 + "]" * 1500 + ', "version": 0}', "nested"),
    ('{"action": {"type": "roll", "n": NaN}, "version": 0}', "finite"),
    ('{"action": {"type": "roll\\u0000"}, "version": 0}', "control"),
])
async def test_a_move_under_the_sites_json_rule_is_refused_in_words_not_closed(text, words):
    """JSON nested 1,500 deep fits in a socket message, and json.loads raised RecursionError:
    the socket closed with 1011 (internal error). The site's JSON rule holds here as in the API."""
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    await socket.send_to(text_data=text)
    answer = await _answer(socket)
    assert answer["type"] == "move.refused" and answer["status"] == 400 and words in answer["error"]
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == 0
    await socket.disconnect()


async def test_a_spectator_or_another_seat_cannot_move_for_a_player():
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    visitor = await _open(match.pk)
    await visitor.send_to(text_data=json.dumps({"action": {"type": "roll"}}))
    assert (await _answer(visitor))["status"] == 403
    bo_socket = await _open(match.pk, await sync_to_async(_signed_in)(bo))
    await bo_socket.send_to(text_data=json.dumps({"action": {"type": "roll"}}))
    answer = await _answer(bo_socket)
    assert answer["status"] == 400 and "not your turn" in answer["error"]
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == 0
    for socket in (visitor, bo_socket):
        await socket.disconnect()


async def test_moves_have_an_allowance_of_their_own_then_are_refused_then_close_the_socket(settings):
    # A bot may play several moves a second without being taken for a flood (the messages'
    # allowance is one a second); past the moves' own allowance it is told so and nothing is
    # applied, and a client that keeps on sending is closed like any flood.
    settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGES_PER_SECOND = 2, 0.01
    settings.SOCKET_MOVE_BURST, settings.SOCKET_MOVES_PER_SECOND = 4, 0.01
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    for _ in range(4):   # more than the messages' burst: all answered
        await socket.send_to(text_data=json.dumps({"action": {"type": "fly"}}))
        assert (await _answer(socket))["status"] == 400
    for _ in range(3):   # past the moves' allowance: refused with 429 (the first one told, then within the messages')
        await socket.send_to(text_data=json.dumps({"action": {"type": "roll"}, "version": 0}))
        answer = await _answer(socket)
        assert answer["status"] == 429 and "Too many moves" in answer["error"]
        assert 90 <= answer["retry_after"] <= 100  # a move's worth of 0.01 a second
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == 0
    await socket.send_to(text_data=json.dumps({"action": {"type": "roll"}, "version": 0}))
    sent, code = await _until_closed(socket)
    assert code == consumers.CLOSE_TOO_FAST


async def test_a_bot_that_waits_as_told_after_each_refused_move_is_never_closed(settings):
    # A bot plays on as soon as a move is answered: past the moves' allowance each next move is
    # refused with a wait, which it keeps. Those refusals counted as messages too, and closed it
    # (4008) after the messages' burst: the bench's bots on the state feed lost four sockets so.
    settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGES_PER_SECOND = 1, 0.01
    settings.SOCKET_MOVE_BURST, settings.SOCKET_MOVES_PER_SECOND = 1, 2  # a wait of half a second
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    socket = await _open(match.pk, await sync_to_async(_signed_in)(anna))
    refused = 0
    for _ in range(6):
        await socket.send_to(text_data=json.dumps({"action": {"type": "fly"}}))
        answer = await _answer(socket)
        while answer["status"] == 429:
            refused += 1
            await asyncio.sleep(answer["retry_after"])
            await socket.send_to(text_data=json.dumps({"action": {"type": "fly"}}))
            answer = await _answer(socket)
        assert answer["status"] == 400  # let through: the engine's answer to a move it does not know
    assert refused >= 2  # more than the messages' burst, each one waited for
    await socket.disconnect()


async def test_a_change_is_rendered_for_the_sockets_only_while_someone_watches(monkeypatch):
    from games import play
    from games.live import publisher

    rendered = []
    real = publisher.render
    monkeypatch.setattr(publisher, "render", lambda *args: rendered.append(args[2]) or real(*args))
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)

    # Nobody watches: the move renders nothing for sockets.
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    assert rendered == []
    socket = await _open(match.pk, await sync_to_async(_signed_in)(bo))
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "stay"})
    assert 'data-version="2"' in await socket.receive_from(timeout=5)
    # Watched: bo's catch-up, then his part of version 2, drawn by the process that committed it.
    assert rendered == [f"u{bo.pk}", f"u{bo.pk}"]
    await socket.disconnect()


async def test_a_socket_that_missed_a_change_catches_up_by_itself(settings, monkeypatch):
    """Issue 34: a change whose message never reached the sockets (Redis away when it was
    published) still reaches them within a few checks, with no move after it."""
    from games import play
    from games.live import layer

    settings.LIVE_WATCH_SECONDS = 0.2
    match, anna, bo, carl, admin = await sync_to_async(_players)(private=False)
    socket = await _open(match.pk, await sync_to_async(_signed_in)(bo))
    real_send = layer.send
    monkeypatch.setattr(layer, "send", lambda messages, what: None)  # the layer is away: lost
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "roll"})
    monkeypatch.setattr(layer, "send", real_send)
    assert 'data-version="1"' in await socket.receive_from(timeout=5)
    # and the next change arrives live again
    await sync_to_async(play.action_apply)(match_id=match.pk, user=anna, action={"type": "stay"})
    assert 'data-version="2"' in await socket.receive_from(timeout=5)
    await socket.disconnect()


async def test_the_wait_a_refused_move_is_told_is_how_long_the_allowance_takes_to_give_again():
    spent = consumers.Allowance(burst=2, per_second=4)
    assert spent.take() and spent.take() and not spent.take()
    assert 0 < spent.wait() <= 0.3  # a quarter of a second, in tenths, rounded up
    never = consumers.Allowance(burst=1, per_second=0)  # no rate: the burst was all
    assert never.take() and not never.take() and never.wait() is None
