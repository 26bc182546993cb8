"""Vacations (issue 19.1): the allowance is spent once however many requests race, one at a time,
and the form keeps its address."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse

from accounts.models import Vacation, vacation_days_left
from games import play
from games.errors import BadRequest
from tests.conftest import client_for, make_user


@pytest.mark.django_db(transaction=True)
def test_eight_racing_vacation_requests_spend_the_allowance_once(settings):
    """Eight sessions of one player, who owns the turn, ask for 21 days at once: one vacation is
    stored and the turn's deadline moves 21 days, not 105."""
    settings.VACATION_DAYS_PER_YEAR = 21
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="race", seats=2)
    play.match_join(match_id=match.pk, user=bo)
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
    # One is granted (302 to the profile); the seven others are refused with a 4xx that says so.
    assert sorted(outcomes) == [302] + [400] * 7
    assert Vacation.objects.filter(user=anna).count() == 1
    match.refresh_from_db()
    assert match.turn_deadline - before == timedelta(days=21)
    assert vacation_days_left(user=anna) == 0


def test_one_active_vacation_at_a_time(race_match, player, settings):
    settings.VACATION_DAYS_PER_YEAR = 21
    play.vacation_start(user=player, days=2)
    with pytest.raises(BadRequest, match="already on vacation"):
        play.vacation_start(user=player, days=2)
    assert Vacation.objects.filter(user=player).count() == 1


def test_the_vacation_form_keeps_its_address(race_match, player):
    assert reverse("vacation") == "/accounts/vacation/"
    response = client_for(player).post("/accounts/vacation/", {"days": 2})
    assert response.status_code == 302
    assert Vacation.objects.filter(user=player).exists()
    page = client_for(player).get(reverse("profile")).content.decode()
    assert "on vacation until" in page


def test_the_profile_keeps_the_vacation_not_yet_over(race_match, player, settings):
    """The seat cards read who is away from the players' profiles: a vacation taken, ended early,
    or deleted by staff is written there at once; the migration writes those kept before it."""
    import importlib

    from django.apps import apps

    from accounts.models import Profile, away_now
    from games.reads import panels, selectors

    settings.VACATION_DAYS_PER_YEAR = 21

    def away():
        return panels.players_away(selectors.match_get(match_id=race_match.pk).seats.all())

    assert away() == {}
    vacation = play.vacation_start(user=player, days=2)
    assert away()[player.pk].ends_at == vacation.ends_at
    assert away_now(Profile.objects.get(user=player), vacation.ends_at) is None  # over by then
    assert play.vacation_end(user=player)
    assert away() == {}
    vacation = play.vacation_start(user=player, days=1)
    Profile.objects.filter(user=player).update(away_from=None, away_until=None)  # as before the fields
    importlib.import_module("accounts.migrations.0008_profile_away").keep(apps, None)
    assert away()[player.pk].ends_at == vacation.ends_at
    Vacation.objects.get(pk=vacation.pk).delete()
    assert away() == {} and Profile.objects.get(user=player).away_until is None


def test_a_turn_passed_to_a_player_on_vacation_starts_its_clock_when_they_are_back(race_match, player, opponent,
                                                                                  settings):
    from datetime import timedelta as td

    from games.models import Match

    settings.VACATION_DAYS_PER_YEAR = 21
    vacation = play.vacation_start(user=opponent, days=3)
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    change = play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})
    match = Match.objects.get(pk=race_match.pk)
    assert change.turn_passed_to == 1 and match.turn_seats == [1]
    bank = next(s for s in match.seats.all() if s.number == 1).time_bank_left
    assert match.turn_deadline == vacation.ends_at + td(seconds=match.turn_seconds + bank)
    # At home, the clock starts with the turn.
    play.vacation_end(user=opponent)
    for user in (opponent, player):
        for kind in ("roll", "stay"):
            while Match.objects.get(pk=race_match.pk).needs_system:
                play.system_action_apply(match_id=race_match.pk)
            play.action_apply(match_id=race_match.pk, user=user, action={"type": kind})
    match = Match.objects.get(pk=race_match.pk)
    assert match.turn_seats == [1] and match.turn_deadline < vacation.ends_at


def test_saving_the_profile_form_keeps_a_vacation_begun_meanwhile(race_match, player, settings, monkeypatch):
    """The profile page saves its own fields only: a vacation begun in another tab while the form
    was being read (the profile loaded before it) is not written back as none."""
    from django.utils import timezone

    from accounts.forms import ProfileForm
    from accounts.models import Profile, away_now

    settings.VACATION_DAYS_PER_YEAR = 21
    real = ProfileForm.is_valid

    def meanwhile(form):
        valid = real(form)
        play.vacation_start(user=player, days=2)  # another tab, after this request read the profile
        return valid

    monkeypatch.setattr(ProfileForm, "is_valid", meanwhile)
    response = client_for(player).post(reverse("profile"), {
        "display_name": "Captain Anna", "time_zone": "Europe/Copenhagen", "language": "en",
        "notify_email": "each", "reminder_hours": "24,4,1"})
    assert response.status_code == 302
    profile = Profile.objects.get(user=player)
    assert profile.display_name == "Captain Anna"
    assert away_now(profile, timezone.now()) is not None
