"""The WebSocket origin check: a socket is accepted only from a page of this very site.

Channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and ignores
the scheme and the port, so a page on http://localhost:9999 could open a player's socket on
localhost:8000 with their cookie (issue 14). Here the Origin's scheme, host and port must be
those the browser reached us by (the Host header; https when the socket came over TLS or the
site runs behind TLS with SECURE=1), or one of CSRF_TRUSTED_ORIGINS, and the host allowed."""
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, host: str, port) -> tuple[str, str, int] | None:
    if scheme not in DEFAULT_PORTS or not host:
        return None
    try:
        return scheme, host.lower().rstrip("."), int(port) if port else DEFAULT_PORTS[scheme]
    except ValueError:
        return None


def parse_origin(value: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(value)
        return _origin(parts.scheme.lower(), parts.hostname or "", parts.port)
    except ValueError:  # a port out of range
        return None


def allowed_origins(scope) -> set:
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    domain, port = split_domain_port(host)
    secure = scope.get("scheme") == "wss" or getattr(settings, "SECURE_PROXY_SSL_HEADER", None) is not None
    allowed = {parse_origin(o) for o in settings.CSRF_TRUSTED_ORIGINS if "*" not in o}
    if domain and validate_host(domain, settings.ALLOWED_HOSTS):
        allowed.add(_origin("https" if secure else "http", domain, port or None))
    allowed.discard(None)
    return allowed


def origin_allowed(scope) -> bool:
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin")
    if origin is None:
        # No page opened it (a browser always sends its page's Origin): a program's socket, let in
        # only with its API token, which the consumer then takes as the one credential (a cookie
        # it may also send is not read), so no page of another site can ride on a session.
        return b"authorization" in headers
    parsed = parse_origin(origin.decode("latin-1"))
    return parsed is not None and parsed in allowed_origins(scope)


class SameOriginValidator:
    """ASGI middleware: refuse a WebSocket whose Origin is not this site's own."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
