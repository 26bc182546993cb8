"""Renders a match for one viewer: the whole page, the live part an action or a socket swaps in.
The same templates serve all three, so a player sees the same thing however it arrived."""
import hashlib
import importlib
import json
import zoneinfo
from types import SimpleNamespace

from django.template.loader import render_to_string, select_template
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import away_now
from games.reads import selectors, standing
from games.reads.reliability import seat_records
from games.reads.substitutes import refusable_offer, refusable_offers
from games.engines import get_engine, may_act
from games.errors import BadRequest
from games.models import Match, Seat


def game_template(game: str, name: str):
    return select_template([f"games/{game}/{name}", f"games/generic/{name}"])


def seat_colour(colours, seat) -> str:
    """A seat's colour for a game's drawing; black for a seat the list does not know."""
    try:
        return colours[seat] or "black"
    except (IndexError, TypeError):
        return "black"


def seat_name(names, seat) -> str:
    """A seat's name in the reader's words: its player's, else "Player n", else "Nobody"."""
    try:
        return names[seat]
    except (IndexError, TypeError):
        if isinstance(seat, int):
            return gettext("Player %(number)s") % {"number": seat + 1}
        return gettext("Nobody")


def worded_later(words, *args):
    """`words(*args)`, found only if a template draws it, in the language active now: a
    presenter's part every viewer sees alike is drawn once per change ({% once %},
    games_tags.once), so the other viewers' presenters need not word it at all."""
    language = translation.get_language()

    def find():
        with translation.override(language):
            return words(*args)

    return SimpleLazyObject(find)


def shared_parts(match: Match) -> dict:
    """What every viewer of this version sees alike, made once in the language and zone active
    now: the log's words ("described", filled in as the viewers' logs find them) and, for a game
    whose pages draw a shared board (`shared_board`, with partials/board_shared.html), the
    board ("board"), which each viewer's part then leaves out and takes as drawn."""
    try:
        pages = importlib.import_module(f"games.{match.game}.pages")
    except ImportError:
        pages = None
    # The log's words, found once for every viewer of the version (selectors.log_lines).
    # The markup in {% once %} blocks (games_tags.once), drawn by the first viewer's part.
    # The log's lines by what they show ("seen", selectors.log_lines_seen).
    shared = {"described": {}, "seen": {}, "once": {}}
    draw = getattr(pages, "shared_board", None) if pages is not None else None
    if draw is None or match.state is None:
        return shared
    seats = sorted(match.seats.all(), key=lambda s: (s.number is None, s.number, s.joined_at))
    context = draw(selectors.viewer_state(match, None), [s.colour for s in seats], selectors.seat_names(match),
                   match=match)
    if context:
        shared["board"] = mark_safe(render_to_string(f"games/{match.game}/partials/board_shared.html", context))
    return shared


def match_facts(match: Match) -> dict:
    """What every viewer's part of a change reads from the database besides the match, read
    once for all of them (and for all their languages): the substitutes the table may still
    refuse. `match_context` takes it in `shared`. (The players' records on the seat cards and
    their vacations are kept on their profiles, read with the seats: games/play/records.py,
    accounts.models.keep_away_on_profile.)"""
    return {"refusals": refusable_offers(match)}


def match_context(match: Match, user, *, error: str | None = None, shared: dict | None = None) -> dict:
    engine = get_engine(match.game)
    seat = selectors.seat_of(match, user)
    number = seat.number if seat is not None else None
    view = selectors.viewer_state(match, number)
    my_turn = (match.status == Match.RUNNING and number is not None and number in match.turn_seats)
    # A seat may also have an optional move outside its turn (Catan's unloading at once): its
    # legal actions are shown though it is not its turn.
    can_act = my_turn or (match.status == Match.RUNNING and number is not None
                          and number in may_act(engine, match.state))
    legal = engine.legal_actions(match.state, number) if can_act else []
    seats = sorted(match.seats.all(), key=lambda s: (s.number is None, s.number, s.joined_at))
    log_key, log_lines = (), []
    if match.state is not None:
        # The log's recent rows, read once for the log's lines and the game's presenter.
        selectors.with_recent_log(match)
        log_key, log_lines = selectors.log_lines_seen(match, number, described=(shared or {}).get("described"),
                                                      seen=(shared or {}).get("seen"))
    return {
        "user": user,
        "match": match,
        "engine": engine,
        "seat": seat,
        "seat_number": number,
        "seats": seats,
        "names": selectors.seat_names(match),
        "colours": [s.colour for s in seats],
        "away": players_away(seats) if match.allow_vacation else {},
        # Each player's record in words on their seat card (games/reads/reliability.py).
        "reliability": seat_records(seats),
        # A substitute who took a seat here that this viewer may still vote to refuse.
        "refusable": (refusable_offer(match, user, (shared or {}).get("refusals"))
                      if match.status == Match.RUNNING and number is not None else None),
        "free_colours": [c for c in Seat.COLOURS if c not in {s.colour for s in seats}],
        "view": view,
        "legal": legal,
        "my_turn": my_turn,
        "log_lines": log_lines,
        # What the log shows this viewer: viewers shown the same events share one drawing of it.
        "log_key": log_key,
        "error": error,
        # A change that kept the version (a seat taken, a deadline moved) is told from the
        # version as first shown by its revision (Match.revision; static/js/site.js).
        "revision": match.revision,
        # Only the whole page shows the chat (the live part a socket or an action renders does
        # not): read it only if the template asks.
        "chat": SimpleLazyObject(lambda: selectors.chat_messages(match, user)),
        "can_chat": selectors.can_chat(match, user),
        "live_template": game_template(match.game, "partials/live.html").template.name,
        "board_template": game_template(match.game, "board.html").template.name,
        # Parts every viewer of this version sees alike, drawn once (shared_parts), if given.
        "shared": shared or {},
        # What this seat's Orders panel offers, as a digest (static/js/site.js fetches the
        # panel again when it differs from the panel's own).
        "orders_digest": orders_digest(match, number, view),
    }


def players_away(seats) -> dict:
    """The seats' players on vacation now, by user id, each with `ends_at`: from their profiles,
    read with the seats (accounts.models.away_now)."""
    now = timezone.now()
    away = {}
    for s in seats:
        ends = away_now(getattr(s.user, "profile", None), now)
        if ends is not None:
            away[s.user_id] = SimpleNamespace(ends_at=ends)
    return away


def render_live(match: Match, user, *, request=None, error=None, browser_language=None) -> str:
    # The socket renders without a request: show times in the viewer's own zone and words in
    # their own language all the same.
    with timezone.override(viewer_time_zone(user)), translation.override(viewer_language(user, browser_language)):
        context = match_context(match, user, error=error)
        return render_to_string("games/partials/match_live.html", context, request=request)


def render_chat(match: Match, user, *, error=None, browser_language=None) -> str:
    with timezone.override(viewer_time_zone(user)), translation.override(viewer_language(user, browser_language)):
        return render_to_string("games/partials/chat.html", {
            "match": match, "chat": selectors.chat_messages(match, user), "user": user,
            "can_chat": selectors.can_chat(match, user), "chat_error": error})


def viewer_time_zone(user):
    profile = getattr(user, "profile", None) if user is not None and user.is_authenticated else None
    try:
        return zoneinfo.ZoneInfo(profile.time_zone) if profile else timezone.get_current_timezone()
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.get_current_timezone()


def viewer_language(user, browser_language=None) -> str:
    """The profile's language wins, as on the pages; otherwise what the browser asked for (a
    socket passes what its handshake asked for), otherwise the language already active."""
    profile = getattr(user, "profile", None) if user is not None and user.is_authenticated else None
    if profile is not None and profile.language:
        return profile.language
    return browser_language or translation.get_language()


# --- The Orders panel (games/play/orders.py keeps the lines) ---------------------------------

def _orders_vocabulary(match: Match, number):
    """The game's orders vocabulary if this seat may keep orders now, else None."""
    if number is None or match.state is None or match.is_over:
        return None
    try:
        return standing.vocabulary(match.game)
    except BadRequest:  # a game without orders has no panel
        return None


def orders_digest(match: Match, number, view) -> str:
    """What the seat's Orders panel offers — whether it is shown at all, and the values each
    field may take (its ships, the board's places) — as a short digest: "" when there is no
    panel. Values only, not their words, so the page's panel and the socket's part agree
    whatever language each was drawn in. The panel lies outside the live part (a push must not
    wipe what its owner is typing), so the live part carries this and the page fetches the
    panel again only when it differs (issue 33: a ship list empty after the start)."""
    module = _orders_vocabulary(match, number)
    if module is None or view is None:
        return ""
    offered = []
    for kind, fields in module.KINDS.items():
        offered.append(kind)
        for field, sort in fields.items():
            values = (standing.place_values(match.game, sort, view) if sort == "edge"
                      else module.values(field, view))
            offered.append(f"{field}={','.join(map(str, values))}")
    return hashlib.blake2b("|".join(offered).encode(), digest_size=8).hexdigest()


def lines_digest(lines) -> str:
    """The list of orders as a panel showed it: a move, a removal by number is for that list (an
    order for one move may have played and gone since)."""
    return hashlib.blake2b(json.dumps(lines, sort_keys=True).encode(), digest_size=8).hexdigest()


def orders_context(match: Match, user) -> dict:
    """What the Orders panel shows its owner: their lines in words, the kinds to add, and the
    digest of what it offers (orders_digest). Without a panel, a seated player's page keeps an
    empty place for the panel the match may offer later (at the start)."""
    from games.models import StandingOrders

    seat = selectors.seat_of(match, user) if user.is_authenticated else None
    number = seat.number if seat is not None else None
    module = _orders_vocabulary(match, number)
    if module is None:
        # A seat keeps the panel's place while the match may offer it (before the start); once
        # the match is over, and for anyone else, there is none.
        place = seat is not None and not match.is_over
        return {"orders_shown": False, "orders_match": match if place else None, "orders_digest": ""}
    view = get_engine(match.game).view(match.state, number)
    mine = StandingOrders.objects.filter(match=match, user=user).first()
    lines = mine.lines if mine else []
    language = translation.get_language()
    kinds = [{"kind": k, "label": standing.KIND_LABELS[k],
              "fields": [{"name": f, "label": standing.FIELD_LABELS[f], "kind": t,
                          "choices": module.choices(f, view, language)}
                         for f, t in fields.items()]}
             for k, fields in module.KINDS.items()]
    return {"orders_shown": True, "orders_match": match, "orders_paused": bool(mine and mine.paused),
            "orders_digest": orders_digest(match, number, view),
            "orders_shown_lines": lines_digest(lines),
            "orders_lines": [{"index": i, "words": standing.line_words(match.game, line, view),
                              "scope": line.get("scope", "always"), "until": line.get("until")}
                             for i, line in enumerate(lines)],
            "orders_dropped": [standing.line_words(match.game, line, view) for line in (mine.dropped if mine else [])],
            "orders_kinds": kinds}
