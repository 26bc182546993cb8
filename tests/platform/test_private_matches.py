"""A private match tells a stranger nothing (issue 19.6, 19.9): its chat, its status behind joining
or starting, pages no cache stores, and methods it does not serve."""
import pytest
from django.urls import reverse

from games import play
from games.errors import NotAllowed, ServiceError
from tests.conftest import client_for, refusal_status


def test_chat_on_a_private_match_by_a_non_member_is_refused_not_a_500(player, outsider):
    match = play.match_create(creator=player, game="race", seats=2, is_public=False)
    client = client_for(outsider)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(reverse("chat_post", args=[match.pk]), {"text": "hello"}, **headers)
        assert refusal_status(response) == 403
    assert not match.chat.exists()


def test_private_pages_are_not_stored_by_caches(player, opponent):
    match = play.match_create(creator=player, game="race", seats=2, is_public=False)
    client = client_for(player)
    for url in (reverse("profile"), reverse("inbox"), match.get_absolute_url()):
        cache_control = client.get(url)["Cache-Control"]
        assert "no-store" in cache_control and "private" in cache_control, url


def test_unused_methods_get_405_not_the_page(player, race_match):
    client = client_for(player)
    for url in ("/", reverse("lobby"), race_match.get_absolute_url(), reverse("profile"), reverse("inbox"),
                reverse("login"), reverse("signup"), reverse("match_new"), reverse("leaderboards")):
        for method in ("options", "trace", "put", "delete"):
            response = getattr(client, method)(url)
            assert response.status_code == 405, (method, url)
            # Not the page asked for: the site's refusal, in words (games/web/middleware.py).
            assert [t.name for t in response.templates][:1] == ["games/error.html"], (method, url)
            assert f"does not take {method.upper()} requests" in response.content.decode()


def test_joining_or_starting_a_private_match_tells_a_stranger_nothing_of_its_status(player, opponent, outsider):
    running = play.match_create(creator=player, game="race", seats=2, is_public=False)
    play.match_join(match_id=running.pk, user=opponent, invite_code=running.invite_code)
    waiting = play.match_create(creator=player, game="race", seats=3, is_public=False)
    client = client_for(outsider)
    answers = []
    for match in (running, waiting):
        for name in ("match_join", "match_start", "match_leave", "match_colour"):
            response = client.post(reverse(name, args=[match.pk]), {"colour": "red"})
            answers.append((response.status_code, response.content.decode()))
    refusals = []
    for match in (running, waiting):
        said = []
        for service, extra in ((play.match_join, {}), (play.match_start, {}),
                               (play.match_leave, {}), (play.match_set_colour, {"colour": "red"})):
            with pytest.raises(ServiceError) as refused:
                service(match_id=match.pk, user=outsider, **extra)
            said.append((type(refused.value).__name__, refused.value.message))
        refusals.append(said)
    assert refusals[0] == refusals[1]
    assert refusals[0][0][0] == "NotAllowed"
    running_answers, waiting_answers = answers[:4], answers[4:]
    for (code, page), (code2, page2) in zip(running_answers, waiting_answers):
        assert code == code2 and code in (302, 403)
        assert "started" not in page and "no longer open" not in page and "running" not in page.lower()
