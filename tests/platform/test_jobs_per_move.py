"""A move that tells nobody anything queues nothing (issue 26): the worker's job per move was
mostly a read that found nothing to tell."""
import pytest

from games import play
from games.models import Job

pytestmark = pytest.mark.django_db


def test_a_move_that_keeps_the_turn_and_tells_nothing_records_no_job(race_match, player, opponent):
    Job.objects.all().delete()  # the deal's (anna's turn to tell)
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})  # still anna's turn
    assert Job.objects.count() == 0
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})  # bo's turn now
    assert list(Job.objects.values_list("kind", "args__turn_passed_to")) == [(Job.MATCH_CHANGED, 1)]


def test_a_listener_that_cannot_say_beforehand_hears_of_every_change(race_match, player, settings):
    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record"]
    Job.objects.all().delete()
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    assert Job.objects.filter(kind=Job.MATCH_CHANGED).count() == 1


def test_no_listener_no_job(race_match, player, settings):
    settings.MATCH_CHANGED_LISTENERS = []
    Job.objects.all().delete()
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})
    assert Job.objects.count() == 0


def test_the_orders_listener_cares_only_for_moves_played_by_standing_order():
    from games.models import ActionLog
    from notifications.orders import orders_played

    assert orders_played.cares(events=[{"type": "roll"}], turn_passed_to=None, kinds={ActionLog.ORDER})
    assert not orders_played.cares(events=[{"type": "roll"}], turn_passed_to=1, kinds={ActionLog.PLAYER})


def test_a_job_names_only_the_listeners_its_change_has_something_for(race_match, player):
    """A turn that passes by a player's hand tells the next player and settles a turn on the
    records; it ends no match (no league or ladder to settle) and no standing orders played in
    it: the job's run calls neither of those listeners (each would read the database to find
    nothing)."""
    Job.objects.all().delete()
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})  # bo's turn now
    job = Job.objects.get()
    assert "games.play.records.turns_passed" in job.listeners
    assert "notifications.listeners.match_changed" in job.listeners
    assert "leagues.listeners.match_changed" not in job.listeners
    assert "notifications.orders.orders_played" not in job.listeners


def test_a_job_runs_only_the_listeners_it_names(race_match, settings):
    from games import tasks
    from tests import listeners

    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.fail_once", "tests.listeners.record"]
    listeners.CALLS.clear()
    listeners.FAILED.clear()
    facts = {"first_seq": 1, "last_seq": 1, "turn_passed_to": 1}
    named = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args=facts,
                               listeners=["tests.listeners.record"])
    assert tasks.run_job(named.pk) is True
    assert listeners.CALLS == [{"match_id": race_match.pk, **facts}]
    assert listeners.FAILED == []  # not named: not called (it would have failed the run)
    assert not Job.objects.filter(pk=named.pk).exists()

    # A listener taken out of the settings since the job was written is not called; a job
    # that names none (a match's end, a row from before the names) calls every listener.
    gone = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args=facts,
                              listeners=["tests.listeners.gone"])
    assert tasks.run_job(gone.pk) is True
    assert len(listeners.CALLS) == 1 and listeners.FAILED == []
    every = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args=facts)
    assert tasks.run_job(every.pk) is False  # fail_once failed this run: rolled back, kept
    assert listeners.FAILED == [{"match_id": race_match.pk, **facts}]
    assert tasks.run_job(every.pk) is True
    assert listeners.CALLS[-1] == {"match_id": race_match.pk, **facts}
