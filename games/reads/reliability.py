"""How reliably a player takes their turns, read from the matches' logs (docs/reliability.md).

A turn is a run of log rows by one seat with no other seat's row between them (system rows,
chance cards and notes do not break a run). It was taken in time unless a timeout or a bot
played any of it; a standing order counts as taken, and a vacation moves the deadline, so it
never times out. Every seat row names the seat's player then (its actor), so a substitute's
turns are theirs and the leaver's stay the leaver's. The last RELIABILITY_TURNS turns count.

One query answers for many players at once: window functions, which SQLite (3.25+) and
PostgreSQL both run, over the rows of the matches those players acted in (ActionLog.actor is
indexed). The lobby and the seat cards read what the players' profiles keep of it instead
(turn_records, seat_records), counted again by games/play/records.py as turns pass."""
from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Q
from django.utils.translation import gettext as _, ngettext

from games.models import ActionLog, Match, Seat, SeatOffer

RELIABILITY_TURNS = 100
# Fewer turns than this say too little: the words say the player is new, and no gate holds them.
NEWCOMER_TURNS = 10
MISSED = (ActionLog.TIMEOUT, ActionLog.BOT)
SEAT_KINDS = (ActionLog.PLAYER, ActionLog.ORDER, ActionLog.TIMEOUT, ActionLog.BOT)


@dataclass(frozen=True)
class Reliability:
    turns: int = 0  # of the last RELIABILITY_TURNS
    in_time: int = 0
    finished: int | None = 0  # matches played to the end in their seat (None: not read, turn_records)
    abandoned: int | None = 0  # absent at the end, or their seat taken over

    @property
    def newcomer(self) -> bool:
        return self.turns < NEWCOMER_TURNS

    @property
    def percent(self) -> int | None:
        if not self.turns:
            return None
        return (100 * self.in_time) // self.turns  # rounded down: 99.6 % is not "100 %"

    @classmethod
    def kept(cls, turns: int, in_time: int) -> "Reliability":
        """The turns alone, as a profile keeps them (games/play/records.py): the matches
        finished and abandoned are not read (None)."""
        return cls(turns=turns, in_time=in_time, finished=None, abandoned=None)

    def admits(self, minimum: int | None) -> bool:
        """Whether a match asking for `minimum` % lets this player in: a newcomer is let in
        (they have had no chance to show it), anyone else by their share."""
        return not minimum or self.newcomer or (self.percent or 0) >= minimum

    @property
    def words(self) -> str:
        if self.newcomer:
            return ngettext("new here: %(turns)s turn so far", "new here: %(turns)s turns so far",
                            self.turns) % {"turns": self.turns}
        return _("takes %(percent)s %% of turns in time") % {"percent": self.percent}

    @property
    def matches_words(self) -> str:
        return _("%(finished)s finished, %(abandoned)s abandoned") % {
            "finished": self.finished, "abandoned": self.abandoned}

    def as_dict(self) -> dict:
        return {"turns": self.turns, "in_time": self.in_time, "percent": self.percent,
                "newcomer": self.newcomer, "finished": self.finished, "abandoned": self.abandoned,
                "words": self.words}


def turn_counts(user_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each player's last turns (up to RELIABILITY_TURNS) and how many were taken in time, counted
    from the log: one query, a window over the rows of every match they acted in."""
    log = connection.ops.quote_name(ActionLog._meta.db_table)
    ids = ", ".join(["%s"] * len(user_ids))
    kinds = ", ".join(["%s"] * len(SEAT_KINDS))
    missed = ", ".join(["%s"] * len(MISSED))
    sql = f"""
        WITH seat_rows AS (
            SELECT match_id, seq, seat, kind, actor_id, created_at,
                   CASE WHEN LAG(seat) OVER (PARTITION BY match_id ORDER BY seq) = seat THEN 0 ELSE 1 END AS starts
            FROM {log}
            WHERE seat IS NOT NULL AND kind IN ({kinds})
              AND match_id IN (SELECT match_id FROM {log} WHERE actor_id IN ({ids}))
        ), runs AS (
            SELECT match_id, actor_id, kind, created_at,
                   SUM(starts) OVER (PARTITION BY match_id ORDER BY seq ROWS UNBOUNDED PRECEDING) AS run
            FROM seat_rows
        ), turns AS (
            SELECT actor_id, MAX(created_at) AS ended,
                   MAX(CASE WHEN kind IN ({missed}) THEN 1 ELSE 0 END) AS missed
            FROM runs WHERE actor_id IN ({ids})
            GROUP BY actor_id, match_id, run
        ), latest AS (
            SELECT actor_id, missed,
                   ROW_NUMBER() OVER (PARTITION BY actor_id ORDER BY ended DESC) AS n
            FROM turns
        )
        SELECT actor_id, COUNT(*), COUNT(*) - SUM(missed) FROM latest WHERE n <= %s GROUP BY actor_id"""
    params = [*SEAT_KINDS, *user_ids, *MISSED, *user_ids, RELIABILITY_TURNS]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {actor: (int(turns), int(in_time)) for actor, turns, in_time in cursor.fetchall()}


def reliability_of_many(user_ids) -> dict[int, Reliability]:
    """Every asked player's reliability (a player with no turns gets an empty one): three
    queries whatever the number of players."""
    user_ids = sorted({int(u) for u in user_ids if u is not None})
    if not user_ids:
        return {}
    turns = turn_counts(user_ids)
    seats = dict.fromkeys(user_ids, (0, 0))
    for row in (Seat.objects.filter(user__in=user_ids, match__status=Match.FINISHED).values("user_id")
                .annotate(stayed=Count("pk", filter=Q(is_absent=False)), gone=Count("pk", filter=Q(is_absent=True)))):
        seats[row["user_id"]] = (row["stayed"], row["gone"])
    left = dict(SeatOffer.objects.filter(leaver__in=user_ids, status=SeatOffer.TAKEN)
                .values("leaver_id").annotate(n=Count("pk")).values_list("leaver_id", "n"))
    return {u: Reliability(turns=turns.get(u, (0, 0))[0], in_time=turns.get(u, (0, 0))[1],
                           finished=seats[u][0], abandoned=seats[u][1] + left.get(u, 0))
            for u in user_ids}


def turn_records(user_ids) -> dict[int, Reliability]:
    """Every asked player's turns in time as their profile keeps them (games/play/records.py):
    what the lobby words (`Reliability.words`); their matches finished and abandoned are not
    read (None). One query, which reads no log."""
    from accounts.models import Profile

    user_ids = sorted({int(u) for u in user_ids if u is not None})
    kept = dict.fromkeys(user_ids, (0, 0))
    if user_ids:
        for user_id, turns, in_time in Profile.objects.filter(user_id__in=user_ids).values_list(
                "user_id", "turns_counted", "turns_in_time"):
            kept[user_id] = (turns, in_time)
    return {u: Reliability.kept(t, i) for u, (t, i) in kept.items()}


def seat_records(seats) -> dict[int, Reliability]:
    """turn_records for seats read with their players' profiles (the seat cards read those
    profiles for the players' names anyway): no query of its own."""
    out = {}
    for seat in seats:
        if seat.is_bot or seat.user_id is None:
            continue
        profile = getattr(seat.user, "profile", None)
        out[seat.user_id] = Reliability.kept(getattr(profile, "turns_counted", 0), getattr(profile, "turns_in_time", 0))
    return out


def reliability_of(user_id) -> Reliability:
    return reliability_of_many([user_id]).get(int(user_id), Reliability())
