"""/api/events: the events in the JSON API (a ninja Router the platform's API mounts from
settings.API_ROUTERS, so games never names this app). The same services as the pages."""
from datetime import datetime

from django.shortcuts import get_object_or_404
from ninja import Field, Router, Schema, Status

from games.web.api import OPTIONS_FIELD, GameOptions, MatchId, PUBLIC, Strict, answers, check_option_types
from leagues import services
from leagues.models import Event

router = Router(tags=["events"])


class NewEvent(Strict):
    name: str
    game: str
    seats: int
    rounds: int
    turn_seconds: int = 24 * 3600
    game_hours: int = 14 * 24
    round_hours: int = 14 * 24
    starts_at: datetime | None = None
    options: GameOptions = Field({}, **OPTIONS_FIELD)
    fill: str = Event.BYES
    min_rating: float | None = None
    format: str = Event.SWISS
    min_reliability: int | None = None
    league: str = ""
    division: int = 1
    moves: int = 0


class EventOut(Schema):
    id: int
    name: str
    game: str
    format: str
    league: str
    season: int
    division: int
    seats: int
    rounds: int
    status: str
    entries_open: bool
    current_round: int
    starts_at: datetime
    organiser: str
    players: int


class StandingOut(Schema):
    rank: int
    player: str
    score: float
    opponents: float
    rating: float
    byes: int
    removed: bool


class TableOut(Schema):
    number: int
    match: int
    status: str
    players: list[str]
    to_move: list[str]


class RoundOut(Schema):
    number: int
    status: str
    deadline: datetime
    tables: list[TableOut]
    byes: list[str]


class EventDetailOut(EventOut):
    standings: list[StandingOut]
    rounds_played: list[RoundOut]


class EntryOut(Schema):
    event: int
    player: str


def _event_out(event) -> dict:
    return {"id": event.pk, "name": event.name, "game": event.game, "format": event.format, "league": event.league,
            "season": event.season, "division": event.division, "seats": event.seats,
            "rounds": event.rounds, "status": event.status, "entries_open": event.entries_open,
            "current_round": event.current_round, "starts_at": event.starts_at,
            "organiser": event.organiser.get_username(), "players": event.entries.filter(removed=False).count()}


@router.get("", response=answers(200, list[EventOut]), auth=None, openapi_extra=PUBLIC, summary="Events, newest first")
def events(request):
    return [_event_out(e) for e in Event.objects.select_related("organiser")[:100]]


@router.post("", response=answers(201, EventOut), summary="Organise an event")
def event_new(request, payload: NewEvent):
    check_option_types(payload.game, payload.options)
    event = services.event_create(organiser=request.auth, **payload.dict())
    return Status(201, _event_out(event))


@router.get("/{int:event_id}", response=answers(200, EventDetailOut), auth=None, openapi_extra=PUBLIC,
            summary="An event: standings with tiebreaks, rounds, tables and who is to move")
def event(request, event_id: MatchId):
    from leagues.selectors import event_rounds

    event = get_object_or_404(Event.objects.select_related("organiser"), pk=event_id)
    data = _event_out(event)
    data["standings"] = [{"rank": r["rank"], "player": r["user"].get_username(), "score": r["score"],
                          "opponents": r["opponents"], "rating": r["rating"], "byes": r["byes"],
                          "removed": r["removed"]} for r in services.standings(event)]
    data["rounds_played"] = [
        {"number": r["round"].number, "status": r["round"].status, "deadline": r["round"].deadline,
         "byes": [u.get_username() for u in r["byes"]],
         "tables": [{"number": t["table"].number, "match": t["table"].match_id, "status": t["table"].match.status,
                     "players": [u.get_username() for u in t["players"]],
                     "to_move": [u.get_username() for u in t["to_move"]]} for t in r["tables"]]}
        for r in event_rounds(event)]
    return data


@router.post("/{int:event_id}/entry", response=answers(201, EntryOut), summary="Enter an event")
def enter(request, event_id: MatchId):
    services.event_join(event_id=event_id, user=request.auth)
    return Status(201, {"event": event_id, "player": request.auth.get_username()})


@router.delete("/{int:event_id}/entry", response=answers(204, None), summary="Leave an event before it starts")
def leave(request, event_id: MatchId):
    services.event_leave(event_id=event_id, user=request.auth)
    return Status(204, None)
