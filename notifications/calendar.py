"""A player's deadlines as an iCalendar feed (RFC 5545), built with the `icalendar` package, read
by calendar clients at a secret address that needs no login.

What it shows is that player's own: an event at the deadline of every turn that waits for them,
and the deadline of every match they are still seated in (the end of the campaign). Nothing of
anyone's hand, and nothing of a match they have left or were removed from: it reads their seats
now, at every poll. Each event keeps its UID while its time moves (a turn's deadline per match,
pushed by a vacation or a time bank), so a polling client moves it rather than adding another;
its SEQUENCE grows with the match's version. Times are written in the player's own zone (TZID,
with its VTIMEZONE), which is the same instant in any zone the client shows.

Apps that come later (a league's rounds) add events through settings.CALENDAR_EVENT_SOURCES: each
a dotted path to a callable(user, now) returning an iterable of Entry."""
import secrets
import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from games.models import Match, Seat
from notifications.models import CalendarFeed
from notifications.wording import absolute_url, match_name

SHOWN = (Match.RUNNING, Match.PAUSED)


@dataclass(frozen=True)
class Entry:
    """One event of the feed: `uid` must stay the same while `start` moves."""

    uid: str
    summary: str
    start: datetime
    url: str = ""
    sequence: int = 0


def uid(what: str) -> str:
    """An event's UID on this site: `what` names it and stays the same while its time moves."""
    return f"{what}@{settings.SITE_URL.split('://')[-1].split('/')[0]}"


def feed_for(user):
    """The player's address row, made on first use."""
    feed = CalendarFeed.objects.filter(user=user).first()
    return feed or renew(user=user)


def renew(*, user) -> CalendarFeed:
    """A new secret address; the old one answers 404 from now on."""
    with transaction.atomic():
        feed, _made = CalendarFeed.objects.update_or_create(user=user, defaults={"token": secrets.token_urlsafe(32)})
    return feed


def address(feed, *, webcal: bool = True) -> str:
    from django.urls import reverse

    url = settings.SITE_URL.rstrip("/") + reverse("calendar_feed", args=[feed.token])
    return "webcal://" + url.split("://", 1)[1] if webcal else url


def entries(user, now=None) -> list[Entry]:
    now = now or timezone.now()
    seats = (Seat.objects.filter(user=user, number__isnull=False, match__status__in=SHOWN)
             .select_related("match").defer("match__state"))
    found = []
    for seat in seats:
        match, name = seat.match, match_name(seat.match)
        url = absolute_url(match.get_absolute_url())
        if match.turn_deadline and seat.number in (match.turn_seats or []) and not seat.is_bot:
            found.append(Entry(uid(f"turn-{match.pk}-{user.pk}"), _("Your turn in %(match)s: deadline") % {
                "match": name}, match.turn_deadline, url + "#match-live", match.version))
        if match.game_deadline:
            found.append(Entry(uid(f"end-{match.pk}-{user.pk}"), _("%(match)s ends") % {"match": name},
                               match.game_deadline, url, match.version))
    for path in settings.CALENDAR_EVENT_SOURCES:
        found.extend(import_string(path)(user, now))
    return found


def ics(user, now=None) -> bytes:
    """The feed, in the player's language and zone."""
    from notifications.services import language_for

    now = now or timezone.now()
    profile = getattr(user, "profile", None)
    try:
        zone = zoneinfo.ZoneInfo(getattr(profile, "time_zone", "") or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    with translation.override(language_for(profile)):
        cal = Calendar()
        cal.add("prodid", f"-//{settings.SITE_NAME}//deadlines//EN")
        cal.add("version", "2.0")
        cal.add("calscale", "GREGORIAN")
        cal.add("x-wr-calname", _("%(site)s deadlines") % {"site": settings.SITE_NAME})
        cal.add("x-wr-timezone", str(zone.key))
        # Clients poll at their own pace; this asks for an hour at most.
        cal.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
        cal.add("x-published-ttl", "PT1H")
        for entry in entries(user, now):
            event = Event()
            event.add("uid", entry.uid)
            event.add("dtstamp", now)
            event.add("dtstart", entry.start.astimezone(zone))
            event.add("summary", entry.summary)
            event.add("sequence", entry.sequence)
            if entry.url:
                event.add("url", entry.url)
            cal.add_component(event)
        cal.add_missing_timezones()
    return cal.to_ical()
