"""The live path: how one committed change reaches everyone who watches its match.

A service returns a `Change` (games/change.py) and publishes it once committed
(`publish_on_commit`): the committing process renders each viewer's part once and the sockets
forward it (games/live/publisher.py, games/sockets/consumers.py). Who may watch is checked against the
present: each change carries the access it left; a change of access made elsewhere (the admin)
is announced alone; logging out, a new password and a revoked API token close the sockets of
that session, user or token at once, and leave a mark the publisher reads once per change."""
import logging

from django.conf import settings
from django.core.cache import cache

from config import after_response
from games.change import Access
from games.live import layer
from games.live.keys import (credentials_key, ended_key, group_name, session_group, token_group,  # noqa: F401
                             user_group)

log = logging.getLogger(__name__)

# --- Who may watch ----------------------------------------------------------------------

def _send(group, message, what) -> None:
    layer.send([(group, message)], what)


def access_changed(match) -> None:
    """A change of who may watch made outside the services (the admin made a match private,
    gave it a new invitation code): the sockets look again at once."""
    from games.models import Seat

    access = Access.of(match, Seat.objects.filter(match_id=match.pk).only("user_id"))
    _send(group_name(match.pk), {"type": "match.access", "access": access.as_dict()}, "a change of access")


# --- Sessions -----------------------------------------------------------------------------

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


# --- Changes -------------------------------------------------------------------------------

def publish_on_commit(change) -> None:
    """Once the change is committed (and the response sent, under granian), its parts go to
    whoever watches."""
    from games.live import publisher

    after_response.on_commit(lambda: publisher.publish(change))


def broadcast_chat(match_id) -> None:
    """A chat message written or hidden: the players' sockets show the chat again."""
    from games.live import publisher

    publisher.publish_chat(match_id)


# --- Changes of access made outside the services ---------------------------------------

def _access_changed_on_commit(match_id) -> None:
    from django.db import transaction

    def tell():
        from games.models import Match

        match = Match.objects.filter(pk=match_id).first()
        if match is not None:
            access_changed(match)

    transaction.on_commit(tell)


def match_saved(sender, instance, created=False, update_fields=None, **kwargs):
    """A match saved whole, outside the services (the admin: made private, a new invitation
    code). The services save field by field and announce their own changes, with the access
    they leave."""
    if not created and update_fields is None:
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


def _end_on_commit(group, what) -> None:
    from django.db import transaction

    transaction.on_commit(lambda: _send(group, {"type": "socket.end"}, what))


def token_revoked(sender, instance, **kwargs):
    """An API token deleted: the sockets it signed close (4401) once that is committed."""
    _end_on_commit(token_group(instance.digest), "a revoked token")


def user_saved(sender, instance, created=False, raw=False, **kwargs):
    """A user made inactive: their sockets close, whatever signed them."""
    if not raw and not created and not instance.is_active:
        _end_on_commit(user_group(instance.pk), "an inactive user")


def connect_receivers() -> None:
    """Here, not in accounts: games depends on accounts, never the other way round."""
    from django.contrib.auth.signals import user_logged_out
    from django.db.models.signals import post_delete, post_save, pre_save

    from accounts.models import ApiToken
    from games.models import Match, Seat

    post_delete.connect(token_revoked, sender=ApiToken, dispatch_uid="live.token_revoked")
    post_save.connect(user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="live.user_saved")
    post_save.connect(match_saved, sender=Match, dispatch_uid="live.match_saved")
    post_save.connect(seat_changed, sender=Seat, dispatch_uid="live.seat_saved")
    post_delete.connect(_seat_deleted, sender=Seat, dispatch_uid="live.seat_deleted")
    user_logged_out.connect(logged_out, dispatch_uid="live.logged_out")
    pre_save.connect(password_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="live.password_saved")


def _seat_deleted(sender, instance, **kwargs):
    _access_changed_on_commit(instance.match_id)
