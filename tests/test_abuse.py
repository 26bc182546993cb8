"""Issue 19 (fair play under abuse), issue 14 items 3–4 and issue 18's HTTP part: each test
replays an attack from the review and shows it refused or harmless."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from games import services
from games.errors import BadRequest, NotAllowed, ServiceError
from games.models import Match
from tests.conftest import client_for, make_user


# --- 19.1 Vacations ----------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_eight_racing_vacation_requests_spend_the_allowance_once(settings):
    """Eight sessions of one player, who owns the turn, ask for 21 days at once: one vacation is
    stored and the turn's deadline moves 21 days, not 105."""
    settings.VACATION_DAYS_PER_YEAR = 21
    anna, bo = make_user("anna"), make_user("bo")
    match = services.match_create(creator=anna, game="race", seats=2)
    services.match_join(match_id=match.pk, user=bo)
    match.refresh_from_db()
    before = match.turn_deadline
    barrier = threading.Barrier(8)
    outcomes = []

    def go_away():
        try:
            client = client_for(anna)
            barrier.wait()
            response = client.post("/accounts/vacation/", {"days": 21})
            outcomes.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=go_away) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes == [302] * 8
    assert Vacation.objects.filter(user=anna).count() == 1
    match.refresh_from_db()
    assert match.turn_deadline - before == timedelta(days=21)
    assert services.vacation_days_left(user=anna) == 0


def test_one_active_vacation_at_a_time(race_match, player, settings):
    settings.VACATION_DAYS_PER_YEAR = 21
    services.vacation_start(user=player, days=2)
    with pytest.raises(BadRequest, match="already on vacation"):
        services.vacation_start(user=player, days=2)
    assert Vacation.objects.filter(user=player).count() == 1


def test_accounts_does_not_import_games():
    """The seam the guide names: games depends on accounts, never the other way round."""
    import ast
    from pathlib import Path

    for path in Path("accounts").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n.split(".")[0] in ("games", "community") for n in names), path


def test_the_vacation_form_keeps_its_address(race_match, player):
    assert reverse("vacation") == "/accounts/vacation/"
    response = client_for(player).post("/accounts/vacation/", {"days": 2})
    assert response.status_code == 302
    assert Vacation.objects.filter(user=player).exists()
    page = client_for(player).get(reverse("profile")).content.decode()
    assert "on vacation until" in page


# --- 19.6 Chat on a private match ---------------------------------------------------------

def test_chat_on_a_private_match_by_a_non_member_is_refused_not_a_500(player, outsider):
    match = services.match_create(creator=player, game="race", seats=2, is_public=False)
    client = client_for(outsider)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(reverse("chat_post", args=[match.pk]), {"text": "hello"}, **headers)
        assert response.status_code == 403
    assert not match.chat.exists()


# --- 19.9 Caches, methods, access before status --------------------------------------------

def test_private_pages_are_not_stored_by_caches(player, opponent):
    match = services.match_create(creator=player, game="race", seats=2, is_public=False)
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
            assert b"<html" not in response.content


def test_joining_or_starting_a_private_match_tells_a_stranger_nothing_of_its_status(player, opponent, outsider):
    running = services.match_create(creator=player, game="race", seats=2, is_public=False)
    services.match_join(match_id=running.pk, user=opponent, invite_code=running.invite_code)
    waiting = services.match_create(creator=player, game="race", seats=3, is_public=False)
    client = client_for(outsider)
    answers = []
    for match in (running, waiting):
        for name in ("match_join", "match_start", "match_leave", "match_colour"):
            response = client.post(reverse(name, args=[match.pk]), {"colour": "red"})
            answers.append((response.status_code, response.content.decode()))
    refusals = []
    for match in (running, waiting):
        said = []
        for service, extra in ((services.match_join, {}), (services.match_start, {}),
                               (services.match_leave, {}), (services.match_set_colour, {"colour": "red"})):
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
