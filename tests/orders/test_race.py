"""A player's own move racing their standing order (run it on PostgreSQL: DATABASE_URL=...):
both take the match's lock, one wins, the other is refused cleanly or plays on what the winner
left; never twice, never a broken log."""
import threading

import pytest
from django.db import connection

from games import play
from games.engines import get_engine
from games.errors import BadRequest, StaleVersion
from games.models import ActionLog, Match, StandingOrders
from games.reads.replay import replay_match
from tests.conftest import make_user


def _bo_to_roll():
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="fuldrigger", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    users = {0: anna, 1: bo}
    engine = get_engine("fuldrigger")
    for _ in range(12):
        match.refresh_from_db()
        mover = match.turn_seats[0]
        legal = {a["type"]: a for a in engine.legal_actions(match.state, mover)}
        if mover == 1 and "roll" in legal:
            return match, bo
        action = legal.get("choose_home") or legal.get("roll") or legal["end_turn"]
        play.action_apply(match_id=match.pk, user=users[mover], action=action)
    raise AssertionError("bo never came to roll")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_the_players_own_move_and_their_order_one_wins(attempt):
    match, bo = _bo_to_roll()
    # Lines written straight in: no job has played them yet, so both race for the roll.
    StandingOrders.objects.create(match=match, seat=1, user=bo, lines=[{"kind": "roll", "scope": "always"}])
    version = match.version
    barrier, outcomes = threading.Barrier(2), []

    def by_hand():
        try:
            barrier.wait()
            play.action_apply(match_id=match.pk, user=bo, action={"type": "roll"}, expected_version=version)
            outcomes.append("player")
        except (StaleVersion, BadRequest) as exc:
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    def by_order():
        try:
            barrier.wait()
            outcomes.append("order" if play.deadline_apply(match_id=match.pk) else "nothing")
        finally:
            connection.close()

    threads = [threading.Thread(target=by_hand), threading.Thread(target=by_order)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) in (["StaleVersion", "order"], ["nothing", "player"])
    rolls = ActionLog.objects.filter(match=match, seq__gt=version, action__type="roll")
    assert rolls.count() == 1
    assert rolls.get().kind == (ActionLog.ORDER if "order" in outcomes else ActionLog.PLAYER)
    match = Match.objects.get(pk=match.pk)
    assert list(match.log.values_list("seq", flat=True)) == list(range(1, match.version + 1))
    assert replay_match(match)["ok"] is True
