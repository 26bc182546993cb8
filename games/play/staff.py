"""What staff do to a match (the admin's buttons): end it now, pause, resume, extend, abort,
hand a seat to another player. Each is written to the match log."""
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import validation
from games.change import Change, Changing
from games.errors import BadRequest
from games.models import ActionLog, Match, Seat
from games.play import core, projections


def match_finish(*, match_id, reason: str, actor=None) -> Change:
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        if match.status not in (Match.RUNNING, Match.PAUSED):
            raise BadRequest(_("Only a running or paused match can be ended."))
        engine = core.engine_of(match.game)
        match.status = Match.RUNNING
        core.finish(changing, engine, reason, timezone.now())
        return core.settle(changing, engine, timezone.now())


def _admin_log(changing: Changing, actor, action: dict) -> None:
    core.append(changing, seat=None, kind=ActionLog.ADMIN, actor=actor, action=action,
            events=[dict(action)])


def match_pause(*, match_id, actor) -> Change:
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        if match.status != Match.RUNNING:
            raise BadRequest(_("Only a running match can be paused."))
        match.status = Match.PAUSED
        _admin_log(changing, actor, {"type": "admin_pause"})
        core.schedule(match, core.engine_of(match.game), timezone.now(), changing)
        core.save(match)
        return core.after_commit(changing)


def match_resume(*, match_id, actor) -> Change:
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        if match.status != Match.PAUSED:
            raise BadRequest(_("Only a paused match can be resumed."))
        match.status = Match.RUNNING
        match.turn_key = ""  # the seat to act gets a fresh turn clock
        _admin_log(changing, actor, {"type": "admin_resume"})
        return core.settle(changing, core.engine_of(match.game), timezone.now())


def match_extend(*, match_id, actor, turn_hours: float = 0, game_deadline=None) -> Change:
    """Give the seats to act more time, and/or move the whole-game deadline (later, or earlier:
    the log says which)."""
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        if match.status not in (Match.RUNNING, Match.PAUSED):
            raise BadRequest(_("Only a running or paused match can be extended."))
        detail = {"type": "admin_extend"}
        if turn_hours:
            if match.turn_deadline is None:
                raise BadRequest(_("Nobody's turn clock is running."))
            match.turn_deadline += timedelta(hours=float(turn_hours))
            detail["turn_hours"] = float(turn_hours)
        if game_deadline is not None:
            if game_deadline <= timezone.now():
                raise BadRequest(_("The new deadline must be in the future."))
            if validation.too_far_ahead(game_deadline, timezone.now()):  # as at the match's creation
                raise BadRequest(_("The game deadline must be within %(years)s years.")
                                 % {"years": validation.FARTHEST_YEARS})
            if match.game_deadline is not None and game_deadline < match.game_deadline:
                detail["earlier"] = True
            match.game_deadline = game_deadline
            detail["game_deadline"] = game_deadline.isoformat()
        if len(detail) == 1:
            raise BadRequest(_("Say how much to extend."))
        _admin_log(changing, actor, detail)
        match.next_due_at = core.next_due(match) if match.status == Match.RUNNING else None
        core.save(match)
        return core.after_commit(changing)


def match_abort(*, match_id, actor) -> Change:
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        if match.is_over:
            raise BadRequest(_("The match is already over."))
        match.status, match.finish_reason, match.finished_at = Match.ABORTED, "aborted by an admin", timezone.now()
        _admin_log(changing, actor, {"type": "admin_abort"})
        core.schedule(match, None, timezone.now(), changing)
        core.save(match)
        return core.after_commit(changing)


def seat_hand_over(*, match_id, seat_number: int, to_user, actor) -> Seat:
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        if match.is_over:
            raise BadRequest(_("The match is over."))
        seat = match.seats.filter(number=seat_number).first()
        if seat is None:
            raise BadRequest(_("No such seat."))
        if match.seats.filter(user=to_user).exists():
            raise BadRequest(_("%(player)s already has a seat in this match.") % {"player": to_user})
        previous = seat.user
        seat.user, seat.is_absent, seat.consecutive_timeouts = to_user, False, 0
        try:
            seat.save(update_fields=["user", "is_absent", "consecutive_timeouts"])
        except IntegrityError:
            raise BadRequest(_("That player already has a seat here.")) from None
        _admin_log(changing, actor, {"type": "admin_hand_seat", "seat": seat_number,
                                  "from": previous.get_username(), "to": to_user.get_username()})
        core.save(match)
        projections.project(match)  # the game's own tables name the seat's new player
        core.after_commit(changing)
    return seat
