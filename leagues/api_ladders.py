"""/api/ladders: ladders in the JSON API (mounted from settings.API_ROUTERS, as /api/events is).
The same services as the pages (leagues/ladders.py)."""
from datetime import datetime

from django.shortcuts import get_object_or_404
from ninja import Field, Router, Schema, Status

from games.web.api import OPTIONS_FIELD, GameOptions, MatchId, PUBLIC, Strict, answers, check_option_types
from leagues import ladders
from leagues.models import Challenge, Ladder

router = Router(tags=["ladders"])


class NewLadder(Strict):
    name: str
    game: str
    reach: int = 3
    idle_days: int = 14
    turn_seconds: int = 24 * 3600
    game_hours: int = 14 * 24
    options: GameOptions = Field({}, **OPTIONS_FIELD)


class LadderOut(Schema):
    id: int
    name: str
    game: str
    reach: int
    idle_days: int
    organiser: str
    players: int


class RungOut(Schema):
    position: int
    player: str
    active_at: datetime


class ChallengeOut(Schema):
    id: int
    challenger: str
    defender: str
    match: int
    status: str


class LadderDetailOut(LadderOut):
    ranking: list[RungOut]
    challenges: list[ChallengeOut]


class NewChallenge(Strict):
    defender: str


def _ladder_out(ladder) -> dict:
    return {"id": ladder.pk, "name": ladder.name, "game": ladder.game, "reach": ladder.reach,
            "idle_days": ladder.idle_days, "organiser": ladder.organiser.get_username(),
            "players": ladder.rungs.count()}


def _challenge_out(c) -> dict:
    return {"id": c.pk, "challenger": c.challenger.get_username(), "defender": c.defender.get_username(),
            "match": c.match_id, "status": c.status}


@router.get("", response=answers(200, list[LadderOut]), auth=None, openapi_extra=PUBLIC, summary="Ladders, newest first")
def ladder_list(request):
    return [_ladder_out(x) for x in Ladder.objects.select_related("organiser")[:100]]


@router.post("", response=answers(201, LadderOut), summary="Start a ladder")
def ladder_new(request, payload: NewLadder):
    check_option_types(payload.game, payload.options)
    return Status(201, _ladder_out(ladders.ladder_create(organiser=request.auth, **payload.dict())))


@router.get("/{int:ladder_id}", response=answers(200, LadderDetailOut), auth=None, openapi_extra=PUBLIC,
            summary="A ladder: its ranking and its recent challenges")
def ladder(request, ladder_id: MatchId):
    found = get_object_or_404(Ladder.objects.select_related("organiser"), pk=ladder_id)
    data = _ladder_out(found)
    data["ranking"] = [{"position": r.position, "player": r.user.get_username(), "active_at": r.active_at}
                       for r in found.rungs.select_related("user").order_by("position")]
    data["challenges"] = [_challenge_out(c) for c in found.challenges.select_related("challenger", "defender")[:50]]
    return data


@router.post("/{int:ladder_id}/rung", response=answers(201, RungOut), summary="Join a ladder (at the bottom)")
def join(request, ladder_id: MatchId):
    rung = ladders.ladder_join(ladder_id=ladder_id, user=request.auth)
    return Status(201, {"position": rung.position, "player": request.auth.get_username(), "active_at": rung.active_at})


@router.delete("/{int:ladder_id}/rung", response=answers(204, None), summary="Leave a ladder")
def leave(request, ladder_id: MatchId):
    ladders.ladder_leave(ladder_id=ladder_id, user=request.auth)
    return Status(204, None)


@router.post("/{int:ladder_id}/challenges", response=answers(201, ChallengeOut),
             summary="Challenge a player up to the ladder's reach above you (the match is made at once)")
def challenge(request, ladder_id: MatchId, payload: NewChallenge):
    from django.contrib.auth import get_user_model

    from games.errors import BadRequest
    from django.utils.translation import gettext as _

    defender = get_user_model().objects.filter(username=payload.defender).first()
    if defender is None:
        raise BadRequest(_("There is no player by that name."))
    made = ladders.challenge_make(ladder_id=ladder_id, challenger=request.auth, defender=defender)
    return Status(201, _challenge_out(Challenge.objects.select_related("challenger", "defender").get(pk=made.pk)))
