"""Reads the pages, the API and the socket need. Everything shown to a person goes through
`engine.view(state, seat)`: the raw state (and its seed) never reaches a template."""
from django.db.models import Prefetch, Q, prefetch_related_objects
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import display_name
from games.engines import get_engine, may_act
from games.errors import NotAllowed, NotFound
from games.models import ActionLog, Match, Seat, finish_reason_display
from games.reads.standing import played_by_order
from games.reads.substitutes import earlier_names, substitute_words

LOG_LINES = 30


def _seats_with_players():
    """A match's seats with their users and profiles in one query (not three: the match page,
    the API, every socket render and a move under the lock read them). What the seat cards and
    a move need to know besides is kept on those rows: a seat's standing orders on
    (Seat.has_orders), a player away (Profile.away_until) and their records, so neither needs a
    query or subquery of its own."""
    return Seat.objects.select_related("user__profile")


def _recent_log(match_id, version):
    """The rows a version's log shows: the newest up to that version."""
    return list(ActionLog.objects.filter(match_id=match_id, seq__lte=version).order_by("-seq")[:LOG_LINES])


def match_id_of(value) -> int:
    """A match id as the database takes it, or "No such match." (what the ORM's get would have
    said of text or of a number out of the id's range)."""
    try:
        number = int(value)
    except (ValueError, TypeError):
        raise NotFound(_("No such match.")) from None
    if isinstance(value, bool) or not 0 < number < 2 ** 63:
        raise NotFound(_("No such match."))
    return number


def with_bare_seats(match: Match) -> Match:
    """The match's seats read once, without their players, as `match.seats.all()` (a move and
    the legal-actions read need no more of them)."""
    prefetch_related_objects([match], "seats")
    return match


def match_by_key(matches, match_id) -> Match:
    """The match of `matches` (a queryset of Match) with this id, or "No such match.". A get,
    not filter().first(): a read by primary key needs no ORDER BY, which the ORM builds at a
    quarter more of the read's cost (the move's lock, every socket's admission)."""
    try:
        return matches.get(pk=match_id_of(match_id))
    except Match.DoesNotExist:
        raise NotFound(_("No such match.")) from None


def match_get(*, match_id) -> Match:
    """The match with its creator and its seats with their players (see _seats_with_players)."""
    return match_by_key(Match.objects.select_related("creator")
                        .prefetch_related(Prefetch("seats", queryset=_seats_with_players())), match_id)


def seat_of(match: Match, user):
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in match.seats.all() if s.user_id == user.pk), None)


def actions_now(match: Match, seat) -> dict:
    """What `seat` may do in `match` now: the version, whether it is their turn, and their legal
    actions, also for a seat with only an optional move outside its turn (Catan's unloading at
    once, C8). The API's GET and a move's answer on the socket both say this."""
    running = match.status == Match.RUNNING
    my_turn = running and seat.number in match.turn_seats
    engine = get_engine(match.game)
    can_act = my_turn or (running and seat.number in may_act(engine, match.state))
    return {"version": match.version, "my_turn": my_turn,
            "actions": engine.legal_actions(match.state, seat.number) if can_act else []}


def match_summary(match, user=None) -> dict:
    """The match as the API and the sockets' state feed describe it to `user`."""
    seat = seat_of(match, user)
    return {
        "id": match.pk, "game": match.game, "title": str(match), "status": match.status,
        "version": match.version, "seats": match.seats_count, "rules_version": match.rules_version,
        "players": [{"seat": s.number, "name": str(s.user.profile) if hasattr(s.user, "profile") else s.user.username,
                     "colour": s.colour, "absent": s.is_absent} for s in match.seats.all()],
        "my_seat": seat.number if seat else None,
        "to_act": match.turn_seats, "my_turn": bool(seat and seat.number in match.turn_seats and match.status == "running"),
        "turn_deadline": match.turn_deadline.isoformat() if match.turn_deadline else None,
        "game_deadline": match.game_deadline.isoformat() if match.game_deadline else None,
        "seed_hash": match.seed_hash or None,
        "standings": match.standings,
    }


def match_state_for(match: Match, user) -> dict:
    """What a socket's state feed sends `user` (a bot's live view, instead of the page's HTML):
    the API's summary of the match, the engine's view for their seat (what that seat may know),
    and for a seated player what they may do now, as GET …/actions says it."""
    seat = seat_of(match, user)
    data = match_summary(match, user)
    data["view"] = viewer_state(match, seat.number if seat else None)
    if seat is not None:
        data["actions"] = actions_now(match, seat)["actions"]
    return data


def can_watch(match: Match, user, invite_code: str | None = None) -> bool:
    """Public matches are open to every spectator; private ones to their players, those with
    the invitation link, and staff."""
    if match.is_public or (invite_code and invite_code == match.invite_code):
        return True
    if user is not None and user.is_authenticated and (user.is_staff or seat_of(match, user) is not None):
        return True
    # An import's seats are bots: its importer (the creator) may watch it though private.
    return user is not None and user.is_authenticated and match.creator_id == user.pk


def match_for_viewer(*, match_id, user, invite_code=None) -> Match:
    match = match_get(match_id=match_id)
    if not can_watch(match, user, invite_code):
        raise NotAllowed(_("This match is private."))
    return match


def seat_names(match: Match) -> list[str]:
    if match.player_names:
        return list(match.player_names)
    seats = sorted((s for s in match.seats.all() if s.number is not None), key=lambda s: s.number)
    return [display_name(s.user) for s in seats]


def can_chat(match: Match, user) -> bool:
    return user is not None and user.is_authenticated and (user.is_staff or seat_of(match, user) is not None)


def chat_messages(match: Match, user, limit=50) -> list:
    """The players' chat, for players and staff only; hidden messages only for staff."""
    if not can_chat(match, user):
        return []
    qs = match.chat.select_related("user__profile")
    if not user.is_staff:
        qs = qs.filter(hidden=False)
    return list(qs.order_by("-created_at", "-id")[:limit])[::-1]


def viewer_state(match: Match, seat_number) -> dict | None:
    if match.state is None:
        return None
    return get_engine(match.game).view(match.state, seat_number)


def event_visible(event: dict, seat_number) -> bool:
    """Events marked "private": [seats] are shown to those seats alone."""
    private = event.get("private")
    return private is None or (seat_number is not None and seat_number in private)


def match_live(*, match_id) -> Match:
    """match_get and the rows of the log the live part shows (`recent_log`), read at once: what a
    socket renders from."""
    match = match_get(match_id=match_id)
    match.recent_log = _recent_log(match.pk, match.version)
    return match


def with_seats_and_players(match: Match) -> Match:
    """The match's seats read once with their players (see _seats_with_players), as
    `match.seats.all()`; nothing is read if this read them already. A move reads them so under
    the lock (core.locked), and the parts of a watched change draw from that read."""
    if not getattr(match, "seats_with_players", False):
        prefetch_related_objects([match], Prefetch("seats", queryset=_seats_with_players()))
        match.seats_with_players = True
    return match


def with_recent_log(match: Match) -> Match:
    """The rows of the log the live part shows (`recent_log`), read once."""
    if getattr(match, "recent_log", None) is None:
        match.recent_log = _recent_log(match.pk, match.version)
    return match


def log_lines(match: Match, seat_number, *, limit=LOG_LINES, after_seq=0, described: dict | None = None) -> list[dict]:
    """The recent log in words, newest first, as this seat may see it. `described`: the words
    already found for these rows' events in the language active now (each viewer of a version
    reads the same words; only which events they see differs), filled in as they are found."""
    return log_lines_seen(match, seat_number, limit=limit, after_seq=after_seq, described=described)[1]


def log_lines_seen(match: Match, seat_number, *, limit=LOG_LINES, after_seq=0, described: dict | None = None,
                   seen: dict | None = None) -> tuple[tuple, list[dict]]:
    """log_lines, with what they show: which events of which rows this seat reads. Viewers who
    read the same events read the same lines (most changes: all of them), so `seen` keeps the
    lines by what they show, and the live part draws them once (games_tags.once)."""
    engine = get_engine(match.game)
    recent = getattr(match, "recent_log", None)
    if recent is not None and after_seq == 0 and limit == LOG_LINES:
        rows = recent
    else:
        rows = match.log.filter(seq__gt=after_seq).order_by("-seq")[:limit]
    # An engine may say a seat reads an event already in a private twin of it (Catan's theft:
    # the thief and the victim see which card went), so its line is not shown to them twice.
    told_otherwise = getattr(engine, "told_otherwise", None) or (lambda event, seat: False)
    # The round a round limit ended the match before was never played: its header is not told.
    limit = match.round_limit if match.is_over else None
    shown = []
    for row in rows:
        for index, event in enumerate(reversed(row.events)):
            if not event_visible(event, seat_number) or told_otherwise(event, seat_number):
                continue
            if limit and event.get("type") == "turn" and event.get("round", 0) > limit:
                continue
            shown.append((row, index, event))
    key = tuple((row.seq, index) for row, index, _event in shown)
    if seen is not None and key in seen:
        return key, seen[key]
    names = seat_names(match)
    then = earlier_names(match, rows, names)  # a seat's moves before a substitute took it over
    described = {} if described is None else described
    lines = [{"seq": row.seq, "at": row.created_at, "kind": row.kind, "by_order": played_by_order(row.kind, event),
              "text": _described(described, row.seq, index, engine, event, then.get(row.seq, names)),
              "dice": event.get("dice")}
             for row, index, event in shown]
    if seen is not None:
        seen[key] = lines
    return key, lines


def _described(memo: dict, seq, index, engine, event, names) -> str:
    text = memo.get((seq, index))
    if text is None:
        text = memo[(seq, index)] = describe(engine, event, names)
    return text


def describe(engine, event: dict, names: list[str]) -> str:
    """One event in words, in the language of whoever reads it: the platform's own events
    through gettext, the game's through the engine's phrase book."""
    kind = event.get("type", "")
    if kind == "match_finished":
        return _("The match ended: %(reason)s.") % {"reason": finish_reason_display(event.get("reason", ""))}
    if kind == "bot_covers":
        seat = event.get("seat", 0)
        who = names[seat] if 0 <= seat < len(names) else _("a player")
        return _("A bot plays for %(player)s until they come back.") % {"player": who}
    if kind == "admin_pause":
        return _("An admin paused the match.")
    if kind == "admin_resume":
        return _("An admin resumed the match.")
    if kind == "admin_abort":
        return _("An admin aborted the match.")
    if kind == "admin_extend" and event.get("earlier"):
        return _("An admin moved the match deadline earlier.")
    if kind == "admin_extend":
        return _("An admin extended the deadline.")
    if kind == "admin_hand_seat":
        return _("An admin handed seat %(seat)s to %(player)s.") % {"seat": event.get("seat", 0) + 1,
                                                                     "player": event.get("to")}
    if kind.startswith("admin_"):
        return _("An admin changed the match.")
    if kind.startswith("substitute_"):
        return substitute_words(engine, event, names)
    return engine.describe(event, names, lang=translation.get_language())


def public_log(match: Match, seat_number=None) -> list[dict]:
    """The whole log as JSON for this seat: private events removed, rows whose events were all
    private to others left out, and the action itself hidden where part of what it caused was."""
    out = []
    for row in match.log.order_by("seq"):
        events = [e for e in row.events if event_visible(e, seat_number)]
        if row.events and not events:
            continue  # wholly private to others (an offer between two players): not even a row
        hidden = len(events) < len(row.events)
        out.append({"seq": row.seq, "seat": row.seat, "kind": row.kind, "at": row.created_at.isoformat(),
                    "action": {"type": "hidden"} if hidden else row.action, "events": events})
    return out


def matches_for_user(user):
    """A player's matches, those waiting for them first, each with its deadline."""
    matches = list(Match.objects.filter(seats__user=user).exclude(status=Match.ABORTED)
                   .prefetch_related("seats__user__profile").order_by("-created_at")[:200])
    for match in matches:
        seat = seat_of(match, user)
        match.my_seat = seat
        match.my_turn = (match.status == Match.RUNNING and seat is not None and seat.number in match.turn_seats)
        names = seat_names(match) if match.status == Match.RUNNING else []
        # Whose turn it is, by name (the system's turn, a chance card, has no seat to name).
        match.to_play = [names[n] for n in match.turn_seats if 0 <= n < len(names)
                         and not (seat is not None and n == seat.number)]
    return sorted(matches, key=lambda m: (not m.my_turn, m.is_over, m.turn_deadline is None,
                                          m.turn_deadline or m.created_at))


def open_matches(user=None):
    qs = Match.objects.filter(status=Match.OPEN, is_public=True).prefetch_related("seats__user__profile")
    return qs.order_by("-created_at")[:100]


def recent_finished():
    return (Match.objects.filter(status=Match.FINISHED, is_public=True)
            .prefetch_related("seats__user__profile").order_by("-finished_at")[:20])


def user_matches_api(user):
    return Match.objects.filter(Q(seats__user=user)).distinct().order_by("-created_at")


def seat_with_match(*, match_id, user):
    """`user`'s seat in the match with the match row, in one read (a bot asks for its legal
    actions every time its turn comes: neither the other seats nor the players are needed), or
    None if they have none (then match_for_player says why: no such match, private, no seat)."""
    if user is None or not user.is_authenticated:
        return None
    try:  # one seat per user and match (Seat's one_seat_per_user): get, with no ORDER BY to build
        return Seat.objects.select_related("match").get(match_id=match_id_of(match_id), user=user)
    except Seat.DoesNotExist:
        return None


def match_for_player(*, match_id, user) -> Match:
    """A match as its player's moves need it: the row and its bare seats, without the users,
    profiles and vacations a page shows (the API's most frequent read, "my legal actions",
    costs half as much). Anyone else learns only what match_for_viewer would tell them."""
    match = match_by_key(Match.objects, match_id)
    with_bare_seats(match)
    if seat_of(match, user) is None and not can_watch(match, user):
        raise NotAllowed(_("This match is private."))
    return match
