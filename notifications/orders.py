"""Telling a player what their standing orders played (games/play/orders.py): "your standing orders
played your turn in match M", with everything they did in that turn, once per turn at most,
through the channels the player chose (notifications.services.notify).

A turn's orders may play in several changes (Catan: the roll now, the end of the turn after the
others have sailed), so the player is told when the turn is over — when the log passes the turn
on (an engine's "turn" event) or the match ends — of every move their orders played since the
turn began (issue 33: the notice once named only the roll)."""
from django.utils import translation
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import ActionLog, Match, StandingOrders
from games.reads.standing import passes_the_turn
from games.reads.selectors import seat_names
from notifications.listeners import on_its_own
from notifications.models import Notification
from notifications.services import notify, speaking_to

# How far back a turn is looked for: longer turns are told from this many rows before their end.
LOOKBACK = 400


def orders_played(*, match_id, first_seq, last_seq, turn_passed_to=None):
    if last_seq < first_seq:
        return
    owners = {o.seat: o for o in StandingOrders.objects.filter(match_id=match_id).select_related("user__profile")}
    if not owners:
        return
    log = ActionLog.objects.filter(match_id=match_id).order_by("seq").values_list("seq", "seat", "kind", "events")
    rows = list(log.filter(seq__gte=first_seq, seq__lte=last_seq))
    if not any(passes_the_turn(e) for _seq, _seat, _kind, events in rows for e in events):
        return  # no turn ended: what the orders played is told when it does
    rows = list(log.filter(seq__gt=max(0, first_seq - LOOKBACK), seq__lt=first_seq)) + rows
    match = None
    turn = []  # the rows of the turn under way, oldest first
    for seq, seat, kind, events in rows:
        turn.append((seq, seat, kind, events))
        if not any(passes_the_turn(e) for e in events):
            continue
        if seq >= first_seq:  # a turn that ended in this change: tell what orders played in it
            match = match or Match.objects.defer("state").filter(pk=match_id).first()
            _tell(match, owners, turn, seq)
        turn = []


def _tell(match, owners, turn, end_seq) -> None:
    engine, names = get_engine(match.game), None
    for number, orders in owners.items():
        # What this seat's orders played in the turn, as this seat may see it, without the next
        # player's turn header that ends it.
        mine = [e for _seq, seat, kind, events in turn if seat == number and kind == ActionLog.ORDER
                for e in events if not passes_the_turn(e) and ("private" not in e or number in e["private"])]
        if not mine:
            continue
        names = names or seat_names(match)
        with on_its_own(f"orders of seat {number} of match {match.pk}"), speaking_to(orders.user):
            said = " ".join(engine.describe(e, names, lang=translation.get_language()) for e in mine)
            notify(user=orders.user, kind=Notification.TURN, match=match, url=match.get_absolute_url(),
                   key=f"{match.pk}:orders:{number}:{end_seq}",
                   text=_("Your standing orders played your turn in %(match)s: %(what)s")
                   % {"match": match, "what": said})


def _orders_played_cares(*, events, turn_passed_to, kinds=()) -> bool:
    """A turn that ends with moves played by standing order in it may have something to tell:
    a change with such a move, or one that passes the turn on other than by a player's hand."""
    if ActionLog.ORDER in kinds:
        return True
    return bool(set(kinds) & {ActionLog.TIMEOUT, ActionLog.BOT, ActionLog.SYSTEM}) and \
        any(passes_the_turn(e) for e in events)


orders_played.cares = _orders_played_cares
