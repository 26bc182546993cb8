from django import template

from leagues.models import Entry, Table

register = template.Library()


@register.simple_tag
def event_table_of(match):
    """The event table a match is played at, or None (the match page's link back)."""
    return Table.objects.filter(match=match).select_related("round__event").first()


@register.simple_tag
def my_events(user):
    """The events a player is in that are not over, soonest first."""
    return [e.event for e in Entry.objects.filter(user=user, removed=False).exclude(event__status="finished")
            .select_related("event").order_by("event__starts_at")]
