"""Standing orders: the lines a seated player leaves to be played while away (issue 27).

Each game declares its vocabulary in games/engines/<game>/orders.py and reads only
`view(state, seat)` and the seat's legal actions. This module keeps a seat's lines, checks
them, and picks the line that plays when the server needs a decision from the seat; the move
itself goes through games/play/ like every other (lock, version, engine, log, jobs)."""
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines.standing import kind_of
from games.errors import BadRequest, NotAllowed
from games.models import Match, StandingOrders
from games.play import core, jobs
from games.reads.standing import problem_text, vocabulary


MAX_LINES = 20


SCOPES = ("always", "turn", "until")


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
        if kind_of(line, module.KINDS) is None:
            continue
        clean = {"kind": line["kind"], **{f: line.get(f) for f in module.KINDS[line["kind"]]}}
        scope, until_given = line.get("scope"), line.get("until") not in (None, "")
        if scope in (None, ""):
            # A time to last until, given alone, says how long the line lasts: it is not "always".
            scope = "until" if until_given else "always"
        if not isinstance(scope, str) or scope not in SCOPES or (until_given and scope != "until"):
            found.append((i, "bad_scope", {}))
        clean["scope"] = scope
        if scope == "until":
            until = _time(line.get("until"))
            if until is None or until <= now:
                found.append((i, "bad_time", {}))
            elif until > now + timedelta(days=366):  # longer is "until removed" (and 9999 no page can show)
                found.append((i, "far_time", {}))
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
    now = now or timezone.now()
    with transaction.atomic():
        match = core.locked(match_id).match
        if match.state is None and user.is_authenticated and match.seats.filter(user=user).exists():  # before the deal
            raise BadRequest(_("Standing orders are kept while the match runs."))
        seat = _seat(match, user)
        if match.status not in (Match.RUNNING, Match.PAUSED, Match.OPEN) or match.state is None:
            raise BadRequest(_("Standing orders are kept while the match runs."))
        engine = core.engine_of(match.game)
        orders, _created = StandingOrders.objects.get_or_create(match=match, seat=seat.number,
                                                                defaults={"user": user})
        if lines is not None:
            orders.lines = _clean(match.game, lines, engine.view(match.state, seat.number), now)
            orders.dropped = []
        if paused is not None:
            orders.paused = bool(paused)
        orders.user = user
        orders.save()
        if core.orders_due(match):
            jobs.queue_on_commit("games.tasks.apply_deadline", match.pk)
    return orders


def orders_pause(*, match_id, user, paused: bool = True) -> StandingOrders:
    return orders_set(match_id=match_id, user=user, paused=paused)


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
        for seat in match.seats.all():  # as the row now says (StandingOrders.save): read after the move
            if seat.number == number:
                seat.has_orders = orders.may_play
    return None if chosen is None else chosen[1]
