"""A history of turns written straight into a finished match's log: reliability reads only the
log, so a player's record is what these rows say (and their profiles keep it, as the listener of
the turns that pass would have: games/play/records.py)."""
from games.models import ActionLog, Match
from games.play.records import records_refresh


def history(user, *, in_time: int, missed: int = 0, other=None):
    """`in_time` turns by the player's own hand and `missed` by timeouts, in one old match of
    race, alternating with `other`'s turns (a run by one seat is one turn)."""
    match = Match.objects.create(game="race", seats_count=2, creator=user, status=Match.FINISHED)
    seq = 0
    for kind in [ActionLog.PLAYER] * in_time + [ActionLog.TIMEOUT] * missed:
        for seat, actor, row_kind in ((0, user, kind), (1, other, ActionLog.PLAYER)):
            for _ in range(2):  # two rows make one turn
                seq += 1
                ActionLog.objects.create(match=match, seq=seq, seat=seat, kind=row_kind, actor=actor,
                                         action={"type": "roll"})
    records_refresh([user.pk, other.pk if other is not None else None])
    return match
