"""The JSON API for bots and tools: token authentication, the same services as the pages."""
import functools
import json

from django.http import JsonResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts.models import ApiToken
from games import limits, selectors, services
from games.engines import get_engine
from games.errors import BadRequest, NotAllowed, ServiceError


def error(message: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def token_user(request):
    header = request.headers.get("Authorization", "")
    scheme, _space, key = header.partition(" ")
    if scheme.lower() not in ("token", "bearer") or not key:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=ApiToken.hash(key.strip())).first()
    if token is None or not token.user.is_active:
        return None
    if token.last_used_at is None or (timezone.now() - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token.user


def endpoint(methods, auth=True):
    """Checks the method and the token, parses a JSON body, and turns service errors into JSON."""

    def wrap(view):
        @csrf_exempt
        @functools.wraps(view)
        def inner(request, *args, **kwargs):
            if request.method not in methods:
                return error(_("Method %(method)s not allowed.") % {"method": request.method}, 405)
            user = token_user(request)
            if auth and user is None:
                return error(_("Send a valid API token: 'Authorization: Token <key>'."), 401)
            request.api_user = user
            body = {}
            if request.method == "POST" and request.body:
                try:
                    body = json.loads(request.body)
                    # JSON may escape lone surrogates, which no database can store as text.
                    json.dumps(body, ensure_ascii=False).encode("utf-8")
                except (json.JSONDecodeError, UnicodeDecodeError):
                    return error(_("The body is not valid JSON."), 400)
                except UnicodeEncodeError:
                    return error(_("The body contains text that is not valid Unicode."), 400)
                if not isinstance(body, dict):
                    return error(_("The body must be a JSON object."), 400)
            try:
                return view(request, body, *args, **kwargs)
            except ServiceError as exc:
                return error(exc.message, exc.status, **exc.extra)

        return inner

    return wrap


def match_summary(match, user=None) -> dict:
    seat = selectors.seat_of(match, user)
    return {
        "id": match.pk, "game": match.game, "title": str(match), "status": match.status,
        "version": match.version, "seats": match.seats_count, "rules_version": match.rules_version,
        "players": [{"seat": s.number, "name": str(s.user.profile) if hasattr(s.user, "profile") else s.user.username,
                     "colour": s.colour, "absent": s.is_absent} for s in match.seats.all()],
        "my_seat": seat.number if seat else None,
        "to_act": match.turn_seats, "my_turn": bool(seat and seat.number in match.turn_seats and match.status == "running"),
        "turn_deadline": match.turn_deadline.isoformat() if match.turn_deadline else None,
        "game_deadline": match.game_deadline.isoformat() if match.game_deadline else None,
        "seed_hash": match.seed_hash or None,
        "standings": match.standings,
    }


@endpoint(["GET"])
def me(request, body):
    """Who the token belongs to. Also the benchmark's floor: the least an authenticated call costs."""
    user = request.api_user
    profile = getattr(user, "profile", None)
    return JsonResponse({"username": user.username, "name": str(profile) if profile else user.username,
                         "language": profile.language if profile else "",
                         "time_zone": profile.time_zone if profile else "UTC"})


@endpoint(["GET", "POST"])
def matches(request, body):
    if request.method == "GET":
        return JsonResponse({"matches": [match_summary(m, request.api_user)
                                         for m in selectors.user_matches_api(request.api_user)[:200]]})
    deadline = body.get("game_deadline")
    if deadline is not None:
        try:
            deadline = parse_datetime(str(deadline))
        except ValueError:
            deadline = None
        if deadline is None or timezone.is_naive(deadline):
            raise BadRequest(_("game_deadline must be an ISO 8601 date and time with a time zone."))
    limits.check_rate("match_create", request.api_user)  # a 429, as on the site
    try:
        match = services.match_create(
            creator=request.api_user, game=str(body.get("game", "")), seats=body.get("seats", 2),
            options=body.get("options") if isinstance(body.get("options"), dict) else None,
            turn_seconds=int(body.get("turn_seconds", 24 * 3600)),
            time_bank_seconds=int(body.get("time_bank_seconds", 0)), game_deadline=deadline,
            round_limit=body.get("round_limit"), is_public=bool(body.get("public", True)),
            title=str(body.get("title", "")), rated=bool(body.get("rated", True)),
            allow_vacation=bool(body.get("allow_vacation", True)),
            bots_cover_absence=bool(body.get("bots_cover_absence", False)),
            bot_seats=body.get("bot_seats", 0),
        )
    except (TypeError, ValueError):
        raise BadRequest(_("Numbers must be whole numbers.")) from None
    return JsonResponse(match_summary(match, request.api_user), status=201)


@endpoint(["POST"])
def join(request, body, match_id):
    limits.check_rate("join", request.api_user)
    services.match_join(match_id=match_id, user=request.api_user, colour=body.get("colour"),
                        invite_code=body.get("invite"))
    return JsonResponse(match_summary(selectors.match_get(match_id=match_id), request.api_user))


@endpoint(["POST"])
def start(request, body, match_id):
    services.match_start(match_id=match_id, user=request.api_user)
    return JsonResponse(match_summary(selectors.match_get(match_id=match_id), request.api_user))


@endpoint(["GET"])
def match(request, body, match_id):
    match = selectors.match_for_viewer(match_id=match_id, user=request.api_user)
    seat = selectors.seat_of(match, request.api_user)
    data = match_summary(match, request.api_user)
    data["view"] = selectors.viewer_state(match, seat.number if seat else None)
    return JsonResponse(data)


@endpoint(["GET", "POST"])
def actions(request, body, match_id):
    if request.method == "POST":
        action = body.get("action")
        if "version" not in body:
            raise BadRequest(_("Send the version you acted on as \"version\"."))
        # The match as the move left it; the mover has a seat, so it may see it.
        match = services.action_apply(match_id=match_id, user=request.api_user, action=action,
                                      expected_version=body.get("version"))
    else:
        match = selectors.match_for_viewer(match_id=match_id, user=request.api_user)
    seat = selectors.seat_of(match, request.api_user)
    if seat is None:
        raise NotAllowed(_("You have no seat in this match."))
    engine = get_engine(match.game)
    my_turn = match.status == "running" and seat.number in match.turn_seats
    return JsonResponse({"version": match.version, "my_turn": my_turn,
                         "actions": engine.legal_actions(match.state, seat.number) if my_turn else []},
                        status=201 if request.method == "POST" else 200)


@endpoint(["GET"], auth=False)
def public_log(request, body, match_id):
    match = selectors.match_for_viewer(match_id=match_id, user=request.api_user)
    seat = selectors.seat_of(match, request.api_user)
    return JsonResponse({"version": match.version, "log": selectors.public_log(match, seat.number if seat else None)})


@endpoint(["GET"], auth=False)
def replay(request, body, match_id):
    match = selectors.match_for_viewer(match_id=match_id, user=request.api_user)
    if not match.is_over or not match.seed:
        raise NotAllowed(_("The seed and the full log are published when the match ends."))
    log = [{"seq": r.seq, "seat": r.seat, "kind": r.kind, "action": r.action, "events": r.events}
           for r in match.log.order_by("seq")]
    return JsonResponse({"game": match.game, "rules_version": match.rules_version, "seats": match.seats_count,
                         "options": match.options, "seed": match.seed, "seed_hash": match.seed_hash,
                         "log": log, "final_state": match.state})


@endpoint(["GET"], auth=False)
def openapi(request, body):
    from games.openapi import SCHEMA

    return JsonResponse(SCHEMA)
