"""One socket per viewer of a match. Group messages say only "version N exists"; the socket
then renders the live part for its own viewer, so nobody receives another seat's secrets.

The consumer is asynchronous and renders on the thread pool: one slow render does not hold up
every other socket of the process (a synchronous consumer shares a single thread).

A socket renders only what is new for its viewer: a version (or a lobby change, or a chat line)
announced after its last render began. What the browser sends costs no render: at most the
last part is sent again, and a socket that sends too much or too fast is closed (SOCKET_*
settings); sockets per user and per address are bounded too (SOCKETS_PER_*)."""
import asyncio
import copy
import json
import logging
import threading
import time
from collections import OrderedDict

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from config import metrics
from games import panels, selectors, socket_slots
from games.errors import ServiceError
from games.live import group_name

log = logging.getLogger(__name__)

# Close codes a client is told: a message too large (the WebSocket standard's), too many
# messages (a policy code of ours), too many sockets open (as HTTP's 429).
CLOSE_TOO_BIG, CLOSE_TOO_FAST, CLOSE_TOO_MANY = 1009, 4008, 4029
# Servers' clocks may differ this much: a change announced so close to a render is shown again.
CLOCK_SLACK = 0.5


def _in_pool(fn):
    return database_sync_to_async(fn, thread_sensitive=False)


class _Read:
    def __init__(self):
        self.done, self.match, self.state_text, self.failed = threading.Event(), None, None, False
        self.started = time.time()


class SharedReads:
    """Every socket of a match in this process hears an announcement at the same moment, and
    each read the same match, seats and log for it. Now the first to handle an announcement
    reads; the others wait for that read and render their own viewer's part from it. The key is
    the announcement itself (match, version, sent_at): a read shared is one begun after the
    announcement arrived, as each socket's own read would have been, and a lobby change that
    keeps the version is a new announcement, so it is read again.

    Each socket gets its own copy of the match with its own state (decoded from the JSON text of
    the one read), so nothing a render does to the state reaches another viewer's render."""

    # A read is kept only while the announcement's sockets are still answering it: a few seconds,
    # a few hundred matches (each read holds the match, its seats and thirty log rows).
    SECONDS, SIZE = 5.0, 512

    def __init__(self):
        self.lock, self.reads = threading.Lock(), OrderedDict()

    def match(self, key, read):
        """The match for this announcement and when its read began."""
        with self.lock:
            entry = self.reads.get(key)
            mine = entry is None
            if mine:
                entry = self.reads[key] = _Read()
                old = entry.started - self.SECONDS
                while len(self.reads) > self.SIZE or next(iter(self.reads.values())).started < old:
                    self.reads.popitem(last=False)
        if mine:
            try:
                entry.match = read()
                entry.state_text = None if entry.match.state is None else json.dumps(entry.match.state)
            except BaseException:
                entry.failed = True
                raise
            finally:
                entry.done.set()
        else:
            entry.done.wait()
            if entry.failed:  # (a database error, say) the waiting sockets try for themselves
                started = time.time()
                return read(), started
        return self._own(entry), entry.started

    @staticmethod
    def _own(entry):
        match = copy.copy(entry.match)
        if entry.state_text is not None:
            match.state = json.loads(entry.state_text)
        return match


shared_reads = SharedReads()


class MatchConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.sent = None
        self.shown_version, self.live_rendered_at, self.chat_rendered_at = -1, 0.0, 0.0
        self.closing, self.counted = False, []
        self.allowance, self.allowance_at = float(settings.SOCKET_MESSAGE_BURST), time.monotonic()
        self.language = self._browser_language()
        self.lock = asyncio.Lock()
        try:
            await _in_pool(selectors.match_for_viewer)(match_id=self.match_id, user=self.scope.get("user"),
                                                       invite_code=self._invite())
        except ServiceError:
            await self.close(code=4403)
            return
        if not await _in_pool(self._count_in)():
            await self.close(code=CLOSE_TOO_MANY)
            return
        await self.channel_layer.group_add(group_name(self.match_id), self.channel_name)
        await self.accept()
        metrics.socket_opened(self)  # open sockets per process (/metrics)
        # A (re)connecting browser catches up at once with whatever it missed.
        await self._send_live()

    def _count_in(self) -> bool:
        """Count this socket against its user's and its address's limits; False if either is
        full (games/socket_slots.py)."""
        self.counted = socket_slots.claim(self.scope)
        return self.counted is not None

    def _count_out(self):
        socket_slots.release(self.counted)
        self.counted = []

    def _invite(self):
        query = self.scope.get("query_string", b"").decode()
        for part in query.split("&"):
            key, _, value = part.partition("=")
            if key == "invite":
                return value
        return None

    def _browser_language(self):
        """What the browser asked for in the handshake (the language cookie, then
        Accept-Language), read as the pages read it; a profile's language still wins later."""
        request = HttpRequest()
        request.COOKIES = self.scope.get("cookies", {})
        headers = dict(self.scope.get("headers", []))
        request.META["HTTP_ACCEPT_LANGUAGE"] = headers.get(b"accept-language", b"").decode("latin-1")
        return translation.get_language_from_request(request)

    async def disconnect(self, code):
        metrics.socket_closed(self)
        await self.channel_layer.group_discard(group_name(self.match_id), self.channel_name)
        if getattr(self, "counted", None):
            await _in_pool(self._count_out)()

    async def receive(self, text_data=None, bytes_data=None):
        # Moves go through HTTP (one write path); a client message at most asks for the part it
        # has again. Nothing it sends makes the server render.
        if self.closing:
            return
        size = len(text_data) if text_data is not None else len(bytes_data or b"")
        if text_data is not None and size <= settings.SOCKET_MAX_MESSAGE_BYTES:
            size = len(text_data.encode())
        if size > settings.SOCKET_MAX_MESSAGE_BYTES:
            await self._refuse(CLOSE_TOO_BIG)
        elif not self._allowed():
            await self._refuse(CLOSE_TOO_FAST)
        elif self.sent is not None:
            await self.send(text_data=self.sent)

    def _allowed(self) -> bool:
        """A token bucket: SOCKET_MESSAGE_BURST messages at once, then SOCKET_MESSAGES_PER_SECOND."""
        now = time.monotonic()
        self.allowance = min(float(settings.SOCKET_MESSAGE_BURST),
                             self.allowance + (now - self.allowance_at) * settings.SOCKET_MESSAGES_PER_SECOND)
        self.allowance_at = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    async def _refuse(self, code):
        self.closing = True
        await self.close(code=code)
        await _in_pool(self._count_out)()  # closed by us: it holds no place while the client lingers

    async def match_changed(self, event):
        version, sent_at = event.get("version"), event.get("sent_at")
        if self.closing or (version is not None and version < self.shown_version):
            return  # an older version than the one shown
        if version == self.shown_version:
            if not event.get("unversioned"):
                # The version shown: its state is fixed once committed, and the last render read
                # it (under load a render may read a version whose announcement is still queued).
                return
            if sent_at is not None and sent_at < self.live_rendered_at - CLOCK_SLACK:
                return  # a lobby change announced before the last render began reading: it showed it
        announced = (self.match_id, version, sent_at) if version is not None and sent_at is not None else None
        await self._send_live(announced)

    async def match_chat(self, event):
        sent_at = event.get("sent_at")
        if self.closing or (sent_at is not None and sent_at < self.chat_rendered_at - CLOCK_SLACK):
            return
        self.chat_rendered_at = time.time()
        html = await _in_pool(self._render_chat)()
        if html:
            await self.send(text_data=html)

    async def _send_live(self, announced=None):
        # One render at a time per socket, so an older state never overtakes a newer one.
        async with self.lock:
            rendered = await _in_pool(self._render_live)(announced)
            if rendered is None:
                self.closing = True
                await self.close()
                return
            version, html, started = rendered
            self.shown_version, self.live_rendered_at = version, started
            if html != self.sent:  # seats filling up change the page without a new version
                self.sent = html
                await self.send(text_data=html)

    def _render_live(self, announced=None):
        """`announced`: the announcement this render answers, which the match's other sockets
        here answer too (they share one read); None to read for this socket alone."""
        read = lambda: selectors.match_live(match_id=self.match_id)  # noqa: E731
        try:
            if announced is not None:
                match, started = shared_reads.match(announced, read)
            else:
                started = time.time()
                match = read()
        except ServiceError:
            return None
        html = panels.render_live(match, self.scope.get("user"), browser_language=self.language)
        return match.version, html, started

    def _render_chat(self):
        try:
            match = selectors.match_get(match_id=self.match_id)
        except ServiceError:
            return None
        user = self.scope.get("user")
        if not selectors.can_chat(match, user):
            return None
        return panels.render_chat(match, user, browser_language=self.language)
