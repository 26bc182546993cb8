"""Standing orders are their owner's alone: no other seat, spectator, API reader, socket push or
export shows them before they play; after, the log says the move was played by standing order.
The API refuses hostile input with a 4xx and documents orders in its OpenAPI."""
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import ApiToken
from config.asgi import application
from games.play import orders
from games import play
from games.engines import get_engine
from games.models import ActionLog
from tests.conftest import client_for, make_user
from tests.orders.conftest import seat_user

# A line whose words would give it away wherever it leaked.
SECRET = [{"kind": "accept_offers", "at_least": 7771}]


def leaks(text):
    """The secret as a number of its own: a timestamp's microseconds may hold the same digits."""
    return re.search(r"(?<![\d.])7771(?!\d)", text) is not None


def api(client, method, path, key=None, body=None):
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"} if key else {}
    response = getattr(client, method)(f"/api{path}", data=json.dumps(body) if body is not None else None,
                                       content_type="application/json", **headers)
    return response.status_code, response.json()


def test_only_the_owner_sees_their_orders_on_the_page(sea_match, commits, outsider):
    bo, anna = seat_user(sea_match, 1), seat_user(sea_match, 0)
    commits(orders.orders_set, match_id=sea_match.pk, user=bo, lines=SECRET)
    page = client_for(bo).get(f"/matches/{sea_match.pk}/").content.decode()
    assert 'id="orders"' in page and leaks(page)
    assert not leaks(client_for(anna).get(f"/matches/{sea_match.pk}/").content.decode())
    for viewer in (client_for(anna), client_for(outsider), Client()):
        html = viewer.get(f"/matches/{sea_match.pk}/").content.decode()
        assert not leaks(html)
        assert 'id="orders"' not in html or "No standing orders" in html
        live = viewer.get(f"/matches/{sea_match.pk}/", HTTP_HX_REQUEST="true").content.decode()
        assert not leaks(live)
    # The owner's own live part (what sockets receive) does not carry them either.
    live = client_for(bo).get(f"/matches/{sea_match.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert not leaks(live) and 'id="orders"' not in live


def test_the_api_shows_orders_to_their_owner_only_and_refuses_hostile_input(client, sea_match, outsider):
    bo, anna = seat_user(sea_match, 1), seat_user(sea_match, 0)
    keys = {u.username: ApiToken.issue(u)[1] for u in (bo, anna, outsider)}
    path = f"/matches/{sea_match.pk}/orders"
    assert api(client, "put", path, keys["bo"], {"lines": SECRET}) == (
        200, {"lines": [{"kind": "accept_offers", "at_least": 7771, "scope": "always"}],
              "paused": False, "dropped": []})
    assert api(client, "get", path, keys["bo"])[1]["lines"][0]["at_least"] == 7771
    assert api(client, "get", path, keys["anna"]) == (200, {"lines": [], "paused": False, "dropped": []})
    assert api(client, "get", path, keys["carl"])[0] == 403
    assert api(client, "put", path, keys["carl"], {"lines": SECRET})[0] == 403
    assert api(client, "get", path)[0] == 401
    for key in ("anna", "carl"):
        status, body = api(client, "get", f"/matches/{sea_match.pk}", keys[key])
        assert not leaks(json.dumps(body))
    assert not leaks(json.dumps(api(client, "get", f"/matches/{sea_match.pk}/log")[1]))
    for hostile in ({"lines": "roll"}, {"lines": [{"kind": "sail", "ship": 999, "port": "x"}]},
                    {"lines": [{"kind": "sell", "good": "wine", "at_least": "thirty"}]},
                    {"paused": "yes"}, {"lines": [[1, 2]]}, {"orders": []}, {"lines": [{"kind": "roll"}] * 50},
                    # A kind that is a list or an object is no kind (it was asked as a dict key: a 500).
                    {"lines": [{"kind": ["roll"]}]}, {"lines": [{"kind": {"roll": 1}}]},
                    # Nor is a list or an object a scope (it read as no scope: "always").
                    {"lines": [{**SECRET[0], "scope": []}]}, {"lines": [{**SECRET[0], "scope": {}}]}):
        status, body = api(client, "put", path, keys["bo"], hostile)
        assert 400 <= status < 500 and body["error"], hostile
    status, body = api(client, "put", path, keys["bo"], {"lines": [{"kind": "sell", "good": "wine", "at_least": "x"}]})
    assert "at least must be a whole number" in body["error"]
    assert api(client, "put", path, keys["bo"], {"paused": True})[1]["paused"] is True
    assert api(client, "get", path, keys["bo"])[1]["lines"][0]["at_least"] == 7771  # pausing keeps lines


def test_openapi_documents_orders(client, db):
    schema = client.get("/api/openapi.json").json()
    paths = [p for p in schema["paths"] if p.endswith("/orders")]
    assert paths and {"get", "put"} <= set(schema["paths"][paths[0]])
    assert "OrdersIn" in schema["components"]["schemas"] and "OrdersOut" in schema["components"]["schemas"]


def test_the_export_and_the_log_show_no_orders_until_they_play(sea_match, commits, outsider):
    bo = seat_user(sea_match, 1)
    commits(orders.orders_set, match_id=sea_match.pk, user=bo, lines=SECRET + [{"kind": "roll"}])
    for viewer in (client_for(outsider), Client(), client_for(seat_user(sea_match, 0))):
        response = viewer.get(f"/matches/{sea_match.pk}/export.json")
        assert response.status_code in (200, 403)
        assert not leaks(response.content.decode()) and "accept_offers" not in response.content.decode()


def test_after_they_play_the_log_says_played_by_standing_order(sea_match, commits, outsider):
    from tests.orders.test_playing import LINES, to_turn_of
    from tests.orders.conftest import act

    match = to_turn_of(commits, sea_match, 0)
    commits(orders.orders_set, match_id=match.pk, user=seat_user(match, 1), lines=LINES)
    act(commits, match, 0, "roll")
    act(commits, match, 0, "end_turn")
    assert ActionLog.objects.filter(match=match, kind=ActionLog.ORDER).exists()
    page = client_for(outsider).get(f"/matches/{match.pk}/").content.decode()
    assert "played by standing order" in page




def _setup_socket():
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="fuldrigger", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    match.refresh_from_db()
    orders.orders_set(match_id=match.pk, user=bo, lines=SECRET)
    return match, anna, bo


def _cookie_for(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_socket_push_carries_orders():
    match, anna, bo = await sync_to_async(_setup_socket)()
    sockets = []
    for user in (anna, bo, None):
        headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
        if user is not None:
            headers.append((b"cookie", f"sessionid={await sync_to_async(_cookie_for)(user)}".encode()))
        communicator = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/", headers=headers)
        assert (await communicator.connect(timeout=5))[0]
        assert not leaks(await communicator.receive_from(timeout=5))
        sockets.append(communicator)
    mover = match.turn_seats[0]
    action = get_engine(match.game).legal_actions(match.state, mover)[0]
    await sync_to_async(play.action_apply)(match_id=match.pk, user=[anna, bo][mover], action=action)
    for communicator in sockets:
        html = await communicator.receive_from(timeout=5)
        assert not leaks(html) and "accept_offers" not in html
        await communicator.disconnect()
