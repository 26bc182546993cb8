"""One committed change, told to everyone who watches: rendered once, here, and forwarded.

The process that committed a change publishes it (after the response, under granian): it asks
who watches the match (one read of the socket counts), renders each part once per kind of
viewer, language and time zone — a seat's player, a spectator — and sends each viewer's group
its bytes, with the version and who may watch now. The mover's own answer is one of those
renderings (they are kept with the Change). The sockets only forward what arrives for them:
no template, no query, no cache read per push. What the sockets cannot check alone — a session
that logged out, a password changed — is read once per change here (one cache round trip for
every watcher) and such a viewer is sent the end instead of the part."""
from __future__ import annotations

import json
import logging
import zoneinfo

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.reads import panels, selectors
from games.live import socket_slots
from games.change import Access, Change
from games.live import layer
from games.live.keys import credentials_key, ended_key_of
from games.live.viewers import Viewer, group

log = logging.getLogger(__name__)


class Someone:
    """A signed-in viewer the publisher renders for, known by id (and whether staff): what the
    live part and the chat ask of a user. Their own words and zone come with the viewer."""
    is_authenticated, is_anonymous = True, False

    def __init__(self, pk, is_staff=False):
        self.pk = self.id = pk
        self.is_staff = is_staff


def _zone(name):
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.get_default_timezone()


def _user_for(match, viewer: Viewer, kind: str):
    if kind.startswith("u"):
        seat = next((s for s in match.seats.all() if s.user_id == viewer.user_id), None)
        return seat.user if seat is not None else Someone(viewer.user_id, viewer.staff)
    if kind == "member":
        return Someone(None)
    return AnonymousUser()


def render(match, viewer: Viewer, kind: str, revision: str, shared: dict | None = None) -> str:
    """What `viewer` sees of `match`: the live part in their words and zone, or with the state
    feed the match as data (a JSON object of type "match.state"). `shared`: the parts every
    viewer of this version sees alike, already drawn in these words (panels.shared_parts)."""
    user = _user_for(match, viewer, kind)
    if viewer.feed == "state":
        return json.dumps({"type": "match.state", "revision": revision, **selectors.match_state_for(match, user)},
                          separators=(",", ":"))
    with timezone.override(_zone(viewer.zone)), translation.override(viewer.language):
        context = panels.match_context(match, user, shared=shared)
        context["revision"] = revision
        return render_to_string("games/partials/match_live.html", context)


def part(change: Change, viewer: Viewer) -> str:
    """The part of `change` for `viewer`, rendered at most once per kind, language and zone."""
    kind = viewer.kind(change.access)
    words = ("", "") if viewer.feed == "state" else (viewer.language, viewer.zone)
    memo = (kind, viewer.feed, *words)
    made = change.parts.get(memo)
    if made is None:
        match = change.match
        selectors.with_seats_and_players(match)
        shared = None
        if viewer.feed == "html":
            # The log's recent rows, for the log drawn in the part; the state feed sends no log.
            selectors.with_recent_log(match)
            # What all viewers share (the board) is drawn once per language and zone.
            shared_memo = ("shared", *words)
            shared = change.parts.get(shared_memo)
            if shared is None:
                facts = change.parts.get(("facts",))
                if facts is None:
                    facts = change.parts[("facts",)] = panels.match_facts(match)
                with timezone.override(_zone(viewer.zone)), translation.override(viewer.language):
                    shared = change.parts[shared_memo] = {**facts, **panels.shared_parts(match)}
        made = change.parts[memo] = render(match, viewer, kind, change.revision, shared)
    return made


def answer(change: Change, user, *, language, zone) -> str:
    """The mover's own answer to an htmx move: the rendering their sockets get."""
    viewer = Viewer(user_id=user.pk, staff=user.is_staff, invite="", session="", credentials="",
                    language=language, zone=str(zone), feed="html")
    return part(change, viewer)


def _watchers(match_id) -> list[tuple[str, Viewer]]:
    watching = []
    for key in socket_slots.watchers(match_id):
        viewer = Viewer.parse(key)
        if viewer is not None:
            watching.append((key, viewer))
    return watching


def _signed_out(watching) -> set[str]:
    """The viewers whose session ended or whose password changed since their socket opened:
    one cache round trip for all of them."""
    wanted = {}
    for key, viewer in watching:
        if viewer.session:
            wanted.setdefault(ended_key_of(viewer.session), []).append((key, "ended"))
        if viewer.user_id is not None:
            wanted.setdefault(credentials_key(viewer.user_id), []).append((key, viewer.credentials))
    if not wanted:
        return set()
    try:
        found = cache.get_many(list(wanted))
    except Exception:
        log.warning("could not read the sessions' marks", exc_info=True)
        return set()
    out = set()
    for cache_key, holders in wanted.items():
        mark = found.get(cache_key)
        for key, expected in holders:
            if expected == "ended":
                if mark:
                    out.add(key)
            elif (str(mark) if mark is not None else "") != expected:
                out.add(key)
    return out


def publish(change: Change) -> None:
    """Tell every watcher of the match of `change` (after its commit)."""
    try:
        watching = _watchers(change.match_id)
        if not watching:
            return  # nobody watches (most play-by-web matches, most of the time): nothing to make
        ended = _signed_out(watching)
        access = change.access.as_dict()
        messages = []
        for key, viewer in watching:
            to = group(change.match_id, key)
            if key in ended:
                messages.append((to, {"type": "socket.end"}))
            elif not viewer.admitted(change.access):
                messages.append((to, {"type": "match.access", "access": access}))
            else:
                messages.append((to, {"type": "live.part", "version": change.version, "revision": change.revision,
                                      "access": access, "body": part(change, viewer)}))
    except Exception:  # committed all the same: the sockets catch up with the next change
        log.exception("could not make the parts of match %s version %s", change.match_id, change.version)
        return
    layer.send(messages, f"match {change.match_id} version {change.version}")


def publish_chat(match_id) -> None:
    """A chat message written or hidden: the players' and staff's sockets get the chat again,
    rendered once per kind of reader (staff also see hidden messages), language and zone."""
    watching = _watchers(match_id)
    if not watching:
        return
    try:
        match = selectors.match_get(match_id=match_id)
    except Exception:
        return
    access = Access.of(match, match.seats.all())
    ended = _signed_out(watching)
    made, messages = {}, []
    for key, viewer in watching:
        reader = viewer.reader(access)
        if key in ended:
            messages.append((group(match_id, key), {"type": "socket.end"}))
            continue
        if reader is None or not viewer.admitted(access):
            continue
        memo = (reader, viewer.language, viewer.zone)
        if memo not in made:
            with timezone.override(_zone(viewer.zone)):
                made[memo] = panels.render_chat(match, Someone(viewer.user_id, reader == "staff"),
                                                browser_language=viewer.language)
        messages.append((group(match_id, key), {"type": "live.chat", "body": made[memo]}))
    layer.send(messages, f"the chat of match {match_id}")
