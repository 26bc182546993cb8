"""One socket per viewer of a match. Group messages say only "version N exists"; the socket
then renders the live part for its own viewer, so nobody receives another seat's secrets.

The consumer is asynchronous and renders on the thread pool: one slow render does not hold up
every other socket of the process (a synchronous consumer shares a single thread)."""
import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest
from django.utils import translation

from games import panels, selectors
from games.errors import ServiceError
from games.live import group_name


def _in_pool(fn):
    return database_sync_to_async(fn, thread_sensitive=False)


class MatchConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.sent = None
        self.language = self._browser_language()
        self.lock = asyncio.Lock()
        try:
            await _in_pool(selectors.match_for_viewer)(match_id=self.match_id, user=self.scope.get("user"),
                                                       invite_code=self._invite())
        except ServiceError:
            await self.close(code=4403)
            return
        await self.channel_layer.group_add(group_name(self.match_id), self.channel_name)
        await self.accept()
        # A (re)connecting browser catches up at once with whatever it missed.
        await self._send_live()

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
        await self.channel_layer.group_discard(group_name(self.match_id), self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # Moves go through HTTP (one write path); a client message just asks for a refresh.
        await self._send_live()

    async def match_changed(self, event):
        await self._send_live()

    async def match_chat(self, event):
        html = await _in_pool(self._render_chat)()
        if html:
            await self.send(text_data=html)

    async def _send_live(self):
        # One render at a time per socket, so an older state never overtakes a newer one.
        async with self.lock:
            html = await _in_pool(self._render_live)()
            if html is None:
                await self.close()
            elif html != self.sent:  # seats filling up change the page without a new version
                self.sent = html
                await self.send(text_data=html)

    def _render_live(self):
        try:
            match = selectors.match_get(match_id=self.match_id)
        except ServiceError:
            return None
        return panels.render_live(match, self.scope.get("user"), browser_language=self.language)

    def _render_chat(self):
        try:
            match = selectors.match_get(match_id=self.match_id)
        except ServiceError:
            return None
        user = self.scope.get("user")
        if not selectors.can_chat(match, user):
            return None
        return panels.render_chat(match, user, browser_language=self.language)
