from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import panels, selectors, services, validation
from games.engines import ENGINES, get_engine
from games.engines.dice import seed_hash
from games.errors import ServiceError
from games.forms import MatchForm


def home(request):
    context = {"open_matches": selectors.open_matches(), "games": ENGINES.values()}
    if request.user.is_authenticated:
        context["my_matches"] = selectors.matches_for_user(request.user)
    return render(request, "games/home.html", context)


def lobby(request):
    return render(request, "games/lobby.html", {"open_matches": selectors.open_matches(),
                                                "finished": selectors.recent_finished()})


def _error_page(request, exc: ServiceError):
    return render(request, "games/error.html", {"message": exc.message}, status=exc.status)


@login_required
def match_new(request):
    form = MatchForm(request.POST or None, initial={"game": request.GET.get("game")})
    game = request.POST.get("game") or request.GET.get("game") or next(iter(sorted(ENGINES)), None)
    engine = ENGINES.get(game)
    options = [dict(o) for o in engine.options(lang=translation.get_language())] if engine else []
    error = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        raw = {o["name"]: request.POST.get(f"opt_{o['name']}", "") for o in options}
        for o in options:  # an unticked checkbox posts nothing: that means "no"
            if o["kind"] == "bool" and f"opt_{o['name']}" not in request.POST:
                raw[o["name"]] = False
        try:
            match = services.match_create(
                creator=request.user, game=data["game"], seats=data["seats"], options=raw,
                turn_seconds=data["turn_hours"] * 3600, time_bank_seconds=data["time_bank_hours"] * 3600,
                game_deadline=data["game_deadline"], round_limit=data["round_limit"],
                is_public=data["is_public"], title=data["title"], rated=data["rated"],
                allow_vacation=data["allow_vacation"], bots_cover_absence=data["bots_cover_absence"],
                bot_seats=data["bot_seats"] or 0,
            )
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("Match created. Share its link so others can join."))
            return redirect(match)
    for o in options:
        o["value"] = request.POST.get(f"opt_{o['name']}", o["default"]) if request.method == "POST" else o["default"]
    status = 400 if request.method == "POST" else 200
    return render(request, "games/match_new.html", {"form": form, "options": options, "game": game,
                                                    "engine": engine, "error": error}, status=status)


def match_detail(request, match_id):
    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user,
                                           invite_code=request.GET.get("invite"))
    except ServiceError as exc:
        return _error_page(request, exc)
    seat = selectors.seat_of(match, request.user)
    if seat is not None and seat.is_absent:
        services.seat_return(match_id=match.pk, user=request.user)
        match.refresh_from_db()
        messages.info(request, _("Welcome back: your turns wait for you again."))
    if request.htmx and not request.htmx.boosted:
        return HttpResponse(panels.render_live(match, request.user, request=request))
    context = panels.match_context(match, request.user)
    context.update(invite=request.GET.get("invite"),
                   invite_url=request.build_absolute_uri(reverse("match_detail", args=[match.pk]))
                   + f"?invite={match.invite_code}")
    return render(request, "games/match_detail.html", context)


def parse_action(post) -> dict:
    """An action from a form: the JSON in `action`, with fields named `a.key` (or `a.key.sub`)
    filled in; values that read as JSON (numbers, lists) are taken as such."""
    try:
        action = validation.loads(post.get("action") or "{}")
    except ValueError:  # the site-wide rule's refusals (too deep, not finite) say why themselves
        raise services.BadRequest(_("The action is not valid JSON.")) from None
    if not isinstance(action, dict):
        raise services.BadRequest(_("An action is a JSON object with a \"type\"."))
    for key in post:
        if not key.startswith("a."):
            continue
        values = [_field_value(v) for v in post.getlist(key) if v != ""]
        path = key[2:].split(".")
        if len(path) > 4:
            raise services.BadRequest(_("Field %(field)s does not fit the action.") % {"field": key[:40]})
        target = action
        for part in path[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise services.BadRequest(_("Field %(field)s does not fit the action.") % {"field": key})
        if key.endswith("[]"):
            target[path[-1][:-2]] = values
        elif values:
            target[path[-1]] = values[0]
    return action


def _field_value(raw: str):
    try:
        return validation.loads(raw)
    except ValueError:  # plain text; a refusal by the site-wide rule is a ServiceError, raised
        return validation.refuse_control_characters(raw)


@login_required
@require_POST
def match_action(request, match_id):
    try:
        action = parse_action(request.POST)
        services.action_apply(match_id=match_id, user=request.user, action=action,
                              expected_version=request.POST.get("version") or None)
        error, status = None, 200
    except ServiceError as exc:
        error, status = exc.message, exc.status
    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    except ServiceError as exc:
        return _error_page(request, exc)
    if request.htmx:
        return HttpResponse(panels.render_live(match, request.user, request=request, error=error), status=status)
    if error:
        context = panels.match_context(match, request.user, error=error)
        return render(request, "games/match_detail.html", context, status=status)
    return redirect(match)


def _lobby_action(request, match_id, service, success: str, **kwargs):
    try:
        service(match_id=match_id, user=request.user, **kwargs)
    except ServiceError as exc:
        messages.error(request, exc.message)
        response = redirect("match_detail", match_id)
        if exc.status == 404:
            return _error_page(request, exc)
        return response
    if success:
        messages.success(request, success)
    return redirect("match_detail", match_id)


@login_required
@require_POST
def match_join(request, match_id):
    return _lobby_action(request, match_id, services.match_join,
                         _("You have a seat. The match starts when it is full."),
                         colour=request.POST.get("colour") or None, invite_code=request.POST.get("invite") or None)


@login_required
@require_POST
def match_leave(request, match_id):
    return _lobby_action(request, match_id, services.match_leave, _("You left the match."))


@login_required
@require_POST
def match_colour(request, match_id):
    return _lobby_action(request, match_id, services.match_set_colour, _("Colour changed."),
                         colour=request.POST.get("colour", ""))


@login_required
@require_POST
def match_start(request, match_id):
    return _lobby_action(request, match_id, services.match_start, _("The match has started."))


def match_verify(request, match_id):
    """After the end: the seed, its hash, and whether the log replays to the final state."""
    from games.replay import replay_match

    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    except ServiceError as exc:
        return _error_page(request, exc)
    if not match.is_over or match.state is None:
        return render(request, "games/error.html",
                      {"message": _("The seed is revealed when the match ends.")}, status=403)
    result = replay_match(match)
    return render(request, "games/verify.html", {"match": match, "result": result,
                                                 "hash_ok": seed_hash(match.seed) == match.seed_hash})


def rules(request, game):
    try:
        engine = get_engine(game)
    except LookupError:
        return render(request, "games/error.html", {"message": _("No such game.")}, status=404)
    rules_template = panels.game_template(game, "rules_text.html").template.name
    return render(request, "games/rules.html", {"engine": engine, "game": game, "rules_template": rules_template,
                                                "options": engine.options(lang=translation.get_language())})


def match_replay(request, match_id):
    """Step through a finished match with the board as it was, and the seed behind every die."""
    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    except ServiceError as exc:
        return _error_page(request, exc)
    if not match.is_over or not match.seed or match.state is None:
        return render(request, "games/error.html", {"message": _("A match can be replayed once it is over.")},
                      status=403)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    return render(request, "games/replay.html", panels.replay_context(match, step))


def match_export(request, match_id):
    from games.history import match_export as export

    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
        data = export(match)
    except ServiceError as exc:
        return _error_page(request, exc)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tradewinds-{match.game}-{match.pk}.json"'
    return response


@login_required
def match_import(request):
    from games.history import match_import as import_match

    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is not None and upload.size > settings.IMPORT_MAX_BYTES:
                raise validation.Refused(str(validation.TOO_LARGE) % {"limit": settings.IMPORT_MAX_BYTES})
            raw = upload.read() if upload else request.POST.get("data", "").encode()
            data = validation.loads(raw or b"null")
            match = import_match(data=data, user=request.user)
        except ValueError:
            error = _("That is not a JSON file.")
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("Imported: every action replays from the seed."))
            return redirect("match_replay", match.pk)
    return render(request, "games/import.html", {"error": error}, status=400 if error else 200)


@login_required
@require_POST
def chat_post(request, match_id):
    from games.history import chat_post as post

    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
        post(match=match, user=request.user, text=request.POST.get("text", ""))
        error, status = None, 200
    except ServiceError as exc:
        error, status = exc.message, exc.status
        if exc.status == 404:
            return _error_page(request, exc)
    if request.htmx:
        return HttpResponse(panels.render_chat(match, request.user, error=error), status=status)
    if error:
        messages.error(request, error)
    return redirect(match)
