"""Creating and filling a match: create, join, leave, choose a colour, start. The last seat
taken deals the match in the same transaction."""
import secrets

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.change import Change, Changing
from games.engines import IllegalAction
from games.engines.base import edition_of
from games.engines.dice import seed_hash
from games.errors import BadRequest, NotAllowed
from games.reads.reliability import reliability_of
from games.models import Match, Seat
from games.play import bots, core, limits, projections
from games.validation import FARTHEST_YEARS, refuse_control_characters, too_far_ahead


MIN_TURN_SECONDS = 3600


MAX_TURN_SECONDS = 14 * 24 * 3600


def match_create(*, creator, game: str, seats: int, options: dict | None = None,
                 turn_seconds: int = 24 * 3600, time_bank_seconds: int = 0, game_deadline=None,
                 round_limit: int | None = None, is_public: bool = True, title: str = "",
                 rated: bool = True, allow_vacation: bool = True, bots_cover_absence: bool = False,
                 bot_seats: int = 0, min_reliability: int | None = None) -> Match:
    engine = core.engine_of(game)
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
    if game_deadline is not None and too_far_ahead(game_deadline, timezone.now()):
        raise BadRequest(_("The game deadline must be within %(years)s years.") % {"years": FARTHEST_YEARS})
    if round_limit is not None and not 1 <= int(round_limit) <= 1000:
        raise BadRequest(_("The round limit must be between 1 and 1000."))
    try:
        bot_seats = int(bot_seats or 0)
    except (TypeError, ValueError):
        raise BadRequest(_("The number of bots must be a whole number.")) from None
    if not 0 <= bot_seats < seats:
        raise BadRequest(_("Bots may fill at most all seats but yours."))
    if min_reliability in ("", None):
        min_reliability = None
    else:
        try:
            min_reliability = int(min_reliability)
        except (TypeError, ValueError):
            raise BadRequest(_("The minimum reliability must be a whole number of percent.")) from None
        if not 0 <= min_reliability <= 100:
            raise BadRequest(_("The minimum reliability must be between 0 and 100 %."))
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
            min_reliability=min_reliability or None,
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
        changing = core.locked(match_id)
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
        if match.min_reliability:
            known = reliability_of(user.pk)
            if not known.admits(match.min_reliability):
                raise NotAllowed(_("This match asks for players who take %(minimum)s %% of turns in time; "
                                   "you take %(percent)s %%.") % {"minimum": match.min_reliability,
                                                                   "percent": known.percent or 0})
        used = {s.colour for s in taken}
        if colour is None:
            colour = next(c for c in Seat.COLOURS if c not in used)
        elif colour not in Seat.COLOURS or colour in used:
            raise BadRequest(_("That colour is not available."))
        seat = Seat.objects.create(match=match, user=user, colour=colour, time_bank_left=match.time_bank_seconds)
        if len(taken) + 1 == match.seats_count:
            _deal(changing)
        else:
            core.announce(changing)
    return seat


def _open_seat(changing: Changing, user, not_open: str) -> Seat:
    """The user's seat in the locked match, which must still be open (`not_open` says why not)."""
    seat = changing.match.seats.filter(user=user).first()
    if seat is None:
        raise BadRequest(_("You have no seat in this match."))
    if changing.match.status != Match.OPEN:
        raise BadRequest(not_open)
    return seat


def match_leave(*, match_id, user) -> Change:
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        seat = _open_seat(changing, user, _("You can only leave a match before it starts."))
        if user.pk == match.creator_id:
            # The creator leaving closes the table for everybody.
            match.status = Match.ABORTED
            match.finish_reason = "cancelled by its creator"
            match.save(update_fields=["status", "finish_reason"])
        seat.delete()
        return core.announce(changing)


def match_set_colour(*, match_id, user, colour: str) -> Change:
    with transaction.atomic():
        changing = core.locked(match_id)
        match = changing.match
        seat = _open_seat(changing, user, _("Colours are chosen before the match starts."))
        if colour not in Seat.COLOURS or match.seats.filter(colour=colour).exclude(pk=seat.pk).exists():
            raise BadRequest(_("That colour is not available."))
        seat.colour = colour
        seat.save(update_fields=["colour"])
        return core.announce(changing)


def match_start(*, match_id, user=None) -> Change:
    """The creator starts a full match by hand (a full match normally starts as its last seat
    is taken, in that same transaction)."""
    with transaction.atomic():
        changing = core.locked(match_id)
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
    engine = core.engine_of(match.game)
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
    core.schedule(match, engine, now, changing)
    core.save(match)
    projections.project(match)
    return core.after_commit(changing)
