"""Issue 35, part 1, in Chromium: the profile's "Notify me on this device" switch registers the
site's service worker and hands the browser's subscription to the server, which lists the
device; switched off (or removed from the list) it is forgotten.

This machine has no internet, so Chromium cannot reach its real push service (FCM) to make a
subscription: the test gives the page a PushManager whose subscribe() answers what a browser
answers — an https endpoint on a public address and a real P-256 key and auth secret, made here
as a browser makes them — and everything else is the page's own: its script, the service
worker's registration, the permission prompt, the POST and the server's checks. What the
server then sends to such a subscription (VAPID, aes128gcm, the reader's language) is
tests/notifications/test_push.py's."""
import base64
import json
import os

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from django.utils import translation
from django.utils.translation import gettext

from notifications.models import PushSubscription
from tests.notifications.test_push import Browser, PushService, check_vapid, service  # noqa: F401 (a fixture)
from tests.browser.conftest import LIVE_WAIT_MS
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _browser_keys() -> dict:
    public = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": _b64(public), "auth": _b64(os.urandom(16))}


# The push service's side of PushManager, kept in localStorage so the page reloaded after the
# switch finds its subscription as a browser would.
STUB = """
(() => {
  const made = %s;
  const stored = () => JSON.parse(localStorage.getItem('stub-push') || 'null');
  const subscription = (json) => json && {
    endpoint: json.endpoint, options: {},
    toJSON: () => json,
    unsubscribe: () => { localStorage.removeItem('stub-push'); return Promise.resolve(true); },
  };
  if (!window.PushManager) return;
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    localStorage.setItem('stub-push-key-length', String(key.length));
    localStorage.setItem('stub-push', JSON.stringify(made));
    return Promise.resolve(subscription(made));
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(subscription(stored())); };
})();
"""


@pytest.mark.parametrize("viewport", [None, {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_the_switch_subscribes_this_device_and_lists_it_and_off_forgets_it(people, viewport):
    make_user("anna")
    endpoint = "https://93.184.216.34/push/v1/anna-device"   # a public address: the SSRF guard lets it by
    made = {"endpoint": endpoint, "expirationTime": None, "keys": _browser_keys()}
    anna = people("push-anna", viewport=viewport)
    anna.context.grant_permissions(["notifications"], origin=anna.base)
    anna.context.add_init_script(STUB % json.dumps(made))
    anna.log_in("anna")

    # The service worker is served at the root, as JavaScript, allowed the whole site.
    worker = anna.page.request.get(anna.base + "/sw.js")
    assert worker.status == 200 and worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["service-worker-allowed"] == "/"
    assert "addEventListener(\"push\"" in worker.text() or "addEventListener('push'" in worker.text()

    profile = anna.page.request.get(anna.base + "/accounts/profile/")
    policy = dict((part.split() + [""])[:1] + [" ".join(part.split()[1:])]
                  for part in profile.headers["content-security-policy"].split(";") if part.strip())
    # The worker falls under worker-src, else script-src, else default-src: this site only, no inline.
    workers = policy.get("worker-src") or policy.get("script-src") or policy["default-src"]
    assert "'self'" in workers and "'unsafe-inline'" not in policy.get("script-src", "")

    anna.go("/accounts/profile/")
    # Every script the page runs is a file (a JSON data block is not run).
    assert anna.page.evaluate("""() => [...document.scripts].filter(s => !s.src
        && !/json/.test(s.type)).length""") == 0
    switch = anna.page.locator("#push-on")
    anna.page.wait_for_selector("[data-push-switch][data-ready='1']", timeout=LIVE_WAIT_MS)
    assert not switch.is_checked() and switch.is_enabled()
    assert anna.page.evaluate("() => navigator.serviceWorker.getRegistration('/').then(r => !!r && r.scope)") \
        == anna.base + "/"
    with anna.page.expect_navigation():   # the page shows the device list anew once the server has it
        switch.click()
    anna.page.wait_for_selector(f".push-devices li[data-endpoint='{endpoint}']", timeout=LIVE_WAIT_MS)
    stored = PushSubscription.objects.get(endpoint=endpoint)
    assert stored.user.username == "anna"
    assert (stored.p256dh, stored.auth) == (made["keys"]["p256dh"], made["keys"]["auth"])
    assert stored.name.startswith("Chromium")
    assert anna.page.evaluate("() => localStorage.getItem('stub-push-key-length')") == "65"  # the site's VAPID key
    anna.page.wait_for_selector("[data-push-switch][data-ready='1']", timeout=LIVE_WAIT_MS)
    assert anna.page.locator("#push-on").is_checked()
    remove = anna.page.locator(".push-devices li button")
    assert remove.bounding_box()["height"] >= 24          # a thumb can hit it
    anna.shot("push-device-listed")

    # Off: the browser unsubscribes and the server forgets the device.
    with anna.page.expect_navigation():
        anna.page.locator("#push-on").click()
    anna.page.wait_for_selector("text=No device is told yet.", timeout=LIVE_WAIT_MS)
    assert not PushSubscription.objects.filter(endpoint=endpoint).exists()

    # On again, then removed from the list by its button.
    anna.page.wait_for_selector("[data-push-switch][data-ready='1']", timeout=LIVE_WAIT_MS)
    with anna.page.expect_navigation():
        anna.page.locator("#push-on").click()
    anna.page.wait_for_selector(f".push-devices li[data-endpoint='{endpoint}']", timeout=LIVE_WAIT_MS)
    anna.page.locator(".push-devices li button").click()
    anna.page.wait_for_selector("text=No device is told yet.", timeout=LIVE_WAIT_MS)
    assert not PushSubscription.objects.filter(endpoint=endpoint).exists()
    assert anna.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert anna.errors == []


def test_a_device_switched_on_in_chromium_is_told_of_its_turn_in_its_players_language(service, settings, people):
    """The whole path from the switch to the device: the subscription Chromium hands the server
    (stubbed as above, but with a key pair kept here, as the browser keeps its own) points at
    test_push.py's local push service, which checks the VAPID signature and decrypts what it is
    sent with that key pair. `service` comes before `people`: the site's server is a fork made
    then, and must inherit the setting that lets it accept the local push service's address."""
    from accounts.models import Profile
    from games import play as games_play

    anna, bo = make_user("anna"), make_user("bo")
    Profile.objects.filter(user=bo).update(language="de")
    device = Browser(f"{service.origin}/push/bo-chromium")
    made = {"endpoint": device.endpoint, "expirationTime": None,
            "keys": {"p256dh": device.p256dh, "auth": _b64(device.auth)}}
    seen = people("push-bo", viewport={"width": 390, "height": 844})
    seen.context.grant_permissions(["notifications"], origin=seen.base)
    seen.context.add_init_script(STUB % json.dumps(made))
    seen.log_in("bo")
    seen.go("/accounts/profile/")
    seen.page.wait_for_selector("[data-push-switch][data-ready='1']", timeout=LIVE_WAIT_MS)
    with seen.page.expect_navigation():
        seen.page.locator("#push-on").click()
    seen.page.wait_for_selector(f".push-devices li[data-endpoint='{device.endpoint}']", timeout=LIVE_WAIT_MS)

    match = games_play.match_create(creator=anna, game="race", seats=2, options={"finish": 30})
    games_play.match_join(match_id=match.pk, user=bo)
    games_play.action_apply(match_id=match.pk, user=anna, action={"type": "roll"})
    games_play.action_apply(match_id=match.pk, user=anna, action={"type": "stay"})   # bo's turn now
    assert PushService.received   # the match's start, then bo's turn
    messages = []
    for path, headers, body, _at in PushService.received:
        assert path == "/push/bo-chromium"
        check_vapid(headers, service.origin, settings)
        messages.append(device.read(body))
    with translation.override("de"):
        expected = gettext("It is your turn in %(match)s.") % {"match": str(match)}
    assert expected != f"It is your turn in {match}."   # a German text, not the English one
    assert expected in [m["body"] for m in messages]
    assert {m["lang"] for m in messages} == {"de"}
    assert seen.errors == []
