"""Substitutes as players read them: the log's notes in the game's own words, the offers a
volunteer may take, the offer a seated player may refuse (games/play/substitutes.py writes)."""
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _, pgettext

from games.models import Match, SeatOffer, Volunteer
from games.reads.reliability import Reliability, reliability_of

# What a player commands in each game, for "kenji took over jonas's fleet in round 14".
def _holding(game: str) -> str:
    if game == "fuldrigger":
        return pgettext("what a player holds", "fleet")
    if game == "pirater":
        return pgettext("what a player holds", "crew")
    return pgettext("what a player holds", "settlements")


def substitute_words(engine, event: dict, names: list[str]) -> str:
    kind = event.get("type")
    seat = event.get("seat", 0)
    seat_name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else _("a player")
    holding = _holding(getattr(engine, "name", ""))
    if kind == "substitute_offered":
        return _("%(player)s's %(holding)s is offered to a substitute.") % {
            "player": event.get("player") or seat_name, "holding": holding}
    if kind == "substitute_withdrawn":
        return _("%(player)s is back: their %(holding)s is no longer offered.") % {
            "player": event.get("player") or seat_name, "holding": holding}
    if kind == "substitute_took_over":
        if event.get("round") is not None:
            return _("%(new)s took over %(old)s's %(holding)s in round %(round)s.") % {
                "new": event.get("to"), "old": event.get("from"), "holding": holding, "round": event["round"]}
        return _("%(new)s took over %(old)s's %(holding)s.") % {
            "new": event.get("to"), "old": event.get("from"), "holding": holding}
    if kind == "substitute_refusal":
        return _("A player voted to refuse the substitute (%(votes)s of %(needed)s needed).") % {
            "votes": event.get("votes"), "needed": event.get("needed")}
    if kind == "substitute_refused":
        return _("The table refused %(new)s: %(old)s's %(holding)s is offered again.") % {
            "new": event.get("substitute"), "old": event.get("player"), "holding": holding}
    return _("The seat's substitute changed.")


def minimum_for(match: Match) -> int:
    """The reliability a substitute needs: the match's own minimum, else the site's."""
    return max(match.min_reliability or 0, settings.SUBSTITUTE_MIN_RELIABILITY)


def may_substitute(known: Reliability, match: Match) -> bool:
    # A newcomer has shown nothing yet: a seat someone abandoned goes to a proven player.
    return not known.newcomer and (known.percent or 0) >= minimum_for(match)


def volunteering_of(user) -> dict[str, Volunteer]:
    if user is None or not user.is_authenticated:
        return {}
    return {v.game: v for v in Volunteer.objects.filter(user=user)}


def offers_for(user):
    """Open offers of seats in the games this player volunteers for, in matches they are not in."""
    games = list(Volunteer.objects.filter(user=user).values_list("game", flat=True))
    if not games:
        return []
    offers = (SeatOffer.objects.filter(status=SeatOffer.OPEN, match__status=Match.RUNNING, match__game__in=games)
              .exclude(match__seats__user=user).select_related("match", "leaver").order_by("created_at"))
    # `refused` is a short list; JSON containment is not portable to SQLite, so it is read here.
    known = reliability_of(user.pk)
    return [offer for offer in offers if user.pk not in offer.refused and may_substitute(known, offer.match)]


def refusable_offers(match: Match) -> list[SeatOffer]:
    """The seats of this match a substitute took that the table may still vote to refuse: one
    query, read once for every viewer of a change, and none once the match's mark
    (Match.refusable_until) is past."""
    now = timezone.now()
    if match.refusable_until is None or match.refusable_until <= now:
        return []
    return list(SeatOffer.objects.filter(match=match, status=SeatOffer.TAKEN, refusable_until__gt=now)
                .select_related("substitute").order_by("pk"))


def refusable_offer(match: Match, user, offers: list[SeatOffer] | None = None):
    """The substitute this player may still vote to refuse in this match, if any. `offers`:
    refusable_offers(match), when already read."""
    if user is None or not user.is_authenticated:
        return None
    seats = list(match.seats.all())
    if offers is None:
        offers = refusable_offers(match)
    offer = next((o for o in offers if o.substitute_id != user.pk), None)
    if offer is None or user.pk in offer.refusals:
        return None
    if not any(s.user_id == user.pk and s.number != offer.seat and not s.is_bot and not s.is_absent for s in seats):
        return None
    return offer


def takeovers(match: Match) -> list[SeatOffer]:
    """The seats of this match a substitute holds now, with who left them (docs/substitutes.md)."""
    holders = {s.number: s.user_id for s in match.seats.all()}
    return [o for o in SeatOffer.objects.filter(match=match, status=SeatOffer.TAKEN).select_related("leaver")
            if o.substitute_id is not None and holders.get(o.seat) == o.substitute_id]


def played_shares(match: Match) -> dict[int, float]:
    """Each substitute's share of their seat's turns (rows by its players, bots and timeouts
    included): what their rating change is weighed by."""
    from games.models import ActionLog

    shares = {}
    for offer in takeovers(match):
        rows = ActionLog.objects.filter(match=match, seat=offer.seat, kind__in=(
            ActionLog.PLAYER, ActionLog.ORDER, ActionLog.TIMEOUT, ActionLog.BOT))
        total = rows.count()
        theirs = rows.filter(actor_id=offer.substitute_id).count()
        shares[offer.substitute_id] = theirs / total if total else 0.0
    return shares


def earlier_names(match: Match, rows, names: list[str]) -> dict[int, list[str]]:
    """For log rows played by a seat's earlier player (before a substitute took it over), the
    seat names as they were then, by row: "jonas rolled", not the substitute's name, on what
    jonas did. Rows by the seats' current players (nearly always all of them) cost nothing."""
    from accounts.models import display_name
    from django.contrib.auth import get_user_model

    if match.player_names:
        return {}
    holders = {s.number: s.user_id for s in match.seats.all()}
    earlier = [r for r in rows if r.seat is not None and r.actor_id is not None
               and r.seat in holders and holders[r.seat] != r.actor_id]
    if not earlier:
        return {}
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in={r.actor_id for r in earlier})
             .select_related("profile")}
    out = {}
    for row in earlier:
        then = list(names)
        if row.seat < len(then) and row.actor_id in users:
            then[row.seat] = display_name(users[row.actor_id])
        out[row.seq] = then
    return out
