"""Background jobs against the database: what is due, timeouts, absences, the game deadline,
system actions, and running each job twice."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.core.management import call_command
from django.utils import timezone

from accounts.models import vacation_days_left
from games import play, tasks
from games.errors import BadRequest
from games.models import ActionLog, Match
from tests.conftest import client_for


def _expire_turn(match):
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1),
                                             next_due_at=timezone.now() - timedelta(seconds=1))


def test_due_selection_picks_only_due_running_matches(race_match, player, opponent):
    other = play.match_create(creator=opponent, game="race", seats=2)
    play.match_join(match_id=other.pk, user=player)
    assert tasks.due_match_ids() == ([], [])
    _expire_turn(race_match)
    assert tasks.due_match_ids() == ([race_match.pk], [])
    Match.objects.filter(pk=race_match.pk).update(status=Match.PAUSED)
    assert tasks.due_match_ids() == ([], [])


def test_turn_timeout_plays_the_timeout_action_once(race_match, django_capture_on_commit_callbacks):
    _expire_turn(race_match)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.apply_deadline.apply(args=[race_match.pk]).get() is True
        assert tasks.apply_deadline.apply(args=[race_match.pk]).get() is False  # idempotent
    match = Match.objects.get(pk=race_match.pk)
    assert list(match.log.values_list("kind", "action__type")) == [("timeout", "roll"), ("timeout", "stay")]
    assert match.turn_seats == [1] and match.turn_deadline > timezone.now()
    assert match.seats.get(number=0).consecutive_timeouts == 1


def test_repeated_timeouts_mark_a_seat_absent_and_play_it_at_once(race_match, settings):
    settings.ABSENT_AFTER_TIMEOUTS = 1
    _expire_turn(race_match)
    play.deadline_apply(match_id=race_match.pk)
    seat = race_match.seats.get(number=0)
    assert seat.is_absent
    play.action_apply(match_id=race_match.pk, user=race_match.seats.get(number=1).user, action={"type": "roll"})
    play.action_apply(match_id=race_match.pk, user=race_match.seats.get(number=1).user, action={"type": "stay"})
    play.system_action_apply(match_id=race_match.pk)  # the wind at the start of round 2
    match = Match.objects.get(pk=race_match.pk)
    assert match.turn_seats == [0] and match.turn_deadline <= timezone.now()
    assert tasks.due_match_ids()[0] == [race_match.pk]


def test_game_deadline_ends_the_match_with_standings(player, opponent):
    deadline = timezone.now() + timedelta(hours=2)
    match = play.match_create(creator=player, game="race", seats=2, game_deadline=deadline)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    assert match.next_due_at == min(match.turn_deadline, deadline)
    assert play.deadline_apply(match_id=match.pk, now=deadline + timedelta(seconds=1)) is True
    match.refresh_from_db()
    assert match.status == Match.FINISHED and "deadline" in match.finish_reason
    assert len(match.standings) == 2 and match.next_due_at is None
    assert play.deadline_apply(match_id=match.pk) is False


def test_sweep_queues_due_deadlines_and_waiting_system_actions(race_match, player, opponent):
    for user in (player, opponent):  # ends round 1: a wind is due from the system
        play.action_apply(match_id=race_match.pk, user=user, action={"type": "roll"})
        play.action_apply(match_id=race_match.pk, user=user, action={"type": "stay"})
    assert Match.objects.get(pk=race_match.pk).needs_system
    assert tasks.sweep_due_matches.apply().get() == 1
    match = Match.objects.get(pk=race_match.pk)
    assert not match.needs_system and match.log.filter(kind=ActionLog.SYSTEM).count() == 1
    assert tasks.apply_system_action.apply(args=[race_match.pk]).get() is False


def test_verify_match_command_replays_the_log(race_match, player, opponent, capsys):
    for user in (player, opponent):
        play.action_apply(match_id=race_match.pk, user=user, action={"type": "roll"})
        play.action_apply(match_id=race_match.pk, user=user, action={"type": "advance"})
    play.system_action_apply(match_id=race_match.pk)
    call_command("verify_match", str(race_match.pk))
    assert "5 actions replayed" in capsys.readouterr().out


def test_listeners_hear_of_each_change_and_of_a_turn_passing(race_match, player, settings,
                                                             django_capture_on_commit_callbacks):
    from tests.listeners import CALLS

    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record"]
    settings.MATCH_FINISHED_LISTENERS = ["tests.listeners.record"]
    CALLS.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
        play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})
    assert CALLS == [dict(match_id=race_match.pk, first_seq=1, last_seq=1, turn_passed_to=None),
                     dict(match_id=race_match.pk, first_seq=2, last_seq=2, turn_passed_to=1)]
    CALLS.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play.match_finish(match_id=race_match.pk, reason="ended by an admin")
    assert dict(match_id=race_match.pk) in CALLS


def test_bots_fill_seats_and_move_at_once(player, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = play.match_create(creator=player, game="race", seats=3, bot_seats=2, options={"wind": False})
        play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
        play.action_apply(match_id=match.pk, user=player, action={"type": "stay"})
    match.refresh_from_db()
    kinds = list(match.log.order_by("seq").values_list("seat", "kind"))
    assert match.status == Match.RUNNING and match.seats.filter(is_bot=True).count() == 2
    assert kinds[2:] == [(1, "bot"), (1, "bot"), (2, "bot"), (2, "bot")]
    assert match.turn_seats == [0]  # back to the person, who is not hurried
    assert match.turn_deadline > timezone.now()
    play.match_finish(match_id=match.pk, reason="ended by an admin")
    call_command("verify_match", str(match.pk))  # bot moves replay like any other


def test_a_bot_covers_an_absent_player_where_the_match_allows(player, opponent, settings,
                                                              django_capture_on_commit_callbacks):
    settings.ABSENT_AFTER_TIMEOUTS = 1
    match = play.match_create(creator=player, game="race", seats=2, bots_cover_absence=True,
                                  options={"wind": False})
    play.match_join(match_id=match.pk, user=opponent)
    _expire_turn(match)
    with django_capture_on_commit_callbacks(execute=True):
        play.deadline_apply(match_id=match.pk)
        play.action_apply(match_id=match.pk, user=opponent, action={"type": "roll"})
        play.action_apply(match_id=match.pk, user=opponent, action={"type": "stay"})
    match.refresh_from_db()
    rows = list(match.log.order_by("seq").values_list("seat", "kind", "action__type"))
    assert rows[:3] == [(0, "timeout", "roll"), (0, "timeout", "stay"), (None, "record", "bot_covers")]
    assert rows[-2:] == [(0, "bot", "roll"), (0, "bot", rows[-1][2])]
    assert match.turn_seats == [1]
    client = client_for(player)
    page = client.get(match.get_absolute_url()).content.decode()  # the player looks: nothing changes
    assert "A bot plays for Anna until they come back." in page and "I'm back" in page
    assert match.seats.get(number=0).is_absent
    client.post(reverse("match_return", args=[match.pk]))  # and says they are back
    assert not match.seats.get(number=0).is_absent


def test_bot_seats_are_checked(player):
    with pytest.raises(BadRequest, match="at most"):
        play.match_create(creator=player, game="race", seats=2, bot_seats=2)


def test_vacation_pauses_the_turns_a_player_owns_and_others_see_it(race_match, player, opponent, settings):
    from accounts.models import Vacation

    settings.VACATION_DAYS_PER_YEAR = 10
    before = race_match.turn_deadline
    with pytest.raises(BadRequest, match="10 vacation days left"):
        play.vacation_start(user=player, days=11)
    play.vacation_start(user=player, days=3)
    race_match.refresh_from_db()
    assert race_match.turn_deadline - before == timedelta(days=3)
    assert race_match.next_due_at == race_match.turn_deadline
    page = client_for(opponent).get(race_match.get_absolute_url()).content.decode()
    assert "on vacation until" in page
    assert vacation_days_left(user=player) == 7
    play.vacation_end(user=player)
    race_match.refresh_from_db()
    assert abs((race_match.turn_deadline - before).total_seconds()) < 60
    assert vacation_days_left(user=player) == 10
    assert Vacation.objects.get().ends_at <= timezone.now()


def test_a_turn_that_comes_during_a_vacation_waits_until_the_player_is_back(race_match, player, opponent):
    play.vacation_start(user=opponent, days=2)
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    match = play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"}).match
    assert match.turn_seats == [1]
    assert match.turn_deadline - timezone.now() > timedelta(days=2, hours=23)


def test_matches_that_do_not_allow_vacations_keep_their_clocks(player, opponent):
    match = play.match_create(creator=player, game="race", seats=2, allow_vacation=False)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    before = match.turn_deadline
    play.vacation_start(user=player, days=3)
    match.refresh_from_db()
    assert match.turn_deadline == before


def test_a_lost_nudge_leaves_the_job_for_the_sweep_which_runs_it_once(race_match, player, settings, monkeypatch,
                                                                      django_capture_on_commit_callbacks):
    """Issue 14, items 1 and 2: the broker away at the commit loses nothing; a second run does nothing."""
    from games.play import jobs
    from games.models import Job
    from tests.listeners import CALLS

    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record"]
    settings.SWEEP_SECONDS = 0
    CALLS.clear()
    Job.objects.all().delete()  # the start's, whose nudge a test transaction never commits

    def broker_away(name):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(jobs, "_task", broker_away)
    with django_capture_on_commit_callbacks(execute=True):
        play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    job = Job.objects.get(match=race_match)
    assert CALLS == [] and job.args == {"first_seq": 1, "last_seq": 1, "turn_passed_to": None}
    monkeypatch.undo()
    assert tasks.sweep_due_matches.apply().get() == 1
    assert CALLS == [dict(match_id=race_match.pk, first_seq=1, last_seq=1, turn_passed_to=None)]
    assert not Job.objects.exists()
    assert tasks.run_job.apply(args=[job.pk]).get() is False  # a redelivered message
    assert tasks.sweep_due_matches.apply().get() == 0 and len(CALLS) == 1


def test_a_failing_listener_keeps_its_job_for_the_next_sweep(race_match, player, settings,
                                                             django_capture_on_commit_callbacks):
    from games.models import Job
    from tests.listeners import CALLS

    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record", "tests.listeners.fail_once"]
    settings.SWEEP_SECONDS = 0
    CALLS.clear()
    Job.objects.all().delete()  # the start's, whose nudge a test transaction never commits
    with django_capture_on_commit_callbacks(execute=True):
        play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    assert Job.objects.filter(match=race_match).count() == 1  # the first run failed and rolled back
    assert tasks.sweep_due_matches.apply().get() == 1
    assert not Job.objects.exists() and len(CALLS) == 2  # heard twice, idempotent listeners ignore the rerun


def test_a_worker_process_keeps_its_connection_and_a_callers_eager_job_leaves_it_alone(db, monkeypatch):
    from celery import signals
    from django.db import connection, connections, transaction

    from config import celery as worker

    config = connections.settings["default"]
    monkeypatch.setitem(config, "CONN_MAX_AGE", 0)
    monkeypatch.setitem(config, "CONN_HEALTH_CHECKS", False)
    try:
        worker._keep_connections()  # as in each pool process at its start
        assert config["CONN_MAX_AGE"] == worker.WORKER_CONN_MAX_AGE and config["CONN_HEALTH_CHECKS"]
        # An eager job in the caller's transaction must not close the caller's connection.
        with transaction.atomic():
            assert tasks.run_job.apply(args=[0]).get() is False
            assert connection.in_atomic_block and not connection.needs_rollback
    finally:
        signals.task_prerun.disconnect(worker._close_old_connections)
        signals.task_postrun.disconnect(worker._close_old_connections)
