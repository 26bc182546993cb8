import json

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def action_json(action) -> str:
    """An action as the value of a form button (compact, stable key order)."""
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


@register.filter
def get(mapping, key):
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def seconds_left(moment) -> int:
    if moment is None:
        return 0
    return max(0, int((moment - timezone.now()).total_seconds()))


@register.filter
def duration(seconds) -> str:
    seconds = int(seconds or 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"
