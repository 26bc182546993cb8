"""The live path: what a committed change leaves for the sockets, and telling them of it.

A committed version never changes, so its change leaves a snapshot (the match row, its seats
with their players, the recent log: selectors.match_snapshot) in Django's cache, keyed by
(match, version, revision), and announces that key; the revision tells apart the changes that
keep the version (a seat taken in the lobby, the deal at version 0, a deadline moved). What a
viewer sees of it is rendered at most once per (match, version, revision, viewer, language,
time zone) and kept in the cache too (`live_part`): every socket of that viewer, in every
process, sends those bytes. Messages carry the key and who may watch (`access`), never state.

Who may watch is checked against the present on every push: the announcement carries the
access the change left, a change of it made elsewhere (the admin) announces the access alone,
and logging out or changing a password closes the sockets of that session or user at once and
leaves a mark in the cache that each push checks."""
import asyncio
import hashlib
import logging
import os
import secrets
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

SEND_SECONDS = 5  # a broadcast that takes longer is given up (the browsers catch up later)
# How long a snapshot and its renderings are kept: the sockets answer an announcement within
# seconds; a version kept longer only serves a socket that missed its announcement.
KEEP_SECONDS = 600
# How long a process waits for another's rendering of the same part before making its own.
RENDER_WAIT_SECONDS = 2.0


class _LayerLoop:
    """One event loop per process, on a thread of its own, for sending to the Redis channel
    layer from synchronous code (views under granian, Celery jobs). async_to_sync would make a
    new loop for every broadcast, and channels-redis keeps its connections per loop: each move
    then opened and closed a Redis connection (about a sixth of an API move's time)."""

    def __init__(self):
        self.lock, self.loop, self.pid = threading.Lock(), None, None

    def run(self, coroutine):
        with self.lock:
            if self.loop is None or self.pid != os.getpid():  # none yet, or forked (Celery's pool)
                self.loop, self.pid = asyncio.new_event_loop(), os.getpid()
                threading.Thread(target=self.loop.run_forever, name="channel-layer", daemon=True).start()
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(SEND_SECONDS)


_layer_loop = _LayerLoop()


def _group_send(layer, group, message) -> None:
    # The in-memory layer's queues belong to the consumers' loop: there asgiref's own bridge
    # (which hands the call back to that loop) is the right one. A thread with a loop running
    # cannot wait on another loop either.
    try:
        asyncio.get_running_loop()
        running = True
    except RuntimeError:
        running = False
    if running or not type(layer).__module__.startswith("channels_redis"):
        async_to_sync(layer.group_send)(group, message)
    else:
        _layer_loop.run(layer.group_send(group, message))


def _send(group, message, what) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _group_send(layer, group, message)
    except Exception:  # the change is committed; browsers catch up when the layer is back
        log.warning("could not send %s to %s", what, group, exc_info=True)


def group_name(match_id) -> str:
    return f"match-{match_id}"


def _digest(text) -> str:
    return hashlib.sha256(str(text).encode()).hexdigest()[:32]


def session_group(session_key: str) -> str:
    # A session key is a credential: the group and the cache know it only by a digest.
    return f"session-{_digest(session_key)}"


def user_group(user_id) -> str:
    return f"user-{user_id}"


# --- Who may watch ----------------------------------------------------------------------

def access_of(match, seats) -> dict:
    """Who may watch `match` as it is now, as an announcement carries it: the invitation by its
    digest (the code is a secret), the seated users, and when this was read (the newest wins)."""
    return {"public": match.is_public, "invite": _digest(match.invite_code), "creator": match.creator_id,
            "seated": sorted({s.user_id for s in seats}), "lobby": match.status == match.OPEN, "at": time.time()}


def may_watch(access: dict, user, invite_code) -> bool:
    """selectors.can_watch, on an access record."""
    if access["public"] or (invite_code and _digest(invite_code) == access["invite"]):
        return True
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or user.pk in access["seated"] or user.pk == access["creator"]


def access_changed(match) -> None:
    """A change of who may watch made outside the services (the admin made a match private,
    gave it a new invitation code): the sockets look again at once."""
    from games.models import Seat

    access = access_of(match, Seat.objects.filter(match_id=match.pk).only("user_id"))
    _send(group_name(match.pk), {"type": "match.access", "access": access}, "a change of access")


# --- Sessions -----------------------------------------------------------------------------

def ended_key(session_key: str) -> str:
    return f"live:ended:{_digest(session_key)}"


def credentials_key(user_id) -> str:
    return f"live:credentials:{user_id}"


def credentials_of(user_id):
    """How many times the user's password changed while their sockets were remembered (None:
    never): a socket opened before a change finds another number on its next push."""
    try:
        return cache.get(credentials_key(user_id))
    except Exception:
        log.warning("could not read the credentials mark of user %s", user_id, exc_info=True)
        return None


def session_ended(session_key: str) -> None:
    """A logout: every socket this session opened closes, in every process, and a push that
    reaches one before it closes finds the mark."""
    try:
        cache.set(ended_key(session_key), 1, settings.SESSION_COOKIE_AGE)
    except Exception:
        log.warning("could not mark a session ended", exc_info=True)
    _send(session_group(session_key), {"type": "socket.end"}, "a logout")


def credentials_changed(user_id) -> None:
    """A new password: the user's sockets close (a browser whose session is still valid opens
    its socket again at once) and the ones not yet closed find a new mark on their next push."""
    key = credentials_key(user_id)
    try:
        cache.add(key, 0, settings.SESSION_COOKIE_AGE)
        cache.incr(key)
    except Exception:
        log.warning("could not mark the credentials of user %s changed", user_id, exc_info=True)
    _send(user_group(user_id), {"type": "socket.end"}, "a password change")


# --- Snapshots and their renderings -------------------------------------------------------

def snapshot_key(match_id, version, revision) -> str:
    return f"live:snapshot:{match_id}:{version}:{revision}"


def publish(match_id, version, revision, snapshot, access) -> None:
    """After the commit: keep the snapshot and announce it (with who may watch it)."""
    if snapshot is not None:
        try:
            cache.set(snapshot_key(match_id, version, revision), snapshot, KEEP_SECONDS)
        except Exception:  # the sockets read the match themselves
            log.warning("could not keep the snapshot of match %s version %s", match_id, version, exc_info=True)
    message = {"type": "match.changed", "version": version, "revision": revision, "sent_at": time.time()}
    if access is not None:
        message["access"] = access
    _send(group_name(match_id), message, f"match {match_id} version {version}")


def publish_change(match, revision) -> None:
    """A committed change of `match` (the services' own instance, as the change left it)."""
    from games import selectors, socket_slots

    if not socket_slots.watched(match.pk):
        # Nobody watches (most play-by-web matches, most of the time): nothing to keep. A socket
        # opening now reads the match itself, and the announcement still reaches it.
        publish(match.pk, match.version, revision, None, None)
        return
    snapshot = access = None
    try:
        snapshot = selectors.match_snapshot(match)
        access = access_of(match, snapshot.seats.all())
    except Exception:  # the sockets read the match themselves
        log.warning("could not make the snapshot of match %s", match.pk, exc_info=True)
    publish(match.pk, match.version, revision, snapshot, access)


def new_revision() -> str:
    return secrets.token_hex(6)


def broadcast(match_id, version, *, unversioned=False) -> None:
    """Announce a version without a snapshot (its sockets read it themselves). `unversioned`:
    a change that keeps the version, which a socket showing that version must look at again."""
    publish(match_id, version, new_revision() if unversioned else "", None, None)


def broadcast_chat(match_id) -> None:
    """A chat message written or hidden: the players' sockets show the chat again, rendered once
    per revision, kind of reader (staff also see hidden messages), language and time zone."""
    _send(group_name(match_id), {"type": "match.chat", "sent_at": time.time(), "revision": new_revision()},
          f"the chat of match {match_id}")


def chat_key(match_id, revision, reader, language, zone) -> str:
    return f"live:chat:{match_id}:{revision}:{reader}:{language}:{zone}"


def part_key(match_id, version, revision, viewer, language, zone) -> str:
    return f"live:part:{match_id}:{version}:{revision}:{viewer}:{language}:{zone}"


def live_part(key, render, *, looked=False):
    """The (version, html) kept at `key`, made by `render()` at most once among every process
    that asks at the same time: the first takes a claim on it in the cache, the others wait for
    its bytes (and render themselves only if the claim's holder never delivers). `looked`: the
    caller has just read `key` and found nothing (one round trip fewer)."""
    try:
        kept = None if looked else cache.get(key)
        if kept is not None:
            return kept
        mine = cache.add(key + ":claim", 1, int(RENDER_WAIT_SECONDS) + 1)
    except Exception:
        log.warning("the live parts' cache is away; rendering here", exc_info=True)
        return render()
    if not mine:
        deadline, pause = time.monotonic() + RENDER_WAIT_SECONDS, 0.002
        while time.monotonic() < deadline:
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
            kept = cache.get(key)
            if kept is not None:
                return kept
    made = render()
    try:
        if isinstance(made, tuple) and made[2]:
            # Kept: whoever waits finds it, and the claim expires on its own in seconds.
            cache.set(key, made, KEEP_SECONDS)
        else:
            cache.delete(key + ":claim")
    except Exception:
        log.warning("could not keep a live part", exc_info=True)
    return made


# --- Changes of access made outside the services ---------------------------------------

def _access_changed_on_commit(match_id) -> None:
    from django.db import transaction

    def tell():
        from games.models import Match

        match = Match.objects.filter(pk=match_id).first()
        if match is not None:
            access_changed(match)

    transaction.on_commit(tell)


def match_saved(sender, instance, created=False, **kwargs):
    """A match saved outside the services (the admin: made private, a new invitation code):
    the services announce their own changes, with the access they leave."""
    if not created and not getattr(instance, "announced_by_service", False):
        _access_changed_on_commit(instance.pk)


def seat_changed(sender, instance, created=False, update_fields=None, **kwargs):
    """A seat edited whole (the admin) or deleted: its old player may have lost the match. The
    services save their seats field by field and announce what they change themselves; a seat
    added only lets someone more in."""
    if not created and update_fields is None:
        _access_changed_on_commit(instance.match_id)


def logged_out(sender, request, user, **kwargs):
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        session_ended(session_key)


def password_saved(sender, instance, update_fields=None, raw=False, **kwargs):
    """A new password ends the sessions made with the old one (Django's session hash): their
    sockets close too, once it is committed."""
    from django.db import transaction

    if raw or instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = type(instance).objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        user_id = instance.pk
        transaction.on_commit(lambda: credentials_changed(user_id))


def connect_receivers() -> None:
    """Here, not in accounts: games depends on accounts, never the other way round."""
    from django.contrib.auth.signals import user_logged_out
    from django.db.models.signals import post_delete, post_save, pre_save

    from games.models import Match, Seat

    post_save.connect(match_saved, sender=Match, dispatch_uid="live.match_saved")
    post_save.connect(seat_changed, sender=Seat, dispatch_uid="live.seat_saved")
    post_delete.connect(_seat_deleted, sender=Seat, dispatch_uid="live.seat_deleted")
    user_logged_out.connect(logged_out, dispatch_uid="live.logged_out")
    pre_save.connect(password_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="live.password_saved")


def _seat_deleted(sender, instance, **kwargs):
    _access_changed_on_commit(instance.match_id)
