"""Without Redis the site runs its jobs itself: a thread sweeps for due matches on a timer."""
import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)


def run_sweeper(stop: threading.Event, interval: float | None = None) -> None:
    """Run every periodic job of the beat schedule at its own interval, as beat would."""
    from celery import current_app

    interval = interval or settings.SWEEP_SECONDS
    schedule = {entry["task"]: float(entry["schedule"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    schedule["games.tasks.sweep_due_matches"] = interval
    last: dict[str, float] = {}
    while not stop.wait(min(schedule.values())):
        for name, every in schedule.items():
            now = time.monotonic()
            if now - last.get(name, 0) < every:
                continue
            last[name] = now
            try:
                close_old_connections()
                current_app.tasks[name].apply()
            except Exception:
                log.exception("periodic job %s failed; trying again in %s s", name, every)
            finally:
                close_old_connections()


def start_sweeper() -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=run_sweeper, args=(stop,), name="deadline-sweeper", daemon=True).start()
    return stop
