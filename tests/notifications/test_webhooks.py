"""Webhooks cannot reach inside the site (issue 17): every class of internal address refused at
the profile form and at delivery with nothing sent, the checked address the one connected to,
redirects not followed, and deliveries on jobs of their own so that receivers that never answer
hold up no deadline. No test sends anything anywhere but 127.0.0.1: names resolve through a
fake resolver, and every connection is recorded and refused unless it goes to 127.0.0.1 (or to
the pretend public address that the test reroutes to its own local server)."""
import socket
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import urllib3.util.connection
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.forms import ProfileForm
from accounts.models import Profile
from games import tasks
from games.models import Match
from notifications import services as notify_services
from notifications import tasks as notifications_tasks
from notifications import webhooks
from notifications.models import Notification, WebhookDelivery

PUBLIC = "93.184.216.34"  # stands for somebody's server on the internet; never reached
NAMES = {"hooks.example": [PUBLIC], "intranet.example": ["10.1.2.3"], "sneaky.example": [PUBLIC, "127.0.0.1"]}

INTERNAL = ["http://127.0.0.1/", "http://[::1]/", "http://10.0.0.1/", "http://172.16.0.1/",
            "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:127.0.0.1]/",
            "http://intranet.example/", "http://sneaky.example/",
            # the same places written otherwise, and the other classes of address
            "http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/", "http://0.0.0.0/",
            "http://[::]/", "http://224.0.0.1/", "http://[ff02::1]/", "http://[fe80::1]/", "http://[fc00::1]/",
            "http://240.0.0.1/", "http://100.64.0.1/", "http://[2002:7f00:1::]/", "http://[64:ff9b::a00:1]/",
            "http://255.255.255.255/", "http://[fec0::1]/"]


@pytest.fixture
def network(monkeypatch):
    """A fake resolver for the names above and a record of every connection made; the pretend
    public address is rerouted to `network.public_port` on 127.0.0.1, anything else refused."""

    class Network:
        lookups: list = []
        connections: list = []
        public_port = None

    real_getaddrinfo, real_connect = socket.getaddrinfo, urllib3.util.connection.create_connection

    def getaddrinfo(host, port, *args, **kwargs):
        if host in NAMES:
            Network.lookups.append(host)
            return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                    for a in NAMES[host]]
        if host in ("127.0.0.1", "localhost"):
            return real_getaddrinfo("127.0.0.1", port, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, "unknown in this test")

    def create_connection(address, *args, **kwargs):
        Network.connections.append(address)
        host, port = address
        if host == PUBLIC and Network.public_port:
            return real_connect(("127.0.0.1", Network.public_port), *args, **kwargs)
        if host != "127.0.0.1":
            raise AssertionError(f"a test tried to connect to {address}")
        return real_connect(address, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(urllib3.util.connection, "create_connection", create_connection)
    return Network


@pytest.fixture
def hooks_settings(settings):
    settings.WEBHOOK_THREADS = 0  # deliver right after the commit, where the test can see it
    settings.WEBHOOK_ALLOWED_HOSTS = []
    settings.WEBHOOK_PORTS = [80, 443]
    settings.WEBHOOK_HTTPS_ONLY = False
    return settings


class Receiver(BaseHTTPRequestHandler):
    """A local receiver: answers each POST with `answer` (status, headers, body)."""

    received: list = []
    answer = (204, {}, b"")

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Receiver.received.append((self.headers.get("Host"), self.headers["X-Tradewinds-Signature"], body))
        status, headers, payload = Receiver.answer
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        if callable(payload):
            payload(self.wfile)
        else:
            self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Receiver.received, Receiver.answer = [], (204, {}, b"")
    yield server
    server.shutdown()
    server.server_close()


def _refusal(url):
    with pytest.raises(webhooks.Refused) as refused:
        webhooks.check(url)
    return refused.value


def _form(user, url):
    profile = Profile.objects.get(user=user)
    data = {"display_name": "Anna", "time_zone": "UTC", "language": "", "notify_email": profile.notify_email,
            "notify_turn": "on", "reminder_hours": "24,4,1", "webhook_url": url}
    return ProfileForm(data=data, instance=profile)


def _notify_with_hook(user, url, key="k", capture=None):
    Profile.objects.filter(user=user).update(webhook_url=url)
    with capture(execute=True):
        return notify_services.notify(user=user, kind=Notification.TURN, key=key, text="It is your turn in A.")


@pytest.mark.parametrize("url", INTERNAL)
def test_internal_addresses_are_refused_at_the_form_and_at_delivery(url, player, network, hooks_settings,
                                                                    django_capture_on_commit_callbacks):
    form = _form(player, url)
    assert not form.is_valid()
    # Django's own URL check already refuses some odd spellings (2130706433); the rest are ours.
    assert form.errors["webhook_url"][0] in ("Enter a valid URL.", str(_refusal(url)))
    if url in INTERNAL[:9]:  # the list
        assert "private, local or reserved" in form.errors["webhook_url"][0]
    # Stored before the check existed (or by a script): delivery refuses it just the same.
    _notify_with_hook(player, url, capture=django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get()
    assert delivery.delivered_at is None and delivery.next_try_at is None  # given up, never retried
    assert delivery.last_error.startswith("gave up: refused")
    assert network.connections == []


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8",
                                     "2a00:1450:4001:82b::200e"])
def test_public_addresses_pass_the_check(address):
    assert not webhooks.address_refused(address)


def test_a_public_name_passes_and_ports_and_schemes_are_bounded(player, network, hooks_settings):
    assert _form(player, "https://hooks.example/in").is_valid()
    assert webhooks.check("https://hooks.example/in") == webhooks.Target("https", "hooks.example", 443, "/in", PUBLIC)
    for url, words in (("https://hooks.example:6379/", "ports 80, 443"), ("ftp://hooks.example/", "https://"),
                       ("http://nowhere.example/", "could not be found"), ("http://u:p@hooks.example/", "password")):
        form = _form(player, url)
        assert not form.is_valid() and words in form.errors["webhook_url"][0], url
    hooks_settings.WEBHOOK_HTTPS_ONLY = True  # SECURE=1
    form = _form(player, "http://hooks.example/")
    assert not form.is_valid() and "only to https://" in form.errors["webhook_url"][0]
    assert network.connections == []


def test_the_checked_address_is_the_one_connected_to(player, network, hooks_settings, receiver,
                                                     django_capture_on_commit_callbacks):
    """One lookup per delivery: a resolver answering otherwise the second time (DNS rebinding)
    is never asked again; the name travels only in the Host header."""
    network.public_port = receiver.server_port
    _notify_with_hook(player, "http://hooks.example/in", capture=django_capture_on_commit_callbacks)
    assert WebhookDelivery.objects.get().delivered_at is not None
    assert network.lookups == ["hooks.example"]
    assert network.connections == [(PUBLIC, 80)]
    assert Receiver.received[0][0] == "hooks.example"


def test_a_redirect_to_a_private_address_is_not_followed(player, network, hooks_settings, receiver,
                                                         django_capture_on_commit_callbacks):
    network.public_port = receiver.server_port
    Receiver.answer = (307, {"Location": "http://10.0.0.1/steal"}, b"")
    _notify_with_hook(player, "http://hooks.example/in", capture=django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get()
    assert delivery.delivered_at is None and "redirects are not followed" in delivery.last_error
    assert network.connections == [(PUBLIC, 80)]  # nothing went to 10.0.0.1
    assert network.lookups == ["hooks.example"]


@pytest.fixture
def tls_receiver(tmp_path):
    """A local https receiver with a certificate for hooks.example; records the TLS server name
    each client asked for."""
    import ssl
    import subprocess

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=hooks.example", "-addext", "subjectAltName=DNS:hooks.example"],
                   check=True, capture_output=True)
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.names = []
    context.sni_callback = lambda sock, name, ctx: server.names.append(name)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Receiver.received, Receiver.answer = [], (204, {}, b"")
    server.ca_file = str(cert)
    yield server
    server.shutdown()
    server.server_close()


def test_https_goes_to_the_checked_address_with_the_name_verified(player, network, hooks_settings, tls_receiver,
                                                                  django_capture_on_commit_callbacks):
    """The connection goes to the checked address, while TLS asks for and verifies the name."""
    hooks_settings.WEBHOOK_HTTPS_ONLY, hooks_settings.WEBHOOK_CA_CERTS = True, tls_receiver.ca_file
    network.public_port = tls_receiver.server_port
    NAMES["other.example"] = [PUBLIC]
    try:
        _notify_with_hook(player, "https://hooks.example/in", capture=django_capture_on_commit_callbacks)
        assert WebhookDelivery.objects.get().delivered_at is not None
        assert tls_receiver.names == ["hooks.example"] and Receiver.received[0][0] == "hooks.example"
        assert network.connections == [(PUBLIC, 443)]
        # The same server for a name its certificate does not carry: refused by TLS.
        _notify_with_hook(player, "https://other.example/in", key="k2", capture=django_capture_on_commit_callbacks)
        failed = WebhookDelivery.objects.get(notification__key="k2")
        assert failed.delivered_at is None and "doesn't match 'hooks.example'" in failed.last_error
        assert len(Receiver.received) == 1
    finally:
        del NAMES["other.example"]


def test_an_allowed_local_receiver_gets_signed_deliveries(player, network, hooks_settings, receiver,
                                                          django_capture_on_commit_callbacks):
    url = f"http://127.0.0.1:{receiver.server_port}/hook"
    assert not _form(player, url).is_valid()
    hooks_settings.WEBHOOK_ALLOWED_HOSTS = [f"127.0.0.1:{receiver.server_port}"]
    assert _form(player, url).is_valid()
    _notify_with_hook(player, url, capture=django_capture_on_commit_callbacks)
    assert WebhookDelivery.objects.get().delivered_at is not None
    _, signature, body = Receiver.received[0]
    secret = Profile.objects.get(user=player).webhook_secret
    assert signature == notify_services.signature(secret, body)


def test_an_endless_answer_is_not_read(player, network, hooks_settings, receiver,
                                       django_capture_on_commit_callbacks):
    def endless(out):
        try:
            for _ in range(100_000):
                out.write(b"x" * 65536)
        except OSError:
            pass  # the site hung up, as it should

    Receiver.answer = (200, {}, endless)
    hooks_settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    started = time.monotonic()
    _notify_with_hook(player, f"http://127.0.0.1:{receiver.server_port}/", capture=django_capture_on_commit_callbacks)
    assert WebhookDelivery.objects.get().delivered_at is not None
    assert time.monotonic() - started < 3  # 6.5 GB were on offer


def test_an_answer_dripped_slowly_is_cut_off(player, network, hooks_settings, django_capture_on_commit_callbacks):
    """Each byte within the timeout, but the whole answer never: cut at twice the timeout."""
    hooks_settings.WEBHOOK_TIMEOUT, hooks_settings.WEBHOOK_ALLOWED_HOSTS = 0.5, ["127.0.0.1"]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def drip():
        conn, _ = listener.accept()
        conn.recv(65536)
        try:
            conn.sendall(b"HTTP/1.1 200 OK\r\n")
            for _ in range(100):
                time.sleep(0.2)
                conn.sendall(b"X-Slow: y\r\n")
        except OSError:
            pass
        finally:
            conn.close()

    threading.Thread(target=drip, daemon=True).start()
    started = time.monotonic()
    try:
        _notify_with_hook(player, f"http://127.0.0.1:{listener.getsockname()[1]}/",
                          capture=django_capture_on_commit_callbacks)
    finally:
        listener.close()
    delivery = WebhookDelivery.objects.get()
    assert delivery.delivered_at is None and "no complete answer within 1 s" in delivery.last_error
    assert time.monotonic() - started < 3


def test_deliveries_are_jobs_on_their_own_queue():
    from config.celery import app

    route = app.amqp.router.route({}, "notifications.tasks.deliver_webhook")
    assert route["queue"].name == "webhooks"
    assert app.amqp.router.route({}, "games.tasks.apply_deadline")["queue"].name == "celery"


def test_retries_are_handed_over_once_with_growing_pauses(player, network, hooks_settings,
                                                          django_capture_on_commit_callbacks):
    hooks_settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: each attempt fails at once
    _notify_with_hook(player, f"http://127.0.0.1:{port}/", capture=django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get()
    pauses = []
    for _ in range(3):
        pauses.append(delivery.next_try_at - timezone.now())
        now = delivery.next_try_at + timedelta(seconds=1)
        with django_capture_on_commit_callbacks(execute=True):
            assert notify_services.retry_webhooks(now=now) == 1
        assert notify_services.retry_webhooks(now=now) == 0  # claimed: not handed over twice
        delivery.refresh_from_db()
    assert delivery.attempts == 4
    assert [round(p.total_seconds() / 30) for p in pauses] == [1, 2, 4]


@pytest.mark.django_db(transaction=True)
def test_receivers_that_never_answer_hold_up_no_deadline(settings, race_match, network):
    """20 players whose webhooks hang; a turn deadline due at the same moment is applied within
    the sweep interval, and the deliveries still time out on their own threads."""
    settings.WEBHOOK_THREADS, settings.WEBHOOK_TIMEOUT = 4, 1
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)  # connections are taken by the kernel and never answered
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
    users = [User.objects.create(username=f"hook{i}", email=f"hook{i}@example.com") for i in range(20)]
    Profile.objects.bulk_create([Profile(user=u, display_name=u.username, webhook_url=url) for u in users])
    try:
        Match.objects.filter(pk=race_match.pk).update(turn_deadline=timezone.now(), next_due_at=timezone.now())
        started = time.monotonic()
        for i, user in enumerate(users):  # what a match-changed job does for 20 players
            notify_services.notify(user=user, kind=Notification.TURN, key=f"t{i}", text="Your turn.")
        tasks_run = [notifications_tasks.sweep_notifications.apply(), tasks.sweep_due_matches.apply()]
        applied_after = time.monotonic() - started
        assert all(t.successful() for t in tasks_run)
        match = Match.objects.get(pk=race_match.pk)
        assert match.turn_seats == [1] and match.log.filter(kind="timeout").exists()
        assert applied_after < settings.SWEEP_SECONDS
        webhooks.drain()
    finally:
        silent.close()
    failed = WebhookDelivery.objects.filter(url=url)
    assert failed.count() == 20
    assert all(d.attempts == 1 and d.delivered_at is None and "timed out" in d.last_error.lower() for d in failed)
