"""The one way a game moves: a player's move, and the system's own (chance cards). Each runs in
one transaction with the match row locked, checks who acts and on which version, asks the
engine, writes the state and the log, and announces the change once committed."""
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config import metrics
from games.change import Change
from games.engines import IllegalAction, may_act
from games.engines import actions as declared_actions
from games.errors import BadRequest, NotAllowed, StaleVersion
from games.models import ActionLog, Match
from games.play import core
from games.reads import selectors


@metrics.counts_moves  # one counter increment a move (/metrics)
def action_apply(*, match_id, user, action, expected_version=None) -> Change:
    """A player's move. Stale versions get 409; illegal moves the engine's message; nothing
    changes unless everything succeeds."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest(_("An action is a JSON object with a \"type\"."))
    with transaction.atomic():
        changing = core.locked(match_id, seats=True)
        match = changing.match
        seat = selectors.seat_of(match, user)
        if seat is None:
            raise NotAllowed(_("You have no seat in this match."))
        if match.status == Match.OPEN:  # seated, but seats are numbered at the deal
            raise BadRequest(_("The match has not started yet."))
        if seat.number is None:
            raise NotAllowed(_("You have no seat in this match."))
        if match.status == Match.PAUSED:
            raise BadRequest(_("The match is paused by an admin."))
        if match.status != Match.RUNNING:
            raise BadRequest(_("The match is not running."))
        if expected_version is not None:
            if isinstance(expected_version, str) and expected_version.strip().isdecimal():
                expected_version = int(expected_version)
            if isinstance(expected_version, bool) or not isinstance(expected_version, int):
                raise BadRequest(_("The version must be a whole number."))
            if expected_version != match.version:
                raise StaleVersion(_("The game has moved on since you loaded it; here is the current state."),
                                   version=match.version)
        engine = core.engine_of(match.game)
        # may_act: to_act, and seats with an optional move now (Catan's unloading at once); the
        # clock (core.schedule) and the bots follow to_act alone.
        if seat.number not in may_act(engine, match.state):
            raise BadRequest(_("It is not your turn."))
        action = _as_understood(engine, match.state, seat.number, action)
        now = timezone.now()
        try:
            core.step(changing, engine, seat.number, action, kind=ActionLog.PLAYER, actor=user)
        except IllegalAction as exc:
            raise BadRequest(exc.in_language(translation.get_language())) from None
        if seat.consecutive_timeouts or seat.is_absent:
            seat.consecutive_timeouts, seat.is_absent = 0, False
            seat.save(update_fields=["consecutive_timeouts", "is_absent"])
        return core.settle(changing, engine, now)


def _as_understood(engine, state, seat: int, action: dict) -> dict:
    """The action as the engine understands it (games/engines/actions.py): what is applied and
    logged, so keys the engine ignores never reach the permanent, public log."""
    why = declared_actions.action_problem(engine, action)
    if why is None:
        kept = declared_actions.understood(engine, action, lambda: engine.legal_actions(state, seat))
        why = declared_actions.derived_mismatch(engine, action, kept)
    if why is not None:
        raise BadRequest(_("The action does not fit the game: %(reason)s.") % {"reason": why})
    return kept


def system_action_apply(*, match_id) -> bool:
    """Apply what the engine asks of the system (a chance card). Idempotent: once applied, the
    engine asks nothing and a second run does nothing."""
    with transaction.atomic():
        changing = core.locked(match_id, seats=True)
        match = changing.match
        if match.status != Match.RUNNING:
            return False
        engine = core.engine_of(match.game)
        applied = False
        for _attempt in range(core.MAX_AUTOMATIC_STEPS):
            action = engine.system_action(match.state)
            if action is None:
                break
            core.step(changing, engine, None, action, kind=ActionLog.SYSTEM)
            applied = True
        if not applied and not match.needs_system:
            return False
        core.settle(changing, engine, timezone.now())
    return applied
