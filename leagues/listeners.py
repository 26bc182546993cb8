"""The events listen to the platform: a match that ends may close its round, or settle a
ladder's challenge."""
from leagues import ladders, services
from leagues.models import Table


def match_changed(*, match_id, first_seq=None, last_seq=None, turn_passed_to=None):
    table = Table.objects.filter(match_id=match_id).values_list("round__event_id", flat=True).first()
    if table is not None:
        services.event_advance(event_id=table)
    ladders.challenge_settle(match_id=match_id)


def _cares(*, events, turn_passed_to, kinds=()) -> bool:
    """Only a match's end can close a round or settle a challenge: every other change queues no
    job for us."""
    return any(e.get("type") == "match_finished" for e in events)


match_changed.cares = _cares
