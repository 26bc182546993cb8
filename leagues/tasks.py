"""The beat's job for events: start those due, apply round deadlines, keep ladders moving."""
from celery import shared_task
from django.utils import timezone

from leagues import ladders, services
from leagues.models import Challenge, Event, Ladder, Round


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
    # Ladders: a challenge whose match ended without its listener's job, and the idle who drop.
    for match_id in Challenge.objects.filter(status=Challenge.OPEN, match__status__in=["finished", "aborted"]) \
            .values_list("match_id", flat=True):
        done += ladders.challenge_settle(match_id=match_id, now=now) is not None
    for ladder_id in Ladder.objects.values_list("pk", flat=True):
        done += ladders.ladder_idle_drop(ladder_id=ladder_id, now=now)
    return done
