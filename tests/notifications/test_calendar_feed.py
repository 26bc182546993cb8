"""Issue 35, part 2: a player's deadlines as a calendar feed at a secret, revocable address
(notifications/calendar.py), read as a calendar client reads it — with the icalendar package."""
import zoneinfo
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from games import play
from games.models import Match
from notifications import calendar
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

UTC = dt_timezone.utc


def _player(name, zone="UTC", language="en"):
    user = make_user(name)
    user.profile.time_zone, user.profile.language = zone, language
    user.profile.save()
    return user


def _running(*users, game="race", **extra):
    match = play.match_create(creator=users[0], game=game, seats=len(users), **extra)
    for user in users[1:]:
        play.match_join(match_id=match.pk, user=user)
    return Match.objects.get(pk=match.pk)


def _read(user, client=None):
    """The feed at the player's address, fetched with no login, parsed as a client parses it."""
    response = (client or Client()).get(reverse("calendar_feed", args=[calendar.feed_for(user).token]))
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def _events(cal):
    return {str(e["SUMMARY"]): e for e in cal.walk("VEVENT")}


def test_the_feed_needs_no_login_and_holds_the_turn_waiting_for_the_player_and_the_match_end():
    anna, bo = _player("anna"), _player("bo")
    end = (timezone.now() + timedelta(days=20)).replace(microsecond=0)
    match = _running(anna, bo, game_deadline=end)
    assert match.turn_seats == [0] and match.turn_deadline is not None
    events = _events(_read(anna))
    turn = next(e for s, e in events.items() if s.startswith("Your turn in"))
    assert turn["DTSTART"].dt == match.turn_deadline.replace(microsecond=0)
    assert str(match) in str(turn["SUMMARY"]) and str(turn["URL"]).endswith(f"/matches/{match.pk}/#match-live")
    ending = next(e for s, e in events.items() if s.endswith("ends"))
    assert ending["DTSTART"].dt == end
    # bo waits for nobody: no turn of his, only the end he shares
    assert [s for s in _events(_read(bo)) if s.startswith("Your turn")] == []
    assert len(_events(_read(bo))) == 1


@pytest.mark.parametrize("zone, wall", [
    ("Europe/Copenhagen", datetime(2027, 3, 28, 3, 30)),     # just after the switch to summer time
    ("America/New_York", datetime(2027, 3, 27, 21, 30)),      # summer time already (since 14 March)
    ("Asia/Tokyo", datetime(2027, 3, 28, 10, 30)),            # no summer time
])
def test_times_are_written_in_the_players_zone_and_mean_the_same_instant(zone, wall):
    """The end of a campaign at 01:30 UTC on the night Europe moves its clocks: each player's
    feed writes it in their own zone (TZID with its VTIMEZONE), the same instant in every one."""
    anna, bo = _player("anna", zone), _player("bo", "UTC")
    end = datetime(2027, 3, 28, 1, 30, tzinfo=UTC)
    _running(anna, bo, game_deadline=end)
    cal = _read(anna)
    ending = next(e for s, e in _events(cal).items() if s.endswith("ends"))
    start = ending["DTSTART"]
    assert start.params["TZID"] == zone
    assert start.dt.replace(tzinfo=None) == wall
    assert start.dt.astimezone(UTC) == end
    assert zone in [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")]
    assert str(cal["X-WR-TIMEZONE"]) == zone
    # the text of the feed names the wall time in that zone, as a client without the zone reads it
    assert f"DTSTART;TZID={zone}:{wall:%Y%m%dT%H%M%S}" in cal.to_ical().decode()


def test_a_moved_deadline_keeps_its_event_and_shows_the_new_time():
    """A vacation pushes the turn's deadline: a client that polls finds the same UID at the new
    time (it moves the event rather than adding one), its SEQUENCE never lower."""
    anna, bo = _player("anna"), _player("bo")
    match = _running(anna, bo)
    before = next(e for s, e in _events(_read(anna)).items() if s.startswith("Your turn"))
    play.vacation_start(user=anna, days=3)
    moved = Match.objects.get(pk=match.pk).turn_deadline
    assert moved > match.turn_deadline
    after = next(e for s, e in _events(_read(anna)).items() if s.startswith("Your turn"))
    assert str(after["UID"]) == str(before["UID"])
    assert after["DTSTART"].dt == moved.replace(microsecond=0) != before["DTSTART"].dt
    assert int(after["SEQUENCE"]) >= int(before["SEQUENCE"])


def test_the_turn_leaves_the_feed_when_it_passes_and_comes_back_with_the_next_one():
    anna, bo = _player("anna"), _player("bo")
    match = _running(anna, bo)
    first = next(e for s, e in _events(_read(anna)).items() if s.startswith("Your turn"))
    play.action_apply(match_id=match.pk, user=anna, action={"type": "roll"}, expected_version=0)
    play.action_apply(match_id=match.pk, user=anna, action={"type": "stay"}, expected_version=1)
    assert Match.objects.get(pk=match.pk).turn_seats == [1]
    assert not [s for s in _events(_read(anna)) if s.startswith("Your turn")]
    assert [s for s in _events(_read(bo)) if s.startswith("Your turn")]
    play.action_apply(match_id=match.pk, user=bo, action={"type": "roll"}, expected_version=2)
    play.action_apply(match_id=match.pk, user=bo, action={"type": "stay"}, expected_version=3)
    while Match.objects.get(pk=match.pk).needs_system:   # the round's wind (the worker's job)
        play.system_action_apply(match_id=match.pk)
    again = next(e for s, e in _events(_read(anna)).items() if s.startswith("Your turn"))
    assert str(again["UID"]) == str(first["UID"]) and int(again["SEQUENCE"]) > int(first["SEQUENCE"])


def test_a_new_address_cuts_off_the_old_and_a_bad_one_is_a_404():
    anna, bo = _player("anna"), _player("bo")
    _running(anna, bo)
    old = calendar.feed_for(anna).token
    client = Client()
    assert client.get(f"/calendar/{old}.ics").status_code == 200
    owner = Client()
    owner.force_login(anna)
    assert owner.post("/calendar/new/").status_code == 302
    assert client.get(f"/calendar/{old}.ics").status_code == 404
    assert client.get(f"/calendar/{calendar.feed_for(anna).token}.ics").status_code == 200
    for bad in ("x", "%00", "a" * 300, "../../etc/passwd"):
        assert client.get(f"/calendar/{bad}.ics").status_code == 404
    assert client.get("/calendar/new/").status_code in (302, 405)   # renewing needs the owner, by POST
    anna.is_active = False
    anna.save()
    assert client.get(f"/calendar/{calendar.feed_for(anna).token}.ics").status_code == 404


def test_the_feed_shows_nothing_of_a_match_the_player_left_or_was_removed_from_or_of_others():
    anna, bo, carl, dora = _player("anna"), _player("bo"), _player("carl"), _player("dora")
    kept = _running(anna, bo, game_deadline=timezone.now() + timedelta(days=9))
    handed = _running(anna, carl, game_deadline=timezone.now() + timedelta(days=9))
    others = _running(carl, dora, game_deadline=timezone.now() + timedelta(days=9))
    waiting = play.match_create(creator=anna, game="race", seats=3)   # open: no deadlines yet
    admin = make_user("admin", is_staff=True)
    play.seat_hand_over(match_id=handed.pk, seat_number=0, to_user=dora, actor=admin)
    text = " ".join(_events(_read(anna)))
    assert str(kept) in text
    assert str(handed) not in text and str(others) not in text and str(waiting) not in text
    body = Client().get(f"/calendar/{calendar.feed_for(anna).token}.ics").content.decode()
    assert "carl" not in body.lower() and "dora" not in body.lower()   # no other player's name


def test_the_feed_is_in_the_players_language():
    anna, bo = _player("anna", language="da"), _player("bo", language="de")
    match = _running(anna, bo, game_deadline=timezone.now() + timedelta(days=9))
    assert sorted(_events(_read(anna))) == sorted([f"Din tur i {match}: frist", f"{match} slutter"])
    assert sorted(_events(_read(bo))) == [f"{match} endet"]


def test_the_address_on_the_profile_is_the_feeds():
    anna = _player("anna")
    owner = Client()
    owner.force_login(anna)
    page = owner.get("/accounts/profile/").content.decode()
    token = calendar.feed_for(anna).token
    assert f"webcal://" in page and f"/calendar/{token}.ics" in page


def test_an_events_start_and_its_open_rounds_close_are_in_its_players_feeds():
    """Leagues add their dates through settings.CALENDAR_EVENT_SOURCES (leagues/calendar.py):
    the start of an event a player entered, then the deadline of the round being played."""
    from leagues import services as events
    from leagues.models import Round

    organiser = _player("olga")
    players = [_player(name, "America/New_York") for name in ("anna", "bo", "carl", "dora")]
    starts = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    event = events.event_create(organiser=organiser, name="Harbour Cup", game="pirater", seats=2, rounds=2,
                                game_hours=24, round_hours=48, starts_at=starts)
    for user in players:
        events.event_join(event_id=event.pk, user=user)
    begins = _events(_read(players[0]))["Harbour Cup begins"]
    assert begins["DTSTART"].dt == starts and str(begins["URL"]).endswith(event.get_absolute_url())
    assert "Harbour Cup begins" not in _events(_read(organiser))          # not entered
    events.event_start(event_id=event.pk, now=starts)
    rnd = Round.objects.get(event=event, number=1)
    for user in players:
        feed = _events(_read(user))
        assert "Harbour Cup begins" not in feed
        closes = feed["Round 1 of Harbour Cup closes"]
        assert closes["DTSTART"].dt == rnd.deadline.replace(microsecond=0)
        assert closes["DTSTART"].params["TZID"] == "America/New_York"
        assert any(s.endswith(" ends") for s in feed)                       # the round's match too
    events.entry_remove(event_id=event.pk, actor=organiser, user=players[3])
    assert "Round 1 of Harbour Cup closes" not in _events(_read(players[3]))
