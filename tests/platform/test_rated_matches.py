"""Rating farming (issue 19.2): two accounts trading wins gain nothing past the bound per period,
and private, one-round or bot matches are not rated."""
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from games import play
from games.models import Match
from tests.conftest import client_for, make_user


def _rated_race(players, positions, **create):
    """A race among players, ended by an admin at these positions, then rated."""
    from community import ratings

    match = play.match_create(creator=players[0], game="race", seats=len(players), options={"finish": 200},
                                  **create)
    for user in players[1:]:
        play.match_join(match_id=match.pk, user=user, invite_code=match.invite_code)
    state = Match.objects.get(pk=match.pk).state
    state["positions"] = list(positions)
    Match.objects.filter(pk=match.pk).update(state=state)
    play.match_finish(match_id=match.pk, reason="ended by an admin")
    ratings.match_finished(match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def test_two_accounts_trading_wins_gain_nothing_after_the_bound(player, opponent, outsider, settings):
    """Issue 19.2: a player and his second account played rated matches against each other
    until he topped the board. Past RATED_GAMES_PER_PAIR in RATED_PAIR_DAYS, neither moves."""
    from community.models import ALL_TIME, Rating, RatingEvent
    from community.selectors import leaderboard

    settings.RATED_GAMES_PER_PAIR, settings.RATED_PAIR_DAYS, settings.LEADERBOARD_MIN_GAMES = 3, 7, 1
    for n in range(3):
        _rated_race([player, opponent], [30, 10] if n % 2 == 0 else [10, 30])
    at_bound = {r.user_id: (r.ordinal, r.games, r.wins) for r in Rating.objects.filter(season=ALL_TIME)}
    for n in range(6):  # the farm goes on: anna wins every one
        _rated_race([player, opponent], [40, 5])
    after = {r.user_id: (r.ordinal, r.games, r.wins) for r in Rating.objects.filter(season=ALL_TIME)}
    assert after == at_bound
    assert RatingEvent.objects.filter(capped=True, season=ALL_TIME).count() == 12  # 6 matches × 2, for staff
    # Against someone else, anna's games count as ever.
    _rated_race([player, outsider], [40, 5])
    assert Rating.objects.get(user=player, season=ALL_TIME).ordinal > at_bound[player.pk][0]
    assert leaderboard(game="race")  # the board still works
    # The staff's list: the admin filters rating changes by "capped".
    staff = make_user("admiral", is_staff=True, is_superuser=True)
    page = client_for(staff).get("/admin/community/ratingevent/?capped__exact=1")
    assert page.status_code == 200 and page.content.decode().count('class="field-capped"') == 24  # both boards


def test_the_bound_is_per_period(player, opponent, settings):
    from community.models import ALL_TIME, Rating

    settings.RATED_GAMES_PER_PAIR, settings.RATED_PAIR_DAYS = 1, 7
    first = _rated_race([player, opponent], [30, 10])
    Match.objects.filter(pk=first.pk).update(finished_at=timezone.now() - timedelta(days=8))
    before = Rating.objects.get(user=player, season=ALL_TIME).ordinal
    _rated_race([player, opponent], [30, 10])  # a week later: counts again
    assert Rating.objects.get(user=player, season=ALL_TIME).ordinal > before


def test_private_one_round_or_bot_matches_are_not_rated(player, opponent, settings):
    """Issue 19.2: four private, rated, one-round matches put a farmer on top of the board."""
    from community import ratings
    from community.models import RatingEvent

    settings.RATED_MIN_ROUNDS = 3
    private = _rated_race([player, opponent], [30, 10], is_public=False, rated=True)
    short = _rated_race([player, opponent], [30, 10], round_limit=1, rated=True)
    assert not private.rated and not short.rated
    # Rated before the rules (or set so in the admin): the listener checks again.
    Match.objects.filter(pk__in=[private.pk, short.pk]).update(rated=True)
    assert ratings.match_finished(match_id=private.pk) is False
    assert ratings.match_finished(match_id=short.pk) is False
    assert not RatingEvent.objects.exists()
    # The form says why it is unrated, rather than quietly making it so.
    client = client_for(player)
    response = client.post(reverse("match_new"), {
        "game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "rated": "on", "round_limit": 1,
        "is_public": "on"}, follow=True)
    assert "at least 3 rounds" in response.content.decode() and "played unrated" in response.content.decode()
    response = client.post(reverse("match_new"), {
        "game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "rated": "on"}, follow=True)
    assert "must be public" in response.content.decode()
    assert not Match.objects.filter(rated=True).exclude(pk__in=[private.pk, short.pk]).exists()
