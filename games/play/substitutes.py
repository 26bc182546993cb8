"""Substitutes (docs/substitutes.md): an absent player's seat offered to volunteers, taken over
by the first who accepts, refused by the table within the turn, withdrawn when the player comes
back. Each service runs in one transaction with the match row locked (core.locked), so two
volunteers accepting at once queue on that lock: the first takes the seat, the second finds the
offer taken and is told so. The log notes every step (`substitute_*` events), which the
listeners hear through the Change (a push listener tells the volunteers of `substitute_offered`).
"""
from datetime import timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.change import Change, Changing
from games.engines import ENGINES
from games.errors import BadRequest, NotAllowed, NotFound
from games.models import Match, Seat, SeatOffer, Volunteer
from games.play import core, projections
from games.reads.reliability import reliability_of, reliability_of_many
from games.reads.substitutes import may_substitute, minimum_for


def volunteer_set(*, user, game: str, hours_from=0, hours_until=24) -> Volunteer:
    """Volunteer for a game in these hours of the day (the player's zone); again to change them."""
    if game not in ENGINES:
        raise BadRequest(_("There is no game called %(game)s.") % {"game": repr(game)})
    try:
        start, end = int(hours_from), int(hours_until)
    except (TypeError, ValueError):
        raise BadRequest(_("Hours are whole numbers from 0 to 24.")) from None
    if not (0 <= start <= 23 and 1 <= end <= 24) or start == end:
        raise BadRequest(_("Hours are whole numbers from 0 to 24, and the two differ."))
    volunteer, _created = Volunteer.objects.update_or_create(
        user=user, game=game, defaults={"hours_from": start, "hours_until": end})
    return volunteer


def volunteer_remove(*, user, game: str) -> bool:
    return Volunteer.objects.filter(user=user, game=game).delete()[0] > 0


def within_hours(volunteer: Volunteer, now, zone: str) -> bool:
    try:
        hour = now.astimezone(ZoneInfo(zone or "UTC")).hour
    except (KeyError, ValueError):
        hour = now.astimezone(ZoneInfo("UTC")).hour
    start, end = volunteer.hours_from, volunteer.hours_until
    return start <= hour < end if start < end else (hour >= start or hour < end)


def eligible(match: Match, offer: SeatOffer | None = None) -> list[Volunteer]:
    """Volunteers for this game, reliable enough, not seated here and not refused by this table."""
    seated = {s.user_id for s in match.seats.all()}
    refused = set(offer.refused) if offer is not None else set()
    volunteers = [v for v in Volunteer.objects.filter(game=match.game, user__is_active=True)
                  .select_related("user__profile").order_by("created_at")
                  if v.user_id not in seated and v.user_id not in refused]
    known = reliability_of_many([v.user_id for v in volunteers])
    return [v for v in volunteers if may_substitute(known[v.user_id], match)]


def _zone(user) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "time_zone", "UTC") or "UTC"


def offer_open(changing: Changing, seat: Seat, now) -> SeatOffer | None:
    """Inside the service that marked the seat absent: offer it, and note whom it was offered
    to now (the volunteers whose hours hold this moment; the others find it on their page)."""
    match = changing.match
    if match.status != Match.RUNNING or SeatOffer.objects.filter(match=match, seat=seat.number,
                                                                 status=SeatOffer.OPEN).exists():
        return None
    offer = SeatOffer.objects.create(match=match, seat=seat.number, leaver=seat.user)
    told = [v.user_id for v in eligible(match, offer) if within_hours(v, now, _zone(v.user))]
    core.note(changing, {"type": "substitute_offered", "seat": seat.number, "offer": offer.pk,
                         "player": seat.user.get_username(), "volunteers": told})
    return offer


def offer_withdraw(changing: Changing, seat: Seat) -> bool:
    """Inside seat_return: the player is back before anyone took the seat."""
    offer = SeatOffer.objects.filter(match=changing.match, seat=seat.number, status=SeatOffer.OPEN).first()
    if offer is None:
        return False
    offer.status = SeatOffer.WITHDRAWN
    offer.save(update_fields=["status"])
    core.note(changing, {"type": "substitute_withdrawn", "seat": seat.number, "offer": offer.pk,
                         "player": seat.user.get_username()})
    return True


def _locked_offer(offer_id) -> tuple[Changing, SeatOffer]:
    """The offer's match locked (every offer service takes the same lock, so they queue), then
    the offer read again under it."""
    try:
        offer_id = int(offer_id)
    except (TypeError, ValueError):
        raise NotFound(_("No such offer.")) from None
    match_id = SeatOffer.objects.filter(pk=offer_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise NotFound(_("No such offer."))
    changing = core.locked(match_id, seats=True)
    return changing, SeatOffer.objects.get(pk=offer_id)


def offer_accept(*, offer_id, user, now=None) -> Change:
    """Take the seat over at once: it is the volunteer's from this move on."""
    now = now or timezone.now()
    with transaction.atomic():
        changing, offer = _locked_offer(offer_id)
        match = changing.match
        if offer.status == SeatOffer.TAKEN:
            raise BadRequest(_("Someone else took this seat a moment ago."), taken=True)
        if offer.status != SeatOffer.OPEN or match.status != Match.RUNNING:
            raise BadRequest(_("This seat is no longer offered."))
        if not Volunteer.objects.filter(user=user, game=match.game).exists():
            raise NotAllowed(_("Volunteer for this game on your profile first."))
        if any(s.user_id == user.pk for s in match.seats.all()):
            raise BadRequest(_("You already have a seat in this match."))
        if user.pk in offer.refused:
            raise NotAllowed(_("This table refused you as substitute."))
        if not may_substitute(reliability_of(user.pk), match):
            raise NotAllowed(_("This seat needs a player who takes %(percent)s %% of turns in time.")
                             % {"percent": minimum_for(match)})
        seat = next(s for s in match.seats.all() if s.number == offer.seat)
        leaver = seat.user
        seat.user, seat.is_absent, seat.consecutive_timeouts = user, False, 0
        seat.time_bank_left = match.time_bank_seconds
        try:
            with transaction.atomic():
                seat.save(update_fields=["user", "is_absent", "consecutive_timeouts", "time_bank_left"])
        except IntegrityError:
            raise BadRequest(_("You already have a seat in this match.")) from None
        round_ = (match.state or {}).get("round")
        offer.status, offer.substitute, offer.taken_at, offer.taken_in_round = SeatOffer.TAKEN, user, now, round_
        # The other players may refuse within a turn's time (docs/substitutes.md).
        offer.refusable_until, offer.refusals = now + timedelta(seconds=match.turn_seconds), []
        offer.save()
        match.refusable_until = max(match.refusable_until or offer.refusable_until, offer.refusable_until)
        core.note(changing, {"type": "substitute_took_over", "seat": seat.number, "offer": offer.pk,
                             "from": leaver.get_username(), "to": user.get_username(), "round": round_})
        _restart_turn(changing, seat, now)
        core.save(match)
        projections.project(match)  # the game's own tables name the seat's new player
        return core.after_commit(changing)


def offer_refuse(*, offer_id, user, now=None) -> Change:
    """A seated player votes to refuse the substitute. Once more than half of the seated people
    (the substitute and bots aside) refuse, the seat goes back to being offered, covered as
    before, and that substitute is not offered it again."""
    now = now or timezone.now()
    with transaction.atomic():
        changing, offer = _locked_offer(offer_id)
        match = changing.match
        voters = [s.user_id for s in match.seats.all()
                  if s.number != offer.seat and not s.is_bot and not s.is_absent]
        if user.pk not in voters:
            raise NotAllowed(_("Only the other seated players may refuse a substitute."))
        if offer.status != SeatOffer.TAKEN or match.status != Match.RUNNING or \
                offer.refusable_until is None or now >= offer.refusable_until:
            raise BadRequest(_("The time to refuse this substitute has passed."))
        if user.pk in offer.refusals:
            raise BadRequest(_("You have already refused this substitute."))
        offer.refusals = [*offer.refusals, user.pk]
        refused = 2 * len(offer.refusals) > len(voters)
        event = {"type": "substitute_refusal", "seat": offer.seat, "offer": offer.pk,
                 "votes": len(offer.refusals), "needed": len(voters) // 2 + 1}
        if not refused:
            offer.save(update_fields=["refusals"])
            core.note(changing, event)
        else:
            seat = next(s for s in match.seats.all() if s.number == offer.seat)
            substitute = seat.user
            seat.user, seat.is_absent = offer.leaver, True
            seat.save(update_fields=["user", "is_absent"])
            offer.status, offer.substitute, offer.refused = SeatOffer.CLOSED, None, [*offer.refused, substitute.pk]
            offer.save(update_fields=["status", "substitute", "refused", "refusals"])
            reopened = SeatOffer.objects.create(match=match, seat=offer.seat, leaver=offer.leaver,
                                                refused=offer.refused)
            core.note(changing, {**event, "type": "substitute_refused", "substitute": substitute.get_username(),
                                 "player": offer.leaver.get_username()})
            told = [v.user_id for v in eligible(match, reopened) if within_hours(v, now, _zone(v.user))]
            core.note(changing, {"type": "substitute_offered", "seat": offer.seat, "offer": reopened.pk,
                                 "player": offer.leaver.get_username(), "volunteers": told})
            _restart_turn(changing, seat, now)
        core.save(match)
        if refused:
            projections.project(match)
        return core.after_commit(changing)


def _restart_turn(changing: Changing, seat: Seat, now) -> None:
    """A seat whose turn it is gets a fresh clock with its new player (or the bot, at once)."""
    match = changing.match
    if match.status == Match.RUNNING and seat.number in (match.turn_seats or []):
        match.turn_key = ""
        core.schedule(match, core.engine_of(match.game), now, changing)
