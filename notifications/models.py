from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Notification(models.Model):
    """Something a player should know: their turn, an offer, a chance card, a reminder, an end."""

    TURN, OFFER, CARD, REMINDER, FINISHED = "turn", "offer", "card", "reminder", "finished"
    STARTED, SUBSTITUTE = "started", "substitute"
    KINDS = [(TURN, _("Your turn")), (OFFER, pgettext_lazy("notification kind", "Offer")),
             (CARD, _("Chance card")), (REMINDER, _("Reminder")), (FINISHED, _("Match ended")),
             (STARTED, _("Match started")), (SUBSTITUTE, _("Seat offered to you as substitute"))]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications",
                             verbose_name=_("player"))
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.CASCADE, verbose_name=_("match"))
    kind = models.CharField(_("kind"), max_length=10, choices=KINDS)
    # What makes it unique, so a job that runs twice tells nobody twice.
    key = models.CharField(_("key"), max_length=120)
    text = models.CharField(_("text"), max_length=300)
    # What it is about (an event and the seats' names, a rank, hours left), so it is worded when
    # read, in the reader's language then (notifications/wording.py). Null on rows made before:
    # those show `text`, worded when they were made.
    params = models.JSONField(_("details"), null=True, blank=True, default=None)
    url = models.CharField(_("link"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)
    emailed_at = models.DateTimeField(_("emailed"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_notification_per_key")]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread_idx")]

    def __str__(self):
        return f"{self.user}: {self.text}"


class WebhookDelivery(models.Model):
    """One notification on its way to a player's webhook, retried with growing pauses."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries",
                                     verbose_name=_("notification"))
    url = models.URLField(_("URL"), max_length=300)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_try_at = models.DateTimeField(_("next try"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("delivered"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        indexes = [models.Index(fields=["next_try_at"], name="webhook_due_idx",
                                condition=models.Q(delivered_at__isnull=True))]


class ReminderSent(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, verbose_name=_("match"))
    turn_key = models.CharField(_("turn key"), max_length=40)
    hours = models.PositiveSmallIntegerField(_("hours before the deadline"))

    class Meta:
        verbose_name = _("sent reminder")
        verbose_name_plural = _("sent reminders")
        constraints = [models.UniqueConstraint(fields=["match", "turn_key", "hours"], name="one_reminder")]


class PushSubscription(models.Model):
    """One browser (a phone, a laptop) that asked to be told things by Web Push (RFC 8030): the
    push service's endpoint and the keys its payloads are encrypted to (RFC 8291)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions",
                             verbose_name=_("player"))
    endpoint = models.URLField(_("endpoint"), max_length=800, unique=True)
    p256dh = models.CharField(_("public key"), max_length=120)
    auth = models.CharField(_("auth secret"), max_length=40)
    name = models.CharField(_("device name"), max_length=80)
    created_at = models.DateTimeField(_("added"), auto_now_add=True)
    last_sent_at = models.DateTimeField(_("last sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.user}: {self.name}"


class PushDelivery(models.Model):
    """One notification on its way to one device, on the push queue, retried with growing pauses."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="pushes",
                                     verbose_name=_("notification"))
    # Null once the push service said the device is gone (404/410): the row stays as the record.
    subscription = models.ForeignKey(PushSubscription, null=True, on_delete=models.SET_NULL, related_name="deliveries",
                                     verbose_name=_("device"))
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_try_at = models.DateTimeField(_("next try"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("delivered"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("push delivery")
        verbose_name_plural = _("push deliveries")
        constraints = [models.UniqueConstraint(fields=["notification", "subscription"], name="one_push_per_device")]
        indexes = [models.Index(fields=["next_try_at"], name="push_due_idx",
                                condition=models.Q(delivered_at__isnull=True))]


class PushChoices(models.Model):
    """What a player wants pushed to their devices, event by event, and their quiet hours (in
    their own time zone); no row: every event, and the site's quiet hours."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_choices",
                                verbose_name=_("player"))
    kinds = models.JSONField(_("events pushed"), default=list)
    quiet_from = models.PositiveSmallIntegerField(_("quiet from (hour)"), null=True, blank=True)
    quiet_until = models.PositiveSmallIntegerField(_("quiet until (hour)"), null=True, blank=True)

    class Meta:
        verbose_name = _("push choices")
        verbose_name_plural = _("push choices")


class CalendarFeed(models.Model):
    """A player's secret calendar address: whoever has it reads that player's deadlines and
    nothing else; a new address revokes the old (the row's token changes)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed",
                                verbose_name=_("player"))
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("made"), auto_now=True)

    class Meta:
        verbose_name = _("calendar address")
        verbose_name_plural = _("calendar addresses")

    def __str__(self):
        return f"{self.user}: {self.token[:6]}…"
