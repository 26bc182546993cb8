"""One rule for everything a visitor sends, whichever way it comes in (the API, the pages'
forms, an imported match, the chat, the profile): no control characters in text, no JSON
nested deeper than a small bound, no number that is not finite, no body larger than a set
limit. Each refusal says why, so a client can correct itself."""
import json
import math
from datetime import timedelta

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _, gettext_lazy

from accounts.validators import control_character_message
from games.errors import BadRequest

MAX_JSON_DEPTH = 32
# The farthest ahead a time given may lie (a match's end, an event's start): it is shown in every
# player's zone, and the end of the calendar (9999-12-31) is year 10000 east of UTC, which no page
# can show (its pages answered 500).
FARTHEST_YEARS = 10
MAX_JSON_INTEGER_DIGITS = 19  # within a signed 64-bit integer, what the database stores


class Refused(BadRequest):
    """Input refused by the site-wide rule, before any service looks at it."""


def refuse_control_characters(text: str, *, multiline: bool = False) -> str:
    """The text, or Refused if it holds a control character (multiline text may hold \\n and \\t)."""
    message = control_character_message(text, multiline=multiline)
    if message:
        raise Refused(message)
    return text


# --- JSON -------------------------------------------------------------------------------

def too_far_ahead(when, now) -> bool:
    """Whether `when` lies more than FARTHEST_YEARS after `now`."""
    return when > now + timedelta(days=365 * FARTHEST_YEARS)


def _depth_at_most(raw: str, limit: int) -> bool:
    """Whether brackets outside strings nest no deeper than limit, without parsing (the parser
    itself would recurse once per level and overflow the stack long before 100,000)."""
    if raw.count("[") + raw.count("{") <= limit:
        return True
    depth = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return False
        elif char in "]}":
            depth -= 1
    return True


def _constant(name: str):
    raise Refused(_("Numbers must be finite: %(value)s is not allowed.") % {"value": name})


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(_("Numbers must be finite: %(value)s is too large.") % {"value": text[:40]})
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_INTEGER_DIGITS:
        raise Refused(_("The number %(value)s… is too large.") % {"value": text[:20]})
    return int(text)


def _check_strings(value, depth=0) -> None:
    if isinstance(value, str):
        message = control_character_message(value)
        if message:
            raise Refused(message)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key)
            _check_strings(item)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)


def loads(raw: bytes | str):
    """Parse JSON under the site's rule. Refused (a 400 with its reason) for JSON too deep,
    a number that is not finite or too large, or text with a control character;
    ValueError for what is not JSON at all."""
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if not _depth_at_most(raw, MAX_JSON_DEPTH):
        raise Refused(_("The JSON is nested too deeply (at most %(depth)s levels).") % {"depth": MAX_JSON_DEPTH})
    value = json.loads(raw, parse_constant=_constant, parse_float=_float, parse_int=_int)
    _check_strings(value)
    return value


# --- Bodies -----------------------------------------------------------------------------

TOO_LARGE = gettext_lazy("The request is too large: at most %(limit)s bytes are accepted here.")
NO_SUCH_PAGE = gettext_lazy("There is no such page.")


def body_limit(path: str) -> int:
    if path.rstrip("/").endswith("/matches/import"):
        return settings.IMPORT_MAX_BYTES
    return settings.REQUEST_MAX_BYTES


class BodyLimitMiddleware:
    """Refuses a body over the limit from its Content-Length, before anything reads it: 413,
    in JSON for the API and as a short page for the forms. And an address with a NUL in it
    (`/players/%00/`): no page has one, and PostgreSQL refuses the character in a lookup (a 500
    before): 404."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path:
            if request.path.startswith("/api/"):
                return JsonResponse({"error": str(NO_SUCH_PAGE)}, status=404)
            return render(request, "games/error.html", {"message": NO_SUCH_PAGE}, status=404)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = body_limit(request.path)
        if length > limit:
            message = str(TOO_LARGE) % {"limit": limit}
            if request.path.startswith("/api/"):
                return JsonResponse({"error": message}, status=413)
            return render(request, "games/error.html", {"message": message}, status=413)
        return self.get_response(request)


def parse_action(post) -> dict:
    """An action from a form: the JSON in `action`, with fields named `a.key` (or `a.key.sub`)
    filled in; values that read as JSON (numbers, lists) are taken as such."""
    try:
        action = loads(post.get("action") or "{}")
    except ValueError:  # the site-wide rule's refusals (too deep, not finite) say why themselves
        raise BadRequest(_("The action is not valid JSON.")) from None
    if not isinstance(action, dict):
        raise BadRequest(_("An action is a JSON object with a \"type\"."))
    for key in post:
        if not key.startswith("a."):
            continue
        values = [_field_value(v) for v in post.getlist(key) if v != ""]
        path = key[2:].split(".")
        if len(path) > 4:
            raise BadRequest(_("Field %(field)s does not fit the action.") % {"field": key[:40]})
        target = action
        for part in path[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise BadRequest(_("Field %(field)s does not fit the action.") % {"field": key})
        if key.endswith("[]"):
            target[path[-1][:-2]] = values
        elif values:
            target[path[-1]] = values[0]
    return action


def _field_value(raw: str):
    try:
        return loads(raw)
    except ValueError:  # plain text; a refusal by the site-wide rule is a ServiceError, raised
        return refuse_control_characters(raw)
