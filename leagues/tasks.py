"""The beat's job for events: start those due, and apply round deadlines."""
from celery import shared_task
from django.utils import timezone

from leagues.models import Event, Round
from leagues import services


@shared_task
def sweep_events():
    now = timezone.now()
    done = 0
    for event_id in Event.objects.filter(status=Event.ENTRY, starts_at__lte=now).values_list("pk", flat=True):
        done += services.event_start(event_id=event_id, now=now) is not None
    for round_id in Round.objects.filter(status=Round.OPEN, deadline__lte=now).values_list("pk", flat=True):
        services.round_deadline_apply(round_id=round_id, now=now)
        done += 1
    # A round whose last match ended while its event was paused, or whose listener's job failed.
    for event_id in Event.objects.filter(status=Event.RUNNING, round_set__status=Round.OPEN).exclude(
            round_set__tables__match__status__in=["open", "running", "paused"]).values_list("pk", flat=True).distinct():
        services.event_advance(event_id=event_id, now=now)
    return done
