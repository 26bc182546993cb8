from django import template

from notifications import calendar, push
from notifications.models import PushChoices

register = template.Library()


@register.inclusion_tag("notifications/partials/push_and_calendar.html", takes_context=True)
def push_and_calendar(context):
    """The profile's part of this app: the devices pushed to, what is pushed and when it waits,
    and the calendar address."""
    request = context["request"]
    user = request.user
    choices = PushChoices.objects.filter(user=user).first()
    chosen = push.EVENTS if choices is None else choices.kinds
    quiet = push.quiet_hours(choices)
    return {"request": request, "csrf_token": context.get("csrf_token"),
            "devices": list(user.push_subscriptions.all()), "public_key": push.public_key(),
            "events": [(key, label, key in chosen) for key, label in push.event_labels()],
            "quiet_from": quiet[0] if quiet else "", "quiet_until": quiet[1] if quiet else "",
            "hours": range(24), "calendar_url": calendar.address(calendar.feed_for(user)),
            "calendar_https": calendar.address(calendar.feed_for(user), webcal=False)}
