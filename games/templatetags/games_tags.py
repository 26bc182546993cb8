import json
from html import escape as html_escape

from django import template
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.template.base import render_value_in_context
from django.template.defaultfilters import date as date_filter
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.timezone import template_localtime
from django.utils.safestring import mark_safe
from django.urls import reverse
from django.utils.translation import gettext as _, pgettext, pgettext_lazy

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


def value_writer(context):
    """{{ value }} as the template would write it here (escaped; localised unless within
    {% localize off %}), with a short way for the strings and whole numbers that are most values."""
    plain_ints = context.use_l10n is False or not settings.USE_THOUSAND_SEPARATOR
    # Within {% localize off %} a float is written as Python writes it, "." and all (unless in
    # exponent form, which Django writes out in full).
    plain_floats = context.use_l10n is False and settings.DECIMAL_SEPARATOR == "."

    def v(value):
        kind = type(value)
        if kind is str:
            # Django's escape is html.escape with a laziness check and a SafeString around it;
            # the tags join the parts and mark the whole safe.
            return html_escape(value)
        if kind is int and plain_ints:
            return str(value)
        if kind is float and plain_floats:
            text = repr(value)
            if "e" not in text:
                return text
        return render_value_in_context(value, context)
    return v


@register.simple_tag(takes_context=True)
def log_items(context, lines) -> str:
    """The log's lines as <li>s. A socket sends the log with every update, fifty lines or so: as
    a {% for %} with its translation and dice loop inside it took a good part of the render, so
    it is built here, the same HTML the loop gave."""
    v = value_writer(context)
    dice_words = _("dice %(faces)s")
    by_order = _("played by standing order")
    items = []
    for line in lines:
        dice = line["dice"]
        item = ['<li class="log-', v(line["kind"]), '">', v(line["text"])]
        if dice:
            faces = ", ".join(conditional_escape(d) for d in dice)
            item += [' <span class="dice" aria-label="', dice_words % {"faces": faces}, '">']
            item += [f'<span class="die">{v(d)}</span>' for d in dice]
            item.append("</span>")
        # A standing order played it (games/play/orders.py). The log lines say so of each event
        # (`by_order`, games.reads.standing.played_by_order): the next player's turn header, logged with
        # the move that ended the turn, is not marked; lines without it go by their row's kind.
        if line.get("by_order", line["kind"] == "order"):
            item += [' <em class="by-order">(', v(by_order), ")</em>"]
        item.append("</li>")
        items.append("".join(item))
    return mark_safe("".join(items))


@register.simple_tag(takes_context=True)
def seat_items(context, seats) -> str:
    """The seats as <li>s, the same HTML the {% for %} in match_live.html gave (each socket
    renders them with every update)."""
    v = value_writer(context)
    match, me, away = context["match"], context.get("seat"), context.get("away") or {}
    known = context.get("reliability") or {}
    to_act = set(match.turn_seats or ()) if match.status == "running" else set()
    # Looked up outside the f-strings: xgettext (make messages) does not read into them.
    host, bot, you = (f"<small>{word}</small>" for word in (_("(host)"), _("(bot)"), _("(you)")))
    absent = '<small class="absent">' + (_("absent — a bot plays for them") if match.bots_cover_absence
                                         else _("absent — played by timeouts")) + "</small>"
    out = []
    for s in seats:
        try:
            name = s.user.profile.name
        except ObjectDoesNotExist:  # as the template's lookup did: no profile, the username
            name = ""
        out += ['\n  <li class="seat colour-', v(s.colour), ' to-act">' if s.number in to_act else '">',
                '\n    <span class="swatch" aria-hidden="true"></span>', v(name or s.user.username),
                " " + host if s.user_id == match.creator_id else "", "\n    ", bot if s.is_bot else "", "\n    "]
        vacation = away.get(s.user_id)
        if vacation:
            day = date_filter(template_localtime(vacation.ends_at), "j M")
            out.append('<small class="away">' + _("on vacation until %(day)s") % {"day": v(day)} + "</small>")
        record = known.get(s.user_id) if not s.is_bot else None
        if record is not None:
            out.append('<small class="reliability">' + v(record.words) + "</small>")
        out += ["\n    ", absent if s.is_absent else "", "\n    ", you if me and s.pk == me.pk else "", "\n  </li>\n"]
    return mark_safe("".join(out))


@register.filter
def option_default(option: dict) -> str:
    """An option's default as the rules page says it: on or off, a choice's words, a number."""
    if option.get("kind") == "bool":
        return pgettext("option default", "on") if option.get("default") else pgettext("option default", "off")
    return (option.get("choice_labels") or {}).get(option.get("default"), option.get("default"))


@register.inclusion_tag("games/partials/action_form.html", takes_context=True)
def action_form(context, action=None, *, id="", css="", label="", target="#match-live", swap="outerHTML",
                ship="", start=""):
    """The opening of a form that posts a move: <form> aimed at the match's action URL (plain
    POST without JavaScript, hx-post with it, answered by the live part), the CSRF token, the
    version the player saw (a stale move is refused) and, when given, the action as JSON. Close
    it with </form>. `target` and `swap` may be empty to inherit them from an enclosing element;
    `ship` and `start` fill data-ship and data-from for a game's script."""
    match = context["match"]
    if action is not None and not isinstance(action, str):
        action = action_json(action)
    return {"url": reverse("match_action", args=[match.pk]), "version": match.version, "action": action,
            "id": id, "css": css, "label": label, "target": target, "swap": swap, "ship": ship, "start": start}


@register.simple_tag(takes_context=True)
def game_live(context):
    """What a game's partials/live.html shows: its presenter, `games.<game>.pages.live`, called in
    the one shape every game's has (README, "Adding a game") from the engine's view for this
    viewer and their legal actions, the names and colours of the seats, the page's query (what
    the viewer chose: absent when a socket or an action renders the part), the recent log rows
    (newest first) and whether the shared board is drawn once for all viewers elsewhere."""
    import importlib

    match = context["match"]
    request = context.get("request")
    pages = importlib.import_module(f"games.{match.game}.pages")
    return pages.live(view=context.get("view"), seat=context.get("seat_number"), legal=context.get("legal") or [],
                      my_turn=bool(context.get("my_turn")), names=context.get("names"),
                      colours=context.get("colours"), match=match,
                      query=request.GET if request is not None else None,
                      log=getattr(match, "recent_log", None) or (),
                      draw_shared=not (context.get("shared") or {}).get("board"))


@register.simple_tag
def order_places(match, kind: str) -> list[dict]:
    """The places of the board an Orders panel field of this kind may name ({value, words, left,
    top}), for its list and its pick on the board (games.reads.standing.places). The board is public:
    it is read from the spectators' view."""
    from games.reads import standing
    from games.engines import get_engine

    if match is None or match.state is None:
        return []
    return standing.places(match.game, kind, get_engine(match.game).view(match.state, None))


@register.simple_tag
def players_reliability(matches) -> dict:
    """The seated players' records of these matches (the lobby), by user id, in one read."""
    from games.reads.reliability import turn_records

    return turn_records([s.user_id for m in matches for s in m.seats.all() if not s.is_bot])


class OnceNode(template.Node):
    def __init__(self, name: str, key, nodelist):
        self.name, self.key, self.nodelist = name, key, nodelist

    def render(self, context):
        made = (context.get("shared") or {}).get("once")
        if made is None:  # a page, not a change's parts: nothing is shared
            return self.nodelist.render(context)
        memo = (self.name, self.key.resolve(context) if self.key is not None else None)
        if memo not in made:
            made[memo] = self.nodelist.render(context)
        return made[memo]


@register.tag
def once(parser, token):
    """{% once "name" %}…{% endonce %}: markup every viewer of a version sees alike, in the same
    words and zone — drawn for the first viewer's part of a change and taken as drawn for the
    others (`shared["once"]`, one per language and zone: games.reads.panels.shared_parts). Only
    for what depends on nothing of the viewer (not their seat, turn or legal actions), and not
    inside a loop: a name stands for one drawing. {% once "name" key %}: one drawing for each
    value of `key`, which holds all the drawing depends on of the viewer (the log's events they
    are shown; in a loop, a ship and whether it is the viewer's and may sail).
    tests/platform/test_change.py checks that each viewer's part is what it would be drawn alone."""
    bits = token.split_contents()
    if len(bits) not in (2, 3) or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("{% once %} takes a quoted name and, if the drawing differs by it, a key")
    nodelist = parser.parse(("endonce",))
    parser.delete_first_token()
    return OnceNode(bits[1][1:-1], parser.compile_filter(bits[2]) if len(bits) == 3 else None, nodelist)
