"""The events listen to the platform: a match that ends may close its round."""
from leagues.models import Table
from leagues import services


def match_changed(*, match_id, first_seq=None, last_seq=None, turn_passed_to=None):
    table = Table.objects.filter(match_id=match_id).values_list("round__event_id", flat=True).first()
    if table is not None:
        services.event_advance(event_id=table)


def _cares(*, events, turn_passed_to, kinds=()) -> bool:
    """Only a match's end can close a round: every other change queues no job for us."""
    return any(e.get("type") == "match_finished" for e in events)


match_changed.cares = _cares
