"""Every change to an event, each `<entity>_<verb>` in one transaction with the event's row
locked, refusing bad input with a clear message before anything is stored.

A round's matches are made through the platform's own services (games.play), so they are
ordinary matches; a round closes when its last match ends (listeners.match_changed) or at its
deadline (tasks.sweep_events), whichever comes first, and the event's row lock makes the next
round's pairing happen exactly once."""
from datetime import timedelta

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from community.models import ALL_TIME, Rating
from community.selectors import placings
from games import play, validation
from games.engines import IllegalAction
from games.errors import BadRequest, NotAllowed, NotFound
from games.models import Match
from games.play.core import engine_of
from games.reads.reliability import reliability_of
from leagues import pairing
from leagues.models import Entry, Event, Pairing, Round, Table

MAX_ROUNDS = 30
ROUND_DEADLINE_REASON = "the event's round deadline"


def _start(starts_at, now):
    """When an event starts: by default tomorrow; in the future, and not too far ahead for its
    pages to show (games.validation.FARTHEST_YEARS)."""
    starts_at = starts_at or now + timedelta(days=1)
    if starts_at <= now:
        raise BadRequest(_("The event must start in the future."))
    if validation.too_far_ahead(starts_at, now):
        raise BadRequest(_("The event must start within %(years)s years.") % {"years": validation.FARTHEST_YEARS})
    return starts_at


def whole(value, message) -> int:
    """A whole number from a form or JSON, else BadRequest(message); true/false is not one."""
    if isinstance(value, bool):
        raise BadRequest(message)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadRequest(message) from None


def event_create(*, organiser, name: str, game: str, seats, rounds, turn_seconds=24 * 3600, game_hours=14 * 24,
                 round_hours=14 * 24, starts_at=None, options: dict | None = None, fill: str = Event.BYES,
                 min_rating=None, format: str = Event.SWISS, league: str = "", division=1, moves=0,
                 min_reliability=None) -> Event:
    """An event; its first round starts by itself at starts_at. A league division names its
    league and its place in it (`division`, 1 the top) and how many go up and down between
    seasons (`moves`)."""
    name = (name or "").strip()
    if not name or len(name) > 80 or any(ord(c) < 32 for c in name):
        raise BadRequest(_("An event needs a name of 1 to 80 characters."))
    engine = engine_of(game)
    seats = whole(seats, _("Number of seats must be a whole number."))
    if not engine.min_players <= seats <= engine.max_players:
        raise BadRequest(_("%(game)s is played by %(low)s to %(high)s players at a table.")
                         % {"game": engine.title, "low": engine.min_players, "high": engine.max_players})
    try:  # the game's own check of its options at this many seats, as match_create asks it
        options = engine.check_options(options or {}, seats)
    except IllegalAction as exc:
        raise BadRequest(exc.in_language(translation.get_language())) from None
    rounds = whole(rounds, _("The number of rounds must be a whole number."))
    if not 1 <= rounds <= MAX_ROUNDS:
        raise BadRequest(_("An event has 1 to %(max)s rounds.") % {"max": MAX_ROUNDS})
    turn_seconds = whole(turn_seconds, _("Time per turn must be a whole number of seconds."))
    if not play.MIN_TURN_SECONDS <= turn_seconds <= play.MAX_TURN_SECONDS:
        raise BadRequest(_("Time per turn must be between 1 hour and 14 days."))
    game_hours = whole(game_hours, _("The game deadline must be a whole number of hours."))
    round_hours = whole(round_hours, _("The round deadline must be a whole number of hours."))
    if game_hours * 3600 < turn_seconds:
        raise BadRequest(_("A match's deadline cannot come before its first turn's."))
    if round_hours < game_hours:
        raise BadRequest(_("The round deadline cannot come before its matches' own deadline."))
    if round_hours > 90 * 24:
        raise BadRequest(_("A round lasts at most 90 days."))
    if format not in dict(Event.FORMAT_CHOICES):
        raise BadRequest(_("Unknown format of event."))
    league = (league or "").strip()
    if len(league) > 80 or any(ord(c) < 32 for c in league):
        raise BadRequest(_("A league's name has at most 80 characters."))
    division = whole(division, _("The division must be a whole number."))
    moves = whole(moves or 0, _("The number promoted and relegated must be a whole number."))
    if not 1 <= division <= 20:
        raise BadRequest(_("A league has divisions 1 to 20."))
    if format != Event.LEAGUE and (league or division != 1 or moves):
        raise BadRequest(_("Only a league division has a league, a division and promotion."))
    if format == Event.LEAGUE and moves and not league:
        raise BadRequest(_("Promotion and relegation need the league's name, shared by its divisions."))
    if not 0 <= moves <= 10:
        raise BadRequest(_("At most 10 players go up and down between seasons."))
    if format == Event.LEAGUE and fill != Event.BYES:
        raise BadRequest(_("A league division's players sit out in turn when the numbers do not divide."))
    if fill not in dict(Event.FILL_CHOICES):
        raise BadRequest(_("Unknown way to fill the tables."))
    if fill == Event.SMALLER and seats - 1 < engine.min_players:
        raise BadRequest(_("This game cannot be played at smaller tables."))
    if min_rating not in (None, ""):
        try:
            min_rating = float(min_rating)
        except (TypeError, ValueError):
            raise BadRequest(_("The least rating must be a number.")) from None
        if not Event.MIN_RATING_BAR <= min_rating <= Event.MAX_RATING_BAR:
            raise BadRequest(_("The least rating must lie between %(low)s and %(high)s.")
                             % {"low": Event.MIN_RATING_BAR, "high": Event.MAX_RATING_BAR})
    else:
        min_rating = None
    if min_reliability not in (None, ""):
        min_reliability = whole(min_reliability, _("The least share of turns in time must be a whole number."))
        if not 0 <= min_reliability <= 100:
            raise BadRequest(_("The least share of turns in time is 0 to 100 %."))
    min_reliability = min_reliability or None
    now = timezone.now()
    starts_at = _start(starts_at, now)
    with transaction.atomic():
        return Event.objects.create(
            name=name, organiser=organiser, game=game, options=options, seats=seats, fill=fill, rounds=rounds,
            turn_seconds=turn_seconds, game_hours=game_hours, round_hours=round_hours, min_rating=min_rating,
            starts_at=starts_at, format=format, league=league, division=division, moves=moves,
            min_reliability=min_reliability)


def _locked(event_id) -> Event:
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise NotFound(_("No such event."))
    return event


def _organiser(event, user) -> None:
    if user is None or not (user.pk == event.organiser_id or user.is_staff):
        raise NotAllowed(_("Only the event's organiser can do that."))


def _rating(user, game) -> float:
    row = Rating.objects.filter(user=user, game=game, season=ALL_TIME).values_list("ordinal", flat=True).first()
    return row or 0.0


def event_join(*, event_id, user) -> Entry:
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.ENTRY or not event.entries_open:
            raise BadRequest(_("Entries to this event are closed."))
        if getattr(user, "is_staff", False) is False and not user.is_active:
            raise NotAllowed(_("This account cannot play."))
        if event.entries.filter(user=user).exists():
            raise BadRequest(_("You have already entered this event."))
        rating = _rating(user, event.game)
        if event.min_rating is not None and rating < event.min_rating:
            raise NotAllowed(_("This event asks for a rating of at least %(rating)s.") % {"rating": event.min_rating})
        if event.min_reliability:
            known = reliability_of(user.pk)
            if not known.admits(event.min_reliability):   # a newcomer is let in, as a match lets them
                raise NotAllowed(_("This event asks for players who take %(minimum)s %% of turns in time; "
                                   "you take %(percent)s %%.") % {"minimum": event.min_reliability,
                                                                   "percent": known.percent or 0})
        return Entry.objects.create(event=event, user=user, rating=rating)


def event_leave(*, event_id, user) -> None:
    with transaction.atomic():
        event = _locked(event_id)
        entry = event.entries.filter(user=user).first()
        if entry is None:
            raise BadRequest(_("You have not entered this event."))
        if event.status != Event.ENTRY:
            raise BadRequest(_("You can only leave an event before it starts; ask the organiser."))
        entry.delete()


def event_close_entries(*, event_id, actor) -> Event:
    with transaction.atomic():
        event = _locked(event_id)
        _organiser(event, actor)
        if event.status != Event.ENTRY:
            raise BadRequest(_("The event has started already."))
        event.entries_open = False
        event.save(update_fields=["entries_open"])
        return event


def event_pause(*, event_id, actor, paused: bool = True) -> Event:
    """Paused, an event starts no round (its matches play on; a round that closes meanwhile
    waits for the resume to pair the next)."""
    with transaction.atomic():
        event = _locked(event_id)
        _organiser(event, actor)
        if paused and event.status != Event.RUNNING:
            raise BadRequest(_("Only a running event can be paused."))
        if not paused and event.status != Event.PAUSED:
            raise BadRequest(_("The event is not paused."))
        event.status = Event.PAUSED if paused else Event.RUNNING
        event.save(update_fields=["status"])
    if not paused:
        event_advance(event_id=event_id)
    return event


def entry_remove(*, event_id, actor, user) -> Entry:
    """The organiser takes a player out: not paired again; a seat they hold plays on (by
    timeouts, or handed over with seat_hand)."""
    with transaction.atomic():
        event = _locked(event_id)
        _organiser(event, actor)
        entry = event.entries.filter(user=user, removed=False).first()
        if entry is None:
            raise BadRequest(_("That player is not in this event."))
        entry.removed = True
        entry.save(update_fields=["removed"])
        return entry


def seat_hand(*, event_id, actor, table_id, seat: int, to_user) -> Pairing:
    """The organiser hands a seat of a table to another player, who enters the event in the
    leaver's place (the platform's own hand-over changes the match)."""
    with transaction.atomic():
        event = _locked(event_id)
        _organiser(event, actor)
        table = Table.objects.filter(pk=table_id, round__event=event).select_related("match").first()
        if table is None:
            raise NotFound(_("No such table in this event."))
        mine = table.pairings.filter(seat=seat).select_related("entry").first()
        if mine is None:
            raise BadRequest(_("No such seat."))
        if event.entries.filter(user=to_user).exclude(pk=mine.entry_id).exists():  # removed ones too: one entry a player
            raise BadRequest(_("%(player)s already plays in this event.") % {"player": to_user})
        play.seat_hand_over(match_id=table.match_id, seat_number=seat, to_user=to_user, actor=actor)
        entry = mine.entry
        entry.user = to_user
        entry.save(update_fields=["user"])
        return mine


# --- Rounds ---------------------------------------------------------------------------------

def event_start(*, event_id, now=None) -> Round | None:
    """Start a due event: its first round, or finish it at once if fewer than one table came."""
    now = now or timezone.now()
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.ENTRY or event.starts_at > now:
            return None
        entries = list(event.entries.filter(removed=False))
        smallest = engine_of(event.game).min_players
        if len(entries) < (smallest if event.fill == Event.BOTS else event.seats):
            event.status = Event.FINISHED   # nobody to play: said on the page as a finished event without rounds
            event.save(update_fields=["status"])
            return None
        event.status, event.entries_open = Event.RUNNING, False
        event.save(update_fields=["status", "entries_open"])
        return _round_start(event, now)


def _players(event) -> list:
    entries = list(event.entries.filter(removed=False))
    met, seats = {e.pk: {} for e in entries}, {e.pk: {} for e in entries}
    for table_id, rows in _tables_of(event).items():
        for a in rows:
            if a.entry_id in seats and a.seat is not None:
                seats[a.entry_id][a.seat] = seats[a.entry_id].get(a.seat, 0) + 1
            for b in rows:
                if a.entry_id != b.entry_id and a.entry_id in met:
                    met[a.entry_id][b.entry_id] = met[a.entry_id].get(b.entry_id, 0) + 1
    return [pairing.Player(key=e.pk, score=e.score, rating=e.rating, met=met[e.pk], seats=seats[e.pk], byes=e.byes)
            for e in entries]


def _tables_of(event) -> dict:
    tables = {}
    for row in Pairing.objects.filter(round__event=event, table__isnull=False).only("entry_id", "seat", "table_id"):
        tables.setdefault(row.table_id, []).append(row)
    return tables


def _round_start(event, now) -> Round:
    """Pair and seat the next round of a locked event: one match per table, made, joined and
    dealt through the platform's services inside this transaction (all or none)."""
    number = event.current_round + 1
    engine = engine_of(event.game)
    if event.format == Event.LEAGUE:   # a balanced schedule: everyone meets everyone about equally often
        result = pairing.league_round(_players(event), size=event.seats, number=number,
                                      rounds_left=event.rounds - number + 1)
    else:
        result = pairing.pair(_players(event), size=event.seats, smallest=engine.min_players, fill=event.fill)
    rnd = Round.objects.create(event=event, number=number, started_at=now,
                               deadline=now + timedelta(hours=event.round_hours))
    entries = {e.pk: e for e in event.entries.filter(removed=False).select_related("user")}
    for t, keys in enumerate(result.tables, start=1):
        people = [k for k in keys if k is not None]
        bots = len(keys) - len(people)
        match = play.match_create(
            creator=entries[people[0]].user, game=event.game, seats=len(keys), options=event.options,
            turn_seconds=event.turn_seconds, game_deadline=now + timedelta(hours=event.game_hours),
            title=_("%(event)s, round %(round)s, table %(table)s") % {"event": event.name[:50], "round": number,
                                                                      "table": t},
            bot_seats=bots)
        for key in people[1:]:
            play.match_join(match_id=match.pk, user=entries[key].user)
        table = Table.objects.create(round=rnd, number=t, match=match)
        numbers = dict(match.seats.values_list("user_id", "number"))
        Pairing.objects.bulk_create([Pairing(round=rnd, entry_id=k, table=table, seat=numbers[entries[k].user_id])
                                     for k in people])
    Pairing.objects.bulk_create([Pairing(round=rnd, entry_id=k) for k in result.byes])
    event.current_round = number
    event.save(update_fields=["current_round"])
    return rnd


def points_for(place: int, size: int, tied: int = 1) -> float:
    """A table's points follow its places: last scores 0, each place above one more (size − place);
    players tied share the places they cover. The same for every game: each engine's own ranking
    (fortune, victory points, treasure) gives the places."""
    return sum(size - p for p in range(place, place + tied)) / tied


def bye_points(size: int) -> float:
    """A bye scores a table's average: neither a win given away nor a loss for sitting out."""
    return (size - 1) / 2


def event_advance(*, event_id, now=None) -> Round | None:
    """Close the current round if all its matches have ended, then start the next (or finish the
    event). Safe to call any number of times, from any number of places at once: the event's row
    lock lets one in, and the others find the round closed."""
    now = now or timezone.now()
    with transaction.atomic():
        event = _locked(event_id)
        if event.status not in (Event.RUNNING, Event.PAUSED) or not event.current_round:
            return None
        rnd = event.round_set.get(number=event.current_round)
        if rnd.status == Round.OPEN:
            tables = list(rnd.tables.select_related("match"))
            if any(not t.match.is_over for t in tables):
                return None
            _round_close(event, rnd, tables, now)
        if event.status == Event.PAUSED:
            return None
        if event.current_round >= event.rounds:
            event.status = Event.FINISHED
            event.save(update_fields=["status"])
            return None
        return _round_start(event, now)


def _round_close(event, rnd, tables, now) -> None:
    size = event.seats
    for table in tables:
        match = table.match
        rows = {p.seat: p for p in table.pairings.all()}
        if match.status == Match.FINISHED:
            places = placings(match, list(match.seats.select_related("user")))
            for place in places:
                tied = sum(1 for q in places if q.rank == place.rank)
                row = rows.get(place.seat)
                if row is not None:
                    row.place, row.points = place.rank, points_for(place.rank, size, tied)
        for row in rows.values():   # an aborted match scores nothing
            if row.points is None:
                row.points = 0.0
            row.save(update_fields=["place", "points"])
    rnd.pairings.filter(table__isnull=True).update(points=bye_points(size))
    for entry in event.entries.all():
        mine = entry.pairings.filter(round__event=event)
        entry.score = sum(p.points or 0 for p in mine)
        entry.byes = mine.filter(table__isnull=True).count()
        entry.save(update_fields=["score", "byes"])
    rnd.status, rnd.closed_at = Round.CLOSED, now
    rnd.save(update_fields=["status", "closed_at"])


def round_deadline_apply(*, round_id, now=None) -> Round | None:
    """At a round's deadline its unfinished matches end by the game's own ranking at that moment
    (each through the platform's match_finish), then the round closes."""
    now = now or timezone.now()
    rnd = Round.objects.filter(pk=round_id, status=Round.OPEN, deadline__lte=now).first()
    if rnd is None:
        return None
    for match_id in rnd.tables.exclude(match__status__in=[Match.FINISHED, Match.ABORTED]).values_list("match_id",
                                                                                                    flat=True):
        try:
            play.match_finish(match_id=match_id, reason=ROUND_DEADLINE_REASON)
        except BadRequest:
            pass  # ended meanwhile (its own last move, or its own deadline): nothing to do
    return event_advance(event_id=rnd.event_id, now=now)


# --- Seasons of a league ------------------------------------------------------------------------

def season_next(*, event_id, actor, starts_at=None) -> list[Event]:
    """The next season of the league whose division `event_id` is, once every division of its
    season has finished: each division again, with the top `moves` of every division but the top
    one promoted one division and the bottom `moves` of every division but the last relegated
    one (by the season's standings); a withdrawn player leaves the league. Made once: a second
    call is refused. All or nothing."""
    now = timezone.now()
    starts_at = _start(starts_at, now)
    with transaction.atomic():
        event = _locked(event_id)
        _organiser(event, actor)
        if event.format != Event.LEAGUE or not event.league:
            raise BadRequest(_("Only a league's division has a next season."))
        divisions = list(Event.objects.select_for_update().filter(
            format=Event.LEAGUE, league=event.league, season=event.season).order_by("division", "pk"))
        if [d.division for d in divisions] != list(range(1, len(divisions) + 1)):
            raise BadRequest(_("The league's divisions must be numbered 1, 2, 3… without a gap."))
        if any(d.status != Event.FINISHED for d in divisions):
            raise BadRequest(_("Every division of the season must have finished first."))
        for division in divisions:
            _organiser(division, actor)
        if Event.objects.filter(format=Event.LEAGUE, league=event.league, season=event.season + 1).exists():
            raise BadRequest(_("The next season has been made already."))
        placed = [[row["user"] for row in standings(d) if not row["removed"]] for d in divisions]
        moved = [list(players) for players in placed]
        for upper in range(len(divisions) - 1):
            n = min(divisions[upper].moves, len(placed[upper]) // 2, len(placed[upper + 1]) // 2)
            if n:
                down, up = placed[upper][-n:], placed[upper + 1][:n]
                moved[upper] = [u for u in moved[upper] if u not in down] + up
                moved[upper + 1] = down + [u for u in moved[upper + 1] if u not in up]
        made = []
        for old, players in zip(divisions, moved):
            new = Event.objects.create(
                name=_season_name(old, old.season + 1), organiser=old.organiser, game=old.game, options=old.options,
                format=Event.LEAGUE, seats=old.seats, fill=old.fill, rounds=old.rounds, turn_seconds=old.turn_seconds,
                game_hours=old.game_hours, round_hours=old.round_hours, min_rating=old.min_rating,
                min_reliability=old.min_reliability, starts_at=starts_at, league=old.league, season=old.season + 1,
                division=old.division,
                moves=old.moves)
            Entry.objects.bulk_create([Entry(event=new, user=u, rating=_rating(u, new.game)) for u in players])
            made.append(new)
        return made


def _season_name(event, season: int) -> str:
    return (_("%(league)s, season %(season)s, division %(division)s")
            % {"league": event.league[:50], "season": season, "division": event.division})[:80]


# --- Standings ------------------------------------------------------------------------------

def standings(event) -> list[dict]:
    """Every entry best first: score, then opponents' scores (the sum of the scores of everyone
    met, once a meeting), then rating at the start."""
    entries = {e.pk: e for e in event.entries.select_related("user")}
    opp = {k: 0.0 for k in entries}
    for rows in _tables_of(event).values():
        for a in rows:
            for b in rows:
                if a.entry_id != b.entry_id and a.entry_id in opp and b.entry_id in entries:
                    opp[a.entry_id] += entries[b.entry_id].score
    ranked = sorted(entries.values(), key=lambda e: (e.removed, -e.score, -opp[e.pk], -e.rating, e.pk))
    return [{"rank": i, "entry": e, "user": e.user, "score": e.score, "opponents": opp[e.pk], "rating": e.rating,
             "byes": e.byes, "removed": e.removed} for i, e in enumerate(ranked, start=1)]
