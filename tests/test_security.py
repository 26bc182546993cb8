"""Nobody acts for another seat or sees what is not theirs, over the pages, the API and the
socket; CSRF and the deploy checks hold."""
import json
import os
import subprocess
import sys
from pathlib import Path

from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games import play
from games.models import Match
from tests.conftest import client_for, make_user
from tests.fuldrigger.fuldrigger_pages_support import choose_homes

ROOT = Path(__file__).resolve().parents[1]


def test_forms_without_a_csrf_token_are_refused(race_match, player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("match_action", args=[race_match.pk]), {"action": '{"type": "roll"}'})
    assert response.status_code == 403
    race_match.refresh_from_db()
    assert race_match.version == 0


def test_check_deploy_is_clean_with_production_settings():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {**env, "SECURE": "1", "DEBUG": "0", "SECRET_KEY": "x" * 20 + "production-secret-key-0123456789-abcdefghij",
           "ALLOWED_HOSTS": "tradewinds.example"}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _fuldrigger_with_a_private_offer(django_capture_on_commit_callbacks):
    dora, erik, finn = make_user("dora"), make_user("erik"), make_user("finn")
    with django_capture_on_commit_callbacks(execute=True):  # the opening chance card is drawn
        match = play.match_create(creator=dora, game="fuldrigger", seats=3)
        play.match_join(match_id=match.pk, user=erik)
        play.match_join(match_id=match.pk, user=finn)
        choose_homes(match)                # rules edition 2 (F7): homes first, then the card
    match.refresh_from_db()
    owner = match.seats.get(number=match.turn_seats[0]).user
    to = next(n for n in range(3) if n != match.turn_seats[0])
    play.action_apply(match_id=match.pk, user=owner, action={
        "type": "offer", "to": to, "give": {"ducats": 37}, "take": {}})
    match.refresh_from_db()
    return match, owner, to


def test_spectators_and_third_players_never_see_the_seed_the_deck_or_private_offers(
        django_capture_on_commit_callbacks, outsider):
    match, owner, to = _fuldrigger_with_a_private_offer(django_capture_on_commit_callbacks)
    third = next(s.user for s in match.seats.all() if s.number not in (match.turn_seats[0], to))
    recipient = match.seats.get(number=to).user
    assert match.state["offers"] and match.state["deck"]
    deck_order = json.dumps(match.state["deck"])
    for user in (outsider, third, None):
        client = client_for(user) if user else Client()
        page = client.get(match.get_absolute_url()).content.decode()
        assert match.seed not in page and deck_order not in page
        # The log (a seated player's Orders panel after it may offer "decline offers" as an order).
        assert "offer" not in page.split('<section class="log">')[1].split("</section>")[0].lower()
        log = client.get(f"/api/matches/{match.pk}/log").json()["log"]
        assert all(e["type"] != "offer" for row in log for e in row["events"])
        assert all(row["action"].get("type") != "offer" for row in log)
    key = ApiToken.issue(third)[1]
    view = Client().get(f"/api/matches/{match.pk}", HTTP_AUTHORIZATION=f"Token {key}").json()["view"]
    assert "seed" not in view and "deck" not in view and view["offers"] == []
    key = ApiToken.issue(recipient)[1]
    view = Client().get(f"/api/matches/{match.pk}", HTTP_AUTHORIZATION=f"Token {key}").json()["view"]
    assert [o["give"]["ducats"] for o in view["offers"]] == [37]


def test_making_an_offer_does_not_restart_the_turn_clock(django_capture_on_commit_callbacks, db):
    anna, bo = make_user("anna"), make_user("bo")
    with django_capture_on_commit_callbacks(execute=True):
        match = play.match_create(creator=anna, game="fuldrigger", seats=2)
        play.match_join(match_id=match.pk, user=bo)
        choose_homes(match)                # rules edition 2 (F7): homes first, then the card
    match.refresh_from_db()
    before = (match.turn_started_at, match.turn_deadline)
    owner = match.seats.get(number=match.turn_seats[0]).user
    other = 1 - match.turn_seats[0]
    play.action_apply(match_id=match.pk, user=owner, action={"type": "offer", "to": other,
                                                                 "give": {"ducats": 5}, "take": {}})
    match = Match.objects.get(pk=match.pk)
    assert match.turn_seats == [1 - other, other]
    assert (match.turn_started_at, match.turn_deadline) == before


def test_another_user_cannot_act_for_a_seat_over_the_api(race_match, outsider, opponent):
    for user in (outsider, opponent):
        key = ApiToken.issue(user)[1]
        response = Client().post(f"/api/matches/{race_match.pk}/actions", data=json.dumps(
            {"action": {"type": "roll"}, "version": 0}), content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {key}")
        assert response.status_code in (400, 403)
    race_match.refresh_from_db()
    assert race_match.version == 0
