"""Pages of substitutes (docs/substitutes.md): volunteering for a game with one's hours, the
seats offered now, accepting one, and a seated player's vote to refuse a substitute. Thin: each
view parses, calls a service of games.play, and answers with the page or a message."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from config.htmx import refused
from games import play
from games.engines import ENGINES
from games.errors import ServiceError
from games.reads.reliability import reliability_of
from games.reads.substitutes import offers_for, volunteering_of


def _page(request, *, error=None, status=200):
    chosen = volunteering_of(request.user)
    games = [{"name": name, "title": engine.title, "volunteer": chosen.get(name)} for name, engine in sorted(ENGINES.items())
             if not getattr(engine, "hidden", False)]
    return refused(request, render(request, "games/substitutes.html", {
        "games": games, "offers": offers_for(request.user), "record": reliability_of(request.user.pk),
        "hours": range(0, 25), "error": error}, status=status))


@login_required
@require_http_methods(["GET", "POST"])
def substitutes(request):
    if request.method == "GET":
        return _page(request)
    game = request.POST.get("game", "")
    try:
        if request.POST.get("stop"):
            play.volunteer_remove(user=request.user, game=game)
            messages.success(request, _("You no longer volunteer for this game."))
        else:
            play.volunteer_set(user=request.user, game=game, hours_from=request.POST.get("hours_from", 0),
                               hours_until=request.POST.get("hours_until", 24))
            messages.success(request, _("You volunteer as a substitute for this game."))
    except ServiceError as exc:
        return _page(request, error=exc.message, status=exc.status)
    return redirect("substitutes")


@login_required
@require_POST
def offer_accept(request, offer_id):
    try:
        change = play.offer_accept(offer_id=offer_id, user=request.user)
    except ServiceError as exc:
        return _page(request, error=exc.message, status=exc.status)
    messages.success(request, _("The seat is yours: play on from here."))
    return redirect("match_detail", change.match_id)


@login_required
@require_POST
def offer_refuse(request, offer_id):
    try:
        change = play.offer_refuse(offer_id=offer_id, user=request.user)
    except ServiceError as exc:
        return refused(request, render(request, "games/error.html", {"message": exc.message}, status=exc.status))
    messages.success(request, _("Your vote to refuse the substitute is counted."))
    return redirect("match_detail", change.match_id)
