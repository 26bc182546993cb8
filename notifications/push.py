"""Web Push (RFC 8030, 8291, 8292) to the devices a player switched it on for: another channel
beside e-mail and webhooks, for the same notifications.

The payload is encrypted (aes128gcm) to each subscription's own keys by pywebpush and signed
with the site's VAPID key by py_vapid; it is then POSTed through the webhooks' guard
(notifications/webhooks.py), so an endpoint is a push service's public address and never one
inside the site's network. Each delivery is a job on the `push` queue, after the commit; in a
player's quiet hours it waits until they end. A push service that answers 404 or 410 has
forgotten the device: its subscription is removed. Any other failure is tried again, waiting
twice as long each time, then recorded as given up."""
import json
import logging
import zoneinfo
from datetime import datetime, timedelta
from functools import lru_cache
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid02
from py_vapid.utils import b64urlencode
from pywebpush import WebPusher, WebPushException
from cryptography.hazmat.primitives import serialization

from accounts.validators import control_character_message
from games.play import jobs
from notifications import webhooks
from notifications.models import Notification, PushChoices, PushDelivery, PushSubscription
from notifications.wording import notification_text

log = logging.getLogger(__name__)

DELIVER_PUSH = "notifications.tasks.deliver_push"
MAX_PUSH_ATTEMPTS = 8
PUSH_LEASE = timedelta(minutes=10)

# The events a player may have pushed, each on or off (all on until they choose): the e-mail's
# events, named as the player knows them.
EVENTS = ["turn", "reminder", "offer", "orders", "started", "finished", "substitute"]


def event_labels() -> list[tuple[str, str]]:
    return [("turn", _("Your turn")), ("reminder", _("Deadline reminders")), ("offer", _("Offers to you")),
            ("orders", _("Standing orders played")), ("started", _("Match started")),
            ("finished", _("Match ended")), ("substitute", _("A seat offered to you as substitute"))]


def event_of(notification) -> str:
    """The event a notification tells of, as the player's choices name it."""
    if notification.kind == Notification.TURN and ":orders:" in notification.key:
        return "orders"  # notifications/orders.py: "your standing orders played your turn"
    if notification.kind == Notification.CARD:
        return "offer"  # older rows only
    return notification.kind


# Where a click on the notification lands on the match's page.
_PLACE = {"orders": "#orders", "finished": "#log-title"}


class Refused(ValueError):
    """A subscription the site will not push to; the message is for the player."""


@lru_cache(maxsize=2)
def _vapid(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key)


def vapid() -> Vapid02:
    return _vapid(settings.VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The site's VAPID public key as a browser's applicationServerKey takes it (base64url)."""
    raw = vapid().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64urlencode(raw)


def check_endpoint(endpoint: str) -> None:
    """A push endpoint is a push service's https address on the public internet (the webhooks'
    guard); the hosts in WEBHOOK_ALLOWED_HOSTS (a local test receiver) are exempt."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port or 443
    except ValueError as exc:
        raise Refused(_("This is not a valid web address.")) from exc
    if parts.scheme != "https" and not webhooks.allowed_host(parts.hostname or "", port):
        raise Refused(_("A push service's address starts with https://."))
    try:
        webhooks.check(endpoint)
    except webhooks.Refused as exc:
        raise Refused(_("This push service's address is refused: %(why)s") % {"why": exc}) from exc


# Quiet hours ----------------------------------------------------------------------------------

def _hours(text: str) -> tuple[int, int] | None:
    try:
        start, end = (int(part) for part in text.split("-"))
    except ValueError:
        return None
    return (start, end) if 0 <= start < 24 and 0 <= end < 24 and start != end else None


def quiet_hours(choices: PushChoices | None) -> tuple[int, int] | None:
    """(from, until) hours of the day, the player's own or the site's; None: never quiet."""
    if choices is not None and choices.quiet_from is not None and choices.quiet_until is not None:
        if choices.quiet_from == choices.quiet_until:
            return None
        return choices.quiet_from, choices.quiet_until
    return _hours(settings.PUSH_QUIET_HOURS or "")


def quiet_until(now: datetime, zone: str, hours: tuple[int, int] | None) -> datetime | None:
    """When the quiet hours around `now` end in the player's zone; None if `now` is not quiet."""
    if hours is None:
        return None
    try:
        tz = zoneinfo.ZoneInfo(zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo("UTC")
    local = now.astimezone(tz)
    start, end = hours
    quiet = (start <= local.hour or local.hour < end) if start > end else (start <= local.hour < end)
    if not quiet:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    # Built from the wall clock, so a change to or from summer time lands on the right hour.
    return datetime(ends.year, ends.month, ends.day, end, tzinfo=tz).astimezone(zoneinfo.ZoneInfo("UTC"))


# Queueing -------------------------------------------------------------------------------------

def wanted(choices: PushChoices | None, event: str) -> bool:
    return choices is None or event in (choices.kinds or [])


def queue_for(notification, profile) -> int:
    """Make a delivery for each of the player's devices, if they want this event pushed; each is
    handed to its job after the commit, or at the end of their quiet hours."""
    devices = list(PushSubscription.objects.filter(user_id=notification.user_id).values_list("pk", flat=True))
    if not devices:
        return 0
    choices = PushChoices.objects.filter(user_id=notification.user_id).first()
    if not wanted(choices, event_of(notification)):
        return 0
    now = timezone.now()
    later = quiet_until(now, getattr(profile, "time_zone", "UTC"), quiet_hours(choices))
    made = PushDelivery.objects.bulk_create(
        [PushDelivery(notification=notification, subscription_id=pk, next_try_at=later or now + PUSH_LEASE)
         for pk in devices], ignore_conflicts=True)
    if later is None:
        for delivery in PushDelivery.objects.filter(notification=notification, delivered_at__isnull=True,
                                                    attempts=0):
            queue_delivery(delivery.pk)
    return len(made)


def queue_delivery(delivery_id) -> None:
    """After the commit: on the `push` queue of Celery, or without a worker on this process's
    delivery threads (WEBHOOK_THREADS=0: right here, which tests use)."""

    def hand_over():
        try:
            if not settings.JOBS_IN_PROCESS:
                jobs.queue(DELIVER_PUSH, delivery_id)
            elif settings.WEBHOOK_THREADS:
                webhooks.in_background(_deliver_on_thread, delivery_id)
            else:
                deliver_by_id(delivery_id)
        except Exception:  # the broker away: the sweep hands it over again after the lease
            log.warning("could not queue push delivery %s", delivery_id, exc_info=True)

    transaction.on_commit(hand_over)


def _deliver_on_thread(delivery_id):
    from django.db import close_old_connections

    try:
        deliver_by_id(delivery_id)
    except Exception:
        log.exception("push delivery %s failed", delivery_id)
    finally:
        close_old_connections()


def retry_pushes(now=None) -> int:
    """Hand the deliveries that are due (a retry, the end of quiet hours, a lost job) to their
    jobs, each claimed for a while so the next sweep does not hand it over twice."""
    now = now or timezone.now()
    due = list(PushDelivery.objects.filter(delivered_at__isnull=True, next_try_at__lte=now)
               .order_by("next_try_at").values_list("pk", "next_try_at")[:200])
    queued = 0
    for pk, next_try_at in due:
        if PushDelivery.objects.filter(pk=pk, next_try_at=next_try_at).update(next_try_at=now + PUSH_LEASE):
            queue_delivery(pk)
            queued += 1
    return queued


# Delivering -----------------------------------------------------------------------------------

def payload(notification, profile) -> dict:
    """What the service worker shows: the words in the player's language now, and where a
    click opens."""
    from notifications.services import language_for
    from notifications.wording import absolute_url

    language = language_for(profile)
    with translation.override(language):
        text = notification_text(notification, lang=language)
        title = str(dict(Notification.KINDS).get(notification.kind, settings.SITE_NAME))
    event = event_of(notification)
    url = absolute_url(notification.url) + (_PLACE.get(event, "#match-live") if notification.url else "")
    return {"title": title, "body": text, "url": url, "tag": f"{notification.match_id}:{event}",
            "lang": language, "id": notification.pk}


def deliver(delivery: PushDelivery, now=None) -> bool:
    from accounts.models import Profile

    now = now or timezone.now()
    subscription, notification = delivery.subscription, delivery.notification
    if subscription is None:
        delivery.next_try_at, delivery.last_error = None, "gave up: the device was removed"
        delivery.save(update_fields=["next_try_at", "last_error"])
        return False
    profile = Profile.objects.filter(user_id=notification.user_id).first()
    choices = PushChoices.objects.filter(user_id=notification.user_id).first()
    later = quiet_until(now, getattr(profile, "time_zone", "UTC"), quiet_hours(choices))
    if later is not None:  # quiet hours began since it was queued (a retry): it waits, untried
        delivery.next_try_at = later
        delivery.save(update_fields=["next_try_at"])
        return False
    delivery.attempts += 1
    gone = refused = False
    try:
        check_endpoint(subscription.endpoint)
        pusher = WebPusher({"endpoint": subscription.endpoint,
                            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}})
        body = pusher.encode(json.dumps(payload(notification, profile)).encode(), "aes128gcm")["body"]
        parts = urlsplit(subscription.endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": settings.VAPID_SUBJECT,
                  "exp": int((now + timedelta(hours=12)).timestamp())}
        headers = {**vapid().sign(claims), "TTL": str(settings.PUSH_TTL_SECONDS), "Content-Encoding": "aes128gcm",
                   "Content-Type": "application/octet-stream",
                   "Urgency": "high" if notification.kind == Notification.TURN else "normal"}
        status, error = webhooks.send(subscription.endpoint, body, headers, timeout=settings.WEBHOOK_TIMEOUT)
        gone = status in (404, 410)
        refused = status in (400, 401, 403, 413)  # the same request would be refused again
    except (Refused, WebPushException) as exc:
        status, error, refused = None, f"refused: {exc}", True
    except Exception as exc:  # any failure of the push service's is a failed attempt, never a crash
        status, error = None, f"{type(exc).__name__}: {exc}"
    if status is not None and 200 <= status < 300:
        delivery.delivered_at, delivery.next_try_at, delivery.last_error = now, None, ""
        PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=now)
    elif gone:
        delivery.next_try_at, delivery.last_error = None, f"gone: {error} (the device was removed)"[:300]
        delivery.save()
        subscription.delete()  # its deliveries keep their record, without the device
        return False
    elif refused or delivery.attempts >= MAX_PUSH_ATTEMPTS:
        delivery.next_try_at, delivery.last_error = None, f"gave up: {error}"[:300]
    else:
        delivery.next_try_at = now + timedelta(seconds=30 * 2 ** (delivery.attempts - 1))
        delivery.last_error = error[:300]
    delivery.save()
    return delivery.delivered_at is not None


def deliver_by_id(delivery_id) -> bool:
    delivery = (PushDelivery.objects.select_related("subscription", "notification__match")
                .defer("notification__match__state").filter(pk=delivery_id, delivered_at__isnull=True).first())
    if delivery is None or delivery.next_try_at is None:
        return False  # delivered already, or given up
    return deliver(delivery)


# The devices ----------------------------------------------------------------------------------

def subscribe(*, user, endpoint: str, p256dh: str, auth: str, name: str) -> PushSubscription:
    """Store (or move to this player) a browser's subscription. Raises Refused."""
    endpoint, name = (endpoint or "").strip(), (name or "").strip()[:80] or _("This device")
    if not endpoint or len(endpoint) > 800:
        raise Refused(_("The browser gave no push address."))
    for text in (endpoint, p256dh or "", auth or "", name):  # kept, shown, and compared by the database
        if message := control_character_message(text):
            raise Refused(message)
    check_endpoint(endpoint)
    try:
        WebPusher({"endpoint": endpoint, "keys": {"p256dh": p256dh or "", "auth": auth or ""}})
    except (WebPushException, ValueError, TypeError) as exc:
        raise Refused(_("The browser's push keys are not valid.")) from exc
    if not p256dh or not auth or len(p256dh) > 120 or len(auth) > 40:
        raise Refused(_("The browser's push keys are not valid."))
    with transaction.atomic():
        subscription, _made = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "name": name})
    return subscription


def unsubscribe(*, user, pk=None, endpoint=None) -> int:
    if pk is None and (not endpoint or len(endpoint) > 800 or "\x00" in endpoint):
        return 0  # no subscription is stored so (subscribe refuses it; PostgreSQL cannot even compare a NUL)
    qs = PushSubscription.objects.filter(user=user)
    qs = qs.filter(pk=pk) if pk is not None else qs.filter(endpoint=endpoint)
    return qs.delete()[0]


def save_choices(*, user, kinds, quiet_from, quiet_until) -> PushChoices:
    kinds = [k for k in EVENTS if k in set(kinds)]
    choices, _made = PushChoices.objects.update_or_create(
        user=user, defaults={"kinds": kinds, "quiet_from": quiet_from, "quiet_until": quiet_until})
    return choices
