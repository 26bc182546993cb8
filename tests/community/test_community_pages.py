"""Leaderboards, seasons, records, players' pages, head-to-head and the admin: the right numbers,
in a fixed number of queries, private matches kept private."""
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from community import ratings
from community.models import ALL_TIME, Rating, RatingEvent, RecordEntry
from community.seasons import current_season, season_bounds, season_of
from games import play
from games.models import Match, Seat
from tests.conftest import client_for, make_user


def race(players, positions, *, absent=(), rated=True, public=True, when=None, title=""):
    """A race among players (seat numbers in list order) that ended at these positions, rated."""
    match = play.match_create(creator=players[0], game="race", seats=len(players), rated=rated,
                                  options={"finish": 200}, is_public=public, title=title)
    for user in players[1:]:
        play.match_join(match_id=match.pk, user=user, invite_code=match.invite_code)
    state = Match.objects.get(pk=match.pk).state
    state["positions"] = list(positions)
    Match.objects.filter(pk=match.pk).update(state=state)
    Seat.objects.filter(match=match, number__in=absent).update(is_absent=True)
    play.match_finish(match_id=match.pk, reason="ended by an admin")
    if when is not None:
        Match.objects.filter(pk=match.pk).update(finished_at=when)
    ratings.match_finished(match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def board_names(body):
    """Players' names in the order the board's table lists them."""
    table = body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/players/[^/]+/">([^<]+)</a>', table)


def rated(user, *, mu, sigma, games, season=ALL_TIME, game="race"):
    return Rating.objects.create(user=user, game=game, season=season, mu=mu, sigma=sigma,
                                 ordinal=mu - 3 * sigma, games=games)


# --- Leaderboards ----------------------------------------------------------------------------

def test_it_sorts_by_the_bound_and_hides_players_under_the_minimum(player, opponent, outsider, client):
    rated(player, mu=30, sigma=5, games=6)  # ordinal 15
    rated(opponent, mu=36, sigma=8, games=4)  # higher mu, less sure: ordinal 12
    rated(outsider, mu=40, sigma=2, games=2)  # best of all, but two games
    body = client.get(reverse("leaderboard", args=["race"])).content.decode()
    assert board_names(body) == ["Anna", "Bo"]
    assert "15.0" in body and "36.0" in body and "8.00" in body  # ordinal, mu, sigma


def test_the_minimum_number_of_games_is_a_setting(player, outsider, client, settings):
    rated(player, mu=30, sigma=5, games=6)
    rated(outsider, mu=40, sigma=2, games=2)
    settings.LEADERBOARD_MIN_GAMES = 2
    body = client.get(reverse("leaderboard", args=["race"])).content.decode()
    assert board_names(body) == ["Carl", "Anna"]


def test_a_season_board_counts_only_that_season(player, opponent, outsider, client, settings):
    settings.LEADERBOARD_MIN_GAMES = 1
    three = [player, opponent, outsider]
    before = season_bounds(current_season())[0] - timedelta(days=3)
    race(three, [50, 20, 5], when=before)
    race(three, [5, 20, 50])
    race(three, [5, 20, 50])
    url = reverse("leaderboard", args=["race"])
    now = client.get(url, {"season": current_season()}).content.decode()
    assert board_names(now) == ["Carl", "Bo", "Anna"]
    assert f'aria-current="page">{current_season()} (now)' in now
    past = client.get(url, {"season": season_of(before)}).content.decode()
    assert board_names(past) == ["Anna", "Bo", "Carl"]
    all_time = client.get(url).content.decode()
    assert f'href="{url}?season={season_of(before)}"' in all_time  # a link to the past season
    assert Rating.objects.get(user=player, season=current_season()).games == 2
    assert Rating.objects.get(user=player, season=ALL_TIME).games == 3


def test_an_htmx_season_link_swaps_only_the_board(player, client):
    url = reverse("leaderboard", args=["race"])
    response = client.get(url, {"season": current_season()}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.startswith('<div id="board"') and "<html" not in body
    assert "HX-Request" in response["Vary"]
    restored = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in restored.content.decode()


def test_unknown_games_and_malformed_seasons_are_404(client, db):
    assert client.get(reverse("leaderboard", args=["chess"])).status_code == 404
    assert client.get(reverse("leaderboard", args=["race"]), {"season": "2026-Q5"}).status_code == 404
    assert client.get(reverse("leaderboard", args=["race"]), {"season": "2026-Q4"}).status_code == 200


def test_the_board_shows_the_games_record(player, opponent, outsider, client):
    match = race([player, opponent, outsider], [10, 20, 30])
    RecordEntry.objects.create(match=match, user=opponent, game="fuldrigger", season=current_season(),
                               value=6100, finished_at=match.finished_at)
    RecordEntry.objects.create(match=match, user=outsider, game="fuldrigger", season=current_season(),
                               value=5900, finished_at=match.finished_at)
    body = client.get(reverse("leaderboard", args=["fuldrigger"])).content.decode()
    holder = re.search(r'class="record-holder"><strong>([^<]+)</strong> —\s*<a [^>]+>([^<]+)</a>', body)
    assert holder.groups() == ("6100 ducats", "Bo")
    overview = client.get(reverse("leaderboards")).content.decode()
    assert "Highest fortune:</strong>" in overview and "6100 ducats" in overview


def test_the_overview_lists_every_game_and_the_nav_links_to_it(player, client):
    body = client.get(reverse("leaderboards")).content.decode()
    assert "Fuldrigger" in body and "Pirater" in body
    assert f'href="{reverse("leaderboards")}"' in client.get(reverse("home")).content.decode()


# --- Players ---------------------------------------------------------------------------------

def test_the_profile_shows_ratings_results_and_current_matches(player, opponent, outsider, client):
    three = [player, opponent, outsider]
    first = race(three, [40, 20, 5], title="First race")
    race(three, [5, 20, 40], absent=[2], title="Second race")
    running = play.match_create(creator=player, game="race", seats=2, title="Still at sea")
    play.match_join(match_id=running.pk, user=opponent)
    body = client.get(reverse("player", args=["carl"])).content.decode()
    rating = Rating.objects.get(user=outsider, season=ALL_TIME)
    assert f"{rating.ordinal:.1f}" in body and "2 games" in body
    # The chart: one point for the start and one after each rated game.
    points = re.search(r'<polyline class="chart-line" points="([^"]+)"', body).group(1).split()
    assert len(points) == 3
    assert "On the leaderboard after 3 rated games." in body
    results = body.split("<h2>Results</h2>", 1)[1]
    assert results.index("Second race") < results.index("First race")
    assert "3rd of 3 <span class=\"tag absent\">absent</span>" in results  # absent though he led
    change = RatingEvent.objects.get(match=first, user=outsider, season=ALL_TIME).change
    assert f"−{abs(change):.1f}" in results
    anna = client.get(reverse("player", args=["anna"])).content.decode()
    assert "Still at sea" in anna.split("<h2>Current matches</h2>", 1)[1].split("<h2>Results</h2>")[0]


def test_a_catan_match_with_ships_off_is_listed_as_catan(player, opponent, outsider, client):
    """The player page (and the lobby's open matches) name a match's game by its options: the
    base game is "Catan", not "Catan with ships"."""
    base = play.match_create(creator=player, game="catan_ships", seats=3, options={"ships": False})
    ships = play.match_create(creator=player, game="catan_ships", seats=3, options={"ships": True})
    for match in (base, ships):
        play.match_join(match_id=match.pk, user=opponent)
        play.match_join(match_id=match.pk, user=outsider)
    current = client.get(reverse("player", args=["anna"])).content.decode().split(
        "<h2>Current matches</h2>", 1)[1].split("<h2>", 1)[0]
    assert f'Catan #{base.pk}</a> <small class="meta">Catan</small>' in current
    assert f'Catan with ships #{ships.pk}</a> <small class="meta">Catan with ships</small>' in current
    open_one = play.match_create(creator=player, game="catan_ships", seats=3, options={"ships": False})
    lobby = client_for(opponent).get(reverse("lobby")).content.decode()
    assert f"Catan #{open_one.pk}</a></td><td data-label=\"Game\">Catan</td>" in lobby


def test_private_matches_stay_off_a_strangers_view(player, opponent, outsider):
    race([player, opponent], [10, 5], public=False, title="Closed cove")
    assert "Closed cove" not in client_for(outsider).get(reverse("player", args=["anna"])).content.decode()
    assert "Closed cove" in client_for(opponent).get(reverse("player", args=["anna"])).content.decode()


def test_an_unknown_player_is_a_404(client, db):
    assert client.get(reverse("player", args=["nobody"])).status_code == 404
    assert client.get(reverse("head_to_head", args=["nobody", "else"])).status_code == 404


def test_the_profile_costs_the_same_queries_for_few_and_many_matches(player, opponent, outsider, client):
    three = [player, opponent, outsider]

    def another(n):
        race(three, [n, 20, 5])
        running = play.match_create(creator=player, game="race", seats=2)
        play.match_join(match_id=running.pk, user=opponent)

    another(1)
    url = reverse("player", args=["anna"])
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    for n in range(5):
        another(n)
    with CaptureQueriesContext(connection) as many:
        assert client.get(url).status_code == 200
    assert len(many) == len(few)
    leaderboard = reverse("leaderboard", args=["race"])
    with CaptureQueriesContext(connection) as board:
        client.get(leaderboard)
    assert len(board) <= 6


def test_head_to_head_counts_who_placed_better(player, opponent, outsider, client):
    anna, bo, carl = player, opponent, outsider
    race([anna, bo], [30, 10])
    race([anna, bo, carl], [30, 40, 10])
    race([bo, carl, anna], [5, 20, 40])
    race([anna, bo], [10, 10])
    race([anna, bo], [50, 10], absent=[0])  # anna led but was absent: bo placed better
    race([anna, carl], [1, 2])  # bo was not there
    play.match_abort(match_id=play.match_create(creator=anna, game="race", seats=2).pk, actor=anna)
    body = client.get(reverse("head_to_head", args=["anna", "bo"])).content.decode()
    counts = dict(re.findall(r'data-count="(\w+)">(\d+)<', body))
    assert counts == {"better": "2", "worse": "2", "equal": "1", "total": "5"}
    reverse_view = client.get(reverse("head_to_head", args=["bo", "anna"])).content.decode()
    assert dict(re.findall(r'data-count="(\w+)">(\d+)<', reverse_view))["better"] == "2"


def test_the_compare_form_leads_to_the_head_to_head(player, opponent, client):
    response = client.get(reverse("head_to_head_pick", args=["anna"]), {"opponent": "bo"})
    assert response.status_code == 302 and response.url == reverse("head_to_head", args=["anna", "bo"])
    assert client.get(reverse("head_to_head", args=["anna", "anna"])).status_code == 404
    assert client.get(reverse("head_to_head_pick", args=["anna"]), {"opponent": "a/b"}).status_code == 404
    body = client.get(reverse("head_to_head", args=["anna", "bo"])).content.decode()
    assert "have not finished a match together yet" in body


def test_every_page_renders_on_a_fresh_site(client, player):
    for url in (reverse("leaderboards"), reverse("leaderboard", args=["fuldrigger"]),
                reverse("leaderboard", args=["pirater"]), reverse("player", args=["anna"])):
        response = client.get(url)
        assert response.status_code == 200, url
        assert '<main id="main">' in response.content.decode()


# --- Admin -----------------------------------------------------------------------------------

def test_admin_lists_ratings_and_events_read_only_with_filters(staff, player, opponent):
    race([player, opponent], [10, 5])
    client = client_for(staff)
    season = current_season()
    for model in ("rating", "ratingevent", "recordentry"):
        url = reverse(f"admin:community_{model}_changelist")
        assert client.get(url).status_code == 200
        assert client.get(url, {"game": "race", "season": season}).status_code == 200
        assert client.get(url, {"season": "all-time"}).status_code == 200
        assert client.get(url, {"q": "anna"}).status_code == 200
        if model != "rating":
            assert client.get(url, {"q": "not-a-number"}).status_code == 200
        assert client.get(reverse(f"admin:community_{model}_add")).status_code == 403
    event = RatingEvent.objects.first()
    page = client.get(reverse("admin:community_ratingevent_change", args=[event.pk]))
    assert page.status_code == 200 and 'type="submit"' not in page.content.decode().split('id="content-main"')[1]
    filtered = client.get(reverse("admin:community_ratingevent_changelist"), {"season": "all-time"})
    assert filtered.context["cl"].result_count == 2


@pytest.mark.parametrize("path", ["/leaderboards/race/", "/players/anna/"])
def test_pages_keep_to_the_sites_layout_for_phones(client, player, path):
    body = client.get(path).content.decode()
    assert 'name="viewport"' in body and "css/community.css" in body
    assert "<table" not in body or 'class="table-scroll"' in body


def test_a_match_with_bots_is_unrated_and_bots_are_never_listed(player, client, settings):
    """Issue 19.2: a rated match has no bot seats (a bot is an easy win); a bot's rating from
    before that rule still never shows on the board."""
    settings.LEADERBOARD_MIN_GAMES = 1
    match = play.match_create(creator=player, game="race", seats=2, bot_seats=1, options={"finish": 200})
    assert not match.rated
    Match.objects.filter(pk=match.pk).update(rated=True)  # as one made before the rule
    state = Match.objects.get(pk=match.pk).state
    state["positions"] = [5, 40]
    Match.objects.filter(pk=match.pk).update(state=state)
    play.match_finish(match_id=match.pk, reason="ended by an admin")
    assert ratings.match_finished(match_id=match.pk) is False
    assert not RatingEvent.objects.filter(match=match).exists()
    bot = Seat.objects.get(match=match, is_bot=True).user
    rated(bot, mu=40, sigma=2, games=5)
    rated(player, mu=25, sigma=2, games=5)
    body = client.get(reverse("leaderboard", args=["race"])).content.decode()
    assert board_names(body) == ["Anna"]


@pytest.mark.django_db
def test_each_games_card_on_the_home_page_links_to_its_leaderboard(client):
    """Community adds the link through settings.GAME_CARD_LINKS; the platform's template names
    no page of community's."""
    from games.engines import ENGINES

    body = client.get(reverse("home")).content.decode()
    for name in ENGINES:
        assert f'href="{reverse("leaderboard", args=[name])}"' in body
