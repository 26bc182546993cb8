import json

from django import template
from django.template.base import render_value_in_context
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _, pgettext_lazy

from games.models import Seat

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
        # Translators: a duration in short units, e.g. "2 d 5 h".
        return _("%(days)s d %(hours)s h") % {"days": days, "hours": hours}
    if hours:
        # Translators: a duration in short units, e.g. "5 h 30 min".
        return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": minutes}
    # Translators: a duration in short units, e.g. "30 min".
    return _("%(minutes)s min") % {"minutes": minutes}


@register.simple_tag
def countdown(moment, shown=None):
    """A deadline site.js counts down live, carrying the words it counts in (the script knows no
    language, the page does); {d} {h} {m} {s} in them stand for the numbers. It shows `shown`,
    or the time left, until the script takes over."""
    iso = moment.isoformat()
    return format_html(
        '<time datetime="{}" data-deadline="{}" data-days="{}" data-hours="{}" data-minutes="{}"'
        ' data-up="{}">{}</time>',
        iso, iso,
        # Translators: a live countdown; keep {d} and {h} (days, hours) as they are.
        _("{d} d {h} h"),
        # Translators: a live countdown; keep {h} and {m} (hours, minutes) as they are.
        _("{h} h {m} min"),
        # Translators: a live countdown; keep {m} and {s} (minutes, seconds) as they are.
        _("{m} min {s} s"),
        _("time is up"),
        duration(seconds_left(moment)) if shown is None else shown)


@register.filter
def colour_name(colour: str) -> str:
    return str(Seat.COLOUR_NAMES.get(colour, colour))


# A standing's detail as the engines give it ({"cash": 120, "treasure": True, "ports": [0]}): the
# counts with their names, a yes said in words, and what means nothing to a reader left out.
STANDING_COUNTS = {"cash": pgettext_lazy("standings", "cash"), "ships": pgettext_lazy("standings", "ships"),
                   "fortresses": pgettext_lazy("standings", "fortresses"),
                   "cargo": pgettext_lazy("standings", "cargo"),
                   "ship_points": pgettext_lazy("standings", "ship points")}
STANDING_FLAGS = {"treasure": pgettext_lazy("standings", "with the treasure"),
                  "out": pgettext_lazy("standings", "out of the game"),
                  "longest_road": pgettext_lazy("standings", "longest road"),
                  "largest_army": pgettext_lazy("standings", "largest army")}


@register.filter
def standing_parts(detail) -> list[str]:
    parts = []
    for key, value in (detail or {}).items():
        if isinstance(value, bool):
            if value and key in STANDING_FLAGS:
                parts.append(str(STANDING_FLAGS[key]))
        elif isinstance(value, int):
            parts.append(f"{STANDING_COUNTS.get(key, key)} {value}")
    return parts


@register.filter
def game_title(name: str) -> str:
    """A game's title from its registry name ("catan_ships" → "Catan with ships")."""
    from games.engines import ENGINES

    engine = ENGINES.get(name)
    return engine.title if engine else name


@register.simple_tag(takes_context=True)
def log_items(context, lines) -> str:
    """The log's lines as <li>s. A socket sends the log with every update, fifty lines or so: as
    a {% for %} with its translation and dice loop inside it took a good part of the render, so
    it is built here, the same HTML the loop gave."""
    dice_words = _("dice %(faces)s")
    items = []
    for line in lines:
        dice = line["dice"]
        item = ['<li class="log-', render_value_in_context(line["kind"], context), '">',
                render_value_in_context(line["text"], context)]
        if dice:
            faces = ", ".join(conditional_escape(d) for d in dice)
            item += [' <span class="dice" aria-label="', dice_words % {"faces": faces}, '">']
            item += [f'<span class="die">{render_value_in_context(d, context)}</span>' for d in dice]
            item.append("</span>")
        item.append("</li>")
        items.append("".join(item))
    return mark_safe("".join(items))
