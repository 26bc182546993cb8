"""Queueing the background jobs, and running them without Redis: then the site runs them
itself, as a worker would: the serving process (`manage.py serve`) takes a worker's part with
two threads of its own, one that runs the queued jobs in turn and one that sweeps for due work
on a timer (start_worker); elsewhere (tests, management commands) a queued job runs at once.

The services record what must follow a change in the change's own transaction (the match's
next_due_at and needs_system, and Job rows for its listeners) and queue a job by its task's
name only after the commit: the broker carries a nudge, never the only copy of the work. So
the services depend on this module and the tasks on the services, never the other way.

With a worker, the Job rows' nudges coalesce: a commit queues a drain of all undone rows only if
no drain is pending already (a flag in the cache, Redis then), so forty moves a second cost the
web process a flag check each instead of a broker message each, and the worker one task for many
jobs instead of one for each."""
import logging
import importlib
import queue as queues
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections

from config import after_response

log = logging.getLogger(__name__)

# Set while a drain of the Job rows is queued and not yet started (games.tasks.run_jobs).
DRAIN_PENDING = "jobs:drain-pending"
# How long a pending drain holds back the next nudge: if its task is lost, new jobs wait at most
# this long for a drain of their own (and the sweep runs the ones held back meanwhile). Whole
# seconds: the Redis cache rounds a timeout down to them.
DRAIN_PENDING_SECONDS = 1


def queue(name: str, *args) -> bool:
    """Queue the task called `name`; if the broker is away, the periodic sweep finds the work
    later (a due match, a match awaiting the system, an undone Job row). False if it could not."""
    try:
        if settings.JOBS_IN_PROCESS:
            if _worker is not None:
                _worker.put((_task(name), args))
            else:
                _run_here(_task(name), args)
        else:
            from config.celery import app

            app.send_task(name, args=args)
    except Exception as exc:
        # A broker outage fails every queueing: one line each, the traceback only when debugging.
        log.warning("could not queue %s%s (%s); the sweep will catch it", name, args, exc)
        log.debug("could not queue %s%s", name, args, exc_info=True)
        return False
    return True


# The jobs queued on this thread by a job it is running, run when that one is done.
_here = threading.local()

# The serving process's queue of jobs for its worker thread (start_worker); None elsewhere.
_worker: queues.SimpleQueue | None = None


def _run_here(task, args) -> None:
    """Run a job in this process, now. A job queued by a running job (its commit's) runs after
    it on this thread, as a worker takes the next task, not inside it: a match that plays on by
    itself (core.after_commit queues the next round's job) would otherwise go a round deeper on
    the stack with each, holding every earlier job's frames to the end."""
    waiting = getattr(_here, "waiting", None)
    if waiting is not None:
        waiting.append((task, args))
        return
    _here.waiting = waiting = [(task, args)]
    try:
        while waiting:
            task, args = waiting.pop(0)
            try:
                task.apply(args=args)
            except Exception:
                log.exception("job %s%s failed", task.name, args)
    finally:
        _here.waiting = None


def queue_on_commit(name: str, *args) -> None:
    after_response.on_commit(lambda: queue(name, *args))


def record(match, kind: str, *, listeners=(), **args) -> None:
    """Write a job for the match's listeners in the current transaction (only `listeners`, if
    named; every listener of the kind otherwise); nudge the worker once it is committed."""
    from games.models import Job

    job = Job.objects.create(match=match, kind=kind, args=args, listeners=list(listeners))
    if settings.JOBS_IN_PROCESS:
        queue_on_commit("games.tasks.run_job", job.pk)  # runs right after the commit, here
    else:
        after_response.on_commit(nudge)


def nudge() -> None:
    """Queue a drain of the Job rows unless one is pending (queued, not started): that one reads
    the rows after this commit, so it runs this job too. If the flag cannot be checked, queue
    one anyway: a drain too many finds little to do, a nudge too few waits for the sweep."""
    try:
        pending = not cache.add(DRAIN_PENDING, 1, DRAIN_PENDING_SECONDS)
    except Exception as exc:
        log.warning("could not check for a pending drain (%s); queueing one", exc)
        pending = False
    if not pending and not queue("games.tasks.run_jobs"):
        drain_started()  # no drain is coming: let the next commit try the broker again


def drain_started() -> None:
    """A drain clears the flag before it reads the Job rows (see games.tasks.run_jobs)."""
    try:
        cache.delete(DRAIN_PENDING)
    except Exception as exc:
        # The flag expires soon; the jobs nudged into it meanwhile wait for the sweep.
        log.warning("could not clear the pending drain (%s)", exc)


def run_sweeper(stop: threading.Event, interval: float | None = None) -> None:
    """Run every periodic job of the beat schedule at its own interval, as beat would."""
    interval = interval or settings.SWEEP_SECONDS
    schedule = {entry["task"]: float(entry["schedule"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    schedule["games.tasks.sweep_due_matches"] = interval
    jobs = {name: _task(name) for name in schedule}
    last: dict[str, float] = {}
    while not stop.wait(min(schedule.values())):
        for name, every in schedule.items():
            now = time.monotonic()
            if now - last.get(name, 0) < every:
                continue
            last[name] = now
            try:
                close_old_connections()
                jobs[name].apply()
            except Exception:
                log.exception("periodic job %s failed; trying again in %s s", name, every)
            finally:
                close_old_connections()


def _task(name: str):
    """A task by its dotted name, importing its module (nothing else may have yet)."""
    module, _, attribute = name.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


def run_worker(jobs: queues.SimpleQueue) -> None:
    """Run the queued jobs one after another, each with a connection of its own, as a Celery
    worker of one process would, until it is given None."""
    while (job := jobs.get()) is not None:
        task, args = job
        try:
            close_old_connections()
            task.apply(args=args)
        except Exception:
            log.exception("job %s%s failed", task.name, args)
        finally:
            close_old_connections()


def start_worker() -> threading.Event:
    """The worker's part in the serving process, without Redis: a thread runs the jobs this
    process queues, off the request that queued them, and another sweeps for due work. Jobs ran
    in the request that queued them before: a match that plays on by itself (standing orders on
    every turn, bots in the other seats) was played to its end inside the request that saved the
    orders, which did not answer for as long."""
    global _worker
    if _worker is None:
        _worker = queues.SimpleQueue()
        threading.Thread(target=run_worker, args=(_worker,), name="jobs", daemon=True).start()
    stop = threading.Event()
    threading.Thread(target=run_sweeper, args=(stop,), name="deadline-sweeper", daemon=True).start()
    return stop
