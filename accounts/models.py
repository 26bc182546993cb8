import hashlib
import logging
import secrets
import zlib
import zoneinfo
from functools import cache as once

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

log = logging.getLogger(__name__)

TIME_ZONES = sorted(zoneinfo.available_timezones())

# The zone database's areas where people live; its other names are aliases kept for old systems
# (US/Eastern, Canada/…), fixed offsets (Etc/GMT+5) or no place at all (Factory, localtime).
ZONE_AREAS = {"Africa": _("Africa"), "America": _("America"), "Antarctica": _("Antarctica"),
              "Arctic": _("Arctic"), "Asia": _("Asia"), "Atlantic": _("Atlantic Ocean"),
              "Australia": _("Australia"), "Europe": _("Europe"), "Indian": _("Indian Ocean"),
              "Pacific": _("Pacific Ocean")}


def _zone_tables() -> list[str]:
    """The zone database's own lists of its zones, zone.tab (a zone or more for each country)
    and zone1970.tab, read where zoneinfo reads the zones: the system's database first, else the
    tzdata package."""
    for root in zoneinfo.TZPATH:
        texts = []
        for name in ("zone.tab", "zone1970.tab"):
            try:
                with open(f"{root}/{name}", encoding="utf-8") as fh:
                    texts.append(fh.read())
            except OSError:
                pass
        if texts:
            return texts
    try:
        from importlib import resources

        folder = resources.files("tzdata").joinpath("zoneinfo")
        return [folder.joinpath(name).read_text(encoding="utf-8") for name in ("zone.tab", "zone1970.tab")
                if folder.joinpath(name).is_file()]
    except (ImportError, OSError):
        return []


@once
def canonical_zones() -> frozenset:
    """The zones the database lists as zones of their own: no alias kept for an old name
    (Asia/Calcutta for Asia/Kolkata, Europe/Kiev, America/Buenos_Aires), so a place is offered
    once (the areas held 490 names, 418 of them zones). Without the lists, every name in the
    areas, as before."""
    names = set()
    for text in _zone_tables():
        for line in text.splitlines():
            fields = line.split("\t")
            if not line.startswith("#") and len(fields) >= 3:
                names.add(fields[2].strip())
    known = set(TIME_ZONES)
    return frozenset(names & known) or frozenset(known)


def zone_choices(keep: str | None = None) -> list:
    """The choices for a time zone field: UTC, then the places of each area by name ("Europe":
    "Copenhagen", "America": "Argentina / Buenos Aires"), the database's own zones only (no
    alias), and `keep` (a zone saved earlier that the list leaves out, an alias a browser once
    gave too) under its own name, so saving a profile never changes it unasked."""
    groups: dict[str, list] = {area: [] for area in ZONE_AREAS}
    canonical = canonical_zones()
    for name in TIME_ZONES:
        area, _slash, place = name.partition("/")
        if area in groups and place and name in canonical:
            groups[area].append((name, place.replace("_", " ").replace("/", " / ")))
    choices = [("UTC", "UTC")]
    listed = {"UTC"}
    for area, places in groups.items():
        choices.append((ZONE_AREAS[area], sorted(places, key=lambda p: p[1])))
        listed.update(name for name, _label in places)
    if keep and keep not in listed and keep in TIME_ZONES:
        choices.insert(1, (keep, keep))
    return choices


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
    notify_email = models.CharField(_("email notifications"), max_length=8, choices=NOTIFY_CHOICES, default=NOTIFY_DIGEST)
    notify_turn = models.BooleanField(_("Tell me when it is my turn"), default=True)
    reminder_hours = models.CharField(_("Remind me before a deadline (hours)"), max_length=40, default="24,4,1",
                                      blank=True, help_text=_("Comma-separated, e.g. 24,4,1. Empty: no reminders."))
    webhook_url = models.URLField(_("Webhook URL"), max_length=300, blank=True,
                                  help_text=_("We POST each notification there as JSON, signed with your secret."))
    webhook_secret = models.CharField(_("webhook secret"), max_length=64, blank=True, default=secrets.token_hex)
    last_digest_at = models.DateTimeField(_("last digest"), null=True, blank=True)
    # The player's last turns and how many of them were taken in time, as the seat cards and the
    # lobby word them: kept by the games' listener of the turns that pass
    # (games/play/records.py), so showing them reads no log.
    turns_counted = models.PositiveSmallIntegerField(_("turns counted"), default=0, editable=False)
    turns_in_time = models.PositiveSmallIntegerField(_("turns taken in time"), default=0, editable=False)
    # The player's vacation not yet over (the one in progress, else the next), kept by
    # Vacation.save and delete: the seat cards read it with the seats' players, so showing who
    # is away reads no vacation.
    away_from = models.DateTimeField(_("away from"), null=True, blank=True, editable=False)
    away_until = models.DateTimeField(_("away until"), null=True, blank=True, editable=False)

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
            if part.isdecimal() and 0 < int(part) <= 24 * 14:
                hours.append(int(part))
        return sorted(set(hours), reverse=True)


def user_named(username):
    """The account called `username`, or None. A name no account can have — not text, empty,
    longer than a username may be, or with a NUL, which PostgreSQL refuses even to compare — is
    nobody, without a query."""
    if not isinstance(username, str) or not username or len(username) > 150 or "\x00" in username:
        return None
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(username=username).first()


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

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        keep_away_on_profile(self.user_id)

    def delete(self, *args, **kwargs):
        done = super().delete(*args, **kwargs)
        keep_away_on_profile(self.user_id)
        return done

    @property
    def days(self) -> float:
        return (self.ends_at - self.starts_at).total_seconds() / 86400


def keep_away_on_profile(user_id, now=None) -> None:
    """Write on the player's profile the vacation of theirs not yet over (Profile.away_from,
    away_until), or none."""
    from django.utils import timezone

    now = now or timezone.now()
    ahead = Vacation.objects.filter(user_id=user_id, ends_at__gt=now).order_by("starts_at").first()
    Profile.objects.filter(user_id=user_id).update(away_from=ahead.starts_at if ahead else None,
                                                   away_until=ahead.ends_at if ahead else None)


def away_now(profile, now):
    """When the vacation the profile's player is on at `now` ends, or None at home."""
    if profile is None or profile.away_from is None or profile.away_until is None:
        return None
    return profile.away_until if profile.away_from <= now < profile.away_until else None


def active_vacation(user, now):
    """The vacation `user` (a user or its id) is on at `now`, if any."""
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def vacation_days_left(*, user, now=None) -> int:
    """This year's allowance less the days taken (the games spend it: games.play)."""
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

    @staticmethod
    def key_in(header: str) -> str | None:
        """The key of an "Authorization: Token <key>" (or "Bearer <key>") header; None if the
        header holds none. The API's requests and the match sockets read it alike."""
        scheme, _space, key = header.partition(" ")
        if scheme.lower() not in ("token", "bearer") or not key.strip():
            return None
        return key.strip()

    @classmethod
    def issue(cls, user, name="token") -> tuple["ApiToken", str]:
        key = "tw_" + secrets.token_urlsafe(30)
        token = cls.objects.create(user=user, name=name, digest=cls.hash(key), prefix=key[3:11])
        return token, key

    @classmethod
    def holder(cls, key: str):
        """The active user `key` belongs to, its profile attached (the API speaks their language
        and names them), or None. Every API request asks, so the answer is kept in the cache
        (Redis, shared by all processes) for a minute under the key's hash: rebuilding the rows
        costs a fraction of compiling the three-table SELECT. Whatever changes the answer forgets
        it at once (forget_tokens, called by accounts.signals); with the cache away, the
        database answers."""
        digest = cls.hash(key)
        cache_key = _holder_cache_key(digest)
        try:
            kept = cache.get(cache_key)
        except Exception:
            log.warning("API token cache unavailable, reading the database", exc_info=True)
            kept = FORGOTTEN  # read the database, and store nothing
        if kept is not None and kept != FORGOTTEN:
            user = _holder_from_cache(kept)
        else:
            token = (cls.objects.select_related("user__profile").defer(*_HOLDER_SECRETS)
                     .filter(digest=digest).first())
            if token is None:
                return None
            user = token.user
            # The kept answer lives as long as the touch interval, so the read after it expires
            # is where "last used" is brought up to date: a write a minute, not one a request.
            now = timezone.now()
            if token.last_used_at is None or (now - token.last_used_at).total_seconds() > HOLDER_SECONDS:
                cls.objects.filter(pk=token.pk).update(last_used_at=now)
            if kept is None:  # not if forgotten just now: this read may be older than the change
                try:
                    cache.add(cache_key, _holder_for_cache(user), HOLDER_SECONDS)
                except Exception:
                    log.warning("API token cache unavailable, not keeping the answer", exc_info=True)
        return user if user.is_active else None


# --- The token holders kept in the cache -----------------------------------------------------
# A kept answer is the user's and the profile's field values, not pickled instances: a little
# cheaper to build again than to unpickle, and with the password hash and the webhook secret left
# out (deferred: read from the database if anything ever asks), so the cache holds no secret.
# Forgetting writes FORGOTTEN over the answer for a while rather than deleting it, and answers are
# only ever added, never overwritten: a request that read the rows just before the change
# committed cannot store them after it was forgotten.

HOLDER_SECONDS = 60
FORGOTTEN = "forgotten"
# Long enough for a request that read the rows just before a change to have given up adding
# them (it adds right after its read), short enough that a login (which saves the user) does not
# send that player's every API request to the database for a minute.
FORGOTTEN_SECONDS = 5
_HOLDER_SECRETS = ("user__password", "user__profile__webhook_secret")


@once
def _holder_fields() -> tuple[list[str], list[str]]:
    secrets_ = {name.rsplit("__", 1)[1] for name in _HOLDER_SECRETS}
    return ([f.attname for f in get_user_model()._meta.concrete_fields if f.attname not in secrets_],
            [f.attname for f in Profile._meta.concrete_fields if f.attname not in secrets_])


@once
def _holder_shape() -> int:
    # In the cache key: after a deploy that changes the fields, old answers are never read.
    return zlib.crc32(repr(_holder_fields()).encode())


def _holder_cache_key(digest: str) -> str:
    return f"api-token:{_holder_shape()}:{digest}"


def _holder_for_cache(user) -> tuple:
    user_fields, profile_fields = _holder_fields()
    profile = getattr(user, "profile", None)
    return ([getattr(user, name) for name in user_fields],
            [getattr(profile, name) for name in profile_fields] if profile is not None else None)


def _holder_from_cache(kept: tuple):
    user_values, profile_values = kept
    user_fields, profile_fields = _holder_fields()
    db = ApiToken.objects.db
    user = get_user_model().from_db(db, user_fields, user_values)
    if profile_values is None:
        # As select_related leaves a user without one: user.profile raises, without a query.
        user._meta.get_field("profile").set_cached_value(user, None)
    else:
        Profile.from_db(db, profile_fields, profile_values).user = user  # attaches both ways
    return user


def forget_tokens(*, digests=(), user_id=None) -> None:
    """Forget the kept holders of these tokens, or of all of a user's, now and again when the
    change commits (until then, a request may still read the old rows)."""
    digests = list(digests)
    if user_id is not None:
        digests += ApiToken.objects.filter(user_id=user_id).values_list("digest", flat=True)
    if not digests:
        return
    forgotten = {_holder_cache_key(digest): FORGOTTEN for digest in digests}

    def forget():
        try:
            cache.set_many(forgotten, FORGOTTEN_SECONDS)
        except Exception:
            # Whatever was kept expires within HOLDER_SECONDS anyway.
            log.warning("API token cache unavailable, could not forget %d tokens", len(forgotten), exc_info=True)

    forget()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(forget, robust=True)
