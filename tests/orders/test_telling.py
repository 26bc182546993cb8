"""What a turn played by standing orders tells (issue 33): the log marks only the moves the
orders played, not the next player's turn header logged with them, and the player's notice names
everything the orders played in the turn, also when they played it in several goes."""
from games.play import orders
from games.reads import standing
from games.engines import get_engine
from games.models import ActionLog
from games.reads.selectors import seat_names
from games.templatetags.games_tags import log_items
from notifications.models import Notification
from tests.orders.conftest import act, running, seat_user
from tests.orders.test_playing import LINES, to_turn_of


def test_only_the_moves_the_orders_played_are_marked_not_the_next_turns_header(sea_match, commits):
    # Anna (seat 0) leaves orders: her turn comes mid-round, so bo's turn header is logged in the
    # row of her end of turn.
    match = to_turn_of(commits, sea_match, 1)
    commits(orders.orders_set, match_id=match.pk, user=seat_user(match, 0), lines=LINES)
    act(commits, match, 1, "roll")
    act(commits, match, 1, "end_turn")
    rows = list(ActionLog.objects.filter(match=match, seat=0, kind=ActionLog.ORDER).order_by("seq"))
    marked = [(e["type"], standing.played_by_order(r.kind, e)) for r in rows for e in r.events]
    assert ("roll", True) in marked and ("end_turn", True) in marked
    headers = [m for m in marked if m[0] in ("turn", "round")]
    assert headers and not any(m[1] for m in headers), "the next turn's header came with anna's end of turn, unmarked"
    assert not any(standing.played_by_order(ActionLog.PLAYER, e) for r in rows for e in r.events)


def test_the_log_marks_a_line_by_its_own_mark_before_its_rows_kind():
    lines = [{"kind": "order", "text": "bo ended the turn", "dice": None, "by_order": True},
             {"kind": "order", "text": "anna's turn", "dice": None, "by_order": False},
             {"kind": "order", "text": "an older line", "dice": None}]
    html = log_items(_context(), lines)
    items = html.split("</li>")
    assert "by-order" in items[0] and "by-order" not in items[1] and "by-order" in items[2]


def _context():
    from django.template import Context
    return Context({})


def test_a_turn_the_orders_played_in_two_goes_is_told_once_with_all_of_it(sea_match, commits):
    match = to_turn_of(commits, sea_match, 1)
    anna = seat_user(match, 0)
    commits(orders.orders_set, match_id=match.pk, user=anna, lines=[{"kind": "roll"}])
    act(commits, match, 1, "roll")
    act(commits, match, 1, "end_turn")  # anna's orders roll; nothing more fits: the turn waits
    assert running(match.pk).turn_seats == [0]
    assert not Notification.objects.filter(user=anna, text__startswith="Your standing orders").exists()
    commits(orders.orders_set, match_id=match.pk, user=anna, lines=[{"kind": "end_turn"}])
    match = running(match.pk)
    assert match.turn_seats == [1]  # the second line ended anna's turn
    told = Notification.objects.filter(user=anna, text__startswith="Your standing orders played your turn")
    assert told.count() == 1
    engine, names = get_engine(match.game), seat_names(match)
    rows = ActionLog.objects.filter(match=match, seat=0, kind=ActionLog.ORDER).order_by("seq")
    said = [engine.describe(e, names) for r in rows for e in r.events if e["type"] not in ("turn", "round")]
    assert [r.action["type"] for r in rows] == ["roll", "end_turn"]
    assert told.get().text.endswith(": " + " ".join(said)), told.get().text
    # The next player's turn header is not among what anna's orders did.
    header = next(e for r in rows for e in r.events if e["type"] in ("turn", "round"))
    assert engine.describe(header, names) not in told.get().text


def test_a_turn_the_timeout_ends_after_the_orders_rolled_tells_of_the_roll(sea_match, commits):
    from datetime import timedelta

    from games import play

    match = to_turn_of(commits, sea_match, 1)
    anna = seat_user(match, 0)
    commits(orders.orders_set, match_id=match.pk, user=anna, lines=[{"kind": "roll"}])
    act(commits, match, 1, "roll")
    act(commits, match, 1, "end_turn")
    match = running(match.pk)
    assert match.turn_seats == [0]
    commits(play.deadline_apply, match_id=match.pk, now=match.turn_deadline + timedelta(seconds=1))
    assert running(match.pk).turn_seats == [1]
    told = Notification.objects.get(user=anna, text__startswith="Your standing orders played your turn")
    roll = ActionLog.objects.get(match=match, seat=0, kind=ActionLog.ORDER)
    engine = get_engine(match.game)
    said = " ".join(engine.describe(e, seat_names(match)) for e in roll.events if not standing.passes_the_turn(e))
    assert told.text.endswith(": " + said)
