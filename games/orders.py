"""Standing orders: the lines a seated player leaves to be played while away (issue 27).

Each game declares its vocabulary in games/engines/<game>/orders.py and reads only
`view(state, seat)` and the seat's legal actions. This module keeps a seat's lines, checks
them, and picks the line that plays when the server needs a decision from the seat; the move
itself goes through games/services.py like every other (lock, version, engine, log, jobs)."""
import importlib
from datetime import datetime

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_lazy

from games import jobs
from games.errors import BadRequest, NotAllowed
from games.models import ActionLog, Match, StandingOrders

MAX_LINES = 20
SCOPES = ("always", "turn", "until")

# What each kind of line is called, in the games' own words.
KIND_LABELS = {
    "roll": gettext_lazy("Roll the dice"),
    "sail": gettext_lazy("Sail a ship towards a port by the shortest safe route"),
    "sell": gettext_lazy("Sell a good if I get at least (after any duty)"),
    "buy": gettext_lazy("Buy a good if it costs at most (duty included)"),
    "end_turn": gettext_lazy("End the turn"),
    "decline_offers": gettext_lazy("Decline offers from others"),
    "accept_offers": gettext_lazy("Accept an offer that pays at least"),
    "home_port": gettext_lazy("Choose my home port (if it is taken, the first free one)"),
    "capture": gettext_lazy("Capture a ship when possible"),
    "treasure_home": gettext_lazy("Bring a treasure home by the shortest way"),
    "toward_treasure": gettext_lazy("Move the ship nearest the treasure towards it"),
    "any_move": gettext_lazy("Otherwise, any move the dice allow"),
    "discard": gettext_lazy("On a 7, discard in this order of resources"),
    "robber_leader": gettext_lazy("Put the robber on the leader's best hex"),
    "pirate_leader": gettext_lazy("Move the pirate onto a ship of the leader's, or else leave it"),
    "decline_trades": gettext_lazy("Decline every trade offer"),
    "accept_trades": gettext_lazy("Accept trade offers giving me one resource for another"),
    "build_road": gettext_lazy("Build a road at an edge if I can pay"),
    "unload": gettext_lazy("Unload ships when docked"),
    "end_sailing": gettext_lazy("Leave my ships where they are when asked to sail"),
}
FIELD_LABELS = {"ship": gettext_lazy("ship"), "port": gettext_lazy("port"), "good": gettext_lazy("good"),
                "at_least": gettext_lazy("at least"), "at_most": gettext_lazy("at most"),
                "order": gettext_lazy("order of resources"), "give": gettext_lazy("they give"),
                "get": gettext_lazy("I give"), "edge": gettext_lazy("edge")}


def vocabulary(game: str):
    try:
        return importlib.import_module(f"games.engines.{game}.orders")
    except ImportError:
        raise BadRequest(_("This game has no standing orders.")) from None


def problem_text(problem: tuple) -> str:
    index, code, details = problem
    field = str(FIELD_LABELS.get(details.get("field"), details.get("field", "")))
    words = {
        "not_a_list": _("Orders are a list of lines."),
        "unknown_kind": _("Line %(n)s: there is no such order.") % {"n": index + 1},
        "missing": _("Line %(n)s: say which %(field)s.") % {"n": index + 1, "field": field},
        "not_a_number": _("Line %(n)s: %(field)s must be a whole number, not %(value)s.")
        % {"n": index + 1, "field": field, "value": details.get("value")},
        "no_such": _("Line %(n)s: there is no %(field)s called %(value)s.")
        % {"n": index + 1, "field": field, "value": details.get("value")},
        "bad_scope": _("Line %(n)s: an order lasts for the next turn, until a time, or until removed.")
        % {"n": index + 1},
        "bad_time": _("Line %(n)s: the time it lasts until must be a time in the future.") % {"n": index + 1},
    }
    return words[code]


def _clean(game: str, lines, view, now) -> list[dict]:
    """The lines as kept, or BadRequest naming every problem."""
    module = vocabulary(game)
    if not isinstance(lines, list):
        raise BadRequest(problem_text((0, "not_a_list", {})))
    if len(lines) > MAX_LINES:
        raise BadRequest(_("At most %(n)s lines of orders.") % {"n": MAX_LINES})
    found = list(module.problems(lines, view))
    kept = []
    for i, line in enumerate(lines):
        if not isinstance(line, dict) or line.get("kind") not in module.KINDS:
            continue
        clean = {"kind": line["kind"], **{f: line.get(f) for f in module.KINDS[line["kind"]]}}
        scope = line.get("scope") or "always"
        if scope not in SCOPES:
            found.append((i, "bad_scope", {}))
        clean["scope"] = scope
        if scope == "until":
            until = _time(line.get("until"))
            if until is None or until <= now:
                found.append((i, "bad_time", {}))
            else:
                clean["until"] = until.isoformat()
        kept.append(clean)
    if found:
        raise BadRequest(" ".join(problem_text(p) for p in sorted(found, key=lambda p: p[0])))
    return kept


def _time(value):
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            return None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def _seat(match, user):
    seat = match.seats.filter(user=user, number__isnull=False).first() if user.is_authenticated else None
    if seat is None:
        raise NotAllowed(_("Only a seated player keeps standing orders."))
    return seat


def orders_of(*, match, user) -> StandingOrders | None:
    """The player's own orders in this match (never another's)."""
    if not user.is_authenticated:
        return None
    return StandingOrders.objects.filter(match=match, user=user).first()


def orders_set(*, match_id, user, lines=None, paused=None, now=None) -> StandingOrders:
    """Replace the seat's lines and/or pause them all, in one transaction with the match
    locked (as a move is), checked by the game's own vocabulary on what the seat may see."""
    from games import services

    now = now or timezone.now()
    with transaction.atomic():
        match = services._locked(match_id).match
        seat = _seat(match, user)
        if match.status not in (Match.RUNNING, Match.PAUSED, Match.OPEN) or match.state is None:
            raise BadRequest(_("Standing orders are kept while the match runs."))
        engine = services._engine(match.game)
        orders, _created = StandingOrders.objects.get_or_create(match=match, seat=seat.number,
                                                                defaults={"user": user})
        if lines is not None:
            orders.lines = _clean(match.game, lines, engine.view(match.state, seat.number), now)
            orders.dropped = []
        if paused is not None:
            orders.paused = bool(paused)
        orders.user = user
        orders.save()
        if orders_due(match):
            jobs.queue_on_commit("games.tasks.apply_deadline", match.pk)
    return orders


def orders_pause(*, match_id, user, paused: bool = True) -> StandingOrders:
    return orders_set(match_id=match_id, user=user, paused=paused)


def orders_due(match) -> bool:
    """Whether a seat to act now has orders that may play (the hook beside _bot_to_act)."""
    if match.status != Match.RUNNING or not match.turn_seats:
        return False
    return StandingOrders.objects.filter(match=match, seat__in=match.turn_seats, paused=False) \
        .exclude(lines=[]).exists()


def _alive(line, match, now) -> bool:
    if line.get("scope") == "until":
        return _time(line.get("until")) is not None and _time(line["until"]) > now
    if line.get("scope") == "turn":
        # For the next turn only: the turn it first played in, and no later one.
        return not line.get("turn") or line["turn"] == match.turn_key
    return True


def order_action(match, engine, number: int, now) -> dict | None:
    """The action the seat's first fitting line plays now, or None. Called with the match
    locked; expired lines go, lines that no longer make sense (their ship sank) are dropped and
    kept aside to tell the player once."""
    orders = StandingOrders.objects.filter(match=match, seat=number, paused=False).first()
    if orders is None or not orders.lines:
        return None
    try:
        module = vocabulary(match.game)
    except BadRequest:
        return None
    view = engine.view(match.state, number)
    lines = [line for line in orders.lines if _alive(line, match, now)]
    broken = {p[0] for p in module.problems(lines, view)}
    if broken:
        orders.dropped = orders.dropped + [lines[i] for i in sorted(broken)]
        lines = [line for i, line in enumerate(lines) if i not in broken]
    chosen = module.choose(lines, view, engine.legal_actions(match.state, number))
    if chosen is not None:
        index, action = chosen
        if lines[index].get("scope") == "turn":
            lines[index] = dict(lines[index], turn=match.turn_key)
        # The turn the notification names (notifications/orders.py): one per turn at most.
        orders.told_turn = match.turn_key
    if lines != orders.lines or broken or chosen is not None:
        orders.lines = lines
        orders.save(update_fields=["lines", "dropped", "told_turn", "updated_at"])
    return None if chosen is None else chosen[1]


# The engines' headers of what comes after a turn: the next player's turn ("turn", in every
# game), Fuldrigger's new round and a turn lost to scurvy, the first player named. Each follows
# the move that ended a turn, in the same log row, but is not part of that move.
TURN_HEADERS = frozenset(("turn", "round", "turn_lost", "first_player"))


def passes_the_turn(event: dict) -> bool:
    """Whether a logged event ends a turn: a header of what comes next, or the match's end."""
    return event.get("type") in TURN_HEADERS or event.get("type") == "match_finished"


def played_by_order(row_kind: str, event: dict) -> bool:
    """Whether the log marks an event "played by standing order": an event of a move the orders
    played, not the next player's turn header logged with it (issue 33)."""
    return row_kind == ActionLog.ORDER and not passes_the_turn(event)


def places(game: str, kind: str, view) -> list[dict]:
    """The places of the board a field of this kind ("edge") may name, each {value, words,
    left, top} (where it lies on the board, in percent), from the game's own pages (its
    `order_places`); none for a game whose orders name no place."""
    try:
        pages = importlib.import_module(f"games.{game}.pages")
    except ImportError:
        return []
    order_places = getattr(pages, "order_places", None)
    return order_places(view, kind) if order_places is not None and view else []


def line_words(game: str, line: dict, view) -> str:
    """One line in words for its owner's panel."""
    module = vocabulary(game)
    parts = [str(KIND_LABELS.get(line["kind"], line["kind"]))]
    for field, kind in module.KINDS.get(line["kind"], {}).items():
        value = line.get(field)
        if kind == "edge":  # a place on the board: its words, as the board says them
            names = {str(p["value"]): p["words"] for p in places(game, kind, view)}
        else:
            names = dict((str(v), label) for v, label in module.choices(field, view, translation.get_language()))
        if isinstance(value, list):
            shown = ", ".join(str(names.get(str(v), v)) for v in value)
        else:
            shown = str(names.get(str(value), value))
        parts.append(f"{FIELD_LABELS.get(field, field)}: {shown}")
    return "; ".join(parts)

