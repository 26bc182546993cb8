"""Background jobs. Each fetches by id and calls a service; each is safe to run twice."""
import logging
import traceback
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.module_loading import import_string

from config import health, metrics
from games.play import jobs
from games import play
from games.models import Job, Match

log = logging.getLogger(__name__)

SWEEP_BATCH = 500
DRAIN_BATCH = 100
# Which listeners a Job row of each kind is for (settings, by dotted path).
JOB_LISTENERS = {Job.MATCH_CHANGED: "MATCH_CHANGED_LISTENERS", Job.MATCH_FINISHED: "MATCH_FINISHED_LISTENERS"}
# A job's row locked for its run, skipped if another run holds it.
def _job_locked(pk):
    return Job.objects.select_for_update(skip_locked=True).filter(pk=pk).values_list(
        "match_id", "kind", "args", "listeners").order_by().first()


def queue(task, *args) -> bool:
    """Queue a job; if the broker is away, the periodic sweep will find the work later."""
    return jobs.queue(task.name, *args)


# A job that fails is tried again after SWEEP_SECONDS, then three times as long each time (5 s,
# 15 s, 45 s, 2¼ min with the default sweep), and after MAX_JOB_ATTEMPTS failed runs it is
# marked failed and left for staff (the admin lists it with its error and can retry it). Before,
# a job that always failed (issue 29: a trade offer's list of players) was retried every sweep,
# for ever: a thousand tracebacks in 35 minutes.
MAX_JOB_ATTEMPTS = 5
RETRY_GROWTH = 3
ERROR_CHARS = 4000


@shared_task(acks_late=True)
def run_job(job_id):
    """Run a recorded job's listeners and delete it, in one transaction with the row locked: a
    second run (a redelivered message, the sweep) skips the row while the first holds it and
    finds nothing after. A run that fails is rolled back and its failure noted on the row (see
    MAX_JOB_ATTEMPTS); the caller goes on with the next job. Each listener is idempotent as well
    (notifications are keyed), for a run that dies after sending. Queued by jobs.record without a
    worker (and by older deploys), run by the drain and the sweep."""
    try:
        with transaction.atomic():
            job = _job_locked(job_id)
            if job is None:
                return False
            match_id, kind, args, named = job
            for path in getattr(settings, JOB_LISTENERS[kind]):
                # Only the listeners the change had something for (Job.listeners), in the
                # settings' order; one since taken out of the settings is not called.
                if not named or path in named:
                    import_string(path)(match_id=match_id, **args)
            Job.objects.filter(pk=job_id).delete()
    except Exception as exc:  # rolled back (to its savepoint, inside a caller's transaction)
        try:
            _note_failure(job_id, exc)
        except Exception:  # the database itself is away: the row is as it was, the sweep finds it
            log.exception("job %s failed and its failure could not be noted", job_id)
        return False
    return True


def _note_failure(job_id, exc) -> None:
    """Count a failed run on the job's row and set its next try, or mark it failed for good."""
    attempts = (Job.objects.filter(pk=job_id).values_list("attempts", flat=True).first() or 0) + 1
    now = timezone.now()
    error = "".join(traceback.format_exception(exc))[-ERROR_CHARS:]
    if attempts >= MAX_JOB_ATTEMPTS:
        Job.objects.filter(pk=job_id, failed_at__isnull=True).update(
            attempts=F("attempts") + 1, failed_at=now, next_try_at=None, last_error=error)
        metrics.job_failed()
        log.error("job %s failed %s times and is given up (the admin can retry it): %s", job_id, attempts, exc)
    else:
        wait = settings.SWEEP_SECONDS * RETRY_GROWTH ** (attempts - 1)
        Job.objects.filter(pk=job_id, failed_at__isnull=True).update(
            attempts=F("attempts") + 1, next_try_at=now + timedelta(seconds=wait), last_error=error)
        metrics.job_retried()
        log.warning("job %s failed (run %s of %s), trying it again in %s s: %s", job_id, attempts,
                    MAX_JOB_ATTEMPTS, wait, exc, exc_info=exc)


def retry_failed_jobs(job_ids) -> int:
    """Staff's "retry" (the admin): the jobs start afresh, and a drain is nudged to run them."""
    count = Job.objects.filter(pk__in=list(job_ids)).update(attempts=0, failed_at=None, next_try_at=None)
    if count:
        transaction.on_commit(jobs.nudge if not settings.JOBS_IN_PROCESS else _run_retried(list(job_ids)))
    return count


def _run_retried(job_ids):
    return lambda: [run_job(job_id) for job_id in job_ids]


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
        # Only the jobs never tried: one that failed waits for its next try, which is the sweep's,
        # so a poisoned job costs each drain (one a move) nothing.
        batch = list(Job.objects.filter(pk__gt=after, attempts=0).order_by("id").values_list("id", flat=True)
                     [:DRAIN_BATCH])
        for job_id in batch:
            if job_id in failed:
                continue  # once a drain is enough: the sweep tries it again
            if not run_job(job_id):
                failed.add(job_id)
            else:
                done += 1
        if len(batch) < DRAIN_BATCH:
            return done
        after = batch[-1]


@shared_task(acks_late=True)
def apply_system_action(match_id):
    return play.system_action_apply(match_id=match_id)


@shared_task(acks_late=True)
def apply_deadline(match_id):
    due_at = Match.objects.filter(pk=match_id).values_list("next_due_at", flat=True).first()
    applied = play.deadline_apply(match_id=match_id)
    if applied:
        metrics.deadline_applied(due_at)
    return applied


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
    return list(Job.objects.filter(created_at__lte=older, failed_at__isnull=True)
                .filter(Q(next_try_at__isnull=True) | Q(next_try_at__lte=now)).order_by("created_at", "id")
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
        done += run_job(job_id)  # one that fails notes it on its row and the next still runs
    metrics.sweep_ran()
    health.beat(health.WORKER_HEARTBEAT)
    return len(work) + done
