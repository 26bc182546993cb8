"""Reads for the leaderboards and the players' pages. Each page costs a fixed handful of
queries: seats and their players come by prefetch, and a match's state (large, and secret until
the end) is never loaded for a list."""
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _

from community import charts
from community.models import ALL_TIME, Rating, RatingEvent, RecordEntry
from community.records import RECORDS, Record
from community.seasons import current_season
from games.engines import ENGINES
from games.errors import NotFound
from games.models import Match, Seat

BOARD_SIZE = 100
OVERVIEW_SIZE = 5
RECORDS_SHOWN = 10
RESULTS_SHOWN = 50
CHART_EVENTS = 200
HEAD_TO_HEAD_SHOWN = 500


def min_games() -> int:
    """Games a player needs before they appear on a board (settings.LEADERBOARD_MIN_GAMES)."""
    return int(getattr(settings, "LEADERBOARD_MIN_GAMES", 3))


# --- Places in a finished match -----------------------------------------------------------

@dataclass
class Placing:
    seat: int
    user: object
    rank: int  # the place that counts: absent or resigned seats after everyone who stayed
    game_rank: int | None  # the place in the game's own standings
    score: object
    absent: bool
    bot: bool = False


def placings(match: Match, seats) -> list[Placing]:
    """Every seated player's place, best first. Equal places tie (1, 1, 3). A seat marked absent
    at the end, or resigned in the standings' detail, ranks after all who stayed, whatever its
    score; among themselves they keep the game's order."""
    by_seat = {row.get("seat"): row for row in match.standings or [] if isinstance(row, dict)}
    seated = [s for s in seats if s.number is not None]
    rows = []
    for seat in seated:
        row = by_seat.get(seat.number, {})
        detail = row.get("detail") if isinstance(row.get("detail"), dict) else {}
        gone = bool(seat.is_absent or detail.get("resigned"))
        game_rank = row.get("rank")
        key = (gone, game_rank if isinstance(game_rank, int) else len(seated) + 1)
        rows.append((key, seat, row, gone))
    keys = [key for key, *_ in rows]
    out = [Placing(seat=seat.number, user=seat.user, rank=1 + sum(1 for k in keys if k < key),
                   game_rank=row.get("rank"), score=row.get("score"), absent=gone,
                   bot=bool(getattr(seat, "is_bot", False)))
           for key, seat, row, gone in rows]
    return sorted(out, key=lambda p: (p.rank, p.seat))


# --- Who may see which match -------------------------------------------------------------

def visible_matches(viewer):
    """Public matches, and the private ones the viewer sat in (all of them for staff): lists
    of a player's matches must not reveal private tables to strangers."""
    matches = Match.objects.all()
    if viewer is not None and viewer.is_authenticated and viewer.is_staff:
        return matches
    if viewer is not None and viewer.is_authenticated:
        mine = Seat.objects.filter(user=viewer).values("match_id")
        return matches.filter(Q(is_public=True) | Q(pk__in=mine))
    return matches.filter(is_public=True)


def _with_seats(matches):
    seats = Seat.objects.exclude(number=None).select_related("user__profile").order_by("number")
    return matches.defer("state").prefetch_related(Prefetch("seats", queryset=seats))


# --- Boards ----------------------------------------------------------------------------------

def games() -> list:
    return sorted(ENGINES.values(), key=lambda e: e.title)


def game_get(*, game: str):
    engine = ENGINES.get(game)
    if engine is None:
        raise NotFound(_("There is no game called %(game)s.") % {"game": repr(game)})
    return engine


def leaderboard(*, game: str, season: str = ALL_TIME, limit: int = BOARD_SIZE) -> list[Rating]:
    """The best players by their ordinal (mu − 3σ), among those with enough games. Bots are
    rated (beating a strong bot should count for more than beating a weak one) but their
    accounts cannot log in, and they are not listed."""
    rows = list(Rating.objects.filter(game=game, season=season, games__gte=min_games(), user__is_active=True)
                .select_related("user__profile").order_by("-ordinal", "-mu", "user__username")[:limit])
    for position, rating in enumerate(rows, 1):
        rating.position = position
    return rows


def board_seasons(*, game: str) -> list[str]:
    """The seasons that have a board for this game, newest first; the current one always."""
    seasons = set(Rating.objects.filter(game=game).exclude(season=ALL_TIME).order_by("season")
                  .values_list("season", flat=True).distinct())
    seasons.add(current_season())
    return sorted(seasons, reverse=True)


def record_board(*, game: str, season: str = ALL_TIME, limit: int = RECORDS_SHOWN) -> tuple[Record | None, list]:
    """The game's record and its best entries, the record first; the earlier of equal
    showings ranks higher (it was set first)."""
    record = RECORDS.get(game)
    if record is None:
        return None, []
    entries = RecordEntry.objects.filter(game=game).select_related("user__profile", "match")
    if season:
        entries = entries.filter(season=season)
    value = "value" if record.lower_is_better else "-value"
    return record, list(entries.defer("match__state").order_by(value, "finished_at", "pk")[:limit])


def overview() -> list[dict]:
    """Each game's top players (all time) and record holder: two queries a game."""
    out = []
    for engine in games():
        record, best = record_board(game=engine.name, limit=1)
        out.append({"engine": engine, "top": leaderboard(game=engine.name, limit=OVERVIEW_SIZE),
                    "record": record, "record_entry": best[0] if best else None})
    return out


# --- Players ---------------------------------------------------------------------------------

def player_get(*, username: str):
    user = (get_user_model().objects.filter(username=username, is_active=True)
            .select_related("profile").first())
    if user is None:
        raise NotFound(_("There is no player called %(name)s.") % {"name": repr(username)})
    return user


def player_ratings(*, user) -> list[dict]:
    """Per game the player has played rated: the all-time and this season's rating, and the
    all-time rating's history as a chart (its last CHART_EVENTS matches)."""
    season = current_season()
    ratings = Rating.objects.filter(user=user, season__in=[ALL_TIME, season])
    by_game = defaultdict(dict)
    for rating in ratings:
        by_game[rating.game]["season" if rating.season else "all_time"] = rating
    events = list(RatingEvent.objects.filter(user=user, season=ALL_TIME)
                  .order_by("-id")[:CHART_EVENTS])[::-1]
    history = defaultdict(list)
    for event in events:
        history[event.game].append(event)
    out = []
    for game, found in sorted(by_game.items()):
        if "all_time" not in found:
            continue
        engine = ENGINES.get(game)
        steps = history.get(game, [])
        values = ([steps[0].ordinal_before] + [e.ordinal_after for e in steps]) if steps else []
        out.append({"game": game, "title": engine.title if engine else game.title(),
                    "rating": found["all_time"], "season_rating": found.get("season"),
                    "listed": found["all_time"].games >= min_games(),
                    "chart": charts.polyline(values)})
    return out


def _annotate(match: Match, user, events: dict) -> Match:
    seats = list(match.seats.all())
    match.places = placings(match, seats)
    match.place = next((p for p in match.places if p.user.pk == user.pk), None)
    match.rating_event = events.get(match.pk)
    return match


def player_results(*, user, viewer, limit: int = RESULTS_SHOWN) -> list[Match]:
    """The player's finished matches, newest first, each with their place and rating change."""
    matches = list(_with_seats(visible_matches(viewer).filter(status=Match.FINISHED, seats__user=user))
                   .order_by("-finished_at", "-pk")[:limit])
    events = {e.match_id: e for e in RatingEvent.objects.filter(
        user=user, season=ALL_TIME, match__in=[m.pk for m in matches])}
    return [_annotate(m, user, events) for m in matches]


def player_current(*, user, viewer) -> list[Match]:
    """Matches the player sits in that have not ended (open ones waiting for players too)."""
    active = (Match.OPEN, Match.RUNNING, Match.PAUSED)
    return list(_with_seats(visible_matches(viewer).filter(status__in=active, seats__user=user))
                .order_by("-created_at")[:RESULTS_SHOWN])


def frequent_opponents(*, user, viewer, limit: int = 8) -> list[dict]:
    """Who the player met most in finished matches, for links to the head-to-head."""
    shared = visible_matches(viewer).filter(status=Match.FINISHED, seats__user=user).values("pk")
    rows = (Seat.objects.filter(match__in=shared, user__is_active=True).exclude(user=user).values("user")
            .annotate(n=Count("match", distinct=True)).order_by("-n", "user")[:limit])
    counts = {row["user"]: row["n"] for row in rows}
    users = get_user_model().objects.filter(pk__in=counts).select_related("profile")
    return sorted(({"user": u, "matches": counts[u.pk]} for u in users),
                  key=lambda row: (-row["matches"], row["user"].username))


def head_to_head(*, user, other, viewer) -> dict:
    """Finished matches both played, newest first, with who placed better how often (the
    places that count for ratings: absent seats last)."""
    both = (visible_matches(viewer).filter(status=Match.FINISHED, seats__user=user)
            .filter(pk__in=Seat.objects.filter(user=other).values("match_id")))
    matches = list(_with_seats(both).order_by("-finished_at", "-pk")[:HEAD_TO_HEAD_SHOWN])
    tally = {"better": 0, "worse": 0, "equal": 0}
    for match in matches:
        places = {p.user.pk: p for p in placings(match, list(match.seats.all()))}
        match.mine, match.theirs = places.get(user.pk), places.get(other.pk)
        if match.mine is None or match.theirs is None:
            continue
        if match.mine.rank < match.theirs.rank:
            match.outcome = "better"
        elif match.mine.rank > match.theirs.rank:
            match.outcome = "worse"
        else:
            match.outcome = "equal"
        tally[match.outcome] += 1
    per_game = defaultdict(lambda: {"better": 0, "worse": 0, "equal": 0, "matches": 0})
    for match in matches:
        if getattr(match, "outcome", None):
            per_game[match.game][match.outcome] += 1
            per_game[match.game]["matches"] += 1
    titles = {e.name: e.title for e in ENGINES.values()}
    return {"matches": matches, "tally": tally, "total": sum(tally.values()),
            "per_game": [{"game": g, "title": titles.get(g, g.title()), **row}
                         for g, row in sorted(per_game.items())]}
