"""What the games' jobs tell this app, turned into notifications for the players concerned.

Each notification is made on its own: one that fails (stored words an e-mail refuses, a
player's broken profile) is logged, and every other player is still told."""
import logging
from contextlib import contextmanager, nullcontext

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import get_engine
from games.models import ActionLog, Match, Seat
from games.reads.selectors import seat_names
from notifications.models import Notification, ReminderSent
from notifications.services import notify, speaking_to
from notifications.wording import match_name

log = logging.getLogger(__name__)


@contextmanager
def on_its_own(what: str):
    """Run one notification on its own; a failure is logged and goes no further (a savepoint
    when inside a transaction, so a failed query does not spoil the ones after it)."""
    try:
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            yield
    except Exception:
        log.exception("could not notify %s", what)


# Events that ask something of the seats they name beyond the one who acted: an offer waits for
# an answer. What needs nothing from its reader (a chance card turned for everyone, a storm, a
# price) is in the match's log, not the inbox: eleven unread cards in fourteen minutes of
# Fuldrigger buried the turns and offers that did need an answer. Older "card" notifications
# stay readable (wording.py).
OFFER_EVENTS = {"offer"}
# A seat marked absent is offered to volunteers (games/play/substitutes.py): the event names the
# ones to tell now.
SUBSTITUTE_EVENTS = {"substitute_offered"}
TOLD_EVENTS = OFFER_EVENTS | SUBSTITUTE_EVENTS


# A job's reads: the worker runs one job per move.
def _log_rows(match_id, first, last):
    return ActionLog.objects.filter(match_id=match_id, seq__gte=first, seq__lte=last).order_by("seq").values_list(
        "seq", "events")


def _told_seats(match_id):
    return (Seat.objects.filter(match_id=match_id, number__isnull=False, match__state__isnull=False)
            .select_related("match", "user__profile").defer("match__state"))


def match_changed(*, match_id, first_seq, last_seq, turn_passed_to=None):
    # One job per committed change, most of them telling nobody: the log's events come first,
    # and the match (without its state, the largest column) and its seats with their players'
    # profiles in one query only when an event or a turn is to be told.
    rows = _log_events(match_id, first_seq, last_seq)
    if turn_passed_to is None and not any(e.get("type") in TOLD_EVENTS for _, events in rows for e in events):
        return
    seats = {s.number: s for s in _told_seats(match_id)}
    if not seats:
        return
    match = next(iter(seats.values())).match
    url = match.get_absolute_url()
    if turn_passed_to is not None:
        read_past_turns(match)
    engine, names = None, None
    for seq, events in rows:
        for index, event in enumerate(events):
            kind = event.get("type")
            if kind in SUBSTITUTE_EVENTS:
                _tell_volunteers(match, event)
                continue
            if kind in OFFER_EVENTS and _offered_to(event, seats):
                told, note_kind = _offered_to(event, seats), Notification.OFFER
            else:
                continue
            if names is None:
                with_players = Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))
                prefetch_related_objects([match], with_players)
                engine, names = get_engine(match.game), seat_names(match)
            for seat in told:
                with on_its_own(f"seat {seat.number} of match {match.pk} of event {seq}:{index}"), \
                        speaking_to(seat.user):
                    said = engine.describe(event, names, lang=translation.get_language())
                    notify(user=seat.user, kind=note_kind, match=match, url=url, profile=_profile(seat),
                           key=f"{match.pk}:{seq}:{index}", text=f"{match_name(match)}: {said}",
                           params={"event": event, "names": names})
    if last_seq == 0 and match.status == Match.RUNNING:
        _tell_started(match, seats.values(), url)
    if turn_passed_to is not None and match.status == Match.RUNNING and turn_passed_to in seats \
            and turn_passed_to in match.turn_seats:
        seat = seats[turn_passed_to]
        if not seat.played_by_bot(match):
            with on_its_own(f"seat {seat.number} of match {match.pk} of its turn"), speaking_to(seat.user):
                notify(user=seat.user, kind=Notification.TURN, match=match, url=url, profile=_profile(seat),
                       key=f"{match.pk}:turn:{match.turn_key}",
                       text=_("It is your turn in %(match)s.") % {"match": match_name(match)}, params={})


def _tell_volunteers(match, event) -> None:
    """The volunteers a seat's offer names, each told once per offer in their own language and
    ways (inbox, e-mail, push)."""
    from django.contrib.auth import get_user_model

    from notifications.services import tell_substitute_offered

    for user in get_user_model().objects.filter(pk__in=event.get("volunteers") or []).select_related("profile"):
        with on_its_own(f"volunteer {user.pk} of match {match.pk}"):
            tell_substitute_offered(user=user, match=match, offer_key=str(event.get("offer")))


def _tell_started(match, seats, url) -> None:
    """The change that deals a match (version 0, nothing in its log yet) tells every player at
    the table that it has begun."""
    for seat in seats:
        if seat.played_by_bot(match):
            continue
        with on_its_own(f"seat {seat.number} of match {match.pk} of its start"), speaking_to(seat.user):
            notify(user=seat.user, kind=Notification.STARTED, match=match, url=url, profile=_profile(seat),
                   key=f"{match.pk}:started", text=_("%(match)s has started.") % {"match": match_name(match)},
                   params={})


def read_past_turns(match) -> int:
    """A "your turn" that has been played (or has run out) is no news any more: it leaves the
    inbox's unread count (issue 24: badges of 25 for turns long played). Only this turn's stay."""
    return (Notification.objects.filter(match=match, kind=Notification.TURN, read_at__isnull=True)
            .exclude(key=f"{match.pk}:turn:{match.turn_key}" if match.status == Match.RUNNING else "")
            .update(read_at=timezone.now()))


def _offered_to(event, seats) -> list:
    """The seats an offer is made to: one seat (Fuldrigger), the seats named (Catan), or, open to
    the table (Catan, "to": None), everyone but the one who offers."""
    to = event.get("to")
    if to is None:
        numbers = [n for n in seats if n != event.get("seat")]
    elif isinstance(to, list):
        numbers = to
    else:
        numbers = [to]
    return [seats[n] for n in numbers if isinstance(n, int) and not isinstance(n, bool) and n in seats]


def _match_changed_cares(*, events, turn_passed_to, kinds=()) -> bool:
    """What match_changed may tell, known at the commit (games.play): a turn that passed to a
    person, or an offer. Anything else would make a job that tells nobody."""
    return turn_passed_to is not None or any(e.get("type") in TOLD_EVENTS for e in events)


match_changed.cares = _match_changed_cares


def _log_events(match_id, first_seq, last_seq) -> list:
    """(seq, events) of the match's log rows first_seq..last_seq, in order."""
    if last_seq < first_seq:
        return []
    return [(seq, events or []) for seq, events in _log_rows(match_id, first_seq, last_seq)]


def _profile(seat):
    """The profile read with the seat's player (select_related), None if they have none."""
    return getattr(seat.user, "profile", None)


def match_finished(*, match_id):
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.standings:
        return
    read_past_turns(match)
    ranks = {row["seat"]: row["rank"] for row in match.standings}
    for seat in match.seats.select_related("user__profile"):
        rank = ranks.get(seat.number)
        with on_its_own(f"seat {seat.number} of match {match.pk} of its end"), speaking_to(seat.user):
            if rank:
                text = _("%(match)s has ended: you placed %(rank)s of %(players)s.") % {
                    "match": match_name(match), "rank": rank, "players": len(ranks)}
            else:
                text = _("%(match)s has ended.") % {"match": match_name(match)}
            notify(user=seat.user, kind=Notification.FINISHED, match=match, url=match.get_absolute_url(),
                   key=f"{match.pk}:finished", text=text, params={"rank": rank, "players": len(ranks)})


def send_reminders(now=None) -> int:
    """Before a turn's deadline (24, 4 and 1 hours by default, each player's choice) remind its
    owner, once per threshold the turn did not begin inside of, whether or not a tab is open."""
    now = now or timezone.now()
    horizon = now + timezone.timedelta(hours=settings.REMINDER_HORIZON_HOURS)
    sent = 0
    running = Match.objects.filter(status=Match.RUNNING, turn_deadline__gt=now, turn_deadline__lte=horizon)
    for match in running.prefetch_related("seats__user__profile"):
        with on_its_own(f"the owner of the turn of match {match.pk} of a deadline"):
            sent += _remind(match, now)
    return sent


def _remind(match, now) -> int:
    if not match.turn_seats:
        return 0
    owner = next((s for s in match.seats.all() if s.number == match.turn_seats[0]), None)
    if owner is None or owner.played_by_bot(match) or not hasattr(owner.user, "profile"):
        return 0
    left = match.turn_deadline - now
    # A threshold the turn began inside of says nothing new: with 1-hour turns, "about 1 hour
    # left" would arrive with every turn. It is due only if the turn was a quarter longer.
    length = match.turn_deadline - (match.turn_started_at or now)
    due = [h for h in owner.user.profile.reminder_thresholds
           if left <= timezone.timedelta(hours=h) and length > timezone.timedelta(hours=1.25 * h)]
    if not due:
        return 0
    done = set(ReminderSent.objects.filter(match=match, turn_key=match.turn_key).values_list("hours", flat=True))
    fresh = [h for h in due if h not in done]
    if not fresh:
        return 0
    ReminderSent.objects.bulk_create([ReminderSent(match=match, turn_key=match.turn_key, hours=h) for h in fresh],
                                     ignore_conflicts=True)
    hours_left = max(1, round(left.total_seconds() / 3600))
    with speaking_to(owner.user):
        text = ngettext("About %(hours)s hour left for your turn in %(match)s.",
                        "About %(hours)s hours left for your turn in %(match)s.", hours_left) % {
            "hours": hours_left, "match": match_name(match)}
        notify(user=owner.user, kind=Notification.REMINDER, match=match, url=match.get_absolute_url(),
               key=f"{match.pk}:remind:{match.turn_key}:{min(fresh)}", text=text, params={"hours": hours_left})
    return 1
