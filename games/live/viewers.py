"""Who watches a match, as the publisher needs to know it: each socket registers its viewer
(games/live/socket_slots.py keeps the counts, across processes), and receives what is published
for that viewer on a group of its own.

A viewer is what decides what a socket is sent: the user (or nobody), whether they are staff,
the invitation they came with (by digest), the language and time zone they read in, and the
feed (the page's HTML or the state as data); and what the publisher checks once per change
instead of each socket once per push: the session (ended by a logout?), the password mark
(changed since the socket opened?)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from games.change import Access, digest

SEPARATOR = "|"


@dataclass(frozen=True)
class Viewer:
    user_id: int | None
    staff: bool
    invite: str  # digest of the invitation code the socket came with, or ""
    session: str  # digest of the session key, or "" (an API token's socket)
    credentials: str  # the password mark the socket opened with ("" for none)
    language: str
    zone: str
    feed: str  # "html" or "state"

    def key(self) -> str:
        return SEPARATOR.join([str(self.user_id or ""), "s" if self.staff else "", self.invite, self.session,
                               self.credentials, self.language, self.zone, self.feed])

    @classmethod
    def parse(cls, key: str) -> "Viewer | None":
        parts = key.split(SEPARATOR)
        if len(parts) != 8:
            return None
        user, staff, invite, session, credentials, language, zone, feed = parts
        return cls(user_id=int(user) if user.isdecimal() else None, staff=staff == "s", invite=invite,
                   session=session, credentials=credentials, language=language, zone=zone, feed=feed)

    def admitted(self, access: Access) -> bool:
        """selectors.can_watch, on what the change said (the invitation known by its digest)."""
        if access.public or (self.invite and self.invite == access.invite):
            return True
        if self.user_id is None:
            return False
        return self.staff or self.user_id in access.seated or self.user_id == access.creator

    def kind(self, access: Access) -> str:
        """Whose eyes a part is rendered for: a seat's player, or a spectator (in a lobby,
        signed in — who may join — or not). Spectators of a kind share one rendering."""
        if self.user_id is not None and self.user_id in access.seated:
            return f"u{self.user_id}"
        if self.feed == "state":
            return "spectator"
        if access.lobby:
            return "member" if self.user_id is not None else "visitor"
        return "spectator"

    def reader(self, access: Access) -> str | None:
        """Who reads the chat: staff (hidden messages too), a seated player, or nobody."""
        if self.feed != "html" or self.user_id is None:
            return None
        if self.staff:
            return "staff"
        return "player" if self.user_id in access.seated else None


def group(match_id, key: str) -> str:
    # Channels' group names are short ASCII: the viewer by a digest.
    return f"live-{match_id}-{hashlib.sha256(key.encode()).hexdigest()[:24]}"


def invite_digest(code) -> str:
    return digest(code) if code else ""
