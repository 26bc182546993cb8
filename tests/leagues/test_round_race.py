"""The round-closing race: the last two matches of a round end in the same instant (two
threads, each a listener's call); the next round is paired exactly once. Meaningful on
PostgreSQL (row locks); SQLite serialises writers anyway."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import play
from games.models import Match
from leagues import listeners, services
from leagues.models import Event, Round
from tests.conftest import make_user


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_matches_ending_at_once_pair_the_next_round_once(attempt, settings):
    settings.MATCH_CHANGED_LISTENERS = []   # the threads below are the listeners' calls
    settings.MATCH_FINISHED_LISTENERS = []
    organiser = make_user("org")
    players = [make_user(f"p{i}") for i in range(6)]
    event = services.event_create(organiser=organiser, name="Race night", game="race", seats=3, rounds=2,
                                  turn_seconds=3600, game_hours=24, round_hours=24, options={"finish": 8})
    for p in players:
        services.event_join(event_id=event.pk, user=p)
    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.event_start(event_id=event.pk)
    match_ids = list(Round.objects.get(event=event, number=1).tables.values_list("match_id", flat=True))
    assert len(match_ids) == 2
    for match_id in match_ids:   # both ended, neither listener has run yet
        play.match_finish(match_id=match_id, reason="test")
    barrier, errors = threading.Barrier(2), []

    def listener(match_id):
        try:
            barrier.wait()
            listeners.match_changed(match_id=match_id, first_seq=0, last_seq=0)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=listener, args=(m,)) for m in match_ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert Round.objects.filter(event=event).count() == 2
    second = Round.objects.get(event=event, number=2)
    assert second.tables.count() == 2
    assert Match.objects.filter(event_table__round=second).count() == 2
    assert Event.objects.get(pk=event.pk).current_round == 2
