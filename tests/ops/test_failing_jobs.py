"""Issue 29 item 2 and issue 24 item 9: a Catan trade offer to named players reaches them (the
listener raised TypeError on the list), and a job that keeps failing is tried a few times with
growing waits, then kept as failed with its error, shown to staff with "retry", and counted;
it never holds up the other jobs."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from prometheus_client import REGISTRY

from games import tasks
from games.models import Job
from notifications.models import Notification
from tests.catan_ships.catan_pages_support import new_match, play_until, set_state, users_by_seat
from tests.conftest import client_for
from tests.ops.heard import HEARD

pytestmark = pytest.mark.django_db(transaction=True)

EMPTY = {"brick": 0, "lumber": 0, "wool": 0, "grain": 0, "ore": 0}


def _trading_match(player, opponent, outsider):
    match = play_until(new_match(player, opponent, outsider), lambda s: s["phase"] == "main")
    me = match.state["current"]
    hands = [dict(EMPTY) for _ in range(3)]
    hands[me]["brick"] = 2
    return set_state(match, dict(match.state, hands=hands)), me


def _offer(match, me, to):
    from games import play

    users = users_by_seat(match)
    play.action_apply(match_id=match.pk, user=users[me], action={
        "type": "offer", "give": {"brick": 1}, "get": {"wool": 1}, "to": to})
    return users


def _run_all_jobs():
    for job_id in Job.objects.values_list("pk", flat=True):
        tasks.run_job(job_id)


def test_a_catan_offer_to_a_named_player_notifies_that_player_only(player, opponent, outsider, settings):
    settings.JOBS_IN_PROCESS = False  # the jobs wait for the worker: run them as it would
    match, me = _trading_match(player, opponent, outsider)
    other, third = (me + 1) % 3, (me + 2) % 3
    users = _offer(match, me, [other])
    _run_all_jobs()
    assert not Job.objects.exists()  # the listener no longer fails on the list of players
    offers = Notification.objects.filter(kind=Notification.OFFER)
    assert [n.user for n in offers] == [users[other]]
    assert "1 brick for 1 wool" in offers[0].text.lower()


def test_a_catan_offer_to_the_table_notifies_everyone_but_the_offerer(player, opponent, outsider, settings):
    settings.JOBS_IN_PROCESS = False
    match, me = _trading_match(player, opponent, outsider)
    users = _offer(match, me, None)
    _run_all_jobs()
    told = {n.user for n in Notification.objects.filter(kind=Notification.OFFER)}
    assert told == {users[(me + 1) % 3], users[(me + 2) % 3]}


def test_a_failing_job_is_retried_with_growing_waits_then_marked_failed_and_others_still_run(
        race_match, settings):
    settings.JOBS_IN_PROCESS = False
    settings.SWEEP_SECONDS = 5
    settings.MATCH_CHANGED_LISTENERS = ["tests.ops.heard.poisoned"]
    failed_before = _failed_count()
    poisoned_job = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args={"first_seq": 1, "last_seq": 1})
    good = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args={"first_seq": 2, "last_seq": 2})
    HEARD.clear()
    assert tasks.run_jobs.apply().get() == 1  # the good one ran; the poisoned one failed once
    assert not Job.objects.filter(pk=good.pk).exists() and HEARD == [1, 2]
    job = Job.objects.get(pk=poisoned_job.pk)
    assert job.attempts == 1 and job.failed_at is None and "TypeError" in job.last_error
    waits = [(job.next_try_at - timezone.now()).total_seconds()]
    assert 4 < waits[0] <= 5
    assert tasks.run_jobs.apply().get() == 0 and HEARD == [1, 2]  # a drain leaves it to its next try

    # The sweep tries it when it is due, each wait three times the last, four times in all...
    for attempt in range(2, tasks.MAX_JOB_ATTEMPTS):
        Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(hours=1))
        assert tasks.undone_job_ids(now=job.next_try_at - timedelta(seconds=1)) == []  # not before it is due
        Job.objects.filter(pk=job.pk).update(next_try_at=timezone.now() - timedelta(seconds=1))
        tasks.sweep_due_matches.apply().get()
        job.refresh_from_db()
        assert job.attempts == attempt and job.failed_at is None
        waits.append((job.next_try_at - timezone.now()).total_seconds())
    assert [round(w / 5) for w in waits] == [1, 3, 9, 27]
    # ...and after the fifth failed run it is given up: kept with its error, tried no more.
    Job.objects.filter(pk=job.pk).update(next_try_at=timezone.now() - timedelta(seconds=1))
    tasks.sweep_due_matches.apply().get()
    job.refresh_from_db()
    assert job.attempts == tasks.MAX_JOB_ATTEMPTS and job.failed_at is not None and job.next_try_at is None
    assert "unhashable type" in job.last_error
    tried = len(HEARD)
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(days=1))
    tasks.sweep_due_matches.apply().get()
    tasks.run_jobs.apply().get()
    assert len(HEARD) == tried == 1 + tasks.MAX_JOB_ATTEMPTS  # the good job once, the poisoned five times
    assert _failed_count() == failed_before + 1


def test_staff_see_failed_jobs_with_their_error_and_retry_them(race_match, staff, settings):
    settings.JOBS_IN_PROCESS = True  # the retried job runs at once here
    settings.MATCH_CHANGED_LISTENERS = ["tests.ops.heard.poisoned"]
    job = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args={"first_seq": 1, "last_seq": 1},
                             attempts=5, failed_at=timezone.now(), last_error="Traceback …\nTypeError: unhashable type: 'list'")
    admin = client_for(staff)
    page = admin.get(reverse("admin:games_job_changelist") + "?status=failed").content.decode()
    assert "TypeError: unhashable type: &#x27;list&#x27;" in page and "Retry the selected jobs" in page
    settings.MATCH_CHANGED_LISTENERS = ["tests.ops.heard.heard"]  # what failed is fixed
    HEARD.clear()
    response = admin.post(reverse("admin:games_job_changelist"), {"action": "retry", "_selected_action": [job.pk]},
                          follow=True)
    assert "1 job will be run again." in response.content.decode()
    assert HEARD == [1] and not Job.objects.exists()


def test_metrics_count_the_waiting_and_failed_jobs_and_the_oldest_age(race_match, staff):
    Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args={"first_seq": 1, "last_seq": 1},
                       failed_at=timezone.now(), attempts=5)
    waiting = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args={"first_seq": 2, "last_seq": 2})
    Job.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(seconds=90))
    body = client_for(staff).get("/metrics").content.decode()
    assert "tradewinds_jobs_queued 1.0" in body and "tradewinds_jobs_failed 1.0" in body
    age = float(next(line for line in body.splitlines() if line.startswith("tradewinds_jobs_oldest_age_seconds ")).split()[1])
    assert 89 < age < 120


def _failed_count():
    return REGISTRY.get_sample_value("tradewinds_jobs_failed_total") or 0.0
