"""What the event's page and the API read: its rounds, each table with its players in seat
order and who is to move there now."""
from leagues.models import Pairing, Round


def event_rounds(event) -> list[dict]:
    rounds = list(Round.objects.filter(event=event).prefetch_related("tables__match__seats__user"))
    byes = {}
    for p in Pairing.objects.filter(round__event=event, table__isnull=True).select_related("entry__user"):
        byes.setdefault(p.round_id, []).append(p.entry.user)
    out = []
    for rnd in rounds:
        tables = []
        for table in rnd.tables.all():
            seats = sorted(table.match.seats.all(), key=lambda s: (s.number is None, s.number))
            moving = set(table.match.turn_seats or []) if table.match.status == "running" else set()
            tables.append({"table": table, "match": table.match, "players": [s.user for s in seats],
                           "to_move": [s.user for s in seats if s.number in moving]})
        out.append({"round": rnd, "tables": tables, "byes": byes.get(rnd.pk, [])})
    return out
