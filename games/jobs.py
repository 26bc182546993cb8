"""Without Redis the site runs its jobs itself: a thread sweeps for due matches on a timer."""
import logging
import threading

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)


def run_sweeper(stop: threading.Event, interval: float | None = None) -> None:
    from games.tasks import sweep_due_matches

    interval = interval or settings.SWEEP_SECONDS
    while not stop.wait(interval):
        try:
            close_old_connections()
            sweep_due_matches.apply()
        except Exception:
            log.exception("deadline sweep failed; trying again in %s s", interval)
        finally:
            close_old_connections()


def start_sweeper() -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=run_sweeper, args=(stop,), name="deadline-sweeper", daemon=True).start()
    return stop
