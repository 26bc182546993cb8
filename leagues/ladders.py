"""Ladders (issue 36): a standing ranking of one game, changed by challenges. Every change locks
the ladder's row first, so two challenges, a result and the inactivity sweep never interleave:
positions stay 1..n without a gap or a repeat."""
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from community.selectors import placings
from games import play
from games.engines import IllegalAction
from games.errors import BadRequest, NotAllowed, NotFound
from games.models import Match
from games.play.core import engine_of
from leagues.models import Challenge, Ladder, Rung
from leagues.services import whole


def ladder_create(*, organiser, name: str, game: str, reach=3, idle_days=14, turn_seconds=24 * 3600,
                  game_hours=14 * 24, options: dict | None = None) -> Ladder:
    name = (name or "").strip()
    if not name or len(name) > 80 or any(ord(c) < 32 for c in name):
        raise BadRequest(_("A ladder needs a name of 1 to 80 characters."))
    engine = engine_of(game)
    if engine.min_players > 2:
        raise BadRequest(_("A ladder's challenges are matches of two: %(game)s needs more players.")
                         % {"game": engine.title})
    reach = whole(reach, _("The reach must be a whole number."))
    idle_days = whole(idle_days, _("The days before a drop must be a whole number."))
    turn_seconds = whole(turn_seconds, _("Time per turn must be a whole number of seconds."))
    game_hours = whole(game_hours, _("The game deadline must be a whole number of hours."))
    if not 1 <= reach <= 10:
        raise BadRequest(_("A player may challenge 1 to 10 places above."))
    if not 1 <= idle_days <= 365:
        raise BadRequest(_("A player drops after 1 to 365 days without a challenge."))
    if not play.MIN_TURN_SECONDS <= turn_seconds <= play.MAX_TURN_SECONDS:
        raise BadRequest(_("Time per turn must be between 1 hour and 14 days."))
    if not turn_seconds <= game_hours * 3600 <= 90 * 24 * 3600:
        raise BadRequest(_("A challenge's match lasts from its first turn to 90 days."))
    try:  # the game's own check of its options for two, as match_create asks it
        options = engine.check_options(options or {}, 2)
    except IllegalAction as exc:
        raise BadRequest(exc.in_language(translation.get_language())) from None
    return Ladder.objects.create(name=name, organiser=organiser, game=game, options=options, reach=reach,
                                 idle_days=idle_days, turn_seconds=turn_seconds, game_hours=game_hours)


def _locked(ladder_id) -> Ladder:
    ladder = Ladder.objects.select_for_update().filter(pk=ladder_id).first()
    if ladder is None:
        raise NotFound(_("No such ladder."))
    return ladder


def ladder_join(*, ladder_id, user, now=None) -> Rung:
    """A newcomer starts at the bottom."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _locked(ladder_id)
        if not user.is_active:
            raise NotAllowed(_("This account cannot play."))
        if ladder.rungs.filter(user=user).exists():
            raise BadRequest(_("You are on this ladder already."))
        return Rung.objects.create(ladder=ladder, user=user, position=ladder.rungs.count() + 1, active_at=now)


def ladder_leave(*, ladder_id, user) -> None:
    """Off the ladder: everyone below moves up one. Not while a challenge of theirs is played."""
    with transaction.atomic():
        ladder = _locked(ladder_id)
        rung = ladder.rungs.filter(user=user).first()
        if rung is None:
            raise BadRequest(_("You are not on this ladder."))
        if _open_challenge(ladder, user) is not None:
            raise BadRequest(_("Finish your challenge first."))
        rung.delete()
        ladder.rungs.filter(position__gt=rung.position).update(position=F("position") - 1)


def _open_challenge(ladder, user):
    return (ladder.challenges.filter(status=Challenge.OPEN, challenger=user).first()
            or ladder.challenges.filter(status=Challenge.OPEN, defender=user).first())


def challenge_make(*, ladder_id, challenger, defender, now=None) -> Challenge:
    """A player challenges one up to `reach` places above; the match of the two is made, with its
    deadlines, at once (the defender cannot refuse: that is the ladder's point)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _locked(ladder_id)
        mine = ladder.rungs.filter(user=challenger).first()
        theirs = ladder.rungs.filter(user=defender).first() if defender is not None else None
        if mine is None:
            raise BadRequest(_("Join the ladder before you challenge."))
        if theirs is None:
            raise BadRequest(_("That player is not on this ladder."))
        if not 1 <= mine.position - theirs.position <= ladder.reach:
            raise BadRequest(_("You may challenge a player 1 to %(reach)s places above you.") % {"reach": ladder.reach})
        if _open_challenge(ladder, challenger) is not None or _open_challenge(ladder, defender) is not None:
            raise BadRequest(_("One of you is playing a challenge already."))
        match = play.match_create(
            creator=challenger, game=ladder.game, seats=2, options=ladder.options, turn_seconds=ladder.turn_seconds,
            game_deadline=now + timedelta(hours=ladder.game_hours),
            title=_("%(ladder)s: %(challenger)s challenges %(defender)s") % {
                "ladder": ladder.name[:40], "challenger": challenger.get_username(), "defender": defender.get_username()})
        play.match_join(match_id=match.pk, user=defender)   # the last seat: dealt at once
        Rung.objects.filter(pk__in=[mine.pk, theirs.pk]).update(active_at=now)
        return Challenge.objects.create(ladder=ladder, challenger=challenger, defender=defender, match=match)


def challenge_settle(*, match_id, now=None) -> Challenge | None:
    """A challenge's match ended: a challenger placed above the defender takes the defender's
    place and everyone from there down to the challenger's old place moves down one; otherwise
    nothing moves (a draw or an aborted match keeps the ladder). Once per challenge."""
    now = now or timezone.now()
    challenge = Challenge.objects.filter(match_id=match_id, status=Challenge.OPEN).first()
    if challenge is None:
        return None
    with transaction.atomic():
        ladder = _locked(challenge.ladder_id)
        challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
        match = Match.objects.get(pk=match_id)
        if challenge.status != Challenge.OPEN or not match.is_over:
            return None
        places = {p.user.pk: p.rank for p in placings(match, list(match.seats.select_related("user")))}
        won = (match.status == Match.FINISHED
               and places.get(challenge.challenger_id, 99) < places.get(challenge.defender_id, 99))
        mine = ladder.rungs.filter(user_id=challenge.challenger_id).first()
        theirs = ladder.rungs.filter(user_id=challenge.defender_id).first()
        if won and mine is not None and theirs is not None and theirs.position < mine.position:
            ladder.rungs.filter(position__gte=theirs.position, position__lt=mine.position).update(
                position=F("position") + 1)
            Rung.objects.filter(pk=mine.pk).update(position=theirs.position)
        ladder.rungs.filter(user_id__in=[challenge.challenger_id, challenge.defender_id]).update(active_at=now)
        challenge.status = Challenge.WON if won else Challenge.LOST
        challenge.save(update_fields=["status"])
        return challenge


def ladder_idle_drop(*, ladder_id, now=None) -> int:
    """A player who has played or made no challenge for `idle_days` drops one place (changing with
    the one below), and their clock starts again: one place per idle period. Those in a
    challenge do not drop."""
    now = now or timezone.now()
    dropped = 0
    with transaction.atomic():
        ladder = _locked(ladder_id)
        busy = set(ladder.challenges.filter(status=Challenge.OPEN).values_list("challenger_id", flat=True)) | set(
            ladder.challenges.filter(status=Challenge.OPEN).values_list("defender_id", flat=True))
        rungs = list(ladder.rungs.order_by("position"))
        # From the bottom up, so that idle neighbours both drop and an active player below them
        # comes up past both (top-down, the second would swap the first back).
        for rung in sorted(rungs, key=lambda r: -r.position):
            if rung.user_id in busy or rung.active_at > now - timedelta(days=ladder.idle_days):
                continue
            below = next((r for r in rungs if r.position == rung.position + 1), None)
            rung.active_at = now
            if below is not None:
                rung.position, below.position = below.position, rung.position
                Rung.objects.filter(pk=below.pk).update(position=below.position)
                dropped += 1
            Rung.objects.filter(pk=rung.pk).update(position=rung.position, active_at=now)
    return dropped
