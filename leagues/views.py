"""The events' pages: thin, each a form post to one service, errors shown on the page."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from config.htmx import refused
from accounts.models import user_named
from games.errors import BadRequest, ServiceError
from leagues import services
from leagues.forms import EventForm
from leagues.models import Event
from leagues.selectors import event_rounds


@require_http_methods(["GET", "HEAD", "POST"])
def events(request):
    form = EventForm(request.POST or None) if request.user.is_authenticated else None
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        if form.is_valid():
            data = form.cleaned_data
            try:
                event = services.event_create(
                    organiser=request.user, name=data["name"], game=data["game"], seats=data["seats"],
                    rounds=data["rounds"], fill=data["fill"], turn_seconds=data["turn_hours"] * 3600,
                    game_hours=data["game_hours"], round_hours=data["round_hours"], starts_at=data["starts_at"],
                    min_rating=data["min_rating"], format=data["format"] or Event.SWISS,
                    league=data["league"], division=data["division"] or 1, moves=data["moves"] or 0,
                    min_reliability=data["min_reliability"])
                return redirect(event)
            except ServiceError as exc:
                error = exc.message
    return refused(request, render(request, "leagues/events.html", {
        "events": Event.objects.select_related("organiser")[:100], "form": form, "error": error},
        status=400 if error or (form is not None and form.errors) else 200))


def _page(request, event, error=None, status=200):
    mine = request.user.is_authenticated and event.entries.filter(user=request.user).exists()
    organiser = request.user.is_authenticated and (request.user.pk == event.organiser_id or request.user.is_staff)
    return refused(request, render(request, "leagues/event.html", {
        "event": event, "standings": services.standings(event), "rounds": event_rounds(event)[::-1],
        "entered": mine, "organiser": organiser, "error": error}, status=status))


@require_safe
def event(request, event_id):
    return _page(request, get_object_or_404(Event.objects.select_related("organiser"), pk=event_id))


@login_required
@require_POST
def event_act(request, event_id):
    """One button of the page: join, leave, or an organiser's tool."""
    event = get_object_or_404(Event, pk=event_id)
    what = request.POST.get("do")
    try:
        if what == "join":
            services.event_join(event_id=event.pk, user=request.user)
        elif what == "leave":
            services.event_leave(event_id=event.pk, user=request.user)
        elif what == "next_season":
            made = services.season_next(event_id=event.pk, actor=request.user)
            return redirect(next(e for e in made if e.division == event.division))
        elif what == "close":
            services.event_close_entries(event_id=event.pk, actor=request.user)
        elif what in ("pause", "resume"):
            services.event_pause(event_id=event.pk, actor=request.user, paused=what == "pause")
        elif what in ("remove", "hand"):
            player = user_named(request.POST.get("player"))
            if player is None:
                raise BadRequest(_no_player())
            if what == "remove":
                services.entry_remove(event_id=event.pk, actor=request.user, user=player)
            else:
                services.seat_hand(event_id=event.pk, actor=request.user, table_id=request.POST.get("table"),
                                   seat=int(request.POST.get("seat", -1)), to_user=player)
        else:
            raise BadRequest(_unknown())
    except (ServiceError, ValueError) as exc:
        event.refresh_from_db()
        message = getattr(exc, "message", None) or _unknown()
        return _page(request, event, message, status=getattr(exc, "status", 400))
    return redirect(event)


def _no_player():
    from django.utils.translation import gettext as _

    return _("There is no player by that name.")


def _unknown():
    from django.utils.translation import gettext as _

    return _("That is not something this page can do.")
