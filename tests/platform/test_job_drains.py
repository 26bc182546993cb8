"""Issue 15: with a worker, the Job rows' nudges coalesce into drains. Many jobs recorded at
once queue one drain, which runs each once; a lost drain, a failing job and a job committed
while a drain runs lose nothing."""
import time

import pytest
from django.db import transaction

from games.play import jobs
from games import tasks
from games.models import Job, Match
from tests.listeners import CALLS

DRAIN = "games.tasks.run_jobs"


@pytest.fixture
def broker(settings, monkeypatch):
    """A worker's setup without one: what would go to the broker is kept here, in order."""
    from config.celery import app

    settings.JOBS_IN_PROCESS = False
    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record"]
    CALLS.clear()
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args=(), **options: sent.append(name))
    return sent


@pytest.fixture
def match(race_match):
    Job.objects.all().delete()  # the start's, whose nudge a test transaction never commits
    return race_match


def _record(match, *seqs):
    """Each job in a transaction of its own, committed, as forty moves a second would."""
    from django.test import TestCase

    for seq in seqs:
        with TestCase.captureOnCommitCallbacks(execute=True):
            jobs.record(match, Job.MATCH_CHANGED, first_seq=seq, last_seq=seq, turn_passed_to=None)


def _run_queued(sent):
    """The worker takes the queued drains in turn."""
    while sent:
        assert sent.pop(0) == DRAIN
        tasks.run_jobs.apply().get()


def _heard():
    return sorted(call["first_seq"] for call in CALLS)


def test_many_jobs_committed_at_once_queue_one_drain_which_runs_each_once(match, broker, monkeypatch):
    monkeypatch.setattr(tasks, "DRAIN_BATCH", 7)  # several batches
    _record(match, *range(50))
    assert broker == [DRAIN]
    _run_queued(broker)
    assert _heard() == list(range(50)) and not Job.objects.exists()
    _record(match, *range(50, 60))  # the drain cleared the flag: the next commit nudges again
    assert broker == [DRAIN]
    _run_queued(broker)
    assert _heard() == list(range(60)) and not Job.objects.exists()


def test_moves_played_at_once_queue_one_drain_for_all_their_jobs(match, broker, player, opponent, play):
    play(match, (player, "roll"), (player, "stay"), (opponent, "roll"), (opponent, "stay"))
    assert broker.count(DRAIN) == 1 and Job.objects.count() == 4
    _run_queued([DRAIN])
    assert _heard() == [1, 2, 3, 4] and not Job.objects.exists()


def test_a_lost_drain_leaves_its_jobs_for_the_sweep(match, broker, settings):
    _record(match, 1)
    broker.clear()  # the drain's message is lost, its flag still set
    _record(match, 2, 3)
    assert broker == [] and CALLS == []  # held back by the flag
    settings.SWEEP_SECONDS = 0
    assert tasks.sweep_due_matches.apply().get() == 3
    assert _heard() == [1, 2, 3] and not Job.objects.exists()


def test_a_lost_drain_holds_back_the_nudges_only_until_its_flag_expires(match, broker):
    _record(match, 1)
    broker.clear()  # lost
    time.sleep(jobs.DRAIN_PENDING_SECONDS + 0.2)
    _record(match, 2)
    assert broker == [DRAIN]
    _run_queued(broker)
    assert _heard() == [1, 2] and not Job.objects.exists()


def test_a_failing_job_is_left_for_the_sweep_and_the_others_run(match, broker, settings):
    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record", "tests.platform.test_job_drains.fail_at_2"]
    settings.SWEEP_SECONDS = 0  # the sweep may run it again at once (a failed job waits a sweep first)
    FAILED.clear()
    _record(match, 1, 2, 3)
    _run_queued(broker)
    assert _heard() == [1, 2, 3]  # job 2 heard, then failed and rolled back
    assert list(Job.objects.values_list("args__first_seq", flat=True)) == [2]
    assert tasks.sweep_due_matches.apply().get() == 1
    assert _heard() == [1, 2, 2, 3] and not Job.objects.exists()


def test_a_flag_that_cannot_be_checked_or_a_broker_away_still_loses_nothing(match, broker, monkeypatch, settings):
    from django.core.cache import cache

    from config.celery import app

    def away(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as m:
        m.setattr(cache, "add", away)
        _record(match, 1)
    assert broker == [DRAIN]  # in doubt, nudge
    with monkeypatch.context() as m:
        m.setattr(app, "send_task", away)
        _record(match, 2)
    assert broker == [DRAIN]
    _record(match, 3)  # the failed nudge let go of its flag: this one tries the broker again
    assert broker == [DRAIN, DRAIN]
    _run_queued(broker)
    assert _heard() == [1, 2, 3] and not Job.objects.exists()


FAILED = []


def fail_at_2(*, first_seq, **kwargs):
    if first_seq == 2 and not FAILED:
        FAILED.append(first_seq)
        raise ConnectionError("the mail server is away")


def record_another_while_draining(*, match_id, first_seq, **kwargs):
    """Jobs 1 and 2 each commit another (101, 102) while the drain that runs them is under way."""
    CALLS.append(dict(match_id=match_id, first_seq=first_seq, **kwargs))
    if first_seq < 100:
        jobs.record(Match(pk=match_id), Job.MATCH_CHANGED, first_seq=first_seq + 100, last_seq=first_seq + 100,
                    turn_passed_to=None)


@pytest.mark.django_db(transaction=True)
def test_jobs_committed_while_a_drain_runs_are_run_once(broker, player, opponent, settings):
    from games import play as games_play

    # Real commits: each job's nudge comes at its commit, in the middle of the drain.
    match = games_play.match_create(creator=player, game="race", seats=2, options={"finish": 30})
    games_play.match_join(match_id=match.pk, user=opponent)
    Job.objects.all().delete()  # the start's, as if their drain had run: it cleared their flag
    broker.clear()
    jobs.drain_started()
    CALLS.clear()
    settings.MATCH_CHANGED_LISTENERS = ["tests.platform.test_job_drains.record_another_while_draining"]
    for seq in (1, 2):
        with transaction.atomic():
            jobs.record(match, Job.MATCH_CHANGED, first_seq=seq, last_seq=seq, turn_passed_to=None)
    assert broker == [DRAIN]
    broker.clear()
    tasks.run_jobs.apply().get()
    # Jobs 101 and 102 committed while the drain ran with its flag still set: their nudges
    # queued nothing, and the drain ran them itself.
    assert broker == [] and _heard() == [1, 2, 101, 102] and not Job.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_job_committed_just_before_the_drain_clears_its_flag_is_run(broker, player, settings, monkeypatch):
    """The race the order of clearing and reading is for: the last read found nothing, then a
    job commits and its nudge finds the flag still set."""
    from games import play as games_play

    match = games_play.match_create(creator=player, game="race", seats=2)
    Job.objects.all().delete()
    jobs.drain_started()
    broker.clear()
    CALLS.clear()
    committed = []
    real_drain_started = jobs.drain_started

    def a_commit_then_the_clear():
        if not committed:
            committed.append(True)
            jobs.record(match, Job.MATCH_CHANGED, first_seq=7, last_seq=7, turn_passed_to=None)
        real_drain_started()

    jobs.nudge()  # a drain is pending
    broker.clear()
    monkeypatch.setattr(jobs, "drain_started", a_commit_then_the_clear)
    tasks.run_jobs.apply().get()
    assert broker == [] and _heard() == [7] and not Job.objects.exists()
