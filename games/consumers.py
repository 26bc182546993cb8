"""One socket per viewer of a match. Group messages say only "version N exists"; the socket
then renders the live part for its own viewer, so nobody receives another seat's secrets."""
from channels.generic.websocket import WebsocketConsumer
from asgiref.sync import async_to_sync

from games import panels, selectors
from games.errors import ServiceError
from games.live import group_name


class MatchConsumer(WebsocketConsumer):
    def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        user = self.scope.get("user")
        try:
            match = selectors.match_for_viewer(match_id=self.match_id, user=user,
                                               invite_code=self._invite())
        except ServiceError:
            self.close(code=4403)
            return
        self.sent = None
        async_to_sync(self.channel_layer.group_add)(group_name(self.match_id), self.channel_name)
        self.accept()
        # A (re)connecting browser catches up at once with whatever it missed.
        self._send_live(match)

    def _invite(self):
        query = self.scope.get("query_string", b"").decode()
        for part in query.split("&"):
            key, _, value = part.partition("=")
            if key == "invite":
                return value
        return None

    def disconnect(self, code):
        async_to_sync(self.channel_layer.group_discard)(group_name(self.match_id), self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        # Moves go through HTTP (one write path); a client message just asks for a refresh.
        self._refresh()

    def match_changed(self, event):
        self._refresh()

    def match_chat(self, event):
        try:
            match = selectors.match_get(match_id=self.match_id)
        except ServiceError:
            return
        user = self.scope.get("user")
        if selectors.can_chat(match, user):
            self.send(text_data=panels.render_chat(match, user))

    def _refresh(self):
        try:
            match = selectors.match_get(match_id=self.match_id)
        except ServiceError:
            self.close()
            return
        self._send_live(match)

    def _send_live(self, match):
        # Seats filling up change the page without a new version, so compare what is shown.
        html = panels.render_live(match, self.scope.get("user"))
        if html != self.sent:
            self.sent = html
            self.send(text_data=html)
