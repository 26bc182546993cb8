"""Telling players what concerns them: on the site (the inbox), by email (each event, a daily
digest or never) and by a signed webhook, retried until it is taken."""
import hashlib
import hmac
import json
import logging
import re
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Profile
from games.play import jobs
from notifications import push, webhooks
from notifications.models import Notification, WebhookDelivery
from notifications.wording import absolute_url, notification_text

log = logging.getLogger(__name__)

MAX_WEBHOOK_ATTEMPTS = 8
# A delivery handed to the queue is not handed over again by the sweep for this long.
WEBHOOK_LEASE = timedelta(minutes=10)
# notifications.tasks.deliver_webhook, routed to a worker of its own (CELERY_TASK_ROUTES).
DELIVER_WEBHOOK = "notifications.tasks.deliver_webhook"


def language_for(profile) -> str:
    """The language a player is told things in: their profile's, else the site's. Never the one
    active now, which is the language of whoever caused the event."""
    return (profile.language if profile is not None else "") or settings.LANGUAGE_CODE


def speaking_to(user):
    """Render words for this player inside `with speaking_to(user):`."""
    return translation.override(language_for(getattr(user, "profile", None)))


UNREAD = object()


def notify(*, user, kind: str, key: str, text: str, match=None, url: str = "",
           params: dict | None = None, profile=UNREAD) -> Notification | None:
    """Record a notification once (a second call with the same key does nothing) and send it
    on by email and webhook as the player chose. `params` is what it is about, worded when read
    (notifications/wording.py); `text` is the same words now, kept for whatever cannot word it.
    A caller that has just read the player's profile (or found none) passes it as `profile`;
    otherwise it is read here."""
    if not user.is_active:
        return None  # bots and closed accounts have nobody to tell
    if profile is UNREAD:
        profile = Profile.objects.filter(user=user).first()
    if kind == Notification.TURN and profile is not None and not profile.notify_turn:
        return None
    try:
        with transaction.atomic():
            notification = Notification.objects.create(user=user, kind=kind, key=key[:120], text=text[:300],
                                                       match=match, url=url, params=params)
    except IntegrityError:
        return None
    if profile is not None and profile.notify_email == Profile.NOTIFY_EACH and user.email:
        # Mailed once the notification is committed: a job rolled back or killed before its
        # commit runs again and notifies again, and a mail sent inside it went twice (seen with
        # Redis away while bots played). On its own (autocommit) it goes at once.
        address = user.email
        transaction.on_commit(lambda: _email(notification, address, url, profile), robust=True)
    if profile is not None and profile.webhook_url:
        delivery = WebhookDelivery.objects.create(notification=notification, url=profile.webhook_url,
                                                  next_try_at=timezone.now() + WEBHOOK_LEASE)
        queue_delivery(delivery.pk)
    if profile is not None:
        push.queue_for(notification, profile)
    return notification


def tell_substitute_offered(*, user, match, offer_key: str) -> Notification | None:
    """Tell a volunteer that a seat of `match` is offered to them (issue 35, part 4): in the
    inbox, by e-mail and by push as they chose. `offer_key` names the offer (one notice per
    offer, however often it is called); the caller words nothing."""
    from notifications.wording import match_name

    with speaking_to(user):
        text = _("A seat in %(match)s is offered to you as substitute.") % {"match": match_name(match)}
    return notify(user=user, kind=Notification.SUBSTITUTE, match=match, url=match.get_absolute_url(),
                  key=f"{match.pk}:substitute:{offer_key}", text=text, params={})


def _email(notification, address: str, url: str, profile) -> None:
    """The mail in the player's language at the time it goes, words and all. A mail that fails
    (a server away, a bad header) is logged and stays unmarked; the notifications after this one
    still go."""
    try:
        language = language_for(profile)
        with translation.override(language):
            text = notification_text(notification, lang=language)
            send_mail(subject_line(f"[Tradewinds] {text}"), f"{text}\n\n{absolute_url(url)}\n", None, [address])
    except Exception:
        log.exception("could not email notification %s to user %s", notification.pk, notification.user_id)
        return
    Notification.objects.filter(pk=notification.pk).update(emailed_at=timezone.now())


def subject_line(text: str, limit: int = 90) -> str:
    """An e-mail subject from stored words: control characters (a newline in a match title
    would be a header injection, refused by Django as BadHeaderError) become spaces."""
    return re.sub(r"\s+", " ", re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", text)).strip()[:limit]


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def deliver(delivery: WebhookDelivery) -> bool:
    """POST the notification to the checked address; on failure try again later, waiting twice
    as long each time. A URL the site refuses (see webhooks.check) is given up at once."""
    notification = delivery.notification
    profile = Profile.objects.get(user=notification.user)
    # Worded in the player's language at delivery, as the inbox and the mails are.
    text = notification_text(notification, lang=language_for(profile))
    body = json.dumps({"kind": notification.kind, "text": text, "url": absolute_url(notification.url),
                       "match": notification.match_id, "created_at": notification.created_at.isoformat(),
                       "id": notification.pk}).encode()
    headers = {"Content-Type": "application/json", "User-Agent": "Tradewinds-Webhook/1",
               "X-Tradewinds-Signature": signature(profile.webhook_secret, body)}
    delivery.attempts += 1
    refused = False
    try:
        ok, error = webhooks.post(delivery.url, body, headers, timeout=settings.WEBHOOK_TIMEOUT)
    except webhooks.Refused as exc:
        ok, error, refused = False, f"refused: {exc}", True
    except Exception as exc:  # any failure of the receiver's is a failed attempt, never a crash
        ok, error = False, f"{type(exc).__name__}: {exc}"
    if ok:
        delivery.delivered_at, delivery.next_try_at, delivery.last_error = timezone.now(), None, ""
    elif refused or delivery.attempts >= MAX_WEBHOOK_ATTEMPTS:
        delivery.next_try_at, delivery.last_error = None, f"gave up: {error}"[:300]
    else:
        delivery.next_try_at = timezone.now() + timedelta(seconds=30 * 2 ** (delivery.attempts - 1))
        delivery.last_error = error[:300]
    delivery.save()
    return ok


def deliver_by_id(delivery_id) -> bool:
    delivery = WebhookDelivery.objects.select_related("notification__match").defer("notification__match__state").filter(
        pk=delivery_id, delivered_at__isnull=True).first()
    if delivery is None or delivery.next_try_at is None:
        return False  # taken already, or given up
    return deliver(delivery)


def _deliver_on_thread(delivery_id):
    from django.db import close_old_connections

    try:
        deliver_by_id(delivery_id)
    except Exception:
        log.exception("webhook delivery %s failed", delivery_id)
    finally:
        close_old_connections()


def queue_delivery(delivery_id) -> None:
    """Hand a delivery to its own job, after the commit: on the `webhooks` queue of Celery, or
    without a worker on this process's webhook threads (WEBHOOK_THREADS=0: right here, which
    tests use). Game jobs never wait for a receiver. The task is queued by its name, as the
    games' jobs are (games.play.jobs): the tasks call the services, never the other way round."""

    def hand_over():
        try:
            if not settings.JOBS_IN_PROCESS:
                jobs.queue(DELIVER_WEBHOOK, delivery_id)
            elif settings.WEBHOOK_THREADS:
                webhooks.in_background(_deliver_on_thread, delivery_id)
            else:
                deliver_by_id(delivery_id)
        except Exception:  # the broker away: the sweep hands it over again after the lease
            log.warning("could not queue webhook delivery %s", delivery_id, exc_info=True)

    transaction.on_commit(hand_over)


def retry_webhooks(now=None) -> int:
    """Hand the deliveries that are due to their jobs, each claimed for a while so the next
    sweep does not hand it over twice."""
    now = now or timezone.now()
    due = list(WebhookDelivery.objects.filter(delivered_at__isnull=True, next_try_at__lte=now)
               .order_by("next_try_at").values_list("pk", "next_try_at")[:200])
    queued = 0
    for pk, next_try_at in due:
        if WebhookDelivery.objects.filter(pk=pk, next_try_at=next_try_at).update(next_try_at=now + WEBHOOK_LEASE):
            queue_delivery(pk)
            queued += 1
    return queued


def send_digests(now=None) -> int:
    """Once a day, at seven in the morning of each player's own time zone, one email with what
    they have not read: the default (issue 24: "each event" sent 65 mails in 30 minutes). Run by
    the notification sweep every minute, so it reads only the players it may concern: a digest
    due (none in 20 hours) and something unread and not yet mailed."""
    import zoneinfo

    from django.db.models import Exists, OuterRef, Q

    now = now or timezone.now()
    sent = 0
    news = Notification.objects.filter(user=OuterRef("user"), read_at__isnull=True, emailed_at__isnull=True)
    due = (Profile.objects.filter(notify_email=Profile.NOTIFY_DIGEST)
           .filter(Q(last_digest_at__isnull=True) | Q(last_digest_at__lte=now - timedelta(hours=20)))
           .filter(Exists(news)).select_related("user"))
    for profile in due:
        try:  # one player's failing digest is logged; everybody else's still goes
            with transaction.atomic():
                sent += _send_digest(profile, now, zoneinfo)
        except Exception:
            log.exception("could not send the digest of user %s", profile.user_id)
    return sent


def _send_digest(profile, now, zoneinfo) -> int:
    try:
        local = now.astimezone(zoneinfo.ZoneInfo(profile.time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        local = now
    if local.hour < settings.DIGEST_HOUR or (profile.last_digest_at and now - profile.last_digest_at < timedelta(hours=20)):
        return 0
    unread = list(Notification.objects.filter(user=profile.user, read_at__isnull=True, emailed_at__isnull=True)
                  .select_related("match").defer("match__state").order_by("created_at")[:100])
    profile.last_digest_at = now
    profile.save(update_fields=["last_digest_at"])
    if not unread or not profile.user.email:
        return 0
    language = language_for(profile)
    with translation.override(language):
        lines = "\n".join(f"- {notification_text(n, lang=language)} {absolute_url(n.url)}" for n in unread)
        subject = ngettext("[Tradewinds] %(count)s thing since yesterday",
                           "[Tradewinds] %(count)s things since yesterday", len(unread)) % {"count": len(unread)}
        body = _("Since your last digest:") + f"\n\n{lines}\n"
        send_mail(subject_line(subject), body, None, [profile.user.email])
    Notification.objects.filter(pk__in=[n.pk for n in unread]).update(emailed_at=now)
    return 1


def mark_read(*, user, notification_id=None) -> int:
    qs = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        qs = qs.filter(pk=notification_id)
    return qs.update(read_at=timezone.now())
