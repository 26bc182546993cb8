"""Background jobs. Each fetches by id and calls a service; each is safe to run twice."""
import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from games import jobs, services
from games.models import Job, Match

log = logging.getLogger(__name__)

SWEEP_BATCH = 500
DRAIN_BATCH = 100
# Which listeners a Job row of each kind is for (settings, by dotted path).
JOB_LISTENERS = {Job.MATCH_CHANGED: "MATCH_CHANGED_LISTENERS", Job.MATCH_FINISHED: "MATCH_FINISHED_LISTENERS"}
# A job's row locked for its run, skipped if another run holds it.
def _job_locked(pk):
    return Job.objects.select_for_update(skip_locked=True).filter(pk=pk).values_list(
        "match_id", "kind", "args").order_by().first()


def queue(task, *args) -> bool:
    """Queue a job; if the broker is away, the periodic sweep will find the work later."""
    return jobs.queue(task.name, *args)


@shared_task(acks_late=True)
def run_job(job_id):
    """Run a recorded job's listeners and delete it, in one transaction with the row locked: a
    second run (a redelivered message, the sweep) skips the row while the first holds it and
    finds nothing after, and a run that fails leaves the row for the sweep. Each listener is
    idempotent as well (notifications are keyed), for a run that dies after sending. Queued by
    jobs.record without a worker (and by older deploys), run by the drain and the sweep."""
    with transaction.atomic():
        job = _job_locked(job_id)
        if job is None:
            return False
        match_id, kind, args = job
        for path in getattr(settings, JOB_LISTENERS[kind]):
            import_string(path)(match_id=match_id, **args)
        Job.objects.filter(pk=job_id).delete()
    return True


@shared_task(acks_late=True)
def run_jobs():
    """Run the undone Job rows, oldest first, each as run_job runs it (its own transaction, its
    row locked, skipped if another run holds it, deleted once its listeners ran); one that fails
    is logged and left for the sweep, and the others still run.

    The pending flag is cleared, THEN the rows read once more. A commit whose nudge found the
    flag set came before the drain that set it cleared it: that drain's reads after its clear
    come after the commit, and see the job. Reading only before the clear would let a job
    committed between the last read and the clear go unseen, its nudge swallowed by the flag.
    The pass before the clear is what makes the nudges coalesce: while it runs, the flag holds
    back the nudges of the jobs committed meanwhile, and it runs them too."""
    failed = set()
    done = _drain(failed)
    jobs.drain_started()
    return done + _drain(failed)


def _drain(failed: set) -> int:
    """Run the Job rows until a read comes back short: it saw every row committed before it."""
    done, after = 0, 0
    while True:
        # Not locked here: run_job locks each row in turn, so a second drain skips what this one
        # runs instead of waiting for a whole batch.
        batch = list(Job.objects.filter(pk__gt=after).order_by("id").values_list("id", flat=True)[:DRAIN_BATCH])
        for job_id in batch:
            if job_id in failed:
                continue  # once a drain is enough: the sweep tries it again
            try:
                done += run_job(job_id)
            except Exception:
                failed.add(job_id)
                log.exception("job %s failed; the sweep tries it again", job_id)
        if len(batch) < DRAIN_BATCH:
            return done
        after = batch[-1]


@shared_task(acks_late=True)
def apply_system_action(match_id):
    return services.system_action_apply(match_id=match_id)


@shared_task(acks_late=True)
def apply_deadline(match_id):
    return services.deadline_apply(match_id=match_id)


@shared_task(acks_late=True)
def after_match_finished(match_id):
    """What follows the end of a match beyond the game itself (ratings, notifications): each
    listener is idempotent, keyed on the match. (Kept for messages queued before Job rows.)"""
    for path in settings.MATCH_FINISHED_LISTENERS:
        _on_its_own(path, import_string(path), match_id=match_id)


@shared_task(acks_late=True)
def after_match_changed(match_id, first_seq, last_seq, turn_passed_to=None):
    """Listeners (notifications) learn of log rows first_seq..last_seq and of a turn that passed
    to a seat; each must be idempotent, keyed on the match and the sequence numbers. (Kept for
    messages queued before Job rows.)"""
    for path in settings.MATCH_CHANGED_LISTENERS:
        _on_its_own(path, import_string(path), match_id=match_id, first_seq=first_seq, last_seq=last_seq,
                    turn_passed_to=turn_passed_to)


def _on_its_own(path, listener, **kwargs):
    """One listener failing is logged and does not keep the next one from hearing the news (a
    savepoint only inside a transaction: a listener's e-mails must not hold one open)."""
    from contextlib import nullcontext

    from django.db import connection, transaction

    try:
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            listener(**kwargs)
    except Exception:
        log.exception("listener %s failed for %s", path, kwargs)


def due_match_ids(now=None, limit=SWEEP_BATCH) -> tuple[list, list]:
    """Matches whose deadline passed and those waiting for a system action, through the partial
    indexes on running matches, so the cost follows the number due, not the number stored."""
    now = now or timezone.now()
    running = Match.objects.filter(status=Match.RUNNING)
    due = list(running.filter(next_due_at__lte=now).order_by("next_due_at").values_list("id", flat=True)[:limit])
    system = list(running.filter(needs_system=True).values_list("id", flat=True)[:limit])
    return due, system


def undone_job_ids(now=None, limit=SWEEP_BATCH) -> list:
    """Jobs still there a sweep interval after they were written: their nudge was lost (the
    broker was away) or their run failed. Younger ones are most likely being run now."""
    now = now or timezone.now()
    older = now - timedelta(seconds=settings.SWEEP_SECONDS)
    return list(Job.objects.filter(created_at__lte=older).order_by("created_at", "id")
                .values_list("id", flat=True)[:limit])


@shared_task
def sweep_due_matches():
    """Queue the due matches' jobs (they may run side by side), and run the undone Job rows here:
    queueing those again every sweep would pile up copies behind a backlog after an outage."""
    due, system = due_match_ids()
    work = [(apply_system_action, m) for m in system] + [(apply_deadline, m) for m in due]
    for task, match_id in work:
        if not queue(task, match_id):
            break  # the broker is away: the next sweep finds all of it again
    done = 0
    for job_id in undone_job_ids():
        try:
            done += run_job(job_id)
        except Exception:
            log.exception("job %s failed; the next sweep tries it again", job_id)
    return len(work) + done
