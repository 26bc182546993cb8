"""An event's dates in its players' calendar feeds (notifications/calendar.py reads the sources
listed in settings.CALENDAR_EVENT_SOURCES): when an event a player entered begins, and when the
round they play now closes (an unfinished table is then ended by its game's ranking)."""
from django.utils.translation import gettext as _

from leagues.models import Entry, Event, Round


def entries(user, now):
    from notifications.calendar import Entry as CalendarEntry, uid
    from notifications.wording import absolute_url

    found = []
    mine = (Entry.objects.filter(user=user, removed=False, event__status__in=[Event.ENTRY, Event.RUNNING, Event.PAUSED])
            .select_related("event"))
    events = {entry.event_id: entry.event for entry in mine}
    for event in events.values():
        if event.status == Event.ENTRY:
            found.append(CalendarEntry(uid(f"event-{event.pk}-{user.pk}"), _("%(event)s begins") % {"event": event.name},
                                       event.starts_at, absolute_url(event.get_absolute_url())))
    for rnd in Round.objects.filter(event_id__in=list(events), status=Round.OPEN).select_related("event"):
        found.append(CalendarEntry(uid(f"round-{rnd.pk}-{user.pk}"),
                                   _("Round %(round)s of %(event)s closes") % {"round": rnd.number, "event": rnd.event.name},
                                   rnd.deadline, absolute_url(rnd.event.get_absolute_url())))
    return found
