from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Notification(models.Model):
    """Something a player should know: their turn, an offer, a chance card, a reminder, an end."""

    TURN, OFFER, CARD, REMINDER, FINISHED = "turn", "offer", "card", "reminder", "finished"
    KINDS = [(TURN, _("Your turn")), (OFFER, pgettext_lazy("notification kind", "Offer")),
             (CARD, _("Chance card")), (REMINDER, _("Reminder")), (FINISHED, _("Match ended"))]

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
