"""Telling players what concerns them: on the site (the inbox), by email (each event, a daily
digest or never) and by a signed webhook, retried until it is taken."""
import hashlib
import hmac
import json
import logging
import urllib.error
import urllib.request
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Profile
from notifications.models import Notification, WebhookDelivery

log = logging.getLogger(__name__)

WEBHOOK_TIMEOUT = 5
MAX_WEBHOOK_ATTEMPTS = 8


def language_for(profile) -> str:
    """The language a player is told things in: their profile's, else the site's. Never the one
    active now, which is the language of whoever caused the event."""
    return (profile.language if profile is not None else "") or settings.LANGUAGE_CODE


def speaking_to(user):
    """Render words for this player inside `with speaking_to(user):`."""
    return translation.override(language_for(getattr(user, "profile", None)))


def notify(*, user, kind: str, key: str, text: str, match=None, url: str = "") -> Notification | None:
    """Record a notification once (a second call with the same key does nothing) and send it
    on by email and webhook as the player chose."""
    if not user.is_active:
        return None  # bots and closed accounts have nobody to tell
    profile = Profile.objects.filter(user=user).first()
    if kind == Notification.TURN and profile is not None and not profile.notify_turn:
        return None
    try:
        with transaction.atomic():
            notification = Notification.objects.create(user=user, kind=kind, key=key[:120], text=text[:300],
                                                       match=match, url=url)
    except IntegrityError:
        return None
    if profile is not None and profile.notify_email == Profile.NOTIFY_EACH and user.email:
        # The text is in the player's language already; whatever the mail adds must be too.
        with translation.override(language_for(profile)):
            send_mail(f"[Tradewinds] {text[:80]}", f"{text}\n\n{_absolute(url)}\n", None, [user.email])
        notification.emailed_at = timezone.now()
        notification.save(update_fields=["emailed_at"])
    if profile is not None and profile.webhook_url:
        delivery = WebhookDelivery.objects.create(notification=notification, url=profile.webhook_url,
                                                  next_try_at=timezone.now())
        deliver(delivery)
    return notification


def _absolute(url: str) -> str:
    return settings.SITE_URL.rstrip("/") + url if url.startswith("/") else url


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def deliver(delivery: WebhookDelivery) -> bool:
    """POST the notification; on failure try again later, waiting twice as long each time."""
    notification = delivery.notification
    profile = Profile.objects.get(user=notification.user)
    body = json.dumps({"kind": notification.kind, "text": notification.text, "url": _absolute(notification.url),
                       "match": notification.match_id, "created_at": notification.created_at.isoformat(),
                       "id": notification.pk}).encode()
    request = urllib.request.Request(delivery.url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "Tradewinds-Webhook/1",
        "X-Tradewinds-Signature": signature(profile.webhook_secret, body)})
    delivery.attempts += 1
    try:
        with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT) as response:
            ok = 200 <= response.status < 300
            error = "" if ok else f"HTTP {response.status}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        ok, error = False, str(exc)[:300]
    if ok:
        delivery.delivered_at, delivery.next_try_at, delivery.last_error = timezone.now(), None, ""
    elif delivery.attempts >= MAX_WEBHOOK_ATTEMPTS:
        delivery.next_try_at, delivery.last_error = None, f"gave up: {error}"[:300]
    else:
        delivery.next_try_at = timezone.now() + timedelta(seconds=30 * 2 ** (delivery.attempts - 1))
        delivery.last_error = error[:300]
    delivery.save()
    return ok


def retry_webhooks(now=None) -> int:
    now = now or timezone.now()
    due = WebhookDelivery.objects.filter(delivered_at__isnull=True, next_try_at__lte=now).select_related(
        "notification")[:200]
    return sum(1 for delivery in due if deliver(delivery))


def send_digests(now=None) -> int:
    """Once a day, at seven in the morning of each player's own time zone, one email with what
    they have not read."""
    import zoneinfo

    now = now or timezone.now()
    sent = 0
    for profile in Profile.objects.filter(notify_email=Profile.NOTIFY_DIGEST).select_related("user"):
        try:
            local = now.astimezone(zoneinfo.ZoneInfo(profile.time_zone))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            local = now
        if local.hour < settings.DIGEST_HOUR or (profile.last_digest_at and now - profile.last_digest_at < timedelta(hours=20)):
            continue
        unread = list(Notification.objects.filter(user=profile.user, read_at__isnull=True, emailed_at__isnull=True)
                      .order_by("created_at")[:100])
        profile.last_digest_at = now
        profile.save(update_fields=["last_digest_at"])
        if not unread or not profile.user.email:
            continue
        lines = "\n".join(f"- {n.text} {_absolute(n.url)}" for n in unread)
        with translation.override(language_for(profile)):
            subject = ngettext("[Tradewinds] %(count)s thing since yesterday",
                               "[Tradewinds] %(count)s things since yesterday", len(unread)) % {"count": len(unread)}
            body = _("Since your last digest:") + f"\n\n{lines}\n"
            send_mail(subject, body, None, [profile.user.email])
        Notification.objects.filter(pk__in=[n.pk for n in unread]).update(emailed_at=now)
        sent += 1
    return sent


def mark_read(*, user, notification_id=None) -> int:
    qs = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        qs = qs.filter(pk=notification_id)
    return qs.update(read_at=timezone.now())
