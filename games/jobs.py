"""Without Redis the site runs its jobs itself: a thread sweeps for due matches on a timer."""
import logging
import importlib
import threading
import time

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)


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


def start_sweeper() -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=run_sweeper, args=(stop,), name="deadline-sweeper", daemon=True).start()
    return stop
