"""What one committed change of a match was, as one immutable value.

Every service that changes a match returns a `Change` (and the services that keep returning a
seat or a vacation publish one): the version it made, the log rows it wrote and their events,
whose turn it is now, who may watch the match now. Every listener reads this value: the live
pages and the state feed (games/live/), the jobs that notify, rate and play standing orders
(their Job row holds `facts()`), and whatever listens later. Nobody reads the match again to
learn what the change was, and nothing is passed by attributes on the model instance.

Inside a service a `Changing` collects the change as the transaction goes (the version it
locked, the rows it appends, the turn it passes) and makes the `Change` when it is done."""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field


def digest(text) -> str:
    """A secret (an invitation code, a session key) as announcements may carry it."""
    return hashlib.sha256(str(text).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Access:
    """Who may watch a match as a change left it: everyone (public), the holders of the
    invitation (known by its digest), the creator, the seated users, staff."""
    public: bool
    invite: str
    creator: int | None
    seated: tuple[int, ...]
    lobby: bool

    @classmethod
    def of(cls, match, seats) -> "Access":
        return cls(public=bool(match.is_public), invite=digest(match.invite_code), creator=match.creator_id,
                   seated=tuple(sorted({s.user_id for s in seats})), lobby=match.status == match.OPEN)

    def as_dict(self) -> dict:
        return {"public": self.public, "invite": self.invite, "creator": self.creator,
                "seated": list(self.seated), "lobby": self.lobby}

    @classmethod
    def from_dict(cls, data: dict) -> "Access":
        return cls(public=data["public"], invite=data["invite"], creator=data["creator"],
                   seated=tuple(data["seated"]), lobby=data["lobby"])


@dataclass(frozen=True)
class Row:
    """One log row the change wrote."""
    seq: int
    seat: int | None
    kind: str
    events: tuple


@dataclass(frozen=True)
class Change:
    match_id: int
    game: str
    version: int
    # A change that keeps the version (a seat taken, a colour, a deadline moved, the deal at
    # version 0) is told apart by its revision; "" for a change that made a new version.
    revision: str
    status: str
    access: Access
    rows: tuple[Row, ...]
    turn_seats: tuple[int, ...]
    # The seat whose turn this change began (a person: a bot's turn tells nobody), or None.
    turn_passed_to: int | None
    # The row as the change committed it, with its seats and players: what the renderers in this
    # process draw from (never sent, never stored). A committed version never changes.
    match: object = field(default=None, compare=False, repr=False)
    # What is rendered of this version, by viewer: made once, for the mover's answer and every
    # socket alike (games/live/publisher.py).
    parts: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def first_seq(self) -> int:
        return self.rows[0].seq if self.rows else self.version + 1

    @property
    def events(self) -> list[dict]:
        return [event for row in self.rows for event in row.events]

    @property
    def kinds(self) -> set[str]:
        return {row.kind for row in self.rows}

    @property
    def new_version(self) -> bool:
        return bool(self.rows)

    def facts(self) -> dict:
        """What a job needs of the change, as JSON (the Job row's args)."""
        return {"first_seq": self.first_seq, "last_seq": self.version, "turn_passed_to": self.turn_passed_to}


def new_revision() -> str:
    # Grows with time, so two changes of one version (the lobby) are shown in the order made.
    return f"{time.time_ns():x}"


class Changing:
    """The change a service is making, collected inside its transaction (no attributes on the
    match): the version it found, the rows it wrote, the turn it passed."""

    def __init__(self, match):
        self.match = match
        self.version_at_lock = match.version
        self.state_at_lock = match.state  # what the game's own tables hold now (projections)
        self.rows: list[Row] = []
        self.turn_passed_to = None
        self.keeps_version = False

    def wrote(self, row) -> None:
        self.rows.append(Row(seq=row.seq, seat=row.seat, kind=row.kind, events=tuple(row.events)))

    @property
    def events(self) -> list[dict]:
        return [event for row in self.rows for event in row.events]

    def made(self, seats) -> Change:
        match = self.match
        return Change(
            match_id=match.pk, game=match.game, version=match.version,
            revision="" if self.rows else new_revision(), status=match.status,
            access=Access.of(match, seats), rows=tuple(self.rows), turn_seats=tuple(match.turn_seats or ()),
            turn_passed_to=self.turn_passed_to, match=match)
