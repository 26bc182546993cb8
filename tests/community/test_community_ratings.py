"""Ratings: a rated match's full ranking moves OpenSkill ratings once, all time and for its
season; absent seats rank last; unrated and aborted matches move nothing; records keep the best."""
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from community import ratings
from community.models import ALL_TIME, Rating, RatingEvent, RecordEntry
from community.records import RECORDS, fewest_rounds_to_win
from community.seasons import current_season, season_bounds, season_of, season_title
from community.selectors import placings
from games import play
from games.models import Match, Seat
from tests.conftest import make_user


def race(players, positions, *, absent=(), rated=True):
    """A race among players (seat numbers in list order) ended by an admin at these positions."""
    match = play.match_create(creator=players[0], game="race", seats=len(players), rated=rated,
                                  options={"finish": 200})
    for user in players[1:]:
        play.match_join(match_id=match.pk, user=user)
    state = Match.objects.get(pk=match.pk).state
    state["positions"] = list(positions)
    Match.objects.filter(pk=match.pk).update(state=state)
    Seat.objects.filter(match=match, number__in=absent).update(is_absent=True)
    return play.match_finish(match_id=match.pk, reason="ended by an admin").match


def finished_at(match, when):
    Match.objects.filter(pk=match.pk).update(finished_at=when)


def rating(user, season=ALL_TIME, game="race"):
    return Rating.objects.get(user=user, game=game, season=season)


@pytest.fixture
def three(player, opponent, outsider):
    return [player, opponent, outsider]


def test_it_moves_ratings_by_the_full_ranking(three):
    anna, bo, carl = three
    match = race(three, [40, 20, 5])
    assert ratings.match_finished(match_id=match.pk) is True
    fresh = ratings.MODEL.mu - 3 * ratings.MODEL.sigma
    assert rating(anna).ordinal > fresh > rating(carl).ordinal
    assert rating(anna).ordinal > rating(bo).ordinal > rating(carl).ordinal
    assert [rating(u).games for u in three] == [1, 1, 1]
    assert [rating(u).wins for u in three] == [1, 0, 0]
    events = {e.user_id: e for e in RatingEvent.objects.filter(match=match, season=ALL_TIME)}
    assert [events[u.pk].rank for u in three] == [1, 2, 3]
    assert events[anna.pk].change > 0 > events[carl.pk].change
    # The same match moved this season's board too, by the same amount (both started fresh).
    season = season_of(match.finished_at)
    assert rating(anna, season).ordinal == pytest.approx(rating(anna).ordinal)


def test_ties_give_equal_changes_for_equal_ratings(three):
    anna, bo, carl = three
    ratings.match_finished(match_id=race(three, [30, 30, 10]).pk)
    assert rating(anna).mu == pytest.approx(rating(bo).mu)
    assert rating(anna).sigma == pytest.approx(rating(bo).sigma)
    assert rating(carl).ordinal < rating(anna).ordinal
    assert RatingEvent.objects.get(user=bo, season=ALL_TIME).rank == 1
    assert Rating.objects.filter(season=ALL_TIME, wins=1).count() == 2


def test_an_absent_seat_ranks_last_even_with_the_highest_score(three):
    anna, bo, carl = three
    match = race(three, [10, 90, 5], absent=[1])
    ratings.match_finished(match_id=match.pk)
    ranks = {e.user_id: e.rank for e in RatingEvent.objects.filter(match=match, season=ALL_TIME)}
    assert ranks == {anna.pk: 1, carl.pk: 2, bo.pk: 3}
    assert rating(bo).ordinal < rating(carl).ordinal < rating(anna).ordinal


def test_a_resigned_seat_in_the_standings_ranks_last(three):
    match = race(three, [10, 90, 5])
    standings = match.standings
    for row in standings:
        if row["seat"] == 1:
            row["detail"] = {"resigned": True}
    Match.objects.filter(pk=match.pk).update(standings=standings)
    ratings.match_finished(match_id=match.pk)
    assert RatingEvent.objects.get(match=match, user=three[1], season=ALL_TIME).rank == 3


def test_placings_tie_equal_places_and_keep_the_order_among_absent_seats(three):
    match = race(three + [make_user("dora")], [20, 20, 50, 40], absent=[2, 3])
    places = placings(match, list(match.seats.select_related("user")))
    assert [(p.seat, p.rank, p.absent) for p in places] == [(0, 1, False), (1, 1, False), (2, 3, True), (3, 4, True)]
    assert [p.game_rank for p in places] == [3, 3, 1, 2]


def test_running_the_listener_twice_changes_nothing(three):
    match = race(three, [40, 20, 5])
    assert ratings.match_finished(match_id=match.pk) is True
    before = list(Rating.objects.order_by("pk").values())
    assert ratings.match_finished(match_id=match.pk) is False
    assert list(Rating.objects.order_by("pk").values()) == before
    assert RatingEvent.objects.filter(match=match).count() == 6  # three players, two boards


def test_an_unrated_match_changes_nothing(three):
    match = race(three, [40, 20, 5], rated=False)
    assert ratings.match_finished(match_id=match.pk) is False
    assert not Rating.objects.exists() and not RatingEvent.objects.exists()


def test_an_aborted_or_running_match_changes_nothing(three, staff):
    match = play.match_create(creator=three[0], game="race", seats=2)
    play.match_join(match_id=match.pk, user=three[1])
    assert ratings.match_finished(match_id=match.pk) is False  # still running
    play.match_abort(match_id=match.pk, actor=staff)
    assert ratings.match_finished(match_id=match.pk) is False
    assert ratings.match_finished(match_id=987654) is False
    assert not Rating.objects.exists()


def test_the_next_match_starts_from_the_rating_the_last_one_left(three):
    anna = three[0]
    ratings.match_finished(match_id=race(three, [40, 20, 5]).pk)
    after_first = rating(anna)
    ratings.match_finished(match_id=race(three, [1, 20, 5]).pk)
    first, second = RatingEvent.objects.filter(user=anna, season=ALL_TIME).order_by("id")
    assert second.mu_before == pytest.approx(first.mu_after) == pytest.approx(after_first.mu)
    assert second.change < 0
    assert rating(anna).games == 2


def test_seasons_start_fresh(three):
    anna, bo, carl = three
    now = timezone.now()
    this_start, _ = season_bounds(current_season())
    last_quarter = this_start - timedelta(days=20)
    old = race(three, [40, 20, 5])
    finished_at(old, last_quarter)
    ratings.match_finished(match_id=old.pk)
    new = race(three, [5, 20, 40])
    ratings.match_finished(match_id=new.pk)
    previous, current = season_of(last_quarter), current_season(now)
    assert previous != current
    assert rating(anna, previous).games == 1 and rating(anna, current).games == 1
    assert rating(anna).games == 2
    # This season anna came last from a fresh start: the old win does not count here.
    assert rating(anna, current).ordinal < ratings.MODEL.mu - 3 * ratings.MODEL.sigma
    assert rating(carl, current).ordinal == pytest.approx(rating(anna, previous).ordinal)
    assert RatingEvent.objects.get(match=new, user=anna, season=current).mu_before == ratings.MODEL.mu


def test_season_names_and_bounds():
    assert season_of(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)) == "2026-Q4"
    assert season_of(datetime(2027, 1, 1, tzinfo=UTC)) == "2027-Q1"
    assert season_bounds("2026-Q4") == (datetime(2026, 10, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC))
    assert season_bounds("2026-Q2") == (datetime(2026, 4, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC))
    assert season_title("2026-Q4") == "2026 Q4 (October–December)" and season_title("") == "All time"


def test_the_listener_is_wired_to_the_end_of_a_match(three, django_capture_on_commit_callbacks, settings):
    assert "community.ratings.match_finished" in settings.MATCH_FINISHED_LISTENERS
    match = play.match_create(creator=three[0], game="race", seats=3)
    for user in three[1:]:
        play.match_join(match_id=match.pk, user=user)
    with django_capture_on_commit_callbacks(execute=True):
        play.match_finish(match_id=match.pk, reason="ended by an admin")
    assert RatingEvent.objects.filter(match=match, season=ALL_TIME).count() == 3
    assert Rating.objects.filter(game="race", season=ALL_TIME).count() == 3


def test_a_match_played_to_its_end_is_rated(player, opponent, django_capture_on_commit_callbacks):
    match = play.match_create(creator=player, game="race", seats=2, options={"finish": 5, "wind": False})
    play.match_join(match_id=match.pk, user=opponent)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(40):
            match.refresh_from_db()
            if match.status == Match.FINISHED:
                break
            seat = match.seats.get(number=match.turn_seats[0])
            step = "roll" if match.state["phase"] == "roll" else "advance"
            play.action_apply(match_id=match.pk, user=seat.user, action={"type": step})
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    winner = next(s.user for s in match.seats.all() if s.number == match.standings[0]["seat"])
    assert RatingEvent.objects.get(match=match, user=winner, season=ALL_TIME).change > 0


# --- Records ---------------------------------------------------------------------------------

def ended(game, users, standings, *, state=None, absent=(), when=None, rated=True):
    """A finished match of any game, written directly: records read only its result."""
    match = Match.objects.create(game=game, seats_count=len(users), creator=users[0], status=Match.FINISHED,
                                 rated=rated, standings=standings, state=state or {},
                                 finished_at=when or timezone.now())
    for number, user in enumerate(users):
        Seat.objects.create(match=match, user=user, number=number, colour=Seat.COLOURS[number],
                            is_absent=number in absent)
    ratings.match_finished(match_id=match.pk)
    return match


def rows(*scores):
    order = sorted(range(len(scores)), key=lambda s: -scores[s])
    return [{"seat": s, "rank": 1 + sum(1 for o in scores if o > scores[s]), "score": scores[s], "detail": {}}
            for s in order]


def best(game):
    record = RECORDS[game]
    ordering = "value" if record.lower_is_better else "-value"
    return RecordEntry.objects.filter(game=game).order_by(ordering, "finished_at").first()


def test_fuldrigger_record_is_the_highest_fortune_of_a_player_who_stayed(three):
    anna, bo, carl = three
    ended("fuldrigger", three, rows(5200, 4100, 3000))
    ended("fuldrigger", three, rows(1000, 6100, 9900), absent=[2])  # carl's 9900 was played by timeouts
    ended("fuldrigger", three, rows(7000, 20000, 1), rated=False)  # unrated: no record
    top = best("fuldrigger")
    assert (top.user, top.value) == (bo, 6100)
    assert RecordEntry.objects.filter(game="fuldrigger").count() == 5


def test_pirater_record_is_the_fewest_rounds_to_bring_a_treasure_home(three):
    anna, bo, carl = three
    ended("pirater", three, rows(1, 3, 2), state={"win": "treasure", "winner": 1, "round": 31})
    ended("pirater", three, rows(3, 1, 2), state={"win": "treasure", "winner": 0, "round": 22})
    ended("pirater", three, rows(1, 1, 3), state={"win": "last_ships", "winner": 2, "round": 9})
    top = best("pirater")
    assert (top.user, top.value) == (anna, 22)
    assert RecordEntry.objects.filter(game="pirater").count() == 2


def test_the_catan_record_counts_the_rounds_of_a_sole_winner(three):
    match = Match(game="catan", standings=rows(10, 7, 6), state={"round": 18})
    assert fewest_rounds_to_win(match) == [(0, 18)]
    match.standings = rows(10, 10, 6)
    assert fewest_rounds_to_win(match) == []
    assert RECORDS["catan"].lower_is_better


def test_rebuild_gives_the_ratings_the_listener_gave(three):
    for positions in ([40, 20, 5], [5, 20, 40], [10, 10, 30]):
        ratings.match_finished(match_id=race(three, positions).pk)
    before = {(r.user_id, r.season): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert ratings.ratings_rebuild() == 3
    after = {(r.user_id, r.season): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert before.keys() == after.keys()
    for key, (mu, sigma, games) in before.items():
        assert after[key] == (pytest.approx(mu), pytest.approx(sigma), games)
