"""What one player may have or do at a time in the lobby, so that one account cannot fill it
or keep many opponents waiting: matches waiting for players, seats in unfinished matches,
imports a day (settings, README), and per-user request rates (settings.ACTION_RATES).

The bounds are counted with the player's own row locked (lock_player, inside the service's
transaction), so racing requests from several sessions queue instead of slipping past them."""
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from accounts import ratelimit
from games.errors import BadRequest, TooMany
from games.models import Match, Seat

UNFINISHED = (Match.OPEN, Match.RUNNING, Match.PAUSED)


def check_rate(kind: str, user) -> None:
    """Chat posts, new matches, joins and imports make work for others: a per-user rate."""
    if user is not None and user.is_authenticated and not ratelimit.allow_user(kind, user):
        raise TooMany(_("Too many requests in a short time. Please wait a few minutes and try again."))


@contextmanager
def rate_counted(kind: str, user):
    """check_rate around the work the request asks for, given back if that work is refused (it
    raises): only what was done counts. Three matches created and a few forms refused for
    their fields made the next valid one a 429 (issue 29)."""
    check_rate(kind, user)
    try:
        yield
    except BaseException:
        if user is not None and user.is_authenticated:
            ratelimit.give_back(kind, user)
        raise


def lock_player(user) -> None:
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def _is_person(user) -> bool:
    # Staff set up tournaments and tests; bots get their seats from the service, not by joining.
    return user is not None and not getattr(user, "is_staff", False)


def check_new_match(user) -> None:
    if not _is_person(user):
        return
    waiting = Match.objects.filter(creator=user, status=Match.OPEN).count()
    if waiting >= settings.MAX_OPEN_MATCHES_PER_USER:
        raise BadRequest(ngettext("You already have %(count)s match waiting for players: start or cancel it first.",
                                  "You already have %(count)s matches waiting for players: start or cancel one "
                                  "first.", waiting) % {"count": waiting})
    check_new_seat(user)


def check_new_seat(user) -> None:
    if not _is_person(user):
        return
    seats = Seat.objects.filter(user=user, match__status__in=UNFINISHED).count()
    if seats >= settings.MAX_ACTIVE_SEATS_PER_USER:
        raise BadRequest(_("You already play in %(count)s unfinished matches: finish some before taking another seat.")
                         % {"count": seats})


def check_import(user) -> None:
    since = timezone.now() - timedelta(days=1)
    imported = Match.objects.filter(creator=user, finish_reason="imported from another site",
                                    created_at__gte=since).count()
    if imported >= settings.MAX_IMPORTS_PER_DAY:
        raise BadRequest(_("You have imported %(count)s matches in the last day: that is the limit. Try again "
                           "tomorrow.") % {"count": imported})


# An engine option of this name is the game's own round limit (Fuldrigger's `rounds`): the form
# shows it as the one Round limit field, and a rated match needs it long enough too.
ROUNDS_OPTION = "rounds"


def unrated_reason(*, is_public: bool, bot_seats: int, round_limit, options: dict | None = None) -> str | None:
    """Why a match with these settings cannot count for the leaderboards, or None if it can.
    A rated match is public (others can see it was played), has no bots (a bot played by its
    owner's choices is an easy win), and is long enough to be a game (settings.RATED_MIN_ROUNDS),
    whether the platform's round limit or the game's own (an option called `rounds`) ends it."""
    if not is_public:
        return _("A rated match must be public.")
    if bot_seats:
        return _("A rated match has no bots.")
    limits = [int(n) for n in (round_limit, (options or {}).get(ROUNDS_OPTION)) if n]
    if limits and min(limits) < settings.RATED_MIN_ROUNDS:
        return _("A rated match lasts at least %(rounds)s rounds.") % {"rounds": settings.RATED_MIN_ROUNDS}
    return None
