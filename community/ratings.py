"""The one writer of ratings. When a rated match finishes, a background job calls
match_finished (settings.MATCH_FINISHED_LISTENERS); it moves every player's rating for that
game, all time and for the season the match finished in, from the match's full ranking.

The model is OpenSkill's Plackett–Luce: a multiplayer ranking, ties included, updates each
player's mu (skill) and sigma (uncertainty). Places come from the game's standings, except that
absent or resigned seats rank after everyone who stayed (selectors.placings). Aborted and
unrated matches move nothing, nor do private ones, ones with bots, or ones shorter than
RATED_MIN_ROUNDS; two players who met RATED_GAMES_PER_PAIR times in RATED_PAIR_DAYS gain nothing
from meeting again (the event is kept, marked capped, for staff). Everything is written in one transaction with the match row
locked, and a match that already has rating events is left alone, so running twice changes
nothing."""
import logging
from collections import Counter, defaultdict
from datetime import timedelta
from itertools import combinations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from community.models import ALL_TIME, Rating, RatingEvent, RecordEntry
from community.records import RECORDS
from community.seasons import season_of
from community.selectors import Placing, placings
from games.play.limits import unrated_reason
from games.models import Match, Seat
from games.reads.substitutes import played_shares, takeovers

log = logging.getLogger(__name__)

MODEL = PlackettLuce()


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def match_finished(*, match_id) -> bool:
    """Rate a finished match; True if it moved ratings now, False if there was nothing to do
    (not finished, unrated, fewer than two players, or rated already)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.FINISHED or not match.rated or match.finished_at is None:
            return False
        if RatingEvent.objects.filter(match=match).exists():
            return False
        seats = list(Seat.objects.filter(match=match).exclude(number=None).select_related("user"))
        # Checked again here: matches made before these rules, or changed in the admin since.
        if any(s.is_bot for s in seats) or unrated_reason(is_public=match.is_public, bot_seats=0,
                                                          round_limit=match.round_limit, options=match.options):
            return False
        places = placings(match, seats)
        shares = played_shares(match)
        places = _with_leavers(match, places)
        if len(places) < 2:
            return False
        season = season_of(match.finished_at)
        capped = _capped_players(match, [p.user.pk for p in places])
        for board in (ALL_TIME, season):
            _rate(match, places, board, capped, shares)
        if capped:
            log.warning("rated match %s: players %s met again past the bound of %s rated matches in %s days; "
                        "their ratings do not move (admin: rating changes, capped)", match_id, sorted(capped),
                        settings.RATED_GAMES_PER_PAIR, settings.RATED_PAIR_DAYS)
        _keep_records(match, places, season)
    log.info("rated match %s (%s, %s)", match_id, match.game, season)
    return True


def _capped_players(match: Match, users: list[int]) -> set[int]:
    """Players who met one of this match's other players in RATED_GAMES_PER_PAIR counted rated
    matches within RATED_PAIR_DAYS before it: two accounts trading wins gain nothing past that."""
    since = match.finished_at - timedelta(days=settings.RATED_PAIR_DAYS)
    together: dict[int, set[int]] = defaultdict(set)
    for match_id, user_id in (RatingEvent.objects.filter(
            season=ALL_TIME, capped=False, user__in=users, match__finished_at__gte=since,
            match__finished_at__lte=match.finished_at).exclude(match=match).values_list("match_id", "user_id")):
        together[match_id].add(user_id)
    met = Counter(pair for players in together.values() for pair in combinations(sorted(players), 2))
    return {user for pair, count in met.items() if count >= settings.RATED_GAMES_PER_PAIR for user in pair}


def _with_leavers(match: Match, places: list[Placing]) -> list[Placing]:
    """A player whose seat a substitute took over takes the loss: they rank after everyone,
    as an absent seat does (docs/substitutes.md)."""
    gone = [o for o in takeovers(match) if o.leaver_id not in {p.user.pk for p in places}]
    last = 1 + len(places)
    return places + [Placing(seat=o.seat, user=o.leaver, rank=last, game_rank=None, score=None, absent=True)
                     for o in gone]


def _rate(match: Match, places: list[Placing], season: str, capped: set[int] = frozenset(),
          shares: dict[int, float] | None = None) -> None:
    users = [p.user for p in places]
    fresh = _ordinal(MODEL.mu, MODEL.sigma)
    Rating.objects.bulk_create(
        [Rating(user=u, game=match.game, season=season, mu=MODEL.mu, sigma=MODEL.sigma, ordinal=fresh)
         for u in users], ignore_conflicts=True)
    # Lock in one order so that two matches sharing players wait for each other, not deadlock.
    current = {r.user_id: r for r in Rating.objects.select_for_update().order_by("pk")
               .filter(game=match.game, season=season, user__in=users)}
    teams = [[MODEL.rating(mu=current[p.user.pk].mu, sigma=current[p.user.pk].sigma)] for p in places]
    rated = MODEL.rate(teams, ranks=[p.rank for p in places])
    now, events = timezone.now(), []
    for place, (after,) in zip(places, rated):
        rating = current[place.user.pk]
        held = place.user.pk in capped  # past the pair bound: recorded, but moves nothing
        share = (shares or {}).get(place.user.pk)
        if share is not None and not held:
            # A substitute's result counts by the share of the seat's turns they played.
            after = MODEL.rating(mu=rating.mu + share * (after.mu - rating.mu),
                                 sigma=rating.sigma + share * (after.sigma - rating.sigma))
        mu_after, sigma_after = (rating.mu, rating.sigma) if held else (after.mu, after.sigma)
        events.append(RatingEvent(
            match=match, user=place.user, game=match.game, season=season, rank=place.rank,
            players=len(places), mu_before=rating.mu, sigma_before=rating.sigma,
            mu_after=mu_after, sigma_after=sigma_after, capped=held))
        if held:
            continue
        rating.mu, rating.sigma = after.mu, after.sigma
        rating.ordinal = _ordinal(after.mu, after.sigma)
        rating.games += 1
        rating.wins += place.rank == 1
        rating.updated_at = now
    Rating.objects.bulk_update(list(current.values()), ["mu", "sigma", "ordinal", "games", "wins", "updated_at"])
    RatingEvent.objects.bulk_create(events)


def _keep_records(match: Match, places: list[Placing], season: str) -> None:
    record = RECORDS.get(match.game)
    if record is None:
        return
    # A record is a player's own: not a seat played by timeouts, nor a bot's.
    present = {p.seat: p.user for p in places if not p.absent and not p.bot}
    entries = {}
    for seat, value in record.find(match):
        if seat in present and value is not None:
            entries[seat] = RecordEntry(match=match, user=present[seat], game=match.game, season=season,
                                        value=float(value), finished_at=match.finished_at)
    RecordEntry.objects.bulk_create(list(entries.values()), ignore_conflicts=True)


def ratings_rebuild() -> int:
    """Forget every rating and rate every finished rated match again, in the order they
    finished (after changing the model, or on a site that finished matches before ratings
    existed). Returns the number of matches rated."""
    with transaction.atomic():
        RatingEvent.objects.all().delete()
        RecordEntry.objects.all().delete()
        Rating.objects.all().delete()
        ids = list(Match.objects.filter(status=Match.FINISHED, rated=True, finished_at__isnull=False)
                   .order_by("finished_at", "pk").values_list("pk", flat=True))
        return sum(match_finished(match_id=match_id) for match_id in ids)
