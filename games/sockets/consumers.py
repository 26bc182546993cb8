"""One socket per viewer of a match. It forwards: the process that commits a change renders
each viewer's part once and sends it to that viewer's group (games/live/publisher.py); the
socket checks the access the change carries against its own viewer (seat, invitation, privacy)
and sends the bytes on. No template, no query, no cache read per push. It reads the match once,
when it opens, for the catch-up every (re)connecting browser gets.

The browser may send a move on the socket ({"action": …, "version": N}), applied by the same
service as the forms' and the API's, and answered on the socket after the commit; anything else
it sends gets at most the last part again. A socket that sends too much or too fast is closed
(SOCKET_* settings); sockets per user and per address are bounded too (SOCKETS_PER_*)."""
import asyncio
import json
import logging
import math
import time
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

from accounts.models import ApiToken
from config import metrics
from games import live, play, validation
from games.reads import panels, selectors
from games.live import socket_slots
from games.change import Access, digest
from games.errors import BadRequest, ServiceError
from games.live import publisher
from games.live.keys import group_name, session_group, token_group, user_group
from games.live.viewers import Viewer, group, invite_digest
from games.live.watch import watch
from games.validation import parse_action

log = logging.getLogger(__name__)

# Close codes a client is told: a message too large (the WebSocket standard's), too many
# messages (a policy code of ours), too many sockets open (as HTTP's 429), no longer allowed to
# watch (as HTTP's 403), the session ended (as HTTP's 401).
CLOSE_TOO_BIG, CLOSE_TOO_FAST, CLOSE_TOO_MANY, CLOSE_NOT_ALLOWED, CLOSE_SIGNED_OUT = 1009, 4008, 4029, 4403, 4401


def _in_pool(fn):
    return database_sync_to_async(fn, thread_sensitive=False)


def _token_in(scope) -> str | None:
    """The API token of an "Authorization: Token <key>" (or "Bearer <key>") handshake header;
    None without the header, "" for one that holds no token (refused, never read as a session)."""
    header = dict(scope.get("headers") or []).get(b"authorization")
    if header is None:
        return None
    return ApiToken.key_in(header.decode("latin-1")) or ""


class Allowance:
    """A token bucket: `burst` at once, then `per_second`."""

    def __init__(self, burst, per_second):
        self.burst, self.per_second = float(burst), float(per_second)
        self.left, self.at = self.burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.left = min(self.burst, self.left + (now - self.at) * self.per_second)
        self.at = now
        if self.left < 1:
            return False
        self.left -= 1
        return True

    def wait(self) -> float | None:
        """Seconds until `take` would give again (after a refusal); None if it never will (no
        rate set: the burst was all)."""
        if self.per_second <= 0:
            return None
        return math.ceil(max(0.0, (1 - self.left) / self.per_second) * 10) / 10


class MatchConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        """channels' dispatch without its trip to the thread pool before every message (to close
        the old database connections of sync_to_async's one shared thread): each part forwarded
        and each frame received queued on that thread, behind every other socket's trips and
        handshake reads, for nothing. This consumer reads the database only in _in_pool, whose
        calls close their own thread's old connections before and after
        (channels.db.database_sync_to_async), as the handshake's session and user reads do."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.sent, self.access, self.groups_joined, self.counted = None, None, [], []
        self.shown_version, self.shown_revision = -1, ""
        self.closing = False
        # Moves (a bot plays several a second) and anything else (the browser sends nothing on
        # its own) have allowances of their own.
        self._moves = Allowance(settings.SOCKET_MOVE_BURST, settings.SOCKET_MOVES_PER_SECOND)
        self._messages = Allowance(settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGES_PER_SECOND)
        self._told_until = 0.0  # a refused move's wait ends (time.monotonic)
        self.user = self.scope.get("user")
        # A program may sign its socket with its API token ("Authorization: Token <key>", as the
        # API's requests): then the token is who asks; revoking it closes the socket.
        self.token = _token_in(self.scope)
        self.invite = self._query("invite")
        # "?feed=state": the match as data (selectors.match_state_for) instead of the page's HTML,
        # for bots and other programs: their seat's view and legal actions with every change.
        self.state_feed = self._query("feed") == "state"
        self.lock = asyncio.Lock()
        # Everything the handshake asks of the database and of Redis, in one trip to the thread
        # pool: under load each trip queues behind the others', and Daphne drops a handshake
        # its application has not answered in time (four trips met exactly that).
        refused = await _in_pool(self._admit)()
        if refused == CLOSE_TOO_MANY:
            # Accepted, then closed with a code of its own: a client tells "too many sockets"
            # from "not allowed", which is refused at the handshake (HTTP 403).
            await self.accept()
            self.closing = True
            await self.close(code=CLOSE_TOO_MANY)
            return
        if refused is not None:
            await self.close(code=refused)  # refused at the handshake: HTTP 403 (or signed out)
            return
        # Accepted before anything that may queue (the channel layer's subscriptions, a render
        # on a busy server): Daphne drops a handshake its application has not accepted in time,
        # and a crowd of sockets opening at once (a restart in the evening) met exactly that.
        await self.accept()
        metrics.socket_opened(self)  # open sockets per process (/metrics)
        # Joined before the match is read and drawn: a change committed after that read is
        # published to this socket too.
        groups = [group_name(self.match_id), group(self.match_id, self.viewer.key())]
        if self.signed_in:
            groups.append(user_group(self.user.pk))
            if self.session_key:
                groups.append(session_group(self.session_key))
        if self.token:
            groups.append(token_group(ApiToken.hash(self.token)))
        self.groups_joined = groups
        for name in groups:
            await self.channel_layer.group_add(name, self.channel_name)
        opened = await _in_pool(self._open)()
        if opened is None:  # made private, or left, in the meantime
            await self._end(CLOSE_NOT_ALLOWED)
            return
        watch.add(self.match_id, self)  # kept up to date if a change's message is lost
        # A (re)connecting browser catches up at once with whatever it missed.
        self.sent = opened
        await self.send(text_data=opened)

    def _admit(self) -> int | None:
        """Who asks (the token's holder), whether they may watch, and a place within the
        sockets' bounds: None if admitted, else the code the socket is closed with."""
        if self.token is not None:
            self.user = ApiToken.holder(self.token) if self.token else None
            if self.user is None:
                return CLOSE_SIGNED_OUT
        self.signed_in = self.user is not None and self.user.is_authenticated
        session = self.scope.get("session")
        self.session_key = (session.session_key if self.signed_in and session is not None and self.token is None
                            else None)
        self.viewer = self._viewer()
        try:
            match = selectors.match_get(match_id=self.match_id)
        except ServiceError:
            return CLOSE_NOT_ALLOWED
        if not selectors.can_watch(match, self.user, self.invite):
            return CLOSE_NOT_ALLOWED
        return None if self._count_in() else CLOSE_TOO_MANY

    def _viewer(self) -> Viewer:
        """Who this socket shows the match to, fixed for its life (the profile is read once)."""
        language = panels.viewer_language(self.user, self._browser_language())
        credentials = live.credentials_of(self.user.pk) if self.signed_in else None
        return Viewer(user_id=self.user.pk if self.signed_in else None,
                      staff=bool(self.signed_in and self.user.is_staff), invite=invite_digest(self.invite),
                      session=digest(self.session_key) if self.session_key else "",
                      credentials="" if credentials is None else str(credentials),
                      language=language, zone=str(panels.viewer_time_zone(self.user)),
                      feed="state" if self.state_feed else "html")

    def _open(self):
        """Read the match as it is, check this viewer may watch it, and draw their part of it:
        the catch-up every socket sends first. None if they may not watch."""
        try:
            match = selectors.match_live(match_id=self.match_id)
        except ServiceError:
            return None
        if not selectors.can_watch(match, self.user, self.invite):
            return None
        self.access = Access.of(match, match.seats.all())
        # Drawn with the revision the match keeps (Match.revision): a page that missed a change
        # which kept the version (the deal of an open match) tells this catch-up from what it shows.
        self.shown_version, self.shown_revision = match.version, match.revision
        return publisher.render(match, self.viewer, self.viewer.kind(self.access), match.revision)

    async def _leave_groups(self):
        for name in self.groups_joined:
            await self.channel_layer.group_discard(name, self.channel_name)
        self.groups_joined = []

    def _count_in(self) -> bool:
        """Count this socket against its user's and its address's limits, and as a watcher of
        its match; False if a limit is full (games/live/socket_slots.py)."""
        self.counted = socket_slots.claim(self.scope, self.viewer.key(), self.user)
        return self.counted is not None

    def _count_out(self):
        socket_slots.release(self.counted)
        self.counted = []

    def _query(self, name):
        values = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get(name)
        return values[0] if values else None

    def _browser_language(self):
        """What the browser asked for in the handshake (the language cookie, then
        Accept-Language), read as the pages read it; a profile's language still wins."""
        request = HttpRequest()
        request.COOKIES = self.scope.get("cookies", {})
        headers = dict(self.scope.get("headers", []))
        request.META["HTTP_ACCEPT_LANGUAGE"] = headers.get(b"accept-language", b"").decode("latin-1")
        return translation.get_language_from_request(request)

    async def disconnect(self, code):
        metrics.socket_closed(self)
        watch.remove(self.match_id, self)
        await self._leave_groups()
        if getattr(self, "counted", None):
            await _in_pool(self._count_out)()

    # --- What the browser sends --------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        # Nothing a client sends makes the server render: a move is applied and answered, and
        # anything else gets at most the part it has again.
        if self.closing:
            return
        size = len(text_data) if text_data is not None else len(bytes_data or b"")
        if text_data is not None and size <= settings.SOCKET_MAX_MESSAGE_BYTES:
            size = len(text_data.encode())
        if size > settings.SOCKET_MAX_MESSAGE_BYTES:
            await self._refuse(CLOSE_TOO_BIG)
        elif (move := self._move_in(text_data)) is not None and self._moves.take():
            answer = await _in_pool(self._apply)(move)
            if answer is not None:
                await self.send(text_data=json.dumps(answer))
        elif move is not None and time.monotonic() >= self._told_until:
            # Past the moves' allowance, the first time since the client was told how long to
            # wait (or ever): told again, not counted as a flood. A bot that waits as told and
            # then plays on at once meets this after every move it was let through; each of
            # those counted against the messages' allowance closed it within seconds.
            await self._refuse_move()
        elif not self._messages.take():
            await self._refuse(CLOSE_TOO_FAST)
        elif move is not None:
            # Sent again before the wait it was told: told again, and counted as any message is,
            # so a client that keeps on is closed as any flood is.
            await self._refuse_move()
        elif self.sent is not None:
            await self.send(text_data=self.sent)

    async def _refuse_move(self):
        """A move past the moves' allowance: not applied; the client is told how long to wait
        (as HTTP's Retry-After), and a bot that waits so long is let through."""
        refused = {"type": "move.refused", "status": 429, "error": _("Too many moves at once: wait a moment.")}
        wait = self._moves.wait()
        if wait is not None:
            refused["retry_after"] = wait
        self._told_until = time.monotonic() + wait if wait is not None else math.inf
        await self.send(text_data=json.dumps(refused))

    @staticmethod
    def _move_in(text_data):
        """The message as a move (a JSON object with an "action"), or None for anything else."""
        if not text_data or "action" not in text_data:
            return None
        try:
            message = validation.loads(text_data)  # the site's rule: not too deep, finite, no NUL
        except validation.Refused as exc:
            return {"refused": exc.message}
        except ValueError:
            return {"refused": _("A move is a JSON object with an \"action\".")}
        if not isinstance(message, dict) or "action" not in message:
            return None
        return message

    def _apply(self, message):
        """Apply a move through play.action_apply, as the forms and the API do, and say how
        it went: after the commit, the new version and, for the player to act, their legal
        actions. Hostile input gets the service's message (or the form parser's), never more."""
        with translation.override(self.viewer.language):
            if "refused" in message:
                return {"type": "move.refused", "status": 400, "error": message["refused"]}
            if not self.signed_in:
                return {"type": "move.refused", "status": 403, "error": _("Log in to play.")}
            try:
                action = self._action_of(message)
                change = play.action_apply(match_id=self.match_id, user=self.user, action=action,
                                               expected_version=message.get("version"))
            except ServiceError as exc:
                answer = {"type": "move.refused", "status": exc.status, "error": exc.message}
                if "version" in exc.extra:
                    answer["version"] = exc.extra["version"]
                return answer
            match = change.match  # as the move committed it: nothing is read again
            now = selectors.actions_now(match, selectors.seat_of(match, self.user))
            return {"type": "move.applied", "version": now["version"], "your_turn": now["my_turn"],
                    "legal": now["actions"]}

    @staticmethod
    def _action_of(message) -> dict:
        """The action: a JSON object, or the fields of a form sent as htmx's ws-send sends them
        (`action` as JSON text, `a.…` fields), read as the HTTP form is read."""
        action = message["action"]
        if isinstance(action, dict) and not any(key.startswith("a.") for key in message):
            return action
        if isinstance(action, dict):
            message = {**message, "action": json.dumps(action)}
        elif not isinstance(action, str):
            raise BadRequest(_("An action is a JSON object with a \"type\"."))
        fields = MultiValueDict()
        for key, value in message.items():
            if key == "action" or key.startswith("a."):
                values = value if isinstance(value, list) else [value]
                if not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values):
                    raise BadRequest(_("Field %(field)s does not fit the action.") % {"field": key[:40]})
                fields.setlist(key, [str(v) for v in values])
        return parse_action(fields)

    async def _refuse(self, code):
        self.closing = True
        await self.close(code=code)
        await _in_pool(self._count_out)()  # closed by us: it holds no place while the client lingers

    # --- What the publisher sends ------------------------------------------------------

    def _admitted(self, access) -> bool:
        if access is not None:
            self.access = Access.from_dict(access)
        return self.access is None or self.viewer.admitted(self.access)

    async def match_access(self, event):
        """Who may watch changed without a new version (the admin), or this viewer may no
        longer watch what changed: look again now."""
        if not self.closing and not self._admitted(event.get("access")):
            await self._end(CLOSE_NOT_ALLOWED)

    async def socket_end(self, event):
        """The session logged out, the user's password changed, the token was revoked."""
        await self._end(CLOSE_SIGNED_OUT)

    async def _end(self, code):
        if not self.closing:
            self.closing = True
            await self.close(code=code)

    async def live_part(self, event):
        """A change's part for this viewer, made by the process that committed it."""
        if self.closing:
            return
        if not self._admitted(event.get("access")):
            await self._end(CLOSE_NOT_ALLOWED)
            return
        version, revision = event["version"], event.get("revision") or ""
        async with self.lock:  # not beside a catch-up's read (games/live/watch.py)
            if version < self.shown_version:
                return  # an older version than the one shown (published late by a slower process)
            if version == self.shown_version and (not revision or revision <= self.shown_revision):
                return  # shown already: a committed version never changes
            self.shown_version, self.shown_revision = version, revision
            self.sent = event["body"]
            await self.send(text_data=self.sent)

    async def catch_up(self):
        """This socket missed a change (games/live/watch.py): join its groups again (a Redis
        that restarted forgot them), read the match and send its viewer's part."""
        async with self.lock:
            if self.closing:
                return
            try:
                for name in self.groups_joined:
                    await self.channel_layer.group_add(name, self.channel_name)
            except Exception:
                log.warning("could not join the groups again", exc_info=True)
            opened = await _in_pool(self._open)()
            if opened is None:
                await self._end(CLOSE_NOT_ALLOWED)
                return
            if opened != self.sent:
                self.sent = opened
                await self.send(text_data=opened)

    async def live_chat(self, event):
        if not self.closing:
            await self.send(text_data=event["body"])
