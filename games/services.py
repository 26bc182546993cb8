"""The few functions that change a match. Each runs in one transaction with the match row
locked, checks who acts and on which version, asks the engine, writes the snapshot and the log,
and queues the broadcast and the jobs for after the commit."""
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _, ngettext

from accounts.models import Vacation, active_vacation, vacation_days_left
from config import after_response, metrics
from games import bots, jobs, limits, live, projections, selectors
from games.change import Change, Changing
from games import orders as standing
from games.engines import IllegalAction, get_engine, may_act
from games.engines import actions as declared_actions
from games.engines.base import edition_of
from games.engines.dice import seed_hash
from games.errors import BadRequest, NotAllowed, NotFound, StaleVersion
from games.models import ActionLog, Job, Match, Seat
from games.validation import refuse_control_characters

log = logging.getLogger(__name__)

MIN_TURN_SECONDS = 3600
MAX_TURN_SECONDS = 14 * 24 * 3600
# Engines hand turns back and forth with the system (chance cards) and with timeouts; a bound
# keeps a faulty engine from spinning a job forever.
MAX_AUTOMATIC_STEPS = 200


def _engine(game: str):
    try:
        return get_engine(game)
    except LookupError:
        raise BadRequest(_("There is no game called %(game)s.") % {"game": repr(game)}) from None


def _locked(match_id, *, seats: bool = False) -> Changing:
    """The match row locked for this transaction, and the change about to be made of it; with
    `seats`, its seats read once with their players, for a service whose every later read of
    them goes through match.seats.all() (a move reads them to find the mover, the turn's owner,
    the bots and the projection's owners; the live parts draw them)."""
    match = Match.objects.select_for_update().filter(pk=selectors.match_id_of(match_id)).first()
    if match is None:
        raise NotFound(_("No such match."))
    if seats:
        selectors.with_seats_and_players(match)
    return Changing(match)


def _save(match: Match) -> None:
    """Save the whole row, field by field: a save that names its fields is a service's, which
    announces its own change (games.live.match_saved announces the others: the admin's)."""
    match.save(update_fields=[f.name for f in Match._meta.concrete_fields if not f.primary_key])


def _announce(changing: Changing) -> Change:
    """The change as made: once committed (and the response sent, under granian), its parts go
    to whoever watches (games/live/)."""
    change = changing.made(changing.match.seats.all())
    live.publish_on_commit(change)
    return change


def _after_commit(changing: Changing) -> Change:
    """Tell the browsers and queue the system's own move once the change is durable. What must
    follow is in this transaction already (needs_system and next_due_at on the match, a Job row
    for the listeners): the queued jobs only make it happen at once, the sweep if they are lost."""
    match = changing.match
    change = _announce(changing)
    match_id, needs_system = match.pk, match.needs_system
    if needs_system:
        jobs.queue_on_commit("games.tasks.apply_system_action", match_id)
    if match.status == Match.RUNNING and match.turn_seats and _bot_to_act(match):
        jobs.queue_on_commit("games.tasks.apply_deadline", match_id)
    elif standing.orders_due(match):  # standing orders play through the same job (games/orders.py)
        jobs.queue_on_commit("games.tasks.apply_deadline", match_id)
    if (change.new_version or change.turn_passed_to is not None) and _listeners_care(change):
        jobs.record(match, Job.MATCH_CHANGED, **change.facts())
    return change


def _listeners_care(change: Change) -> bool:
    """Whether a listener of MATCH_CHANGED_LISTENERS has anything to tell of these events, this
    turn and these kinds of log rows (a move by standing order): a listener may say beforehand
    (its `cares(events=, turn_passed_to=, kinds=)`), so a move that tells nobody anything queues
    no job; one that cannot say hears of every change."""
    for path in settings.MATCH_CHANGED_LISTENERS:
        cares = getattr(import_string(path), "cares", None)
        if cares is None or cares(events=change.events, turn_passed_to=change.turn_passed_to, kinds=change.kinds):
            return True
    return False


def _bot_to_act(match: Match) -> bool:
    seats = [s for s in match.seats.all() if s.number in match.turn_seats]
    return any(s.played_by_bot(match) for s in seats)


# --- Creating and filling a match --------------------------------------------------------

def match_create(*, creator, game: str, seats: int, options: dict | None = None,
                 turn_seconds: int = 24 * 3600, time_bank_seconds: int = 0, game_deadline=None,
                 round_limit: int | None = None, is_public: bool = True, title: str = "",
                 rated: bool = True, allow_vacation: bool = True, bots_cover_absence: bool = False,
                 bot_seats: int = 0) -> Match:
    engine = _engine(game)
    refuse_control_characters(title)  # titles go into e-mail subjects and every page
    try:
        seats = int(seats)
    except (TypeError, ValueError):
        raise BadRequest(_("Number of seats must be a whole number.")) from None
    try:
        cleaned = engine.check_options(options or {}, seats)
    except IllegalAction as exc:
        raise BadRequest(exc.in_language(translation.get_language())) from None
    if not MIN_TURN_SECONDS <= int(turn_seconds) <= MAX_TURN_SECONDS:
        raise BadRequest(_("Time per turn must be between 1 hour and 14 days."))
    if int(time_bank_seconds) < 0 or int(time_bank_seconds) > 30 * 24 * 3600:
        raise BadRequest(_("The time bank must be between 0 and 30 days."))
    if game_deadline is not None and game_deadline <= timezone.now():
        raise BadRequest(_("The game deadline must be in the future."))
    if round_limit is not None and not 1 <= int(round_limit) <= 1000:
        raise BadRequest(_("The round limit must be between 1 and 1000."))
    try:
        bot_seats = int(bot_seats or 0)
    except (TypeError, ValueError):
        raise BadRequest(_("The number of bots must be a whole number.")) from None
    if not 0 <= bot_seats < seats:
        raise BadRequest(_("Bots may fill at most all seats but yours."))
    # A match that cannot count fairly is unrated (the match form tells its creator why).
    rated = bool(rated) and limits.unrated_reason(is_public=is_public, bot_seats=bot_seats,
                                                  round_limit=round_limit, options=cleaned) is None
    with transaction.atomic():
        limits.lock_player(creator)
        limits.check_new_match(creator)
        match = Match.objects.create(
            game=game, rules_version=str(getattr(engine, "version", "1")), title=title[:80],
            options=cleaned, seats_count=seats, creator=creator, is_public=is_public,
            turn_seconds=int(turn_seconds), time_bank_seconds=int(time_bank_seconds),
            game_deadline=game_deadline, round_limit=round_limit, rated=rated,
            allow_vacation=allow_vacation, bots_cover_absence=bots_cover_absence,
        )
        Seat.objects.create(match=match, user=creator, colour=Seat.COLOURS[0],
                            time_bank_left=match.time_bank_seconds)
        for n in range(1, bot_seats + 1):
            Seat.objects.create(match=match, user=bots.bot_user(n), colour=Seat.COLOURS[n], is_bot=True,
                                time_bank_left=match.time_bank_seconds)
        if bot_seats + 1 == seats:
            _deal(Changing(match))
    return match


def match_join(*, match_id, user, colour: str | None = None, invite_code: str | None = None) -> Seat:
    with transaction.atomic():
        limits.lock_player(user)  # the player's row before the match's, as everywhere
        changing = _locked(match_id)
        match = changing.match
        taken = list(match.seats.all())
        # Access first: a stranger without the invitation learns nothing of a private match.
        if not match.is_public and invite_code != match.invite_code and all(s.user_id != user.pk for s in taken):
            raise NotAllowed(_("This match is by invitation only."))
        if match.status != Match.OPEN:
            raise BadRequest(_("This match is no longer open."))
        if any(s.user_id == user.pk for s in taken):
            raise BadRequest(_("You already have a seat in this match."))
        if len(taken) >= match.seats_count:
            raise BadRequest(_("All seats are taken."))
        limits.check_new_seat(user)
        used = {s.colour for s in taken}
        if colour is None:
            colour = next(c for c in Seat.COLOURS if c not in used)
        elif colour not in Seat.COLOURS or colour in used:
            raise BadRequest(_("That colour is not available."))
        seat = Seat.objects.create(match=match, user=user, colour=colour, time_bank_left=match.time_bank_seconds)
        if len(taken) + 1 == match.seats_count:
            _deal(changing)
        else:
            _announce(changing)
    return seat


def match_leave(*, match_id, user) -> Change:
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        seat = match.seats.filter(user=user).first()
        if seat is None:
            raise BadRequest(_("You have no seat in this match."))
        if match.status != Match.OPEN:
            raise BadRequest(_("You can only leave a match before it starts."))
        if user.pk == match.creator_id:
            # The creator leaving closes the table for everybody.
            match.status = Match.ABORTED
            match.finish_reason = "cancelled by its creator"
            match.save(update_fields=["status", "finish_reason"])
        seat.delete()
        return _announce(changing)


def match_set_colour(*, match_id, user, colour: str) -> Change:
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        seat = match.seats.filter(user=user).first()
        if seat is None:
            raise BadRequest(_("You have no seat in this match."))
        if match.status != Match.OPEN:
            raise BadRequest(_("Colours are chosen before the match starts."))
        if colour not in Seat.COLOURS or match.seats.filter(colour=colour).exclude(pk=seat.pk).exists():
            raise BadRequest(_("That colour is not available."))
        seat.colour = colour
        seat.save(update_fields=["colour"])
        return _announce(changing)


def match_start(*, match_id, user=None) -> Change:
    """The creator starts a full match by hand (a full match normally starts as its last seat
    is taken, in that same transaction)."""
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        if user is not None and user.pk != match.creator_id:  # access before status
            raise NotAllowed(_("Only the match's creator can start it."))
        if match.status != Match.OPEN:
            raise BadRequest(_("This match has already started."))
        return _deal(changing)


def _deal(changing: Changing) -> Change:
    """Deal the seats of a locked, open match in joining order and ask the engine for the first
    state. Called inside the transaction that filled the last seat, so nobody ever sees a full
    match that has not started."""
    match = changing.match
    seats = list(match.seats.order_by("joined_at", "pk"))
    if len(seats) != match.seats_count:
        raise BadRequest(_("The match needs %(seats)s players; %(joined)s have joined.")
                         % {"seats": match.seats_count, "joined": len(seats)})
    engine = _engine(match.game)
    seed = secrets.token_hex(32)
    try:
        state = engine.new_game(len(seats), seed, match.options)
    except IllegalAction as exc:
        raise BadRequest(exc.in_language(translation.get_language())) from None
    for number, seat in enumerate(seats):
        seat.number = number
        seat.save(update_fields=["number"])
    now = timezone.now()
    match.seed, match.seed_hash = seed, seed_hash(seed)
    match.rules_version = str(edition_of(state))   # the edition it is dealt under
    match.state, match.status, match.started_at = state, Match.RUNNING, now
    match.version = 0
    _schedule(match, engine, now, changing)
    _save(match)
    projections.project(match)
    return _after_commit(changing)


# --- The one way a game moves -------------------------------------------------------------

def _append(changing: Changing, *, seat, kind, actor, action, events) -> ActionLog:
    match = changing.match
    match.version += 1
    row = ActionLog.objects.create(match_id=match.pk, seq=match.version, seat=seat, kind=kind,
                                   actor=actor, action=action, events=events)
    changing.wrote(row)
    return row


def _step(changing: Changing, engine, seat, action, *, kind, actor=None) -> list:
    """Apply one engine action to a locked match and log it (no save, no broadcast)."""
    match = changing.match
    state, events = engine.apply(match.state, seat, action)
    match.state = state
    _append(changing, seat=seat, kind=kind, actor=actor, action=action, events=events)
    return events


def _settle(changing: Changing, engine, now) -> Change:
    """After a move: finish a game that is over, reschedule, persist, project, broadcast."""
    match = changing.match
    if match.status == Match.RUNNING:
        if engine.is_over(match.state):
            _finish(changing, engine, "the game reached its end", now)
        elif (match.round_limit and match.state.get("round", 0) > match.round_limit
              and _every_seat_moved(match)):
            _finish(changing, engine, f"the round limit of {match.round_limit} was reached", now)
    _schedule(match, engine, now, changing)
    _save(match)
    # The tables were written from the state as locked: only what changed since needs writing.
    projections.project(match, before=changing.state_at_lock)
    return _after_commit(changing)


def _every_seat_moved(match: Match) -> bool:
    """A round limit ends a match only once every seat has made a move of its own (chance cards
    alone once ended one-round matches before anyone moved)."""
    moved = (ActionLog.objects.filter(match=match, kind__in=(ActionLog.PLAYER, ActionLog.TIMEOUT, ActionLog.BOT, ActionLog.ORDER))
             .exclude(seat=None).values("seat").distinct().count())
    return moved >= match.seats_count


@metrics.counts_moves  # one counter increment a move (/metrics)
def action_apply(*, match_id, user, action, expected_version=None) -> Change:
    """A player's move. Stale versions get 409; illegal moves the engine's message; nothing
    changes unless everything succeeds."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest(_("An action is a JSON object with a \"type\"."))
    with transaction.atomic():
        changing = _locked(match_id, seats=True)
        match = changing.match
        seat = selectors.seat_of(match, user)
        if seat is None or seat.number is None:
            raise NotAllowed(_("You have no seat in this match."))
        if match.status == Match.PAUSED:
            raise BadRequest(_("The match is paused by an admin."))
        if match.status != Match.RUNNING:
            raise BadRequest(_("The match is not running."))
        if expected_version is not None:
            if isinstance(expected_version, str) and expected_version.strip().isdigit():
                expected_version = int(expected_version)
            if isinstance(expected_version, bool) or not isinstance(expected_version, int):
                raise BadRequest(_("The version must be a whole number."))
            if expected_version != match.version:
                raise StaleVersion(_("The game has moved on since you loaded it; here is the current state."),
                                   version=match.version)
        engine = _engine(match.game)
        # may_act: to_act, and seats with an optional move now (Catan's unloading at once); the
        # clock (_schedule) and the bots follow to_act alone.
        if seat.number not in may_act(engine, match.state):
            raise BadRequest(_("It is not your turn."))
        action = _as_understood(engine, match.state, seat.number, action)
        now = timezone.now()
        try:
            _step(changing, engine, seat.number, action, kind=ActionLog.PLAYER, actor=user)
        except IllegalAction as exc:
            raise BadRequest(exc.in_language(translation.get_language())) from None
        if seat.consecutive_timeouts or seat.is_absent:
            seat.consecutive_timeouts, seat.is_absent = 0, False
            seat.save(update_fields=["consecutive_timeouts", "is_absent"])
        return _settle(changing, engine, now)


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
        changing = _locked(match_id, seats=True)
        match = changing.match
        if match.status != Match.RUNNING:
            return False
        engine = _engine(match.game)
        applied = False
        for _attempt in range(MAX_AUTOMATIC_STEPS):
            action = engine.system_action(match.state)
            if action is None:
                break
            _step(changing, engine, None, action, kind=ActionLog.SYSTEM)
            applied = True
        if not applied and not match.needs_system:
            return False
        _settle(changing, engine, timezone.now())
    return applied


def deadline_apply(*, match_id, now=None) -> bool:
    """End the match at its deadline, or play timeout actions for seats whose turn time ran out.
    Safe to run twice: it acts only on what is due when it holds the lock."""
    with transaction.atomic():
        changing = _locked(match_id, seats=True)
        match = changing.match
        if match.status != Match.RUNNING:
            return False
        now = now or timezone.now()
        engine = _engine(match.game)
        if match.game_deadline and now >= match.game_deadline:
            _finish(changing, engine, "the match deadline passed", now)
            _settle(changing, engine, now)
            return True
        seats = {s.number: s for s in match.seats.all()}
        # Standing orders play first; the turn they leave is the one whose clock is read.
        played = _play_orders(changing, engine, seats, now)
        if played:
            _schedule(match, engine, now, changing)
        owner = seats.get(match.turn_seats[0]) if match.turn_seats else None
        owner_by_bot = owner is not None and owner.played_by_bot(match)
        time_up = bool(match.turn_deadline and now >= match.turn_deadline and match.turn_seats
                       and not owner_by_bot)
        if time_up:
            for number in list(match.turn_seats):
                by_bot = seats[number].played_by_bot(match)
                played |= _play_seat(changing, engine, number, by_bot=by_bot)
            # Only the turn's owner missed their turn; a seat that merely had an offer to answer
            # has it declined for them, and is not counted as absent for it.
            owner.consecutive_timeouts += 1
            owner.time_bank_left = 0
            if owner.consecutive_timeouts >= settings.ABSENT_AFTER_TIMEOUTS:
                owner.is_absent = True
            owner.save(update_fields=["consecutive_timeouts", "time_bank_left", "is_absent"])
            if owner.is_absent and match.bots_cover_absence and match.turn_seats:
                _note(changing, {"type": "bot_covers", "seat": owner.number})
        # Bots (and absent players they cover for) move at once, turn after turn, until a
        # person is to act.
        for _attempt in range(MAX_AUTOMATIC_STEPS):
            if match.status != Match.RUNNING or engine.is_over(match.state):
                break
            turn = [n for n in engine.to_act(match.state) if seats[n].played_by_bot(match)]
            if not turn:
                if not _play_orders(changing, engine, seats, now):
                    break
                played = True
                continue
            for number in turn:
                played |= _play_seat(changing, engine, number, by_bot=True)
        if not played:
            return False
        _settle(changing, engine, now)
        return True


def _play_seat(changing: Changing, engine, number: int, *, by_bot: bool) -> bool:
    """Play for one seat until it has nothing more to do now: the bot's choices, or else the
    engine's timeout actions. System actions the moves call for are applied on the way."""
    match = changing.match
    played = False
    for _attempt in range(MAX_AUTOMATIC_STEPS):
        if match.status != Match.RUNNING or number not in engine.to_act(match.state):
            break
        if by_bot:
            action, kind = bots.bot_action(match.game, match.state, number), ActionLog.BOT
        else:
            action, kind = engine.timeout_action(match.state, number), ActionLog.TIMEOUT
        _step(changing, engine, number, action, kind=kind)
        played = True
        while engine.system_action(match.state) is not None:
            _step(changing, engine, None, engine.system_action(match.state), kind=ActionLog.SYSTEM)
    return played


def _play_orders(changing: Changing, engine, seats: dict, now) -> bool:
    """Play the standing orders of the seats to act (people, not bots) while a line fits."""
    match = changing.match
    played = False
    for _attempt in range(MAX_AUTOMATIC_STEPS):
        if match.status != Match.RUNNING or engine.is_over(match.state):
            break
        moved = False
        for number in engine.to_act(match.state):
            if seats[number].played_by_bot(match):
                continue
            action = standing.order_action(match, engine, number, now)
            if action is None:
                continue
            try:
                _step(changing, engine, number, action, kind=ActionLog.ORDER)
            except IllegalAction:
                continue  # a line the rules refuse now plays nothing; the player is asked
            while engine.system_action(match.state) is not None:
                _step(changing, engine, None, engine.system_action(match.state), kind=ActionLog.SYSTEM)
            moved = played = True
            break  # to_act may have changed: read it again
        if not moved:
            break
    return played


def _note(changing: Changing, event: dict) -> None:
    """A platform note in the log (not a move): who covers for whom."""
    _append(changing, seat=None, kind=ActionLog.RECORD, actor=None, action=dict(event), events=[dict(event)])


def seat_return(*, match_id, user) -> bool:
    """An absent player came back: their turns wait for them again."""
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        seat = match.seats.filter(user=user, is_absent=True).first()
        if seat is None:
            return False
        seat.is_absent, seat.consecutive_timeouts = False, 0
        seat.save(update_fields=["is_absent", "consecutive_timeouts"])
        if match.status == Match.RUNNING and seat.number in match.turn_seats:
            match.turn_key = ""  # restart this turn's clock for the returning player
            _schedule(match, _engine(match.game), timezone.now(), changing)
            _save(match)
        _announce(changing)  # their seat reads "away" no more
        return True


# --- Vacations ---------------------------------------------------------------------------

def vacation_start(*, user, days: int, now=None) -> Vacation:
    """Go away for some days: the turns the player owns now wait that much longer, and turns
    that come to them while away wait until they are back, in every match that allows it.

    The allowance is read and spent with the player's own row locked, so racing requests from
    several sessions queue: one vacation at a time, never more days than are left."""
    now = now or timezone.now()
    try:
        days = int(days)
    except (TypeError, ValueError):
        raise BadRequest(_("Say how many days.")) from None
    if days < 1:
        raise BadRequest(_("A vacation lasts at least one day."))
    with transaction.atomic():
        limits.lock_player(user)
        if active_vacation(user, now) is not None:
            raise BadRequest(_("You are already on vacation."))
        left = vacation_days_left(user=user, now=now)
        if days > left:
            raise BadRequest(ngettext("You have %(days)s vacation day left this year.",
                                      "You have %(days)s vacation days left this year.", left) % {"days": left})
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=now + timedelta(days=days))
        _shift_turns(user, timedelta(days=days))
    return vacation


def vacation_end(*, user, now=None) -> bool:
    """Back early: the days not taken return to the year's allowance and the clocks run again."""
    now = now or timezone.now()
    with transaction.atomic():
        limits.lock_player(user)
        vacation = active_vacation(user, now)
        if vacation is None:
            return False
        unused = vacation.ends_at - now
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
        _shift_turns(user, -unused)
    return True


def _shift_turns(user, delta) -> None:
    """Move the clocks of the turns this player owns now (in matches that allow vacations)."""
    for match in Match.objects.select_for_update().filter(
            status=Match.RUNNING, allow_vacation=True, seats__user=user, turn_deadline__isnull=False):
        owner = match.seats.filter(number=match.turn_seats[0]).first() if match.turn_seats else None
        if owner is None or owner.user_id != user.pk or owner.played_by_bot(match):
            continue
        match.turn_deadline = max(match.turn_deadline + delta, timezone.now())
        match.next_due_at = _next_due(match)
        match.save(update_fields=["turn_deadline", "next_due_at"])
        _announce(Changing(match))


# --- Deadlines -------------------------------------------------------------------------

def _schedule(match: Match, engine, now, changing: Changing | None = None) -> None:
    """Work out whose clock runs and when the next job must look at this match (and tell the
    change whose turn it began)."""
    if match.status != Match.RUNNING:
        match.turn_seats, match.turn_deadline, match.next_due_at, match.needs_system = [], None, None, False
        match.turn_key = ""
        return
    state = match.state
    match.needs_system = engine.system_action(state) is not None
    seats = list(engine.to_act(state))
    # The first seat to act owns the turn; others (answering an offer) share its clock. The
    # clock restarts only when the turn passes, not when someone joins in mid-turn.
    key = f"{state.get('round', 0)}:{seats[0]}" if seats else ""
    if key != match.turn_key:
        _charge_time_bank(match, now)
        match.turn_key, match.turn_started_at = key, now
        if changing is not None:
            owner = next((s for s in match.seats.all() if seats and s.number == seats[0]), None)
            # Nobody is told of a bot's turn.
            changing.turn_passed_to = seats[0] if owner is not None and not owner.played_by_bot(match) else None
        if seats:
            owner = next((s for s in match.seats.all() if s.number == seats[0]), None)
            if owner is not None and (owner.is_absent or owner.is_bot):
                match.turn_deadline = now  # bots and absent players are played at once
            else:
                bank = owner.time_bank_left if owner is not None else 0
                away = active_vacation(owner.user_id, now) if owner is not None and match.allow_vacation else None
                # A player on vacation: the turn's clock starts when they are back.
                start = away.ends_at if away is not None else now
                match.turn_deadline = start + timedelta(seconds=match.turn_seconds + bank)
        else:
            match.turn_deadline = None
    match.turn_seats = seats
    match.next_due_at = _next_due(match)


def _next_due(match: Match):
    """The earliest moment a job must look at the match: its turn's deadline or its own."""
    due = [d for d in (match.turn_deadline if match.turn_seats else None, match.game_deadline) if d]
    return min(due) if due else None


def _charge_time_bank(match: Match, now) -> None:
    """A turn that took longer than the turn time spends the difference from its owner's bank."""
    if not (match.turn_seats and match.turn_started_at and match.time_bank_seconds):
        return
    over = (now - match.turn_started_at).total_seconds() - match.turn_seconds
    if over > 0:
        for seat in [s for s in match.seats.all() if s.number == match.turn_seats[0]]:
            seat.time_bank_left = max(0, seat.time_bank_left - int(over))
            seat.save(update_fields=["time_bank_left"])


def _finish(changing: Changing, engine, reason: str, now) -> None:
    match = changing.match
    match.status = Match.FINISHED
    match.standings = engine.standings(match.state)
    match.finish_reason = reason
    match.finished_at = now
    _append(changing, seat=None, kind=ActionLog.RECORD, actor=None,
            action={"type": "match_finished", "reason": reason},
            events=[{"type": "match_finished", "reason": reason}])
    if settings.MATCH_FINISHED_LISTENERS:
        jobs.record(match, Job.MATCH_FINISHED)


def match_finish(*, match_id, reason: str, actor=None) -> Change:
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        if match.status not in (Match.RUNNING, Match.PAUSED):
            raise BadRequest(_("Only a running or paused match can be ended."))
        engine = _engine(match.game)
        match.status = Match.RUNNING
        _finish(changing, engine, reason, timezone.now())
        return _settle(changing, engine, timezone.now())


# --- What admins do (each written to the match log) -------------------------------------

def _admin_log(changing: Changing, actor, action: dict) -> None:
    _append(changing, seat=None, kind=ActionLog.ADMIN, actor=actor, action=action,
            events=[dict(action)])


def match_pause(*, match_id, actor) -> Change:
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        if match.status != Match.RUNNING:
            raise BadRequest(_("Only a running match can be paused."))
        match.status = Match.PAUSED
        _admin_log(changing, actor, {"type": "admin_pause"})
        _schedule(match, _engine(match.game), timezone.now(), changing)
        _save(match)
        return _after_commit(changing)


def match_resume(*, match_id, actor) -> Change:
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        if match.status != Match.PAUSED:
            raise BadRequest(_("Only a paused match can be resumed."))
        match.status = Match.RUNNING
        match.turn_key = ""  # the seat to act gets a fresh turn clock
        _admin_log(changing, actor, {"type": "admin_resume"})
        return _settle(changing, _engine(match.game), timezone.now())


def match_extend(*, match_id, actor, turn_hours: float = 0, game_deadline=None) -> Change:
    """Give the seats to act more time, and/or move the whole-game deadline (later, or earlier:
    the log says which)."""
    with transaction.atomic():
        changing = _locked(match_id)
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
            if match.game_deadline is not None and game_deadline < match.game_deadline:
                detail["earlier"] = True
            match.game_deadline = game_deadline
            detail["game_deadline"] = game_deadline.isoformat()
        if len(detail) == 1:
            raise BadRequest(_("Say how much to extend."))
        _admin_log(changing, actor, detail)
        match.next_due_at = _next_due(match) if match.status == Match.RUNNING else None
        _save(match)
        return _after_commit(changing)


def match_abort(*, match_id, actor) -> Change:
    with transaction.atomic():
        changing = _locked(match_id)
        match = changing.match
        if match.is_over:
            raise BadRequest(_("The match is already over."))
        match.status, match.finish_reason, match.finished_at = Match.ABORTED, "aborted by an admin", timezone.now()
        _admin_log(changing, actor, {"type": "admin_abort"})
        _schedule(match, None, timezone.now(), changing)
        _save(match)
        return _after_commit(changing)


def seat_hand_over(*, match_id, seat_number: int, to_user, actor) -> Seat:
    with transaction.atomic():
        changing = _locked(match_id)
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
        _save(match)
        projections.project(match)  # the game's own tables name the seat's new player
        _after_commit(changing)
    return seat
