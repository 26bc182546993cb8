"""The players' records kept up to date: a listener of the turns that pass.

The seat cards and the lobby word each player's share of their last turns taken in time
(games/reads/reliability.py). Counting it walks the player's whole log, which grows with every
match they play; a watched change used to do that for every seat on every push. It is counted
here instead, by the worker, when a change passes the turn (the only moment a turn's outcome is
settled: a timeout or a bot playing for an absent player passes it too), for the players who
acted in that change, and kept on their profiles (Profile.turns_counted, turns_in_time), which
the seats are read with anyway. Gates that admit a player (a match's minimum reliability) still
count from the log."""
from accounts.models import Profile
from games.models import ActionLog
from games.reads.reliability import SEAT_KINDS, turn_counts


def records_refresh(user_ids) -> None:
    """Count these players' last turns again and keep them on their profiles."""
    user_ids = sorted({int(u) for u in user_ids if u is not None})
    if not user_ids:
        return
    counts = turn_counts(user_ids)
    for user_id in user_ids:
        turns, in_time = counts.get(user_id, (0, 0))
        Profile.objects.filter(user_id=user_id).update(turns_counted=turns, turns_in_time=in_time)


def turns_passed(*, match_id, first_seq=None, last_seq=None, turn_passed_to=None):
    """A listener of MATCH_CHANGED_LISTENERS: the players who acted in the change that passed the
    turn have one more turn settled."""
    if turn_passed_to is None or first_seq is None or last_seq is None:
        return
    actors = (ActionLog.objects.filter(match_id=match_id, seq__gte=first_seq, seq__lte=last_seq,
                                       kind__in=SEAT_KINDS, actor__isnull=False)
              .values_list("actor_id", flat=True).distinct())
    records_refresh(actors)


def _cares(*, events, turn_passed_to, kinds=()) -> bool:
    return turn_passed_to is not None


turns_passed.cares = _cares
