"""Time: turns that ran out (timeouts, bots covering absent players, standing orders played
when due), the whole-game deadline, a player coming back, and vacations that move clocks."""
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from accounts.models import Vacation, active_vacation, vacation_days_left
from games.change import Changing
from games.engines import IllegalAction
from games.errors import BadRequest
from games.models import ActionLog, Match
from games.play import bots, core, limits, orders, substitutes


def deadline_apply(*, match_id, now=None) -> bool:
    """End the match at its deadline, or play timeout actions for seats whose turn time ran out.
    Safe to run twice: it acts only on what is due when it holds the lock."""
    with transaction.atomic():
        changing = core.locked(match_id, seats=True)
        match = changing.match
        if match.status != Match.RUNNING:
            return False
        now = now or timezone.now()
        engine = core.engine_of(match.game)
        if match.game_deadline and now >= match.game_deadline:
            core.finish(changing, engine, "the match deadline passed", now)
            core.settle(changing, engine, now)
            return True
        seats = {s.number: s for s in match.seats.all()}
        round_ = _Round(engine, match.state)
        # Standing orders play first; the turn they leave is the one whose clock is read.
        played = _play_orders(changing, engine, seats, now, round_)
        if played:
            core.schedule(match, engine, now, changing)
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
            newly_absent = not owner.is_absent and owner.consecutive_timeouts >= settings.ABSENT_AFTER_TIMEOUTS
            if newly_absent:
                owner.is_absent = True
            owner.save(update_fields=["consecutive_timeouts", "time_bank_left", "is_absent"])
            if owner.is_absent and match.bots_cover_absence and match.turn_seats:
                core.note(changing, {"type": "bot_covers", "seat": owner.number})
            if newly_absent and not owner.is_bot:
                substitutes.offer_open(changing, owner, now)
        # Bots (and absent players they cover for) move at once, turn after turn, until a
        # person is to act, or a round is played: the next round is the next job's.
        for _attempt in range(core.MAX_AUTOMATIC_STEPS):
            if match.status != Match.RUNNING or engine.is_over(match.state) or not round_.goes_on(match.state):
                break
            turn = [n for n in engine.to_act(match.state) if seats[n].played_by_bot(match)]
            if not turn:
                if not _play_orders(changing, engine, seats, now, round_):
                    break
                played = True
                continue
            for number in turn:
                played |= _play_seat(changing, engine, number, by_bot=True)
        if not played:
            return False
        core.settle(changing, engine, now)
        return True


class _Round:
    """The turns one job plays of a match that plays on by itself (bots, and standing orders
    that fit every turn): each seat's turn once, then the change is committed and the next job
    plays the next round (core.after_commit queues it). Played to its end in one transaction,
    such a match held its lock for as long as that took (seconds on the embedded SQLite, where
    every other write of the site waited, some until they failed), and those watching saw nothing
    until it was over."""

    def __init__(self, engine, state):
        self.engine = engine
        self.owners = [self._owner(state)]

    def _owner(self, state):
        seats = self.engine.to_act(state)
        return seats[0] if seats else None

    def goes_on(self, state) -> bool:
        """Whether the turn now to play is this round's: a seat's own again, after another
        seat's, is the next round's. Something was played before it says no (the turn's owner
        changed), so the job that stops here commits and queues the next."""
        owner = self._owner(state)
        if owner == self.owners[-1]:
            return True
        if owner in self.owners:
            return False
        self.owners.append(owner)
        return True


def _play_seat(changing: Changing, engine, number: int, *, by_bot: bool) -> bool:
    """Play for one seat until it has nothing more to do now: the bot's choices, or else the
    engine's timeout actions. System actions the moves call for are applied on the way."""
    match = changing.match
    played = False
    for _attempt in range(core.MAX_AUTOMATIC_STEPS):
        if match.status != Match.RUNNING or number not in engine.to_act(match.state):
            break
        if by_bot:
            action, kind = bots.bot_action(match.game, match.state, number), ActionLog.BOT
        else:
            action, kind = engine.timeout_action(match.state, number), ActionLog.TIMEOUT
        # The seat's player is named on every row of their turn: reliability reads it from the log.
        core.step(changing, engine, number, action, kind=kind, actor=_player_of(match, number))
        played = True
        while engine.system_action(match.state) is not None:
            core.step(changing, engine, None, engine.system_action(match.state), kind=ActionLog.SYSTEM)
    return played


def _player_of(match, number: int):
    return next((s.user for s in match.seats.all() if s.number == number), None)


def _play_orders(changing: Changing, engine, seats: dict, now, round_: _Round) -> bool:
    """Play the standing orders of the seats to act (people, not bots) while a line fits, within
    this job's round."""
    match = changing.match
    played = False
    for _attempt in range(core.MAX_AUTOMATIC_STEPS):
        if match.status != Match.RUNNING or engine.is_over(match.state) or not round_.goes_on(match.state):
            break
        moved = False
        for number in engine.to_act(match.state):
            if seats[number].played_by_bot(match):
                continue
            action = orders.order_action(match, engine, number, now)
            if action is None:
                continue
            try:
                core.step(changing, engine, number, action, kind=ActionLog.ORDER, actor=seats[number].user)
            except IllegalAction:
                continue  # a line the rules refuse now plays nothing; the player is asked
            while engine.system_action(match.state) is not None:
                core.step(changing, engine, None, engine.system_action(match.state), kind=ActionLog.SYSTEM)
            moved = played = True
            break  # to_act may have changed: read it again
        if not moved:
            break
    return played


def seat_return(*, match_id, user) -> bool:
    """An absent player came back: their turns wait for them again."""
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        seat = match.seats.filter(user=user, is_absent=True).first()
        if seat is None:
            return False
        seat.is_absent, seat.consecutive_timeouts = False, 0
        seat.save(update_fields=["is_absent", "consecutive_timeouts"])
        withdrawn = substitutes.offer_withdraw(changing, seat)  # back before anyone took the seat
        if match.status == Match.RUNNING and seat.number in match.turn_seats:
            match.turn_key = ""  # restart this turn's clock for the returning player
            core.schedule(match, core.engine_of(match.game), timezone.now(), changing)
            core.save(match)
        elif withdrawn:
            core.save(match)  # the note's version
        core.announce(changing)  # their seat reads "away" no more
        return True


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
        match.next_due_at = core.next_due(match)
        match.save(update_fields=["turn_deadline", "next_due_at"])
        core.announce(Changing(match))
