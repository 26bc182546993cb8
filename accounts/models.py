import hashlib
import secrets
import zoneinfo

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

TIME_ZONES = sorted(zoneinfo.available_timezones())


class Profile(models.Model):
    """What a player says about themself: how to be named, when they live, how to be told."""

    NOTIFY_EACH = "each"
    NOTIFY_DIGEST = "digest"
    NOTIFY_NONE = "none"
    NOTIFY_CHOICES = [(NOTIFY_EACH, _("Each event")), (NOTIFY_DIGEST, _("A daily digest")),
                      (NOTIFY_NONE, pgettext_lazy("emails", "None"))]

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile",
                                verbose_name=_("user"))
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC", choices=[(tz, tz) for tz in TIME_ZONES])
    # Languages keep their own names (settings.LANGUAGES): a reader finds theirs whatever the page is in.
    language = models.CharField(_("language"), max_length=8, blank=True,
                                choices=[("", _("Browser's choice"))] + list(settings.LANGUAGES))
    notify_email = models.CharField(_("email notifications"), max_length=8, choices=NOTIFY_CHOICES, default=NOTIFY_EACH)
    notify_turn = models.BooleanField(_("Tell me when it is my turn"), default=True)
    reminder_hours = models.CharField(_("Remind me before a deadline (hours)"), max_length=40, default="24,4,1",
                                      blank=True, help_text=_("Comma-separated, e.g. 24,4,1. Empty: no reminders."))
    webhook_url = models.URLField(_("Webhook URL"), max_length=300, blank=True,
                                  help_text=_("We POST each notification there as JSON, signed with your secret."))
    webhook_secret = models.CharField(_("webhook secret"), max_length=64, blank=True, default=secrets.token_hex)
    last_digest_at = models.DateTimeField(_("last digest"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return self.name

    @property
    def name(self):
        return self.display_name or self.user.get_username()

    @property
    def reminder_thresholds(self) -> list[int]:
        hours = []
        for part in self.reminder_hours.split(","):
            part = part.strip()
            if part.isdigit() and 0 < int(part) <= 24 * 14:
                hours.append(int(part))
        return sorted(set(hours), reverse=True)


def display_name(user) -> str:
    profile = getattr(user, "profile", None) if user is not None else None
    if profile is not None:
        return profile.name
    return user.get_username() if user is not None else "—"


class Vacation(models.Model):
    """Days away: the player's turn clocks stand still in every match that allows it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations",
                             verbose_name=_("player"))
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"), db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["-starts_at"]

    def __str__(self):
        return f"{self.user} away {self.starts_at:%Y-%m-%d} – {self.ends_at:%Y-%m-%d}"

    @property
    def days(self) -> float:
        return (self.ends_at - self.starts_at).total_seconds() / 86400


def active_vacation(user, now):
    """The vacation `user` (a user or its id) is on at `now`, if any."""
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def vacation_days_left(*, user, now=None) -> int:
    """This year's allowance less the days taken (the games spend it: games.services)."""
    from django.utils import timezone

    now = now or timezone.now()
    taken = sum(v.days for v in Vacation.objects.filter(user=user, starts_at__year=now.year))
    return max(0, settings.VACATION_DAYS_PER_YEAR - int(round(taken)))


class ApiToken(models.Model):
    """A bearer token for the JSON API; only its hash is stored, the key is shown once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
                             verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=60, default="token")
    digest = models.CharField(_("key hash"), max_length=64, unique=True)
    prefix = models.CharField(_("key prefix"), max_length=8)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def hash(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, user, name="token") -> tuple["ApiToken", str]:
        key = "tw_" + secrets.token_urlsafe(30)
        token = cls.objects.create(user=user, name=name, digest=cls.hash(key), prefix=key[3:11])
        return token, key
