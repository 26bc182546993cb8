"""Background jobs. Each fetches by id and calls a service; each is safe to run twice."""
import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games import services
from games.models import Match

log = logging.getLogger(__name__)

SWEEP_BATCH = 500


def queue(task, *args) -> None:
    """Queue a job; if the broker is away, the periodic sweep will find the work later."""
    try:
        if settings.JOBS_IN_PROCESS:
            task.apply(args=args)
        else:
            task.delay(*args)
    except Exception:
        log.warning("could not queue %s%s; the sweep will catch it", task.name, args, exc_info=True)


@shared_task(acks_late=True)
def apply_system_action(match_id):
    return services.system_action_apply(match_id=match_id)


@shared_task(acks_late=True)
def apply_deadline(match_id):
    return services.deadline_apply(match_id=match_id)


@shared_task(acks_late=True)
def after_match_finished(match_id):
    """What follows the end of a match beyond the game itself (ratings, notifications): each
    listener is idempotent, keyed on the match."""
    from django.utils.module_loading import import_string

    for path in settings.MATCH_FINISHED_LISTENERS:
        _on_its_own(path, import_string(path), match_id=match_id)


@shared_task(acks_late=True)
def after_match_changed(match_id, first_seq, last_seq, turn_passed_to=None):
    """Listeners (notifications) learn of log rows first_seq..last_seq and of a turn that passed
    to a seat; each must be idempotent, keyed on the match and the sequence numbers."""
    from django.utils.module_loading import import_string

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


@shared_task
def sweep_due_matches():
    due, system = due_match_ids()
    for match_id in system:
        queue(apply_system_action, match_id)
    for match_id in due:
        queue(apply_deadline, match_id)
    return len(due) + len(system)
