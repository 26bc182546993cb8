"""Lobby spam (issues 18, 19.7): open matches and seats per account are bounded, and chat posts,
new matches and joins are rate limited with a 429, on the pages and the API alike."""
import pytest
from django.urls import reverse

from games import play
from games.errors import BadRequest
from games.models import Match
from tests.conftest import client_for, make_user, refusal_status


def test_one_account_cannot_fill_the_lobby_with_open_matches(player, settings):
    settings.MAX_OPEN_MATCHES_PER_USER = 5
    for _ in range(5):
        play.match_create(creator=player, game="race", seats=2)
    with pytest.raises(BadRequest, match="waiting for players"):
        play.match_create(creator=player, game="race", seats=2)
    response = client_for(player).post(reverse("match_new"), {
        "game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "is_public": "on"})
    assert response.status_code == 400 and "waiting for players" in response.content.decode()
    assert Match.objects.filter(creator=player, status=Match.OPEN).count() == 5


def test_one_account_cannot_take_seats_without_end(player, outsider, settings):
    """Issue 19.7: one account joined 100 matches in 8 s, then could leave each waiting."""
    settings.MAX_ACTIVE_SEATS_PER_USER = 3
    hosts = [make_user(f"host{n}") for n in range(4)]
    matches = [play.match_create(creator=h, game="race", seats=3) for h in hosts]
    for match in matches[:3]:
        play.match_join(match_id=match.pk, user=outsider)
    with pytest.raises(BadRequest, match="unfinished matches"):
        play.match_join(match_id=matches[3].pk, user=outsider)
    assert not matches[3].seats.filter(user=outsider).exists()


def test_chat_posts_matches_and_joins_are_rate_limited_with_a_429(race_match, player, opponent, settings):
    """Issue 18: requests that make work for others have a per-user rate."""
    settings.ACTION_RATES = {"chat": "3/60", "match_create": "2/600", "join": "2/600"}
    client = client_for(player)
    url = reverse("chat_post", args=[race_match.pk])
    answers = [client.post(url, {"text": f"hi {n}"}, HTTP_HX_REQUEST="true") for n in range(5)]
    assert [refusal_status(a) if "Refused-Status" in a else a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert "Too many requests in a short time" in answers[3].content.decode()
    assert race_match.chat.count() == 3
    response = client.post(url, {"text": "again"})
    # Without htmx too: a 429 page that says why (nothing kept).
    assert response.status_code == 429 and "Too many requests" in response.content.decode()
    new = {"game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "is_public": "on"}
    codes = [client.post(reverse("match_new"), new).status_code for _ in range(3)]
    assert codes == [302, 302, 429]
    assert "Too many requests" in client.post(reverse("match_new"), new).content.decode()
    waiting = [play.match_create(creator=make_user(f"host{n}"), game="race", seats=3) for n in range(3)]
    other = client_for(opponent)
    codes = [other.post(reverse("match_join", args=[m.pk])).status_code for m in waiting]
    assert codes == [302, 302, 429]
    assert not waiting[2].seats.filter(user=opponent).exists()


def test_the_api_has_the_same_rates(player, settings):
    import json

    from accounts.models import ApiToken

    settings.ACTION_RATES = {"match_create": "2/600"}
    key = ApiToken.issue(player, "bot")[1]
    from django.test import Client

    codes = [Client().post("/api/matches", json.dumps({"game": "race", "seats": 2}), content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {key}").status_code for _ in range(3)]
    assert codes == [201, 201, 429]
