"""Telling a player what their standing orders played (games/orders.py): "your standing orders
played your turn in match M", with what they did, once per turn at most, through the channels
the player chose (notifications.services.notify)."""
from django.utils import translation
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import ActionLog, Match, StandingOrders
from games.selectors import seat_names
from notifications.listeners import on_its_own
from notifications.models import Notification
from notifications.services import notify, speaking_to


def orders_played(*, match_id, first_seq, last_seq, turn_passed_to=None):
    if last_seq < first_seq:
        return
    rows = list(ActionLog.objects.filter(match_id=match_id, seq__gte=first_seq, seq__lte=last_seq,
                                         kind=ActionLog.ORDER).order_by("seq").values_list("seat", "events"))
    if not rows:
        return
    match = Match.objects.defer("state").filter(pk=match_id).first()
    engine, names = get_engine(match.game), seat_names(match)
    for orders in StandingOrders.objects.filter(match=match, seat__in={seat for seat, _e in rows}) \
            .select_related("user__profile"):
        mine = [e for seat, events in rows if seat == orders.seat for e in events
                if "private" not in e or orders.seat in e["private"]]
        with on_its_own(f"orders of seat {orders.seat} of match {match.pk}"), speaking_to(orders.user):
            said = " ".join(engine.describe(e, names, lang=translation.get_language()) for e in mine)
            notify(user=orders.user, kind=Notification.TURN, match=match, url=match.get_absolute_url(),
                   key=f"{match.pk}:orders:{orders.seat}:{orders.told_turn}",
                   text=_("Your standing orders played your turn in %(match)s: %(what)s")
                   % {"match": match, "what": said})


def _orders_played_cares(*, events, turn_passed_to, kinds=()) -> bool:
    """Only a change with a move played by standing order has anything for this listener."""
    return ActionLog.ORDER in kinds


orders_played.cares = _orders_played_cares
