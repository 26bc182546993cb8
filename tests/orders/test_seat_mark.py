"""Whether a seat's standing orders may play is kept on its seat (Seat.has_orders), which a move
reads under the lock with the seats: set, paused, resumed, emptied, played out and deleted, the
mark follows the orders; the migration marks the orders kept before it."""
import importlib

from django.apps import apps

from games.models import Seat, StandingOrders
from games.play import orders
from tests.orders.conftest import act, running, seat_user
from tests.orders.test_playing import LINES, to_turn_of


def _mark(match, number) -> bool:
    return Seat.objects.get(match_id=match.pk, number=number).has_orders


def test_the_seat_says_whether_its_orders_may_play(sea_match, commits):
    match = sea_match
    bo = seat_user(match, 1)
    assert not _mark(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=LINES)
    assert _mark(match, 1) and not _mark(match, 0)
    commits(orders.orders_pause, match_id=match.pk, user=bo, paused=True)
    assert not _mark(match, 1)
    commits(orders.orders_pause, match_id=match.pk, user=bo, paused=False)
    assert _mark(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=[])
    assert not _mark(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=LINES)
    StandingOrders.objects.get(match=match, seat=1).delete()
    assert not _mark(match, 1)


def test_orders_for_one_turn_that_played_leave_the_seat_unmarked(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo,
            lines=[dict(line, scope="turn") for line in LINES])
    assert _mark(match, 1)
    act(commits, match, 0, "roll")
    act(commits, match, 0, "end_turn")
    assert running(match.pk).turn_seats == [0]  # bo's turn played by the orders
    assert _mark(match, 1)  # the lines are kept, marked with the turn they played in
    to_turn_of(commits, match, 1)  # bo's next turn: the orders find their lines expired
    assert StandingOrders.objects.get(match=match, seat=1).lines == []
    assert not _mark(match, 1)


def test_the_migration_marks_the_seats_of_orders_kept_before_it(sea_match, commits):
    match = sea_match
    bo = seat_user(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=LINES)
    Seat.objects.filter(match=match).update(has_orders=False)  # as before the field
    migration = importlib.import_module("games.migrations.0014_seat_has_orders")
    migration.mark(apps, None)
    assert _mark(match, 1) and not _mark(match, 0)
