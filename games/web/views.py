from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from config.htmx import refused
from games.play import limits
from games.reads import panels, replay, selectors
from games import play, validation
from games.live import publisher
from games.validation import parse_action
from games.engines import ENGINES, IllegalAction, get_engine
from games.engines.dice import seed_hash
from games.errors import ServiceError, TooMany
from games.web.forms import MatchForm
from games.play.limits import ROUNDS_OPTION
from games.models import Match


@require_safe
def home(request):
    context = {"open_matches": selectors.open_matches(), "games": ENGINES.values(),
               "game_card_links": settings.GAME_CARD_LINKS, "home_sections": settings.HOME_SECTIONS}
    if request.user.is_authenticated:
        context["my_matches"] = selectors.matches_for_user(request.user)
    return render(request, "games/home.html", context)


@require_safe
def lobby(request):
    return render(request, "games/lobby.html", {"open_matches": selectors.open_matches(),
                                                "finished": selectors.recent_finished()})


def _error_page(request, exc: ServiceError):
    return refused(request, render(request, "games/error.html", {"message": exc.message}, status=exc.status))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def match_new(request):
    """The new-match form. Its game's options and seat bounds follow the chosen game: htmx swaps
    them in when the game changes, and without a script a post that changed the game (or asked
    for "Show its options") shows the new game's options instead of creating anything."""
    game = request.POST.get("game") or request.GET.get("game")
    if game not in ENGINES:
        game = next(iter(sorted(ENGINES)), None)
    engine = ENGINES.get(game)
    switching = request.method == "POST" and (
        "switch" in request.POST or request.POST.get("options_for", game) != game)
    if request.method == "POST" and not switching:
        form = MatchForm(request.POST, engine=engine)
    else:
        # What was typed so far stays when the game changes (htmx sends the whole form along).
        typed = {**(request.POST.dict() if switching else request.GET.dict()), "game": game}
        typed.pop("csrfmiddlewaretoken", None)
        form = MatchForm(initial=typed, engine=engine)
        if "options_for" in typed:  # from the form itself: a box it did not send was unticked
            for name, field in form.fields.items():
                if field.widget.input_type == "checkbox" and name not in typed:
                    form.initial[name] = False
        seats = form.fields["seats"]
        if not str(typed.get("seats", "")).isdecimal() or not seats.min_value <= int(typed["seats"]) <= seats.max_value:
            form.initial["seats"] = seats.min_value  # the new game's own bounds decide
    lang = translation.get_language()
    options = [dict(o) for o in engine.options(lang=lang)] if engine else []
    english = {o["label"]: o["name"] for o in engine.options()} if engine else {}
    shown = [o for o in options if o["name"] != ROUNDS_OPTION]
    error = None
    if request.method == "POST" and not switching and form.is_valid():
        data = form.cleaned_data
        raw = {o["name"]: request.POST.get(f"opt_{o['name']}", "") for o in shown}
        for o in shown:  # an unticked checkbox posts nothing: that means "no"
            if o["kind"] == "bool" and f"opt_{o['name']}" not in request.POST:
                raw[o["name"]] = False
        round_limit = data["round_limit"]
        if len(shown) < len(options):  # the game keeps its own round limit
            raw[ROUNDS_OPTION], round_limit = round_limit or 0, None
        try:
            engine.check_options(raw, data["seats"])
        except IllegalAction as exc:
            # Beside the field it is about: an option named in the message, or the seats.
            said = exc.in_language(lang)
            about = english.get(exc.fields.get("label"))
            if about:
                next(o for o in options if o["name"] == about)["error"] = said
            elif "players" in (exc.key or ""):
                form.add_error("seats", said)
            else:
                error = said
        else:
            try:
                # Counted only once the fields are good, and given back if the match is refused.
                with limits.rate_counted("match_create", request.user):
                    match = play.match_create(
                        creator=request.user, game=data["game"], seats=data["seats"], options=raw,
                        turn_seconds=data["turn_hours"] * 3600, time_bank_seconds=data["time_bank_hours"] * 3600,
                        game_deadline=data["game_deadline"], round_limit=round_limit,
                        is_public=data["is_public"], title=data["title"], rated=data["rated"],
                        allow_vacation=data["allow_vacation"], bots_cover_absence=data["bots_cover_absence"],
                        bot_seats=data["bot_seats"] or 0, min_reliability=data["min_reliability"],
                    )
            except TooMany as exc:
                return _error_page(request, exc)
            except ServiceError as exc:
                error = exc.message
            else:
                if match.status == Match.RUNNING:
                    pass  # the board says whose turn it is; a message would stay above it all game
                # Both say how the match waits: marked so they go once it runs (site.css hides
                # them when the live board swaps in a running match; issue 24).
                elif match.is_public:
                    messages.success(request, _("Match created. It is listed in the lobby and starts when "
                                                "every seat is taken."), extra_tags="while-open")
                else:
                    messages.success(request, _("Match created. Share the invitation link below so others "
                                                "can join."), extra_tags="while-open")
                reason = limits.unrated_reason(is_public=data["is_public"], bot_seats=data["bot_seats"] or 0,
                                               round_limit=round_limit, options=raw)
                if data["rated"] and reason:  # asked for rated, but it could not count fairly
                    messages.info(request, reason + " " + _("It is played unrated."))
                return redirect(match)
    for o in options:
        posted = request.method == "POST" and not switching
        o["value"] = request.POST.get(f"opt_{o['name']}", o["default"]) if posted else o["default"]
    failed = request.method == "POST" and not switching
    return render(request, "games/match_new.html", {
        "form": form, "options": shown, "game": game, "engine": engine, "error": error,
        "games": [ENGINES[name] for name in sorted(ENGINES)]}, status=400 if failed else 200)


@require_safe
def match_detail(request, match_id):
    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user,
                                           invite_code=request.GET.get("invite"))
    except ServiceError as exc:
        return _error_page(request, exc)
    if request.htmx and not request.htmx.boosted:
        return _private(request, match, HttpResponse(panels.render_live(match, request.user, request=request)))
    context = panels.match_context(match, request.user)
    context.update(invite=request.GET.get("invite"),
                   invite_url=request.build_absolute_uri(reverse("match_detail", args=[match.pk]))
                   + f"?invite={match.invite_code}")
    context.update(panels.orders_context(match, request.user))
    context["match_page_links"] = settings.MATCH_PAGE_LINKS  # the listening apps' links (never named here)
    return _private(request, match, render(request, "games/match_detail.html", context))


def _private(request, match, response):
    """A private match's page, and any signed-in viewer's (a player's holds their hand), stays
    out of shared and browser caches: Cache-Control: private, no-store."""
    if not match.is_public or request.user.is_authenticated:
        add_never_cache_headers(response)
    return response


@login_required
@require_POST
def match_action(request, match_id):
    try:
        action = parse_action(request.POST)
        change = play.action_apply(match_id=match_id, user=request.user, action=action,
                                       expected_version=request.POST.get("version") or None)
        error, status = None, 200
    except ServiceError as exc:
        change, error, status = None, exc.message, exc.status
    if change is not None and request.htmx:
        # The mover's answer is the rendering their sockets get of this version (made once).
        return HttpResponse(publisher.answer(change, request.user, language=translation.get_language(),
                                             zone=timezone.get_current_timezone()))
    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    except ServiceError as exc:
        return _error_page(request, exc)
    if request.htmx:  # refused: the message where the live part shows errors, in its place
        return refused(request, HttpResponse(panels.render_live(match, request.user, request=request, error=error),
                                             status=status), target="#match-live")
    if error:
        context = panels.match_context(match, request.user, error=error)
        return render(request, "games/match_detail.html", context, status=status)
    return redirect(match)


def _lobby_action(request, match_id, service, success, *, then="match_detail", **kwargs):
    """Run a lobby service and say how it went; `success` may be a function of the match as it
    is afterwards, so the message never tells of a state the match has already left."""
    try:
        service(match_id=match_id, user=request.user, **kwargs)
    except ServiceError as exc:
        if exc.status in (403, 404):  # refused or unknown: say so here, not on a page they cannot see
            return _error_page(request, exc)
        messages.error(request, exc.message)
        return redirect("match_detail", match_id)
    if callable(success):
        success = success(Match.objects.get(pk=match_id))
    if success:
        messages.success(request, success)
    return redirect(then, match_id) if then == "match_detail" else redirect(then)


def _seated_message(match) -> str:
    if match.status == Match.RUNNING:
        return _("You have a seat. The match has started.")
    return _("You have a seat. The match starts when it is full.")


@login_required
@require_POST
def match_join(request, match_id):
    try:
        limits.check_rate("join", request.user)
    except ServiceError as exc:
        return _error_page(request, exc)
    return _lobby_action(request, match_id, play.match_join, _seated_message,
                         colour=request.POST.get("colour") or None, invite_code=request.POST.get("invite") or None)


@login_required
@require_POST
def match_leave(request, match_id):
    # Not back to the match: a private one is no longer the leaver's to see, and a host leaving
    # has closed the table.
    return _lobby_action(request, match_id, play.match_leave, _("You left the match."), then="home")


@login_required
@require_POST
def match_colour(request, match_id):
    return _lobby_action(request, match_id, play.match_set_colour, _("Colour changed."),
                         colour=request.POST.get("colour", ""))


@login_required
@require_POST
def match_return(request, match_id):
    """An absent player says they are back (a look at the page changes nothing; a move of theirs
    also brings them back)."""
    return _lobby_action(request, match_id, play.seat_return, _("Welcome back: your turns wait for you again."))


@login_required
@require_POST
def match_start(request, match_id):
    return _lobby_action(request, match_id, play.match_start, _("The match has started."))


def _finished_match(request, match_id, not_yet: str):
    """The finished match with its seed revealed, as this viewer may see it; else the page that
    says why not (`not_yet` while it runs)."""
    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    except ServiceError as exc:
        return _error_page(request, exc)
    if not match.is_over or not match.seed or match.state is None:
        return render(request, "games/error.html", {"message": not_yet}, status=403)
    return match


@require_safe
def match_verify(request, match_id):
    """After the end: the seed, its hash, and whether the log replays to the final state."""
    match = _finished_match(request, match_id, _("The seed is revealed when the match ends."))
    if not isinstance(match, Match):
        return match
    result = replay.replay_match(match)
    return render(request, "games/verify.html", {"match": match, "result": result,
                                                 "hash_ok": seed_hash(match.seed) == match.seed_hash})


@require_safe
def rules(request, game):
    try:
        engine = get_engine(game)
    except LookupError:
        return render(request, "games/error.html", {"message": _("No such game.")}, status=404)
    rules_template = panels.game_template(game, "rules_text.html").template.name
    return render(request, "games/rules.html", {"engine": engine, "game": game, "rules_template": rules_template,
                                                "options": engine.options(lang=translation.get_language())})


@require_safe
def match_replay(request, match_id):
    """Step through a finished match with the board as it was, and the seed behind every die."""
    match = _finished_match(request, match_id, _("A match can be replayed once it is over."))
    if not isinstance(match, Match):
        return match
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    return render(request, "games/replay.html", replay.replay_context(match, step))


@require_safe
def match_export(request, match_id):
    from games.reads.export import match_export as export

    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
        data = export(match)
    except ServiceError as exc:
        return _error_page(request, exc)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="tradewinds-{match.game}-{match.pk}.json"'
    return response


class _ImportSizeHandler(FileUploadHandler):
    """Counts an import's bytes as they arrive and stops the upload past IMPORT_MAX_BYTES:
    a huge file is never read whole, into memory or onto disk."""

    too_big = False

    def receive_data_chunk(self, raw_data, start):
        if start + len(raw_data) > settings.IMPORT_MAX_BYTES:
            self.too_big = True
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size):
        return None


@login_required
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@csrf_exempt  # the token is checked below, once the size handler is in place (csrf reads the body)
def match_import(request):
    size = _ImportSizeHandler(request)
    if request.method == "POST":
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.IMPORT_MAX_BYTES + 64 * 1024:  # the file plus the form's few fields
            return _import_page(request, _too_big(), status=413)
        request.upload_handlers.insert(0, size)
    return _match_import(request, size)


def _too_big():
    return _("The file is too large: an export is at most %(size)s.") % {
        "size": filesizeformat(settings.IMPORT_MAX_BYTES)}


def _import_page(request, error, status=None):
    return render(request, "games/import.html", {"error": error}, status=status or (400 if error else 200))


@csrf_protect
def _match_import(request, size):
    from games.play.imports import match_import as import_match

    error, status = None, None
    if request.method == "POST":
        upload = request.FILES.get("file")
        if size.too_big:
            return _import_page(request, _too_big(), status=413)
        try:
            limits.check_rate("import", request.user)
            raw = upload.read() if upload else request.POST.get("data", "").encode()
            data = validation.loads(raw or b"null")
            match = import_match(data=data, user=request.user, is_public=bool(request.POST.get("public")))
        except validation.Refused as exc:
            error, status = exc.message, exc.status
        except ValueError:
            error = _("That is not a JSON file.")
        except ServiceError as exc:
            error, status = exc.message, exc.status
        else:
            messages.success(request, _("Imported: every action replays from the seed."))
            return redirect("match_replay", match.pk)
    return _import_page(request, error, status)


@login_required
@require_POST
def chat_post(request, match_id):
    from games.play.chat import chat_post as post

    try:
        match = selectors.match_for_viewer(match_id=match_id, user=request.user)
    except ServiceError as exc:
        # A private match's chat by a non-member: refused like its page (no match to render).
        return _error_page(request, exc)
    try:
        limits.check_rate("chat", request.user)
        post(match=match, user=request.user, text=request.POST.get("text", ""))
        error, status = None, 200
    except ServiceError as exc:
        error, status = exc.message, exc.status
    if request.htmx:
        return refused(request, HttpResponse(panels.render_chat(match, request.user, error=error), status=status),
                       target="#match-chat")
    if error:  # refused without a script too: a 4xx that says why, and nothing kept
        return render(request, "games/error.html", {"message": error}, status=status)
    return redirect(match)


@login_required
@require_POST
def vacation(request):
    """The profile's vacation form (at /accounts/vacation/): here, not in accounts, because it
    moves the games' clocks; accounts keeps only the allowance."""
    from django.utils.formats import date_format

    try:
        if request.POST.get("back"):
            play.vacation_end(user=request.user)
            messages.success(request, _("Welcome back: your clocks run again."))
        else:
            away = play.vacation_start(user=request.user, days=request.POST.get("days"))
            messages.success(request, _("Enjoy your vacation. Your turns wait until %(until)s.")
                             % {"until": date_format(away.ends_at, "d M Y H:i T")})
    except ServiceError as exc:  # refused: the reason, and a 4xx that says nothing was kept
        return _error_page(request, exc)
    return redirect("profile")


# --- Standing orders (games/play/orders.py): the owner's panel --------------------------------

@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def match_orders(request, match_id):
    """Add, remove, move a line or pause them all; answers the panel (htmx) or the page. A GET
    answers the panel as it is now (static/js/site.js asks when what it offers has changed)."""
    from games.play import orders

    if request.method != "POST":
        try:
            match = selectors.match_for_viewer(match_id=match_id, user=request.user)
        except ServiceError as exc:
            return _error_page(request, exc)
        if not request.htmx:
            return redirect(match)
        return _private(request, match, render(request, "games/partials/orders.html",
                                               panels.orders_context(match, request.user)))
    match = get_object_or_404(Match, pk=match_id)
    mine = orders.orders_of(match=match, user=request.user)
    lines = [dict(line) for line in (mine.lines if mine else [])]
    do, paused, stale = request.POST.get("do", ""), None, None
    try:
        index = int(request.POST.get("index", -1))
    except ValueError:
        index = -1
    if do == "add":
        kind = request.POST.get("kind", "")
        line = {"kind": kind, "scope": request.POST.get("scope") or "always"}
        for key in request.POST:
            if key.startswith("f."):
                values = [v for v in request.POST.getlist(key) if v]
                line[key[2:]] = values if len(values) > 1 or key[2:] == "order" else (values[0] if values else "")
        if line["scope"] == "until":
            line["until"] = request.POST.get("until", "")
        lines.append(line)
    elif do in ("remove", "up", "down"):
        if not 0 <= index < len(lines) or request.POST.get("lines") not in (None, panels.lines_digest(lines)):
            # The list changed since the panel showed it (an order for one move played and went):
            # the number pressed may be another order's now. Nothing changes; the list as it is shows.
            stale = _("Your orders changed since this list was shown (an order for one move has played, say); "
                      "here they are as they are now.")
        elif do == "remove":
            lines.pop(index)
        else:
            other = index - 1 if do == "up" else index + 1
            if 0 <= other < len(lines):
                lines[index], lines[other] = lines[other], lines[index]
    elif do == "pause":
        paused, lines = request.POST.get("paused") == "1", None
    else:
        return HttpResponse(_("Say what to do with the orders."), status=400)
    status, problem = 200, None
    if stale:
        status, problem = 409, stale
    else:
        try:
            orders.orders_set(match_id=match.pk, user=request.user, lines=lines, paused=paused)
        except ServiceError as exc:
            status, problem = exc.status, str(exc)
    match.refresh_from_db()
    context = panels.orders_context(match, request.user)
    context["orders_problem"] = problem
    # Where the focus goes in the panel that replaces this one (htmx focuses `autofocus`): the
    # control used is gone with the swap, and a keyboard player must not land on the page's start.
    count = len(context.get("orders_lines") or [])
    if problem:
        context["orders_focus"] = "problem"
    elif do == "pause":
        context["orders_focus"] = "pause"
    elif count:
        moved = {"add": count - 1, "remove": min(index, count - 1),
                 "up": index - 1, "down": index + 1}.get(do, 0)
        context["orders_focus"], context["orders_focus_line"] = "line", max(0, min(moved, count - 1))
    else:
        # The last order removed: the line saying there are none stands where it was (the panel's
        # title lay far above, and focusing it scrolled the page away from the finger).
        context["orders_focus"] = "empty"
    if problem and not context["orders_shown"]:
        return HttpResponse(problem, status=status, content_type="text/plain; charset=utf-8")
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        return redirect("match_detail", match_id=match.pk)
    response = refused(request, render(request, "games/partials/orders.html", context, status=status), target="#orders")
    return _private(request, match, response)
