"""Issue 14, items 5 to 7: the socket's origin names the port too, every page carries a
Content-Security-Policy, offers between two players are not even countable by a third, and the
admin shows a running match's seed only as its hash."""
import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games import play
from games.engines import get_engine
from tests.conftest import client_for, make_user
from tests.fuldrigger.fuldrigger_pages_support import choose_homes

pytestmark = pytest.mark.django_db


def _fuldrigger_three(django_capture_on_commit_callbacks):
    dora, erik, finn = make_user("dora"), make_user("erik"), make_user("finn")
    with django_capture_on_commit_callbacks(execute=True):  # the opening chance card is drawn
        match = play.match_create(creator=dora, game="fuldrigger", seats=3)
        play.match_join(match_id=match.pk, user=erik)
        play.match_join(match_id=match.pk, user=finn)
        choose_homes(match)  # edition 2 (F7): home cities first, then the opening chance card
    match.refresh_from_db()
    return match


def _api(user, path):
    key = ApiToken.issue(user)[1]
    return Client().get(path, HTTP_AUTHORIZATION=f"Token {key}").json()


def test_a_third_player_cannot_count_two_others_offers(django_capture_on_commit_callbacks):
    """Issue 14, item 6: the numbers, the view and the log say nothing of others' offers."""
    match = _fuldrigger_three(django_capture_on_commit_callbacks)
    seats = {s.number: s.user for s in match.seats.all()}
    owner = match.turn_seats[0]
    to, third = [n for n in range(3) if n != owner]
    before = {"view": _api(seats[third], f"/api/matches/{match.pk}")["view"],
              "log": _api(seats[third], f"/api/matches/{match.pk}/log")["log"]}
    quiet_state = match.state
    for ducats in (10, 20, 30):  # each replaces the last: three offers made, one open
        play.action_apply(match_id=match.pk, user=seats[owner], action={
            "type": "offer", "to": to, "give": {"ducats": ducats}, "take": {}})
    view = _api(seats[third], f"/api/matches/{match.pk}")["view"]
    log = _api(seats[third], f"/api/matches/{match.pk}/log")["log"]
    for key in ("offers", "offer_counts", "next_offer"):
        assert view.get(key) == before["view"].get(key), key
    assert log == before["log"]  # no row at all, not even a hidden one
    # The parties see the open offer; the next one between the third and the owner is numbered
    # as if nobody had traded before (the count is per pair).
    mine = _api(seats[to], f"/api/matches/{match.pk}")["view"]["offers"]
    assert [o["give"]["ducats"] for o in mine] == [30]
    engine = get_engine("fuldrigger")
    match.refresh_from_db()
    offer = {"type": "offer", "to": third, "give": {"ducats": 5}, "take": {}}
    alone, _ = engine.apply(quiet_state, owner, offer)
    crowded, _ = engine.apply(match.state, owner, offer)
    assert alone["offers"][-1]["id"] == crowded["offers"][-1]["id"]
    assert len({o["id"] for o in crowded["offers"]}) == len(crowded["offers"])  # still unique at the table


def test_offers_are_answered_by_their_numbers_per_pair(django_capture_on_commit_callbacks):
    match = _fuldrigger_three(django_capture_on_commit_callbacks)
    seats = {s.number: s.user for s in match.seats.all()}
    owner = match.turn_seats[0]
    to, third = [n for n in range(3) if n != owner]
    for other in (to, third):
        play.action_apply(match_id=match.pk, user=seats[owner], action={
            "type": "offer", "to": other, "give": {"ducats": 5}, "take": {}})
    match.refresh_from_db()
    offers = {o["to"]: o["id"] for o in match.state["offers"]}
    assert offers[to] != offers[third]
    play.action_apply(match_id=match.pk, user=seats[third], action={"type": "decline_offer",
                                                                         "offer": offers[third]})
    match.refresh_from_db()
    assert [o["to"] for o in match.state["offers"]] == [to]


def test_the_admin_shows_a_running_matchs_seed_only_as_its_hash(race_match, staff):
    """Issue 14, item 7: an admin who also plays must not read the dice from the seed."""
    client = client_for(staff)
    url = reverse("admin:games_match_change", args=[race_match.pk])
    page = client.get(url).content.decode()
    assert race_match.seed_hash in page and race_match.seed not in page
    play.match_finish(match_id=race_match.pk, reason="ended by an admin")
    page = client.get(url).content.decode()
    assert race_match.seed in page  # over: anyone may check the dice now


@pytest.mark.parametrize("origin,host,scheme,accepted", [
    ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
    ("http://localhost", "localhost", "ws", True),
    ("http://localhost:80", "localhost", "ws", True),           # the default port, said or not
    ("http://localhost:9999", "localhost:8000", "ws", False),   # another port on the same host
    ("https://localhost:8000", "localhost:8000", "ws", False),  # another scheme
    ("http://localhost:8000", "localhost:8000", "wss", False),  # a page over http, a socket over TLS
    ("https://localhost", "localhost", "wss", True),
    ("http://evil.example:8000", "localhost:8000", "ws", False),
    ("http://evil.example", "evil.example", "ws", False),        # not an allowed host
    ("null", "localhost:8000", "ws", False),
    (None, "localhost:8000", "ws", False),
])
def test_the_socket_origin_must_match_scheme_host_and_port(origin, host, scheme, accepted):
    """Issue 14, item 5."""
    from config.origin import origin_allowed

    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
    assert origin_allowed({"type": "websocket", "scheme": scheme, "headers": headers}) is accepted


def test_a_trusted_origin_is_accepted_with_its_own_port(settings):
    from config.origin import origin_allowed

    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example:8443"]
    scope = {"type": "websocket", "scheme": "ws", "headers": [(b"host", b"internal:8000")]}
    assert origin_allowed({**scope, "headers": scope["headers"] + [(b"origin", b"https://play.example:8443")]})
    assert not origin_allowed({**scope, "headers": scope["headers"] + [(b"origin", b"https://play.example")]})


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_another_port_is_refused_and_one_from_the_site_accepted():
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    anna, bo = await sync_to_async(make_user)("anna"), await sync_to_async(make_user)("bo")
    match = await sync_to_async(play.match_create)(creator=anna, game="race", seats=2)
    await sync_to_async(play.match_join)(match_id=match.pk, user=bo)
    for origin, expected in ((b"http://localhost:9999", False), (b"http://localhost:8000", True)):
        socket_ = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/",
                                        headers=[(b"origin", origin), (b"host", b"localhost:8000")])
        connected, _ = await socket_.connect(timeout=5)
        assert connected is expected, origin
        await socket_.disconnect()
