"""One socket per viewer of a match. It forwards: a change leaves its snapshot in the cache and
announces it (games/live.py); the socket checks that its viewer may still watch (membership,
seat, invitation, privacy and the session, as they are now) and sends the live part rendered
for that viewer, made at most once per version and viewer among every process.

The consumer is asynchronous and does its blocking work on the thread pool: one slow render
does not hold up every other socket of the process.

The browser may send a move on the socket ({"action": …, "version": N}), applied by the same
service as the forms' and the API's, and answered on the socket after the commit; anything else
it sends gets at most the last part again. A socket that sends too much or too fast is closed
(SOCKET_* settings); sockets per user and per address are bounded too (SOCKETS_PER_*)."""
import asyncio
import json
import logging
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import translation
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

from accounts.models import ApiToken
from config import metrics
from games import live, panels, selectors, services, socket_slots
from games.errors import ServiceError
from games.live import group_name

log = logging.getLogger(__name__)

# Close codes a client is told: a message too large (the WebSocket standard's), too many
# messages (a policy code of ours), too many sockets open (as HTTP's 429), no longer allowed to
# watch (as HTTP's 403), the session ended (as HTTP's 401).
CLOSE_TOO_BIG, CLOSE_TOO_FAST, CLOSE_TOO_MANY, CLOSE_NOT_ALLOWED, CLOSE_SIGNED_OUT = 1009, 4008, 4029, 4403, 4401
# Servers' clocks may differ this much: a change announced so close to a render is shown again.
CLOCK_SLACK = 0.5


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


class MatchConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.sent, self.access, self.groups_joined = None, None, []
        self.shown_version, self.shown_revision, self.live_rendered_at, self.chat_rendered_at = -1, "", 0.0, 0.0
        self.closing, self.counted = False, []
        # Moves (a bot plays several a second) and anything else (the browser sends nothing on
        # its own) have allowances of their own.
        self._moves = Allowance(settings.SOCKET_MOVE_BURST, settings.SOCKET_MOVES_PER_SECOND)
        self._messages = Allowance(settings.SOCKET_MESSAGE_BURST, settings.SOCKET_MESSAGES_PER_SECOND)
        self.user = self.scope.get("user")
        # A program may sign its socket with its API token ("Authorization: Token <key>", as the
        # API's requests): then the token is who asks, checked again at every push.
        self.token = _token_in(self.scope)
        if self.token is not None:
            self.user = await _in_pool(ApiToken.holder)(self.token) if self.token else None
            if self.user is None:
                await self.close(code=CLOSE_SIGNED_OUT)
                return
        self.signed_in = self.user is not None and self.user.is_authenticated
        session = self.scope.get("session")
        self.session_key = (session.session_key if self.signed_in and session is not None and self.token is None
                            else None)
        self.invite = self._query("invite")
        # "?feed=state": the match as data (selectors.match_state_for) instead of the page's HTML,
        # for bots and other programs: their seat's view and legal actions with every change.
        self.state_feed = self._query("feed") == "state"
        self.lock = asyncio.Lock()
        # Joined before the first read: a change committed after it is announced to this socket.
        groups = [group_name(self.match_id)]
        if self.signed_in:
            groups.append(live.user_group(self.user.pk))
            if self.session_key:
                groups.append(live.session_group(self.session_key))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = groups
        match = await _in_pool(self._open)()
        if match is None:
            await self._leave_groups()
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        if not await _in_pool(self._count_in)():
            await self._leave_groups()
            await self.close(code=CLOSE_TOO_MANY)
            return
        # Accepted before the first render: Daphne drops a handshake its application has not
        # accepted within a few seconds, and on a busy server a render may take that long.
        await self.accept()
        metrics.socket_opened(self)  # open sockets per process (/metrics)
        # A (re)connecting browser catches up at once with whatever it missed.
        opened = await _in_pool(self._part)(match, "")
        self.sent = opened
        await self.send(text_data=opened)

    def _open(self):
        """Read the match as it is and check this viewer may watch it (the catch-up every socket
        sends first is rendered from it once the socket is accepted). None if they may not watch."""
        try:
            match = selectors.match_live(match_id=self.match_id)
        except ServiceError:
            return None
        if not selectors.can_watch(match, self.user, self.invite):
            return None
        self.access = live.access_of(match, match.seats.all())
        self.credentials = live.credentials_of(self.user.pk) if self.signed_in else None
        # What the viewer reads in, fixed for this socket (the profile is read once, here).
        self.language = panels.viewer_language(self.user, self._browser_language())
        self.zone = str(panels.viewer_time_zone(self.user))
        self.live_rendered_at = time.time()
        self.shown_version = match.version
        return match

    async def _leave_groups(self):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    def _count_in(self) -> bool:
        """Count this socket against its user's and its address's limits; False if either is
        full (games/socket_slots.py)."""
        self.counted = socket_slots.claim(self.scope)
        return self.counted is not None

    def _count_out(self):
        socket_slots.release(self.counted)
        self.counted = []

    def _query(self, name):
        query = self.scope.get("query_string", b"").decode()
        for part in query.split("&"):
            key, _sep, value = part.partition("=")
            if key == name:
                return value
        return None

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
        elif not self._messages.take():
            await self._refuse(CLOSE_TOO_FAST)
        elif move is not None:
            # Past the moves' allowance: told, not applied; these count as messages, so a
            # client that keeps on is closed as any flood is.
            await self.send(text_data=json.dumps({"type": "move.refused", "status": 429,
                                                  "error": _("Too many moves at once: wait a moment.")}))
        elif self.sent is not None:
            await self.send(text_data=self.sent)

    @staticmethod
    def _move_in(text_data):
        """The message as a move (a JSON object with an "action"), or None for anything else."""
        if not text_data or "action" not in text_data:
            return None
        try:
            message = json.loads(text_data)
        except ValueError:
            return {"refused": _("A move is a JSON object with an \"action\".")}
        if not isinstance(message, dict) or "action" not in message:
            return None
        return message

    def _apply(self, message):
        """Apply a move through services.action_apply, as the forms and the API do, and say how
        it went: after the commit, the new version and, for the player to act, their legal
        actions. Hostile input gets the service's message (or the form parser's), never more."""
        with translation.override(getattr(self, "language", None) or translation.get_language()):
            if "refused" in message:
                return {"type": "move.refused", "status": 400, "error": message["refused"]}
            if not self.signed_in:
                return {"type": "move.refused", "status": 403, "error": _("Log in to play.")}
            if self._signed_out(cache.get_many(self._session_keys())):
                return None  # closes with the next push; the move is not made by an ended session
            try:
                action = self._action_of(message)
                match = services.action_apply(match_id=self.match_id, user=self.user, action=action,
                                              expected_version=message.get("version"))
            except ServiceError as exc:
                answer = {"type": "move.refused", "status": exc.status, "error": exc.message}
                if "version" in exc.extra:
                    answer["version"] = exc.extra["version"]
                return answer
            now = selectors.actions_now(match, selectors.seat_of(match, self.user))
            return {"type": "move.applied", "version": now["version"], "your_turn": now["my_turn"],
                    "legal": now["actions"]}

    @staticmethod
    def _action_of(message) -> dict:
        """The action: a JSON object, or the fields of a form sent as htmx's ws-send sends them
        (`action` as JSON text, `a.…` fields), read as the HTTP form is read."""
        from games.views import parse_action

        action = message["action"]
        if isinstance(action, dict) and not any(key.startswith("a.") for key in message):
            return action
        if isinstance(action, dict):
            message = {**message, "action": json.dumps(action)}
        elif not isinstance(action, str):
            raise services.BadRequest(_("An action is a JSON object with a \"type\"."))
        fields = MultiValueDict()
        for key, value in message.items():
            if key == "action" or key.startswith("a."):
                values = value if isinstance(value, list) else [value]
                if not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values):
                    raise services.BadRequest(_("Field %(field)s does not fit the action.") % {"field": key[:40]})
                fields.setlist(key, [str(v) for v in values])
        return parse_action(fields)

    async def _refuse(self, code):
        self.closing = True
        await self.close(code=code)
        await _in_pool(self._count_out)()  # closed by us: it holds no place while the client lingers

    # --- What the server announces -----------------------------------------------------

    def _take_access(self, access):
        if access is not None and (self.access is None or access["at"] >= self.access["at"]):
            self.access = access

    async def match_access(self, event):
        """Who may watch changed without a new version (the admin): look again now."""
        self._take_access(event.get("access"))
        if not self.closing and not live.may_watch(self.access, self.user, self.invite):
            await self._end(CLOSE_NOT_ALLOWED)

    async def socket_end(self, event):
        """The session logged out, or the user's password changed."""
        await self._end(CLOSE_SIGNED_OUT)

    async def _end(self, code):
        if not self.closing:
            self.closing = True
            await self.close(code=code)

    async def match_changed(self, event):
        self._take_access(event.get("access"))
        version, sent_at = event.get("version"), event.get("sent_at")
        revision = event.get("revision") or ""
        if event.get("unversioned") and not revision:
            revision = str(sent_at)  # an announcement from before revisions
        if self.closing or (version is not None and version < self.shown_version):
            return  # an older version than the one shown
        if version == self.shown_version:
            if not revision or revision == self.shown_revision:
                # The version shown: its state is fixed once committed, and the last render read
                # it (under load a render may read a version whose announcement is still queued).
                return
            if sent_at is not None and sent_at < self.live_rendered_at - CLOCK_SLACK:
                return  # a lobby change announced before the last render began reading: it showed it
        async with self.lock:  # one push at a time per socket, so an older one never overtakes
            if self.closing:
                return
            pushed = await _in_pool(self._push)(version, revision)
            if isinstance(pushed, int):
                await self._end(pushed)
                return
            if pushed is None:
                return
            shown, html = pushed
            if shown < self.shown_version:
                return
            self.shown_version, self.shown_revision = shown, revision
            if html != self.sent:  # seats filling up change the page without a new version
                self.sent = html
                await self.send(text_data=html)

    def _session_keys(self):
        keys = []
        if self.session_key:
            keys.append(live.ended_key(self.session_key))
        if self.signed_in:
            keys.append(live.credentials_key(self.user.pk))
        return keys

    def _signed_out(self, found) -> bool:
        if self.session_key and found.get(live.ended_key(self.session_key)):
            return True
        if self.token is not None:  # revoked, or its user deactivated, since the socket opened
            holder = ApiToken.holder(self.token)
            if holder is None or holder.pk != self.user.pk:
                return True
        return self.signed_in and found.get(live.credentials_key(self.user.pk)) != self.credentials

    def _viewer(self) -> str:
        """Whose eyes the part is rendered for: a seat's player, or a spectator (in a lobby,
        signed in, who may join, or not). Spectators of a kind share one rendering."""
        if self.signed_in and self.user.pk in self.access["seated"]:
            return f"user{self.user.pk}"
        if self.access.get("lobby", True):
            return "member" if self.signed_in else "visitor"
        return "spectator"

    def _push(self, version, revision):
        """The part this viewer sees of the announced version, as (version, html); a close
        code if they may no longer see it; None if there is nothing to send. One cache round
        trip: the rendering, the session's marks."""
        if self.state_feed:  # the same data in every language and zone
            key = live.part_key(self.match_id, version, revision, self._viewer(), "state", "")
        else:
            key = live.part_key(self.match_id, version, revision, self._viewer(), self.language, self.zone)
        try:
            found, looked = cache.get_many([key, *self._session_keys()]), True
        except Exception:
            log.warning("the live parts' cache is away", exc_info=True)
            found, looked = {}, False
        if self._signed_out(found):
            return CLOSE_SIGNED_OUT
        if not live.may_watch(self.access, self.user, self.invite):
            return CLOSE_NOT_ALLOWED
        made = found.get(key) or live.live_part(key, lambda: self._render(version, revision), looked=looked)
        if made is None:
            return None
        if made is CLOSE_NOT_ALLOWED:
            return CLOSE_NOT_ALLOWED
        return made[0], made[1]

    def _render(self, version, revision):
        """Render the part from the announced snapshot; without one (lost, or an announcement
        that left none) from the match read now, which also refreshes who may watch."""
        match = None
        try:
            match = cache.get(live.snapshot_key(self.match_id, version, revision))
        except Exception:
            log.warning("could not read a snapshot", exc_info=True)
        if match is None:
            try:
                match = selectors.match_live(match_id=self.match_id)
            except ServiceError:
                return None
            self._take_access(live.access_of(match, match.seats.all()))
            if not live.may_watch(self.access, self.user, self.invite):
                return CLOSE_NOT_ALLOWED
        return match.version, self._part(match, revision if match.version == version else ""), match.version == version

    def _part(self, match, revision):
        """What this socket shows of `match`: the live part rendered for its viewer, or with the
        state feed the match as data (a JSON object of type "match.state")."""
        if self.state_feed:
            return json.dumps({"type": "match.state", "revision": revision,
                               **selectors.match_state_for(match, self.user)}, separators=(",", ":"))
        return panels.render_live(match, self.user, browser_language=self.language, revision=revision)

    def _chat(self, revision):
        """The chat as this viewer's kind of reader sees it at `revision`, rendered once among
        every process; None for a viewer who may not read it (a spectator), known from who may
        watch as it was announced: no query for them."""
        staff = self.signed_in and self.user.is_staff
        if not staff and not (self.signed_in and self.user.pk in self.access["seated"]):
            return None
        try:
            if self._signed_out(cache.get_many(self._session_keys())):
                return CLOSE_SIGNED_OUT
        except Exception:
            log.warning("the live parts' cache is away", exc_info=True)
        key = live.chat_key(self.match_id, revision, "staff" if staff else "player", self.language, self.zone)
        made = live.live_part(key, self._render_chat)
        return made[1] if made else None

    def _render_chat(self):
        try:
            match = selectors.match_get(match_id=self.match_id)
        except ServiceError:
            return None
        if not selectors.can_chat(match, self.user):
            return None
        # What a reader of this kind sees: the messages, never who asks (the form's CSRF token
        # comes from the page's htmx headers, not from this part).
        return 0, panels.render_chat(match, self.user, browser_language=self.language), True

    async def match_chat(self, event):
        sent_at = event.get("sent_at")
        if self.state_feed:
            return  # the chat is HTML for the page; programs read the log
        if self.closing or (sent_at is not None and sent_at < self.chat_rendered_at - CLOCK_SLACK):
            return
        self.chat_rendered_at = time.time()
        html = await _in_pool(self._chat)(event.get("revision") or str(sent_at))
        if isinstance(html, int):
            await self._end(html)
        elif html:
            await self.send(text_data=html)
