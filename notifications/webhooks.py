"""Sending a player's webhook without letting the URL reach inside the site's own network.

Any player chooses the URL, so the server must not become their way in (server-side request
forgery): the host is resolved once, every address it gives is checked (no loopback, private,
link-local, multicast, reserved or unspecified address, IPv4 or IPv6, including IPv4 inside
IPv6), and the connection goes to that checked address, with the name only in the Host header
and the TLS server name, so a second lookup cannot answer differently. Redirects are not
followed. Only ports 80 and 443 unless the settings allow more; https only on a secure site.
An operator may allow named hosts (a local test receiver) with WEBHOOK_ALLOWED_HOSTS.

Why not a library: `advocate` (the known one) wraps requests and has had no release since 2020;
the newer ones on PyPI are a few months old. The checks below are few and each is tested."""
import ipaddress
import logging
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3.connection
from django.conf import settings
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

# A receiver says yes or no in its status; more than this of its answer is never read.
MAX_RESPONSE_BYTES = 1024
# IPv6 prefixes that carry an IPv4 address in their last 32 bits (NAT64, RFC 6052 / 8215).
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


class Refused(ValueError):
    """A webhook URL the site will not send to; the message is for the player."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # the name as written, for the Host header and TLS
    port: int
    path: str  # path and query
    address: str  # the checked address to connect to


def address_refused(address) -> bool:
    """True for any address that is not a public unicast one."""
    ip = ipaddress.ip_address(address)
    if ip.version == 6:
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is None and any(ip in net for net in _NAT64):
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None and address_refused(embedded):
            return True
        if ip.ipv4_mapped is not None:
            return False  # the IPv4 address inside was checked and is public
    return (not ip.is_global or ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast
            or ip.is_reserved or ip.is_unspecified or (ip.version == 6 and ip.is_site_local))


def _literal(host: str):
    """The address a host written as a number means, in any form the C library accepts
    (2130706433, 0x7f.1, 0177.0.0.1, 127.1) or as IPv6; None for a name."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except (OSError, UnicodeError, ValueError):
        return None


def _resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise Refused(_("The webhook's host %(host)s could not be found.") % {"host": host}) from exc
    return list(dict.fromkeys(info[4][0] for info in infos))


def allowed_host(host: str, port: int) -> bool:
    allowed = {h.lower() for h in settings.WEBHOOK_ALLOWED_HOSTS}
    return host.lower() in allowed or f"{host.lower()}:{port}" in allowed


def check(url: str) -> Target:
    """Parse, resolve and check a webhook URL; the Target says where to connect. Raises Refused."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise Refused(_("This is not a valid web address.")) from exc
    scheme, host = parts.scheme.lower(), (parts.hostname or "").rstrip(".")
    if scheme not in ("http", "https") or not host:
        raise Refused(_("A webhook address starts with https:// and names a host."))
    if parts.username or parts.password:
        raise Refused(_("A webhook address may not carry a user name or password."))
    port = port or (443 if scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    literal = _literal(host)
    if allowed_host(host, port):
        address = str(literal) if literal else _resolve(host, port)[0]
        return Target(scheme, host, port, path, address)
    if scheme != "https" and settings.WEBHOOK_HTTPS_ONLY:
        raise Refused(_("This site sends webhooks only to https:// addresses."))
    if port not in settings.WEBHOOK_PORTS:
        raise Refused(_("Webhooks go only to the ports %(ports)s.") % {
            "ports": ", ".join(str(p) for p in settings.WEBHOOK_PORTS)})
    addresses = [str(literal)] if literal else _resolve(host, port)
    if not addresses or any(address_refused(a) for a in addresses):
        raise Refused(_("Webhooks cannot go to a private, local or reserved network address."))
    return Target(scheme, host, port, path, addresses[0])


def post(url: str, body: bytes, headers: dict, timeout: float) -> tuple[bool, str]:
    """POST to the checked address of `url`; (taken, error). A redirect counts as not taken.
    `timeout` bounds each wait on the network, and twice it the whole delivery (a receiver that
    drips its answer a byte at a time is cut off)."""
    status, error = send(url, body, headers, timeout)
    return status is not None and 200 <= status < 300, error


def send(url: str, body: bytes, headers: dict, timeout: float) -> tuple[int | None, str]:
    """post(), answering the receiver's status (None when there was no whole answer) and what
    went wrong: a push service's 404/410 means something other than its 500."""
    target = check(url)
    host = f"[{target.host}]" if ":" in target.host else target.host
    host_header = host if target.port in (80, 443) else f"{host}:{target.port}"
    if target.scheme == "https":
        conn = urllib3.connection.HTTPSConnection(
            target.address, target.port, timeout=timeout, server_hostname=target.host, assert_hostname=target.host,
            cert_reqs="CERT_REQUIRED", ca_certs=settings.WEBHOOK_CA_CERTS)
    else:
        conn = urllib3.connection.HTTPConnection(target.address, target.port, timeout=timeout)
    cut = threading.Event()
    watchdog = threading.Timer(2 * timeout, _cut, args=(conn, cut))
    watchdog.daemon = True
    watchdog.start()
    try:
        conn.request("POST", target.path, body=body, headers={**headers, "Host": host_header}, preload_content=False)
        response = conn.getresponse()
        response.read(MAX_RESPONSE_BYTES)
        status = response.status
    except Exception:
        if not cut.is_set():
            raise
    finally:
        watchdog.cancel()
        conn.close()
    if cut.is_set():  # what came before the cut may look whole (the end of the headers is unseen)
        return None, f"no complete answer within {2 * timeout:g} s"
    if 200 <= status < 300:
        return status, ""
    if 300 <= status < 400:
        return status, f"HTTP {status}: redirects are not followed"
    return status, f"HTTP {status}"


def _cut(conn, cut: threading.Event):
    cut.set()
    sock = getattr(conn, "sock", None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked reading it
        except OSError:
            pass


# Without a Celery worker (JOBS_IN_PROCESS) deliveries run on a few threads of their own, so a
# receiver that never answers holds up neither the request nor the deadline sweep.
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def in_background(fn, *args):
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=settings.WEBHOOK_THREADS, thread_name_prefix="webhook")
    return _pool.submit(fn, *args)


def drain() -> None:
    """Wait for the deliveries running on this process's threads (tests, a clean shutdown)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True)
