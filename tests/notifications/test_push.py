"""Web Push (issue 35, part 1): a local push service in this file checks what a real one would
(the VAPID JWT: ES256 under the site's public key, aud the endpoint's origin, exp in the future)
and decrypts the aes128gcm payload with the subscription's own private key and auth secret
(http_ece), as the browser would. Nothing is sent anywhere but 127.0.0.1."""
import base64
import json
import os
import threading
import time
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from zoneinfo import ZoneInfo

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import Profile
from notifications import push
from notifications import services as notify_services
from notifications.models import Notification, PushChoices, PushDelivery, PushSubscription
from tests.conftest import client_for


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService(BaseHTTPRequestHandler):
    """Answers with the next of `statuses` (then 201) and keeps what it was sent."""

    received: list = []
    statuses: list = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        PushService.received.append((self.path, dict(self.headers), body, time.monotonic()))
        self.send_response(PushService.statuses.pop(0) if PushService.statuses else 201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def service(settings):
    server = HTTPServer(("127.0.0.1", 0), PushService)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    PushService.received, PushService.statuses = [], []
    # A local push service is a private address: the operator allows it; deliveries run right here.
    settings.WEBHOOK_ALLOWED_HOSTS, settings.WEBHOOK_THREADS = [f"127.0.0.1:{server.server_port}"], 0
    settings.PUSH_QUIET_HOURS = ""
    server.origin = f"http://127.0.0.1:{server.server_port}"
    yield server
    server.shutdown()


class Browser:
    """A browser's side of a subscription: its ECDH key pair and auth secret (RFC 8291)."""

    def __init__(self, endpoint):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        self.p256dh = b64(public)

    def subscribe(self, user, name="Phone"):
        return client_for(user).post(reverse("push_subscribe"), json.dumps(
            {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)}, "name": name}),
            content_type="application/json")

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def site_public_key(settings):
    """The public half of the site's VAPID key, derived here from the private number."""
    number = int.from_bytes(unb64(settings.VAPID_PRIVATE_KEY), "big")
    return ec.derive_private_key(number, ec.SECP256R1()).public_key()


def check_vapid(headers, origin, settings):
    """What a push service checks (RFC 8292): the JWT's ES256 signature under the key in `k`,
    which is the site's; its audience the endpoint's origin; an expiry in the next 24 hours."""
    scheme, _, params = headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    key = site_public_key(settings)
    assert unb64(fields["k"]) == key.public_bytes(serialization.Encoding.X962,
                                                  serialization.PublicFormat.UncompressedPoint)
    head, claims, sig = fields["t"].split(".")
    assert json.loads(unb64(head))["alg"] == "ES256"
    raw = unb64(sig)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64(claims))
    assert claims["aud"] == origin
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"].startswith(("mailto:", "https:"))
    with pytest.raises(InvalidSignature):  # the check itself can fail
        key.verify(der, f"{head}.{claims}x".encode(), ec.ECDSA(hashes.SHA256()))


def test_your_turn_is_pushed_signed_and_encrypted_in_the_players_language(
        race_match, player, opponent, play, service, settings):
    Profile.objects.filter(user=opponent).update(language="de")
    phone = Browser(f"{service.origin}/push/bo-phone")
    assert phone.subscribe(opponent).status_code == 201
    started = time.monotonic()
    play(race_match, (player, "roll"), (player, "stay"))  # the move's job runs after its commit
    [(path, headers, body, at)] = PushService.received
    assert path == "/push/bo-phone" and at - started < 5
    check_vapid(headers, service.origin, settings)
    assert headers["Content-Encoding"] == "aes128gcm" and int(headers["TTL"]) > 0
    message = phone.read(body)
    with translation.override("de"):
        expected = gettext("It is your turn in %(match)s.") % {"match": str(race_match)}
    assert expected != f"It is your turn in {race_match}."  # a German text, not the English one
    assert message["body"] == expected and message["lang"] == "de"
    assert message["url"].endswith(race_match.get_absolute_url() + "#match-live")
    delivery = PushDelivery.objects.get()
    assert delivery.delivered_at is not None and delivery.attempts == 1
    with pytest.raises(Exception):  # another browser's keys cannot read it
        Browser(phone.endpoint).read(body)


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_has_forgotten_is_removed(race_match, player, opponent, play, service, status):
    Browser(f"{service.origin}/gone").subscribe(opponent)
    kept = Browser(f"{service.origin}/kept")
    kept.subscribe(opponent, name="Laptop")
    PushService.statuses = [status]
    play(race_match, (player, "roll"), (player, "stay"))
    assert list(PushSubscription.objects.values_list("name", flat=True)) == ["Laptop"]
    gone = PushDelivery.objects.get(subscription__isnull=True)
    assert gone.next_try_at is None and str(status) in gone.last_error  # recorded, not retried
    assert PushDelivery.objects.get(subscription__isnull=False).delivered_at is not None


def test_other_failures_are_retried_with_growing_waits_then_given_up(
        race_match, player, opponent, play, service, django_capture_on_commit_callbacks):
    Browser(f"{service.origin}/flaky").subscribe(opponent)
    PushService.statuses = [500, 503]
    play(race_match, (player, "roll"), (player, "stay"))
    delivery = PushDelivery.objects.get()
    first_wait = delivery.next_try_at - timezone.now()
    assert delivery.delivered_at is None and delivery.attempts == 1 and "500" in delivery.last_error
    assert timedelta(seconds=20) < first_wait <= timedelta(seconds=30)
    with django_capture_on_commit_callbacks(execute=True):
        assert push.retry_pushes(now=delivery.next_try_at + timedelta(seconds=1)) == 1
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and delivery.delivered_at is None
    assert delivery.next_try_at - timezone.now() > timedelta(seconds=50)  # twice as long
    with django_capture_on_commit_callbacks(execute=True):
        push.retry_pushes(now=delivery.next_try_at + timedelta(seconds=1))
    delivery.refresh_from_db()
    assert delivery.delivered_at is not None and delivery.attempts == 3
    # A push service that never takes it: given up after MAX_PUSH_ATTEMPTS and recorded.
    PushService.statuses = [500] * push.MAX_PUSH_ATTEMPTS
    note = notify_services.notify(user=opponent, kind=Notification.REMINDER, key="r", text="x",
                                  match=race_match, url=race_match.get_absolute_url(), params={"hours": 2})
    later = PushDelivery.objects.get(notification=note)
    for _ in range(push.MAX_PUSH_ATTEMPTS + 2):
        later.refresh_from_db()
        if later.next_try_at is None:
            break
        push.deliver(later, now=later.next_try_at)
    assert later.attempts == push.MAX_PUSH_ATTEMPTS and later.last_error.startswith("gave up: HTTP 500")
    assert PushSubscription.objects.count() == 1  # a failing service is not a forgotten device


def test_quiet_hours_follow_the_players_time_zone():
    hours = (22, 7)
    tokyo = datetime(2026, 12, 5, 14, 30, tzinfo=ZoneInfo("UTC"))  # 23:30 in Tokyo, 15:30 in Oslo
    assert push.quiet_until(tokyo, "Asia/Tokyo", hours) == datetime(2026, 12, 6, 7, tzinfo=ZoneInfo("Asia/Tokyo"))
    assert push.quiet_until(tokyo, "Europe/Oslo", hours) is None
    early = datetime(2026, 12, 5, 5, 0, tzinfo=ZoneInfo("UTC"))  # 06:00 in Oslo: quiet until 07:00 that day
    assert push.quiet_until(early, "Europe/Oslo", hours) == datetime(2026, 12, 5, 7, tzinfo=ZoneInfo("Europe/Oslo"))
    assert push.quiet_until(early, "Europe/Oslo", (9, 17)) is None
    # Across the change to summer time the wall clock's 07:00 is kept.
    spring = datetime(2026, 3, 28, 23, 0, tzinfo=ZoneInfo("UTC"))  # 00:00 in Oslo, the night clocks go forward
    assert push.quiet_until(spring, "Europe/Oslo", hours) == datetime(2026, 3, 29, 5, tzinfo=ZoneInfo("UTC"))


def test_a_push_in_quiet_hours_waits_for_their_end(race_match, player, opponent, play, service,
                                                   django_capture_on_commit_callbacks):
    Profile.objects.filter(user=opponent).update(time_zone="America/Los_Angeles")
    local = timezone.now().astimezone(ZoneInfo("America/Los_Angeles"))
    PushChoices.objects.create(user=opponent, kinds=push.EVENTS, quiet_from=local.hour,
                               quiet_until=(local.hour + 2) % 24)
    Browser(f"{service.origin}/sleeping").subscribe(opponent)
    play(race_match, (player, "roll"), (player, "stay"))
    assert PushService.received == []
    delivery = PushDelivery.objects.get()
    ends = delivery.next_try_at.astimezone(ZoneInfo("America/Los_Angeles"))
    assert (ends.hour, ends.minute) == ((local.hour + 2) % 24, 0) and delivery.attempts == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert push.retry_pushes(now=delivery.next_try_at - timedelta(minutes=1)) == 0
    assert PushService.received == []
    PushChoices.objects.filter(user=opponent).update(quiet_from=None, quiet_until=None)  # morning came
    with django_capture_on_commit_callbacks(execute=True):
        assert push.retry_pushes(now=delivery.next_try_at + timedelta(seconds=1)) == 1
    assert len(PushService.received) == 1


def test_an_event_switched_off_is_not_pushed_and_others_are(race_match, player, opponent, play, service,
                                                           django_capture_on_commit_callbacks):
    Browser(f"{service.origin}/picky").subscribe(opponent)
    response = client_for(opponent).post(reverse("push_choices"), {"kinds": ["finished", "offer"]})
    assert response.status_code == 302
    play(race_match, (player, "roll"), (player, "stay"))
    assert Notification.objects.filter(user=opponent, kind=Notification.TURN).exists()
    assert PushService.received == [] and not PushDelivery.objects.exists()
    notify_services.tell_substitute_offered(user=opponent, match=race_match, offer_key="seat-0")
    assert PushService.received == []  # substitute offers were switched off too
    client_for(opponent).post(reverse("push_choices"), {"kinds": ["substitute"]})
    with django_capture_on_commit_callbacks(execute=True):
        notify_services.tell_substitute_offered(user=opponent, match=race_match, offer_key="seat-1")
    assert len(PushService.received) == 1


@pytest.mark.parametrize("endpoint", ["https://127.0.0.1/push", "https://10.0.0.1/push", "https://[::1]/push",
                                      "https://169.254.169.254/latest", "http://fcm.googleapis.com/fcm/send/x",
                                      "https://0x7f.1/push", "ftp://push.example/x"])
def test_private_or_plain_push_endpoints_are_refused_and_nothing_is_sent(opponent, endpoint, settings):
    settings.WEBHOOK_ALLOWED_HOSTS = []
    response = Browser(endpoint).subscribe(opponent)
    assert response.status_code == 400 and response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_stored_endpoint_that_became_private_is_given_up_without_a_connection(
        race_match, player, opponent, play, service, settings):
    Browser(f"{service.origin}/was-allowed").subscribe(opponent)
    settings.WEBHOOK_ALLOWED_HOSTS = []  # the operator no longer allows the local service
    play(race_match, (player, "roll"), (player, "stay"))
    delivery = PushDelivery.objects.get()
    assert PushService.received == [] and delivery.next_try_at is None
    assert delivery.last_error.startswith("gave up: refused")


def test_bad_subscriptions_get_a_clear_400(opponent, service):
    client = client_for(opponent)
    for body in ["not json", json.dumps({"endpoint": f"{service.origin}/x", "keys": {"p256dh": "abc", "auth": "d"}}),
                 json.dumps({"endpoint": 5}), json.dumps([1]), "[" * 50_000 + "]" * 50_000]:  # the last was a 500
        response = client.post(reverse("push_subscribe"), body, content_type="application/json")
        assert response.status_code == 400 and response.json()["error"]
    assert not PushSubscription.objects.exists()
    assert client.get(reverse("push_subscribe")).status_code == 405
    deep = client.post(reverse("push_unsubscribe"), "[" * 50_000 + "]" * 50_000, content_type="application/json")
    assert deep.status_code == 200 and deep.json() == {"removed": 0}


@pytest.mark.parametrize("endpoint, name, auth", [
    ("https://[::1/push", "Phone", None),            # urlsplit's ValueError was a 500
    ("{origin}/a\x00b", "Phone", None),              # a NUL PostgreSQL cannot store (nor unsubscribe compare)
    ("{origin}/a", "Pho\x00ne", None),
    ("{origin}/a", "Phone\r\nBcc: x", None),
    ("{origin}/a", "Phone", "AAAAAAAAAAAAAAAAAAAAAA\x00"),
])
def test_a_subscription_with_a_broken_address_or_control_characters_is_refused(opponent, service, endpoint,
                                                                               name, auth):
    browser = Browser(endpoint.format(origin=service.origin))
    auth = auth if auth is not None else b64(browser.auth)
    response = client_for(opponent).post(reverse("push_subscribe"), json.dumps(
        {"endpoint": browser.endpoint, "keys": {"p256dh": browser.p256dh, "auth": auth}, "name": name}),
        content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_forgetting_an_address_no_device_could_have_removes_nothing_and_says_so(opponent, service):
    Browser(f"{service.origin}/a").subscribe(opponent)
    client = client_for(opponent)
    for endpoint in [f"{service.origin}/a\x00", "\x00", "", f"{service.origin}/" + "a" * 900, 5, None]:
        response = client.post(reverse("push_unsubscribe"), json.dumps({"endpoint": endpoint}),
                               content_type="application/json")
        assert response.status_code == 200 and response.json() == {"removed": 0}, endpoint
    assert PushSubscription.objects.count() == 1
    response = client.post(reverse("push_unsubscribe"), json.dumps({"endpoint": f"{service.origin}/a"}),
                           content_type="application/json")
    assert response.json() == {"removed": 1} and not PushSubscription.objects.exists()


def test_devices_are_listed_by_name_and_only_their_owner_removes_them(opponent, player, service):
    Browser(f"{service.origin}/a").subscribe(opponent, name="Chromium / Android")
    page = client_for(opponent).get(reverse("profile")).content.decode()
    assert "Chromium / Android" in page and "Notify me on this device" in page
    assert f'data-key="{push.public_key()}"' in page
    device = PushSubscription.objects.get()
    assert client_for(player).post(reverse("push_remove", args=[device.pk])).status_code == 404
    assert PushSubscription.objects.exists()
    assert client_for(opponent).post(reverse("push_remove", args=[device.pk])).status_code == 302
    assert not PushSubscription.objects.exists()


def test_the_service_worker_is_served_at_the_root_with_its_scope(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "script-src 'self'" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert "showNotification" in body and "notificationclick" in body
