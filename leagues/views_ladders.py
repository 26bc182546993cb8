"""The ladders' pages: thin, each form post one service, errors shown on the page."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.engines import ENGINES
from accounts.models import user_named
from games.errors import BadRequest, ServiceError
from leagues import ladders
from leagues.models import Challenge, Ladder


def _games():
    return [(name, engine.title) for name, engine in ENGINES.items()
            if not name.startswith("race") and engine.min_players <= 2]


@require_http_methods(["GET", "HEAD", "POST"])
def ladder_list(request):
    error, status = None, 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        try:
            ladder = ladders.ladder_create(organiser=request.user, name=request.POST.get("name", ""),
                                           game=request.POST.get("game", ""), reach=request.POST.get("reach", 3),
                                           idle_days=request.POST.get("idle_days", 14),
                                           turn_seconds=_hours(request.POST.get("turn_hours", 24)) * 3600,
                                           game_hours=_hours(request.POST.get("game_hours", 14 * 24)))
            return redirect(ladder)
        except ServiceError as exc:
            error, status = exc.message, exc.status
    return render(request, "leagues/ladders.html", {"ladders": Ladder.objects.select_related("organiser")[:100],
                                                    "games": _games(), "error": error, "posted": request.POST},
                  status=status)


def _hours(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadRequest(_("Say the hours as a whole number.")) from None


def _page(request, ladder, error=None, status=200):
    rungs = list(ladder.rungs.select_related("user").order_by("position"))
    open_challenges = list(ladder.challenges.filter(status=Challenge.OPEN).select_related("challenger", "defender", "match"))
    busy = {c.challenger_id for c in open_challenges} | {c.defender_id for c in open_challenges}
    mine = next((r for r in rungs if request.user.is_authenticated and r.user_id == request.user.pk), None)
    for rung in rungs:
        rung.may_challenge = (mine is not None and mine.user_id not in busy and rung.user_id not in busy
                              and 1 <= mine.position - rung.position <= ladder.reach)
    return render(request, "leagues/ladder.html", {
        "ladder": ladder, "rungs": rungs, "mine": mine, "open_challenges": open_challenges,
        "recent": ladder.challenges.exclude(status=Challenge.OPEN).select_related("challenger", "defender")[:10],
        "error": error}, status=status)


def ladder(request, ladder_id):
    return _page(request, get_object_or_404(Ladder.objects.select_related("organiser"), pk=ladder_id))


@login_required
@require_POST
def ladder_act(request, ladder_id):
    ladder = get_object_or_404(Ladder, pk=ladder_id)
    what = request.POST.get("do")
    try:
        if what == "join":
            ladders.ladder_join(ladder_id=ladder.pk, user=request.user)
        elif what == "leave":
            ladders.ladder_leave(ladder_id=ladder.pk, user=request.user)
        elif what == "challenge":
            defender = user_named(request.POST.get("player"))
            if defender is None:
                raise BadRequest(_("There is no player by that name."))
            challenge = ladders.challenge_make(ladder_id=ladder.pk, challenger=request.user, defender=defender)
            return redirect(challenge.match)
        else:
            raise BadRequest(_("That is not something this page can do."))
    except ServiceError as exc:
        return _page(request, ladder, exc.message, status=exc.status)
    return redirect(ladder)
