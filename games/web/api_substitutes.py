"""The API of reliability and substitutes (docs/reliability.md, docs/substitutes.md): a
player's record, volunteering, the seats offered to me, accepting one, refusing a substitute.
Endpoints on the same `api` as the rest, so they share its auth, errors and OpenAPI document."""
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from ninja import Field, Path, Schema
from typing import Annotated

from games import play
from games.engines import ENGINES
from games.errors import NotFound
from games.reads import selectors
from games.reads.reliability import reliability_of
from games.reads.substitutes import offers_for, volunteering_of
from games.web.api import MAX_ID, MatchOut, Nothing, Strict, Text, answers, api


class ReliabilityOut(Schema):
    username: str
    turns: int = Field(..., description="Turns counted: the last 100 at most.")
    in_time: int = Field(..., description="Of those, taken before the deadline (by hand or standing order).")
    percent: int | None = Field(..., description="in_time of turns, rounded down; null before the first turn.")
    newcomer: bool = Field(..., description="Too few turns to say much; a minimum to join does not hold them.")
    finished: int
    abandoned: int
    words: str


class VolunteerIn(Strict):
    hours_from: int = Field(0, ge=0, le=23, description="First hour of the day you can play, in your zone.")
    hours_until: int = Field(24, ge=1, le=24, description="The hour you stop; smaller than hours_from wraps midnight.")


class VolunteerOut(Schema):
    game: str
    hours_from: int
    hours_until: int


class VolunteeringOut(Schema):
    games: list[VolunteerOut]


class OfferOut(Schema):
    id: int
    match: int
    game: str
    title: str
    seat: int
    player: str = Field(..., description="Who left the seat.")
    offered_at: str


class OffersOut(Schema):
    offers: list[OfferOut]


OfferId = Annotated[int, Path(..., ge=1, le=MAX_ID)]
GameName = Annotated[Text, Path(..., max_length=32)]


@api.get("/players/{username}/reliability", response=answers(200, ReliabilityOut), summary="A player's reliability")
def reliability(request, username: Annotated[Text, Path(..., max_length=150)]):
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise NotFound(_("No such player."))
    return {"username": user.username, **reliability_of(user.pk).as_dict()}


def _volunteering(user) -> dict:
    return {"games": [{"game": v.game, "hours_from": v.hours_from, "hours_until": v.hours_until}
                      for v in sorted(volunteering_of(user).values(), key=lambda v: v.game)]}


@api.get("/substitutes/volunteering", response=answers(200, VolunteeringOut), summary="The games I volunteer for")
def volunteering(request):
    return _volunteering(request.auth)


@api.put("/substitutes/volunteering/{game}", response=answers(200, VolunteeringOut),
         summary="Volunteer as substitute for a game")
def volunteer(request, game: GameName, payload: VolunteerIn):
    play.volunteer_set(user=request.auth, game=game, hours_from=payload.hours_from, hours_until=payload.hours_until)
    return _volunteering(request.auth)


@api.delete("/substitutes/volunteering/{game}", response=answers(200, VolunteeringOut),
            summary="Stop volunteering for a game")
def volunteer_stop(request, game: GameName):
    if game not in ENGINES:
        raise NotFound(_("There is no game called %(game)s.") % {"game": repr(game)})
    play.volunteer_remove(user=request.auth, game=game)
    return _volunteering(request.auth)


@api.get("/substitutes/offers", response=answers(200, OffersOut), summary="Seats offered to me")
def offers(request):
    return {"offers": [{"id": o.pk, "match": o.match_id, "game": o.match.game, "title": str(o.match),
                        "seat": o.seat, "player": o.leaver.get_username(), "offered_at": o.created_at.isoformat()}
                       for o in offers_for(request.auth)]}


@api.post("/substitutes/offers/{offer_id}/accept", response=answers(200, MatchOut),
          summary="Take an offered seat over (the first to accept gets it)")
def offer_accept(request, offer_id: OfferId, payload: Nothing | None = None):
    change = play.offer_accept(offer_id=offer_id, user=request.auth)
    return selectors.match_summary(change.match, request.auth)


@api.post("/substitutes/offers/{offer_id}/refuse", response=answers(200, MatchOut),
          summary="Vote to refuse the substitute who took a seat in my match")
def offer_refuse(request, offer_id: OfferId, payload: Nothing | None = None):
    change = play.offer_refuse(offer_id=offer_id, user=request.auth)
    return selectors.match_summary(change.match, request.auth)
