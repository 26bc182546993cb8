"""Every field of every JSON body the API takes, one at a time, given values a hostile or
careless client sends (wrong types, lists and objects where a word is wanted, huge and
negative numbers, control and direction characters, impossible dates): the answer is a success
or a 4xx with a message, never a 5xx, and a refusal keeps nothing. (Issue 13 covers each way in
with chosen cases; this goes through every field, and found a list taken for an order's kind.)"""
import json

import pytest

from accounts.models import ApiToken
from games import play
from games.models import Match, StandingOrders, Volunteer
from games.reads.standing import vocabulary
from leagues.models import Event, Ladder
from tests.conftest import make_user

HOSTILE = [None, "", " ", "x" * 20_000, "\u0000", "\u202e", "🙂" * 50, -1, 0, 2**31, 2**63, 2**64 + 1, -2**63, 1.5,
           1e308, True, False, [], {}, [1], [None], {"a": 1}, {"a": {"b": []}}, ["x"] * 500, "1", "2026-13-45T99:99",
           "2026-12-06T10:00:00+99:00", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "<script>", "a\u0085b"]

BODIES = {
    "/matches": {"game": "pirater", "seats": 2, "options": {}, "turn_seconds": 86400, "title": "t",
                 "time_bank_seconds": 0, "game_deadline": None, "round_limit": None, "public": True, "rated": True},
    "/events": {"name": "e", "game": "pirater", "seats": 2, "rounds": 2, "options": {}, "fill": "byes",
                "format": "swiss", "league": "", "division": 1, "moves": 0, "min_rating": None, "min_reliability": None,
                "starts_at": None, "turn_seconds": 86400, "game_hours": 336, "round_hours": 336},
    "/ladders": {"name": "l", "game": "pirater", "reach": 3, "idle_days": 14, "turn_seconds": 86400,
                 "game_hours": 336, "options": {}},
}
OPTIONS = {"pirater": ["double", "board"], "fuldrigger": ["rounds", "start_cash", "isthmus"], "catan_ships": ["ships"]}


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def stored():
    return (Match.objects.count(), Event.objects.count(), Ladder.objects.count(),
            sorted(StandingOrders.objects.values_list("pk", "lines", "paused")),
            sorted(Volunteer.objects.values_list("pk", "game", "hours_from", "hours_until")))


@pytest.fixture
def ask(client, django_capture_on_commit_callbacks):
    failures = []

    def send(method, path, body, key):
        before = stored()
        with django_capture_on_commit_callbacks(execute=True):
            response = client.generic(method, f"/api{path}", json.dumps(body), content_type="application/json",
                                      HTTP_AUTHORIZATION=f"Token {key}")
        shown = json.dumps(body)[:160]
        if response.status_code >= 500:
            failures.append((method, path, shown, response.status_code))
        elif response.status_code >= 400:
            error = response.json().get("error") if response["Content-Type"].startswith("application/json") else None
            if not error:
                failures.append((method, path, shown, response.status_code, "no message"))
            if stored() != before:
                failures.append((method, path, shown, response.status_code, "kept something"))
        return response

    send.failures = failures
    return send


@pytest.mark.parametrize("path", BODIES)
def test_every_field_of_a_new_match_event_or_ladder(db, ask, path):
    key = ApiToken.issue(make_user("organiser"))[1]
    base = BODIES[path]
    for field in base:
        for value in HOSTILE:
            ask("POST", path, {**base, field: value}, key)
    for game, names in OPTIONS.items():
        for name in names:
            for value in HOSTILE:
                ask("POST", path, {**base, "game": game, "options": {name: value}}, key)
    assert ask.failures == []


def test_every_field_of_standing_orders_substitutes_and_moves(db, ask):
    anna, bo = make_user("anna"), make_user("bo")
    key = ApiToken.issue(anna)[1]
    match = play.match_create(creator=anna, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    match.refresh_from_db()
    kinds = vocabulary("pirater").KINDS
    for value in HOSTILE:
        ask("PUT", f"/matches/{match.pk}/orders", {"lines": value}, key)
        ask("PUT", f"/matches/{match.pk}/orders", {"paused": value}, key)
        ask("PUT", f"/matches/{match.pk}/orders", {"lines": [{"kind": value}]}, key)
        for kind, fields in kinds.items():
            for field in [*fields, "scope", "until"]:
                line = {"kind": kind, **{name: 1 for name in fields}, field: value}
                ask("PUT", f"/matches/{match.pk}/orders", {"lines": [line]}, key)
        for field in ("hours_from", "hours_until"):
            ask("PUT", "/substitutes/volunteering/pirater", {field: value}, key)
        ask("POST", f"/matches/{match.pk}/actions", {"action": value, "version": match.version}, key)
        ask("POST", f"/matches/{match.pk}/actions", {"action": {"type": value}, "version": match.version}, key)
        ask("POST", f"/matches/{match.pk}/actions", {"action": {"type": "choose_port", "port": value},
                                                    "version": match.version}, key)
        ask("POST", f"/matches/{match.pk}/actions", {"action": {"type": "roll"}, "version": value}, key)
    assert ask.failures == []


def test_a_time_at_the_end_of_the_calendar_is_refused_before_it_breaks_the_pages(db, ask):
    """A game deadline (or a standing order's end) of 9999-12-31T23:59:59Z was kept, and every page
    that showed it in a zone east of UTC (year 10000) answered 500: the home page, the match page,
    the calendar feed."""
    anna, bo = make_user("anna"), make_user("bo")
    key = ApiToken.issue(anna)[1]
    far = "9999-12-31T23:59:59+00:00"
    response = ask("POST", "/matches", {"game": "pirater", "seats": 2, "game_deadline": far}, key)
    assert response.status_code == 400 and "years" in response.json()["error"]
    match = play.match_create(creator=anna, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    response = ask("PUT", f"/matches/{match.pk}/orders", {"lines": [{"kind": "roll", "scope": "until", "until": far}]},
                   key)
    assert response.status_code == 400 and "year" in response.json()["error"]
    assert ask.failures == []
