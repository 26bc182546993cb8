"""The JSON API for bots and tools, on django-ninja: token authentication, typed and strict
request schemas, the same services as the pages, and an OpenAPI document generated from this
code (/api/openapi.json, browsable at /api/docs) that names every game and its action types.

What a request may hold is decided twice, on purpose: the body parser applies the site-wide
rule (games/validation.py: no control characters, no non-finite numbers, no deep nesting),
and each endpoint's schema says which fields, of which types, within which bounds. Every
refusal is a 4xx JSON answer {"error": "..."}, as the API has always answered."""
from typing import Annotated, Any, Literal

from django.conf import settings
from django.http import Http404, JsonResponse
from django.utils.module_loading import import_string
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja import Field, NinjaAPI, Path, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.security import APIKeyHeader
from pydantic import AfterValidator, ConfigDict, model_validator

from accounts.models import ApiToken
from games.play import limits
from games.reads import selectors
from games import play, validation
from games.engines import ENGINES, get_engine
from games.engines import actions as declared_actions
from games.errors import BadRequest, NotAllowed, ServiceError

TOKEN_HELP = gettext_noop("Send a valid API token: 'Authorization: Token <key>'.")  # translated when sent
MAX_ID = 2**53


def error(message: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


# --- Who is asking ------------------------------------------------------------------------

def token_user(request):
    key = ApiToken.key_in(request.headers.get("Authorization", ""))
    if key is None:
        return None
    # Kept in the cache, profile included: the API speaks the player's language and names them.
    return ApiToken.holder(key)


class TokenAuth(APIKeyHeader):
    """'Authorization: Token <key>' (or 'Bearer <key>'), a key made on the profile page."""

    param_name = "Authorization"

    def authenticate(self, request, key):
        return token_user(request)


class StrictParser(Parser):
    """JSON bodies under the site-wide rule; the reason for a refusal reaches the client."""

    def parse_body(self, request):
        try:
            body = validation.loads(request.body)
        except ServiceError:
            raise
        except ValueError:
            raise BadRequest(_("The body is not valid JSON.")) from None
        if not isinstance(body, dict):
            raise BadRequest(_("The body must be a JSON object."))
        return body


class TradewindsAPI(NinjaAPI):
    # The document, built once per language and set of games (callers only render it): building
    # it took ~50 ms of CPU, for any visitor, no token needed.
    _documents: dict = {}

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        key = (translation.get_language(), tuple(sorted(ENGINES)), repr(path_params))
        schema = self._documents.get(key)
        if schema is None:
            schema = self._documents[key] = self._build_openapi_schema(path_params)
        return schema

    def _build_openapi_schema(self, path_params):
        # Paths relative to the server "/api", as clients written against the first API read them.
        schema = super().get_openapi_schema(path_prefix="", path_params=path_params)
        schema["servers"] = [{"url": "/api"}]
        schemas = schema["components"].setdefault("schemas", {})
        schemas.update(game_schemas())
        for model in schemas.values():
            for name, prop in list(model.get("properties", {}).items()):
                if prop.get("x-game-action"):
                    model["properties"][name] = {
                        "anyOf": [{"$ref": f"#/components/schemas/{_component(game)}Action"} for game in sorted(ENGINES)],
                        "description": "An action of the match's game: its <Game>Action component."}
        return schema


api = TradewindsAPI(
    title="Tradewinds API", version="2.0", urls_namespace="api", auth=TokenAuth(), parser=StrictParser(),
    description="Play Fuldrigger, Pirater and more from bots and tools. Authenticate with "
                "'Authorization: Token <key>' (made on your profile page). Every game and its action "
                "types are described in the components: Game, and <Game>Action for each game. Live "
                "updates: open the WebSocket /ws/matches/<id>/?feed=state with the same Authorization "
                "header; each change comes as a JSON object of type match.state (this API's match, the "
                "view of your seat and your legal actions now), and a move may be sent on it as "
                "{\"action\": …, \"version\": N}, answered there (move.applied or move.refused; a refusal for too many moves at once says "
                "in retry_after how many seconds to wait).",
)


# --- Errors: always {"error": "..."} ---------------------------------------------------------

@api.exception_handler(ServiceError)
def service_error(request, exc: ServiceError):
    return error(exc.message, exc.status, **exc.extra)


@api.exception_handler(AuthenticationError)
def no_token(request, exc):
    return error(_(TOKEN_HELP), 401)


@api.exception_handler(HttpError)
def http_error(request, exc: HttpError):
    cause = exc.__cause__
    if isinstance(cause, ServiceError):  # the body parser's refusal, with its reason
        return error(cause.message, cause.status)
    return error(str(exc), exc.status_code)


@api.exception_handler(Http404)
def not_found(request, exc):
    return error(_("No such API address or object."), 404)


@api.exception_handler(ValidationError)
def invalid(request, exc: ValidationError):
    return error(readable(exc.errors), 400)


def readable(errors: list[dict]) -> str:
    """The first problem, as a sentence naming the field (ninja's own answer is a 422 list)."""
    first = errors[0] if errors else {}
    loc = [str(part) for part in first.get("loc", ()) if part not in ("body", "payload", "path", "query")]
    field = ".".join(loc)
    kind = first.get("type", "")
    if kind == "value_error":
        return str(first.get("ctx", {}).get("error", first.get("msg", "")))
    if kind == "extra_forbidden":
        return _("Unknown field %(field)s.") % {"field": repr(field)}
    if kind == "missing":
        return _("%(field)s is required.") % {"field": field}
    message = first.get("msg", _("The request is not valid."))
    return f"{field}: {message}." if field else f"{message}."


# --- Request schemas ------------------------------------------------------------------------

def _one_line(value: str) -> str:
    validation.refuse_control_characters(value)
    return value


ONE_LINE = r"^[^\x00-\x1f\x7f-\x9f]*$"
# The pattern is for the schema's readers; the validator gives the readable refusal.
Text = Annotated[str, AfterValidator(_one_line), Field(json_schema_extra={"pattern": ONE_LINE})]


class Strict(Schema):
    """No unknown keys, no string for a boolean or a number, no float for a whole number."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _option_values(options: dict) -> dict:
    for name, value in options.items():
        if not (isinstance(value, bool) or (isinstance(value, int) and abs(value) <= 10**9)
                or (isinstance(value, str) and len(value) <= 40)):
            raise ValueError(_("options.%(name)s must be true or false, a whole number or a short text.")
                             % {"name": name[:40]})
    return options


# A game's options as every API body takes them (a match's, an event's, a ladder's): at most 20,
# each true/false, a whole number or a short text; check_option_types then holds each to its kind.
GameOptions = Annotated[dict[str, Any], AfterValidator(_option_values)]
OPTIONS_FIELD = {
    "max_length": 20, "description": "The game's own options (see the rules page); unknown names are refused.",
    "json_schema_extra": {"additionalProperties": {"anyOf": [{"type": "boolean"}, {"type": "integer"},
                                                             {"type": "string", "maxLength": 40}]}},
}


def _games_enum(schema: dict) -> None:
    schema["enum"] = sorted(ENGINES)


class NewMatch(Strict):
    game: Annotated[str, AfterValidator(_one_line)] = Field(..., max_length=40, json_schema_extra=_games_enum,
                       description="One of the games (the Game component).")
    seats: int = Field(2, ge=1, le=16)
    options: GameOptions | None = Field(None, **OPTIONS_FIELD)
    turn_seconds: int = Field(24 * 3600, ge=play.MIN_TURN_SECONDS, le=play.MAX_TURN_SECONDS)
    time_bank_seconds: int = Field(0, ge=0, le=30 * 24 * 3600)
    game_deadline: Text | None = Field(None, max_length=40, json_schema_extra={"format": "date-time"})
    round_limit: int | None = Field(None, ge=1, le=1000)
    public: bool = True
    title: Text = Field("", max_length=80)
    rated: bool = True
    allow_vacation: bool = True
    bots_cover_absence: bool = False
    bot_seats: int = Field(0, ge=0, le=7)
    min_reliability: int | None = Field(None, ge=0, le=100,
                                        description="Players must take this % of turns in time to join.")


class JoinIn(Strict):
    colour: Text | None = Field(None, max_length=20)
    invite: Text | None = Field(None, max_length=64)


class Nothing(Strict):
    """No fields: a body, if sent, is an empty object."""


class ActionIn(Strict):
    # In the document: any game's <Game>Action (TradewindsAPI puts them in); checked against the
    # match's own game by the service.
    action: dict[str, Any] = Field(..., max_length=20, json_schema_extra={"x-game-action": True})
    version: int = Field(..., ge=0, le=MAX_ID, description="The version you acted on; a stale one gets 409.")

    @model_validator(mode="before")
    @classmethod
    def _version_required(cls, data):
        if isinstance(data, dict) and "version" not in data:
            raise ValueError(_("Send the version you acted on as \"version\"."))
        return data


# --- Response schemas ------------------------------------------------------------------------

class ErrorOut(Schema):
    error: str
    version: int | None = None


class MeOut(Schema):
    username: str
    name: str
    language: str
    time_zone: str


class PlayerOut(Schema):
    seat: int | None
    name: str
    colour: str
    absent: bool


class MatchOut(Schema):
    id: int
    game: str
    title: str
    status: Literal["open", "running", "paused", "finished", "aborted"]
    version: int
    seats: int
    rules_version: str
    players: list[PlayerOut]
    my_seat: int | None
    to_act: list[int]
    my_turn: bool
    turn_deadline: str | None = Field(..., json_schema_extra={"format": "date-time"})
    game_deadline: str | None = Field(..., json_schema_extra={"format": "date-time"})
    seed_hash: str | None
    standings: list[dict[str, Any]] | None


class MatchViewOut(MatchOut):
    view: dict[str, Any] | None = Field(..., description="The match as your seat (or a spectator) sees it; null "
                                                          "while it is open, before the deal.")


class MatchListOut(Schema):
    matches: list[MatchOut]


class ActionsOut(Schema):
    version: int
    my_turn: bool
    actions: list[dict[str, Any]]


class LogOut(Schema):
    version: int
    log: list[dict[str, Any]]


class ReplayOut(Schema):
    game: str
    rules_version: str
    seats: int
    options: dict[str, Any]
    seed: str
    seed_hash: str
    log: list[dict[str, Any]]
    final_state: dict[str, Any]


ERRORS = (400, 401, 403, 404, 405, 409, 413)


def answers(ok: int, schema, *, limited: bool = False) -> dict:
    """The answers an endpoint documents; one that makes work for others is also rate-limited
    per player (429, games.play.limits)."""
    return {ok: schema, **{code: ErrorOut for code in ERRORS + ((429,) if limited else ())}}


MatchId = Annotated[int, Path(..., ge=1, le=MAX_ID)]
PUBLIC = {"security": [{}, {"TokenAuth": []}]}


# --- Games and their actions in the schema ------------------------------------------------

def _component(game: str) -> str:
    return "".join(part.title() for part in game.replace("-", "_").split("_"))


def game_schemas() -> dict:
    """Game (every game's name) and, per game, <Game>Action: for a game that declares its
    actions (games/engines/actions.py) one schema per action type, told apart by "type"."""
    out = {"Game": {"type": "string", "enum": sorted(ENGINES), "description": "The games this site runs."}}
    for name in sorted(ENGINES):
        engine, base = ENGINES[name], _component(name)
        table = declared_actions.declared(engine)
        if not table:
            out[f"{base}Action"] = {
                "type": "object", "required": ["type"], "properties": {"type": {"type": "string", "maxLength": 40}},
                "description": f"An action of {engine.title}; its fields are the engine's to check.",
            }
            continue
        mapping = {}
        for kind, schema in sorted(table.items()):
            ref = f"{base}{_component(kind)}Action"
            out[ref] = declared_actions.action_schema(kind, schema)
            mapping[kind] = f"#/components/schemas/{ref}"
        out[f"{base}Action"] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                                "discriminator": {"propertyName": "type", "mapping": mapping},
                                "description": f"An action of {engine.title}, by its type."}
    return out


# --- Endpoints --------------------------------------------------------------------------------

@api.get("/me", response=answers(200, MeOut), summary="Who this token belongs to")
def me(request):
    """Who the token belongs to. Also the benchmark's floor: the least an authenticated call costs."""
    user = request.auth
    profile = getattr(user, "profile", None)
    return {"username": user.username, "name": str(profile) if profile else user.username,
            "language": profile.language if profile else "",
            "time_zone": profile.time_zone if profile else "UTC"}


@api.get("/matches", response=answers(200, MatchListOut), summary="My matches")
def matches(request):
    return {"matches": [selectors.match_summary(m, request.auth) for m in selectors.user_matches_api(request.auth)[:200]]}


def check_option_types(game: str, options: dict) -> None:
    """A game's options as the API takes them: true/false for a yes-or-no, a whole number for a
    number (the pages' forms send text, which the engine reads; a client sends JSON)."""
    try:
        declared = {o["name"]: o["kind"] for o in get_engine(game).options()}
    except LookupError:
        return  # the service names the unknown game
    for name, value in options.items():
        kind = declared.get(name)
        if kind == "bool" and not isinstance(value, bool):
            raise BadRequest(_("options.%(name)s must be true or false.") % {"name": name})
        if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadRequest(_("options.%(name)s must be a whole number.") % {"name": name})


@api.post("/matches", response=answers(201, MatchOut, limited=True), summary="Create a match")
def match_create(request, payload: NewMatch):
    deadline = None
    if payload.game_deadline is not None:
        try:
            deadline = parse_datetime(payload.game_deadline)
        except ValueError:
            deadline = None
        if deadline is None or timezone.is_naive(deadline):
            raise BadRequest(_("game_deadline must be an ISO 8601 date and time with a time zone."))
    check_option_types(payload.game, payload.options or {})
    with limits.rate_counted("match_create", request.auth):  # a 429, as on the site
        match = play.match_create(
            creator=request.auth, game=payload.game, seats=payload.seats, options=payload.options,
            turn_seconds=payload.turn_seconds, time_bank_seconds=payload.time_bank_seconds,
            game_deadline=deadline, round_limit=payload.round_limit, is_public=payload.public,
            title=payload.title, rated=payload.rated, allow_vacation=payload.allow_vacation,
            bots_cover_absence=payload.bots_cover_absence, bot_seats=payload.bot_seats,
            min_reliability=payload.min_reliability,
        )
    return Status(201, selectors.match_summary(match, request.auth))


@api.post("/matches/{int:match_id}/join", response=answers(200, MatchOut, limited=True), summary="Take a seat")
def join(request, match_id: MatchId, payload: JoinIn | None = None):
    payload = payload or JoinIn()
    limits.check_rate("join", request.auth)
    play.match_join(match_id=match_id, user=request.auth, colour=payload.colour, invite_code=payload.invite)
    return selectors.match_summary(selectors.match_get(match_id=match_id), request.auth)


@api.post("/matches/{int:match_id}/start", response=answers(200, MatchOut), summary="Start a full match (creator)")
def start(request, match_id: MatchId, payload: Nothing | None = None):
    play.match_start(match_id=match_id, user=request.auth)
    return selectors.match_summary(selectors.match_get(match_id=match_id), request.auth)


@api.get("/matches/{int:match_id}", response=answers(200, MatchViewOut), summary="A match as I may see it")
def match(request, match_id: MatchId):
    match = selectors.match_for_viewer(match_id=match_id, user=request.auth)
    seat = selectors.seat_of(match, request.auth)
    data = selectors.match_summary(match, request.auth)
    data["view"] = selectors.viewer_state(match, seat.number if seat else None)
    return data


def _legal(match, user) -> dict:
    seat = selectors.seat_of(match, user)
    if seat is None:
        raise NotAllowed(_("You have no seat in this match."))
    return selectors.actions_now(match, seat)


@api.get("/matches/{int:match_id}/actions", response=answers(200, ActionsOut), summary="My legal actions now")
def legal_actions(request, match_id: MatchId):
    seat = selectors.seat_with_match(match_id=match_id, user=request.auth)
    if seat is None:  # no seat: the answer says why (no such match, private, no seat)
        return _legal(selectors.match_for_player(match_id=match_id, user=request.auth), request.auth)
    return selectors.actions_now(seat.match, seat)


@api.post("/matches/{int:match_id}/actions", response=answers(201, ActionsOut),
          summary="Submit an action on the version I saw")
def act(request, match_id: MatchId, payload: ActionIn):
    # The match as the move committed it (not read again); the mover has a seat, so may see it.
    change = play.action_apply(match_id=match_id, user=request.auth, action=payload.action,
                                   expected_version=payload.version)
    return Status(201, _legal(change.match, request.auth))


@api.get("/matches/{int:match_id}/log", response=answers(200, LogOut), auth=None, openapi_extra=PUBLIC,
         summary="The public log")
def public_log(request, match_id: MatchId):
    user = token_user(request)
    match = selectors.match_for_viewer(match_id=match_id, user=user)
    seat = selectors.seat_of(match, user)
    return {"version": match.version, "log": selectors.public_log(match, seat.number if seat else None)}


@api.get("/matches/{int:match_id}/replay", response=answers(200, ReplayOut), auth=None, openapi_extra=PUBLIC,
         summary="After the end: seed and full log")
def replay(request, match_id: MatchId):
    match = selectors.match_for_viewer(match_id=match_id, user=token_user(request))
    if not match.is_over or not match.seed:
        raise NotAllowed(_("The seed and the full log are published when the match ends."))
    log = [{"seq": r.seq, "seat": r.seat, "kind": r.kind, "action": r.action, "events": r.events}
           for r in match.log.order_by("seq")]
    return {"game": match.game, "rules_version": match.rules_version, "seats": match.seats_count,
            "options": match.options, "seed": match.seed, "seed_hash": match.seed_hash,
            "log": log, "final_state": match.state}


# --- Standing orders (games/play/orders.py): shown to their owner alone -----------------------

ORDER_LINE = ("A line: {\"kind\": one of the game's kinds (docs/orders.md), its fields, \"scope\": "
              "\"always\" (until removed), \"turn\" (the next turn only) or \"until\" with \"until\": an ISO time}")


class OrdersIn(Strict):
    lines: list[dict[str, Any]] | None = Field(None, description="The lines, read from the top. " + ORDER_LINE)
    paused: bool | None = Field(None, description="Pause (true) or resume (false) all lines")


class OrdersOut(Schema):
    lines: list[dict[str, Any]] = Field(description="My lines, read from the top. " + ORDER_LINE)
    paused: bool = Field(description="All lines paused")
    dropped: list[dict[str, Any]] = Field(description="Lines dropped as they no longer made sense")


def _orders_out(orders) -> dict:
    if orders is None:
        return {"lines": [], "paused": False, "dropped": []}
    return {"lines": orders.lines, "paused": orders.paused, "dropped": orders.dropped}


@api.get("/matches/{int:match_id}/orders", response=answers(200, OrdersOut), summary="My standing orders")
def orders_get(request, match_id: MatchId):
    from games.play import orders

    match = selectors.match_for_player(match_id=match_id, user=request.auth)
    if selectors.seat_of(match, request.auth) is None:
        raise NotAllowed(_("You have no seat in this match."))
    return _orders_out(orders.orders_of(match=match, user=request.auth))


@api.put("/matches/{int:match_id}/orders", response=answers(200, OrdersOut), summary="Set my standing orders")
def orders_put(request, match_id: MatchId, payload: OrdersIn):
    from games.play import orders

    return _orders_out(orders.orders_set(match_id=match_id, user=request.auth, lines=payload.lines,
                                         paused=payload.paused))


# The apps that listen to the platform add their own routers (settings.API_ROUTERS), so the
# platform's API never names them. Last: their modules import the schemas above.
for _prefix, _router in settings.API_ROUTERS:
    api.add_router(_prefix, import_string(_router))
