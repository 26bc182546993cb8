"""The one way a match changes, shared by every service of games/play/: the match row locked
with the change about to be made of it (`locked`), a step of the engine written to the log
(`step`, `append`, `note`), the clock (`schedule`), the end (`finish`), and the change saved and
announced once committed (`settle`, `after_commit`): the live pages, the system's own move, the
bots and standing orders, and a Job row for the listeners (games/change.py, games/live/)."""
import logging
from datetime import timedelta

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from accounts.models import away_now
from games import live
from games.change import Change, Changing
from games.engines import get_engine
from games.errors import BadRequest
from games.models import ActionLog, Job, Match
from games.play import jobs, projections
from games.reads import selectors

log = logging.getLogger(__name__)


# Engines hand turns back and forth with the system (chance cards) and with timeouts; a bound
# keeps a faulty engine from spinning a job forever.
MAX_AUTOMATIC_STEPS = 200


def engine_of(game: str):
    try:
        return get_engine(game)
    except LookupError:
        raise BadRequest(_("There is no game called %(game)s.") % {"game": repr(game)}) from None


def locked(match_id, *, seats: bool = False) -> Changing:
    """The match row locked for this transaction, and the change about to be made of it; with
    `seats`, its seats read once with their players (selectors.with_seats_and_players), for a
    service whose every later read of them goes through match.seats.all() (a move reads
    them to find the mover, the turn's owner, the bots, the orders due and the projection's
    owners)."""
    match = selectors.match_by_key(Match.objects.select_for_update(), match_id)
    if seats:
        selectors.with_seats_and_players(match)
    return Changing(match)


def save(match: Match) -> None:
    """Save the whole row, field by field: a save that names its fields is a service's, which
    announces its own change (games.live.match_saved announces the others: the admin's)."""
    match.save(update_fields=[f.name for f in Match._meta.concrete_fields if not f.primary_key])


def announce(changing: Changing) -> Change:
    """The change as made: once committed (and the response sent, under granian), its parts go
    to whoever watches (games/live/)."""
    change = changing.made(changing.match.seats.all())
    if change.revision != changing.match.revision:
        # What the pages and the sockets' catch-ups show from now on (Match.revision); a move
        # has reset it already in the row it saved (append).
        Match.objects.filter(pk=change.match_id).update(revision=change.revision)
        changing.match.revision = change.revision
    live.publish_on_commit(change)
    return change


def after_commit(changing: Changing) -> Change:
    """Tell the browsers and queue the system's own move once the change is durable. What must
    follow is in this transaction already (needs_system and next_due_at on the match, a Job row
    for the listeners): the queued jobs only make it happen at once, the sweep if they are lost."""
    match = changing.match
    change = announce(changing)
    match_id, needs_system = match.pk, match.needs_system
    if needs_system:
        jobs.queue_on_commit("games.tasks.apply_system_action", match_id)
    if match.status == Match.RUNNING and match.turn_seats and _bot_to_act(match):
        jobs.queue_on_commit("games.tasks.apply_deadline", match_id)
    elif orders_due(match):  # standing orders play through the same job (games/play/orders.py)
        jobs.queue_on_commit("games.tasks.apply_deadline", match_id)
    if change.new_version or change.turn_passed_to is not None:
        caring = caring_listeners(change)
        if caring:
            jobs.record(match, Job.MATCH_CHANGED, listeners=caring, **change.facts())
    return change


def caring_listeners(change: Change) -> list[str]:
    """The listeners of MATCH_CHANGED_LISTENERS that have anything to tell of these events, this
    turn and these kinds of log rows (a move by standing order): a listener may say beforehand
    (its `cares(events=, turn_passed_to=, kinds=)`), so a move that tells nobody anything queues
    no job, and the job of one that tells somebody runs only the listeners that have something
    to tell; one that cannot say hears of every change."""
    caring = []
    for path in settings.MATCH_CHANGED_LISTENERS:
        cares = getattr(import_string(path), "cares", None)
        if cares is None or cares(events=change.events, turn_passed_to=change.turn_passed_to, kinds=change.kinds):
            caring.append(path)
    return caring


def orders_due(match) -> bool:
    """Whether a seat to act now has standing orders that may play (games/play/orders.py): then
    the deadline job plays them at once, as it plays the bots."""
    if match.status != Match.RUNNING or not match.turn_seats:
        return False
    return any(s.has_orders for s in match.seats.all() if s.number in match.turn_seats)


def _bot_to_act(match: Match) -> bool:
    seats = [s for s in match.seats.all() if s.number in match.turn_seats]
    return any(s.played_by_bot(match) for s in seats)


def append(changing: Changing, *, seat, kind, actor, action, events) -> ActionLog:
    match = changing.match
    match.version += 1
    match.revision = ""  # a new version: nothing kept it yet
    row = ActionLog.objects.create(match_id=match.pk, seq=match.version, seat=seat, kind=kind,
                                   actor=actor, action=action, events=events)
    changing.wrote(row)
    return row


def step(changing: Changing, engine, seat, action, *, kind, actor=None) -> list:
    """Apply one engine action to a locked match and log it (no save, no broadcast)."""
    match = changing.match
    state, events = engine.apply(match.state, seat, action)
    match.state = state
    append(changing, seat=seat, kind=kind, actor=actor, action=action, events=events)
    return events


def settle(changing: Changing, engine, now) -> Change:
    """After a move: finish a game that is over, reschedule, persist, project, broadcast."""
    match = changing.match
    if match.status == Match.RUNNING:
        if engine.is_over(match.state):
            finish(changing, engine, "the game reached its end", now)
        elif (match.round_limit and match.state.get("round", 0) > match.round_limit
              and _every_seat_moved(match)):
            finish(changing, engine, f"the round limit of {match.round_limit} was reached", now)
    schedule(match, engine, now, changing)
    save(match)
    # The tables were written from the state as locked: only what changed since needs writing.
    projections.project(match, before=changing.state_at_lock)
    return after_commit(changing)


def _every_seat_moved(match: Match) -> bool:
    """A round limit ends a match only once every seat has made a move of its own (chance cards
    alone once ended one-round matches before anyone moved)."""
    moved = (ActionLog.objects.filter(match=match, kind__in=(ActionLog.PLAYER, ActionLog.TIMEOUT, ActionLog.BOT, ActionLog.ORDER))
             .exclude(seat=None).values("seat").distinct().count())
    return moved >= match.seats_count


def note(changing: Changing, event: dict) -> None:
    """A platform note in the log (not a move): who covers for whom."""
    append(changing, seat=None, kind=ActionLog.RECORD, actor=None, action=dict(event), events=[dict(event)])


def schedule(match: Match, engine, now, changing: Changing | None = None) -> None:
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
                # A player on vacation: the turn's clock starts when they are back (their profile
                # says so, read with the seats).
                back = (away_now(getattr(owner.user, "profile", None), now)
                        if owner is not None and match.allow_vacation else None)
                start = back or now
                match.turn_deadline = start + timedelta(seconds=match.turn_seconds + bank)
        else:
            match.turn_deadline = None
    match.turn_seats = seats
    match.next_due_at = next_due(match)


def next_due(match: Match):
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


def finish(changing: Changing, engine, reason: str, now) -> None:
    match = changing.match
    match.status = Match.FINISHED
    match.standings = engine.standings(match.state)
    match.finish_reason = reason
    match.finished_at = now
    append(changing, seat=None, kind=ActionLog.RECORD, actor=None,
            action={"type": "match_finished", "reason": reason},
            events=[{"type": "match_finished", "reason": reason}])
    if settings.MATCH_FINISHED_LISTENERS:
        jobs.record(match, Job.MATCH_FINISHED)
