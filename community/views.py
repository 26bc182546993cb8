"""Leaderboards and players' pages: read through the selectors, render. Nothing here writes."""
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from community import selectors
from community.models import ALL_TIME
from community.seasons import current_season, is_season, season_title
from games.reads.reliability import reliability_of
from games.errors import NotFound, ServiceError


def _error_page(request, exc: ServiceError):
    return render(request, "games/error.html", {"message": exc.message}, status=exc.status)


@require_safe
def leaderboards(request):
    return render(request, "community/leaderboards.html", {
        "boards": selectors.overview(), "min_games": selectors.min_games(), "season": current_season()})


@require_safe
def leaderboard(request, game):
    """One game's board, all time or for ?season=2026-Q4. A season link followed by htmx swaps
    only the board; the same address without htmx (or a history restore) is the whole page."""
    season = request.GET.get("season", ALL_TIME)
    try:
        engine = selectors.game_get(game=game)
        if season and not is_season(season):
            raise NotFound(_("A season is written like 2026-Q4."))
    except ServiceError as exc:
        return _error_page(request, exc)
    record, record_entries = selectors.record_board(game=game, season=season)
    context = {
        "engine": engine, "season": season, "season_title": season_title(season),
        "current_season": current_season(), "seasons": selectors.board_seasons(game=game),
        "ratings": selectors.leaderboard(game=game, season=season), "min_games": selectors.min_games(),
        "record": record, "record_entries": record_entries,
    }
    partial = request.htmx and not request.htmx.history_restore_request
    response = render(request, "community/partials/board.html" if partial else "community/leaderboard.html",
                      context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_safe
def player(request, username):
    try:
        user = selectors.player_get(username=username)
    except ServiceError as exc:
        return _error_page(request, exc)
    viewer = request.user
    return render(request, "community/player.html", {
        "player": user,
        "ratings": selectors.player_ratings(user=user),
        "results": selectors.player_results(user=user, viewer=viewer),
        "current": selectors.player_current(user=user, viewer=viewer),
        "reliability": reliability_of(user.pk),
        "opponents": selectors.frequent_opponents(user=user, viewer=viewer),
        "min_games": selectors.min_games(),
    })


@require_safe
def head_to_head_pick(request, username):
    """The profile's "compare with" form (a GET, so it works without JavaScript)."""
    other = request.GET.get("opponent", "").strip()
    if not other:
        return redirect("player", username=username)
    try:
        return redirect(reverse("head_to_head", args=[username, other]))
    except NoReverseMatch:  # a name no account can have (a slash in it)
        return _error_page(request, NotFound(_("There is no player called %(name)s.") % {"name": repr(other)}))


@require_safe
def head_to_head(request, username, other):
    try:
        user = selectors.player_get(username=username)
        rival = selectors.player_get(username=other)
    except ServiceError as exc:
        return _error_page(request, exc)
    if user.pk == rival.pk:
        return _error_page(request, NotFound(_("Pick another player to compare with.")))
    return render(request, "community/head_to_head.html", {
        "player": user, "other": rival,
        **selectors.head_to_head(user=user, other=rival, viewer=request.user),
    })
