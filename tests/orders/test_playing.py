"""Standing orders through the one write path: they play when the seat must decide, are logged
as played by standing order, leave replays alone, race a player's own move cleanly, come before
a timeout's auto-play, and drop lines that no longer make sense."""
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.play import orders
from games import play
from games.play import core
from games.errors import BadRequest, NotAllowed
from games.models import ActionLog, Match, StandingOrders
from games.reads.replay import replay_match
from notifications.models import Notification
from tests.orders.conftest import act, running, seat_user

LINES = [{"kind": "roll"}, {"kind": "end_turn"}]


def to_turn_of(commits, match, number):
    """Play the other seat's turn by hand (roll, end) until `number` is to act."""
    for _ in range(10):
        match.refresh_from_db()
        if match.turn_seats == [number]:
            return match
        mover = match.turn_seats[0]
        legal_types = {a["type"] for a in core.engine_of(match.game).legal_actions(match.state, mover)}
        act(commits, match, mover, "roll" if "roll" in legal_types else "end_turn")
    raise AssertionError("the turn never came")


def test_orders_play_the_turn_when_it_comes_and_the_log_says_so(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=LINES)
    before = match.version
    act(commits, match, 0, "roll")
    act(commits, match, 0, "end_turn")
    match = running(match.pk)
    played = list(ActionLog.objects.filter(match=match, seq__gt=before + 2).order_by("seq"))
    by_bo = [r for r in played if r.seat == 1]
    assert [r.action["type"] for r in by_bo] == ["roll", "end_turn"]
    assert {r.kind for r in by_bo} == {ActionLog.ORDER}
    assert match.turn_seats == [0]  # back to anna, who has no orders: the match waits for her
    assert replay_match(match)["ok"] is True
    # Told once for the turn, in words.
    told = Notification.objects.filter(user=bo, text__startswith="Your standing orders played your turn")
    assert told.count() == 1 and str(match) in told.get().text
    assert told.get().text.split(": ", 1)[1]  # what they did, in words


def test_paused_orders_wait_and_resume_plays_them(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=LINES)
    commits(orders.orders_pause, match_id=match.pk, user=bo, paused=True)
    act(commits, match, 0, "roll")
    act(commits, match, 0, "end_turn")
    match = running(match.pk)
    assert match.turn_seats == [1] and not ActionLog.objects.filter(match=match, kind=ActionLog.ORDER).exists()
    commits(orders.orders_pause, match_id=match.pk, user=bo, paused=False)
    assert running(match.pk).turn_seats == [0]
    assert ActionLog.objects.filter(match=match, kind=ActionLog.ORDER, seat=1).count() == 2


def test_a_line_for_the_next_turn_only_plays_once(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo,
            lines=[dict(line, scope="turn") for line in LINES])
    for _ in range(2):
        act(commits, match, 0, "roll")
        act(commits, match, 0, "end_turn")
    match = running(match.pk)
    assert match.turn_seats == [1]  # the second turn waits for bo
    assert ActionLog.objects.filter(match=match, kind=ActionLog.ORDER).count() == 2
    assert StandingOrders.objects.get(match=match, seat=1).lines == []


def test_a_line_until_a_time_past_plays_nothing(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    soon = timezone.now() + timedelta(minutes=5)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=[dict(l, scope="until", until=soon.isoformat())
                                                                  for l in LINES])
    act(commits, match, 0, "roll")
    # An hour later the lines have lapsed: the deadline job plays nothing by order.
    assert play.deadline_apply(match_id=match.pk, now=timezone.now() + timedelta(hours=1)) is False \
        or not ActionLog.objects.filter(match=match, kind=ActionLog.ORDER).exists()
    with pytest.raises(BadRequest, match="in the future"):
        orders.orders_set(match_id=match.pk, user=bo, lines=[{"kind": "roll", "scope": "until",
                                                              "until": "2001-01-01T00:00"}])


def test_a_time_given_without_a_scope_is_how_long_the_line_lasts(sea_match, commits):
    bo = seat_user(sea_match, 1)
    soon = timezone.now() + timedelta(hours=5)
    commits(orders.orders_set, match_id=sea_match.pk, user=bo, lines=[{"kind": "roll", "until": soon.isoformat()}])
    kept = StandingOrders.objects.get(match=sea_match, seat=1).lines
    assert kept[0]["scope"] == "until"
    assert datetime.fromisoformat(kept[0]["until"]) == soon
    # A time beside a scope that says otherwise is refused, not read as one or the other.
    for scope in ("always", "turn"):
        with pytest.raises(BadRequest, match="Line 1: an order lasts"):
            orders.orders_set(match_id=sea_match.pk, user=bo,
                              lines=[{"kind": "end_turn", "scope": scope, "until": soon.isoformat()}])
    assert [line["kind"] for line in StandingOrders.objects.get(match=sea_match, seat=1).lines] == ["roll"]


def test_bad_orders_are_refused_with_their_reasons_and_change_nothing(sea_match, commits, outsider):
    bo = seat_user(sea_match, 1)
    commits(orders.orders_set, match_id=sea_match.pk, user=bo, lines=LINES)
    with pytest.raises(BadRequest) as refused:
        orders.orders_set(match_id=sea_match.pk, user=bo, lines=[
            {"kind": "sail", "ship": 999, "port": "lisbon"}, {"kind": "sail", "ship": 1, "port": "atlantis"},
            {"kind": "sell", "good": "wine", "at_least": "thirty"}, {"kind": "roll", "scope": "forever"}])
    said = str(refused.value)
    assert "Line 1: there is no ship called 999" in said
    assert "Line 2: there is no port called atlantis" in said
    assert "Line 3: at least must be a whole number, not thirty" in said
    assert "Line 4:" in said
    assert [line["kind"] for line in StandingOrders.objects.get(match=sea_match, seat=1).lines] == ["roll", "end_turn"]
    for hostile in ("roll", {"kind": "roll"}, [["roll"]], [None], [{"kind": "roll"}] * 21):
        with pytest.raises(BadRequest):
            orders.orders_set(match_id=sea_match.pk, user=bo, lines=hostile)
    with pytest.raises(NotAllowed):
        orders.orders_set(match_id=sea_match.pk, user=outsider, lines=LINES)


def test_a_line_whose_ship_is_gone_is_dropped_and_told_once(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    ship = next(s for s in match.state["ships"].values() if s["owner"] == 1)
    commits(orders.orders_set, match_id=match.pk, user=bo,
            lines=[{"kind": "sail", "ship": ship["id"], "port": "lisbon"}] + LINES)
    # The ship is lost (as to a reef): written into the state as the engine would leave it.
    match.refresh_from_db()
    del match.state["ships"][str(ship["id"])]
    Match.objects.filter(pk=match.pk).update(state=match.state)
    act(commits, match, 0, "roll")
    act(commits, match, 0, "end_turn")
    mine = StandingOrders.objects.get(match=match, seat=1)
    assert [line["kind"] for line in mine.lines] == ["roll", "end_turn"]
    assert mine.dropped == [{"kind": "sail", "ship": ship["id"], "port": "lisbon", "scope": "always"}]


def test_at_the_timeout_orders_play_before_the_auto_play(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    act(commits, match, 0, "roll")
    act(commits, match, 0, "end_turn")
    match = running(match.pk)
    assert match.turn_seats == [1]
    # Orders set when the turn's time is up: the job plays them, not the timeout's auto-play.
    StandingOrders.objects.create(match=match, seat=1, user=bo, lines=LINES)
    assert play.deadline_apply(match_id=match.pk, now=match.turn_deadline + timedelta(seconds=1))
    rows = list(ActionLog.objects.filter(match=match, seat=1).order_by("seq"))
    assert [r.kind for r in rows][-2:] == [ActionLog.ORDER, ActionLog.ORDER]
    assert not any(r.kind == ActionLog.TIMEOUT for r in rows)
    assert match.seats.get(number=1).consecutive_timeouts == 0


def test_when_no_line_fits_the_timeout_plays_as_before(sea_match, commits):
    match = to_turn_of(commits, sea_match, 0)
    bo = seat_user(match, 1)
    commits(orders.orders_set, match_id=match.pk, user=bo, lines=[{"kind": "accept_offers", "at_least": 5}])
    act(commits, match, 0, "roll")
    act(commits, match, 0, "end_turn")
    match = running(match.pk)
    assert match.turn_seats == [1]
    assert play.deadline_apply(match_id=match.pk, now=match.turn_deadline + timedelta(seconds=1))
    kinds = set(ActionLog.objects.filter(match=match, seat=1, seq__gt=match.version).values_list("kind", flat=True))
    assert kinds == {ActionLog.TIMEOUT}


def _at_the_humans_first_turn(player, rounds):
    """A Fuldrigger match of `player` and a bot, at the player's first turn past the homes."""
    match = play.match_create(creator=player, game="fuldrigger", seats=2, bot_seats=1, options={"rounds": rounds})
    human = next(s.number for s in match.seats.all() if not s.is_bot)
    for _ in range(20):
        match.refresh_from_db()
        if human in match.turn_seats and match.state["phase"] != "homes":
            break
        if human in match.turn_seats:
            act(lambda call, **kwargs: call(**kwargs), match, human)     # the home port
        else:
            play.deadline_apply(match_id=match.pk)
    return match


def test_a_match_that_plays_on_by_itself_plays_a_round_a_job_each_after_the_last_not_inside_it(
        transactional_db, player, monkeypatch):
    """Standing orders that always play, and a bot in the other seat: the match plays on alone
    to its end, job after job. Each job plays one round, each seat's turn at most once, and
    commits it: played to its end in one transaction, the match held its lock (on SQLite, every
    write of the site) for as long. With the site's own jobs (no worker) each job ran inside the
    commit of the one before, deeper on the stack each time; now it runs after it, as a worker
    takes its next task. (Committed for real, as the site does: a test's transaction would hold
    the commits back.)"""
    import inspect

    depths, turns = [], []
    real_settle = core.settle

    def settle(changing, engine, now):
        depths.append(sum(1 for f in inspect.stack(0) if f.function == "deadline_apply"))
        # The seats whose turns this transaction played, in order (a turn: a seat's run of rows).
        seats = [row.seat for row in changing.rows if row.seat is not None]
        turns.append([seat for i, seat in enumerate(seats) if i == 0 or seats[i - 1] != seat])
        return real_settle(changing, engine, now)

    monkeypatch.setattr(core, "settle", settle)
    match = _at_the_humans_first_turn(player, 8)
    depths.clear()
    turns.clear()
    # The orders play the turn they are given in, and every turn after it.
    orders.orders_set(match_id=match.pk, user=player, lines=LINES)
    match = running(match.pk)
    assert match.status == Match.FINISHED
    assert len(depths) > 3 and max(depths) == 1, depths
    played = [t for t in turns if t]
    assert len(played) > 3, turns   # a job a round (of the eight, those left), not one for all
    assert all(len(t) == len(set(t)) for t in played), turns
    assert replay_match(match)["ok"] is True


def test_the_sites_own_worker_plays_that_match_off_the_request_that_set_the_orders(
        transactional_db, player, monkeypatch):
    """Without Redis the serving process runs the jobs on a thread of its own (jobs.start_worker),
    as a worker would: the request that set the orders answers, and the match plays on, round by
    round, on that thread. (The jobs ran in the request before: it played the whole match.)"""
    import queue
    import threading

    from games.play import clocks, jobs

    match = _at_the_humans_first_turn(player, 4)
    played_on, finished = [], threading.Event()
    real_deadline_apply = clocks.deadline_apply

    def deadline_apply(**kwargs):
        played_on.append(threading.current_thread().name)
        try:
            return real_deadline_apply(**kwargs)
        finally:
            if Match.objects.filter(pk=match.pk, status=Match.FINISHED).exists():
                finished.set()

    monkeypatch.setattr(clocks, "deadline_apply", deadline_apply)
    monkeypatch.setattr(play, "deadline_apply", deadline_apply)
    waiting = queue.SimpleQueue()
    worker = threading.Thread(target=jobs.run_worker, args=(waiting,), name="jobs")
    monkeypatch.setattr(jobs, "_worker", waiting)
    worker.start()
    try:
        orders.orders_set(match_id=match.pk, user=player, lines=LINES)
        asked = threading.current_thread().name
        assert finished.wait(timeout=120)
    finally:
        waiting.put(None)  # the worker ends once it has run what it was given
        worker.join(timeout=120)
    assert asked not in played_on
    assert played_on and set(played_on) == {"jobs"}
    assert running(match.pk).status == Match.FINISHED
