"""Issue 36: a league of two divisions plays its season to the end through the services, and the
next season promotes the top of the lower division and relegates the bottom of the upper one
(docs/leagues.md); what is refused is refused with a clear error and nothing made."""
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.errors import BadRequest, NotAllowed
from leagues import services
from leagues.models import Event, Round
from leagues.tasks import sweep_events
from tests.browser.events_support import play_a_little
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _division(organiser, number, players, moves=1, league="North Sea"):
    event = services.event_create(organiser=organiser, name=f"North Sea {number}", game="pirater", seats=2,
                                  rounds=3, format=Event.LEAGUE, league=league, division=number, moves=moves,
                                  game_hours=24, round_hours=48, starts_at=timezone.now() + timedelta(hours=1))
    for user in players:
        services.event_join(event_id=event.pk, user=user)
    return event


def _play_season(event, rnd, started=False):
    """Start the event as the beat would (unless it has), then play and close every round."""
    if not started:
        Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
        sweep_events()
    for number in range(1, event.rounds + 1):
        current = Round.objects.get(event=event, number=number)
        for table in current.tables.all():
            play_a_little(table.match_id, rnd)
        Round.objects.filter(pk=current.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        sweep_events()
    event.refresh_from_db()
    assert event.status == Event.FINISHED


def _usernames(event):
    return sorted(event.entries.filter(removed=False).values_list("user__username", flat=True))


def test_a_season_of_two_divisions_promotes_and_relegates_one_each():
    olga = make_user("olga")
    top = _division(olga, 1, [make_user(f"top{n}") for n in range(4)])
    low = _division(olga, 2, [make_user(f"low{n}") for n in range(4)])
    with pytest.raises(BadRequest, match="Every division"):
        services.season_next(event_id=top.pk, actor=olga)      # not played yet: nothing made
    rnd = random.Random(36)
    _play_season(top, rnd)
    with pytest.raises(BadRequest, match="Every division"):
        services.season_next(event_id=top.pk, actor=olga)      # the other division still plays
    _play_season(low, rnd)
    with pytest.raises(NotAllowed):
        services.season_next(event_id=top.pk, actor=make_user("mallory"))
    assert not Event.objects.filter(season=2).exists()

    last_of_top = services.standings(top)[-1]["user"].username
    first_of_low = services.standings(low)[0]["user"].username
    made = services.season_next(event_id=low.pk, actor=olga)
    assert [(e.league, e.season, e.division, e.moves, e.format) for e in made] == \
        [("North Sea", 2, 1, 1, Event.LEAGUE), ("North Sea", 2, 2, 1, Event.LEAGUE)]
    new_top, new_low = made
    assert first_of_low in _usernames(new_top) and last_of_top in _usernames(new_low)
    assert last_of_top not in _usernames(new_top) and first_of_low not in _usernames(new_low)
    assert len(_usernames(new_top)) == len(_usernames(new_low)) == 4
    assert sorted(_usernames(new_top) + _usernames(new_low)) == sorted(_usernames(top) + _usernames(low))
    assert all(e.status == Event.ENTRY and e.starts_at > timezone.now() for e in made)
    with pytest.raises(BadRequest, match="already"):
        services.season_next(event_id=top.pk, actor=olga)      # once
    assert Event.objects.filter(season=2).count() == 2


def test_a_withdrawn_player_leaves_the_league_and_the_page_starts_the_next_season():
    olga = make_user("olga")
    players = [make_user(f"p{n}") for n in range(5)]
    only = _division(olga, 1, players, moves=0)
    Event.objects.filter(pk=only.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    sweep_events()
    services.entry_remove(event_id=only.pk, actor=olga, user=players[4])
    _play_season(only, random.Random(7), started=True)
    client = Client()
    client.force_login(olga)
    page = client.get(only.get_absolute_url()).content.decode()
    assert "Start the next season" in page and "North Sea, season 1, division 1" in page
    response = client.post(f"/events/{only.pk}/act/", {"do": "next_season"})
    new = Event.objects.get(league="North Sea", season=2)
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert _usernames(new) == ["p0", "p1", "p2", "p3"]
    again = client.post(f"/events/{only.pk}/act/", {"do": "next_season"})
    assert again.status_code == 400 and "already" in again.content.decode()


@pytest.mark.parametrize("extra, says", [
    ({"format": Event.SWISS, "league": "North Sea"}, "Only a league division"),
    ({"format": Event.LEAGUE, "moves": 1}, "need the league's name"),
    ({"format": Event.LEAGUE, "league": "North Sea", "division": 0}, "divisions 1 to 20"),
    ({"format": Event.LEAGUE, "league": "North Sea", "moves": 11}, "At most 10"),
    ({"format": Event.LEAGUE, "league": "North Sea", "moves": "two"}, "whole number"),
    ({"format": Event.LEAGUE, "league": "x" * 81}, "at most 80"),
])
def test_bad_league_settings_are_refused_and_nothing_is_stored(extra, says):
    with pytest.raises(BadRequest, match=says):
        services.event_create(organiser=make_user("olga"), name="Bad", game="pirater", seats=2, rounds=2,
                              game_hours=24, round_hours=48, **extra)
    assert not Event.objects.exists()


def test_a_swiss_event_has_no_next_season():
    olga = make_user("olga")
    event = services.event_create(organiser=olga, name="Cup", game="pirater", seats=2, rounds=1,
                                  game_hours=24, round_hours=48)
    with pytest.raises(BadRequest, match="Only a league"):
        services.season_next(event_id=event.pk, actor=olga)
