"""The one write path: creating, joining, starting and playing matches through services."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import play as games_play
from games.engines.dice import seed_hash
from games.errors import BadRequest, NotAllowed, StaleVersion
from games.models import ActionLog, Match
from tests.conftest import make_user


def test_create_checks_options_and_turn_time(player):
    with pytest.raises(BadRequest, match="Finish line"):
        games_play.match_create(creator=player, game="race", seats=2, options={"finish": 3})
    with pytest.raises(BadRequest, match="Unknown option"):
        games_play.match_create(creator=player, game="race", seats=2, options={"colourblind": True})
    with pytest.raises(BadRequest, match="1 hour and 14 days"):
        games_play.match_create(creator=player, game="race", seats=2, turn_seconds=60)
    with pytest.raises(BadRequest, match="2 to 4"):
        games_play.match_create(creator=player, game="race", seats=7)
    with pytest.raises(BadRequest, match="no game"):
        games_play.match_create(creator=player, game="chess", seats=2)
    assert Match.objects.count() == 0


def test_full_match_starts_itself_with_a_committed_seed(race_match):
    assert race_match.status == Match.RUNNING
    assert race_match.seed_hash == seed_hash(race_match.seed)
    assert race_match.state["seed"] == race_match.seed
    assert [s.number for s in race_match.seats.order_by("number")] == [0, 1]
    assert race_match.turn_seats == [0]
    assert race_match.turn_deadline > timezone.now()


def test_join_refuses_twice_full_and_private(player, opponent, outsider):
    match = games_play.match_create(creator=player, game="race", seats=3, is_public=False)
    with pytest.raises(NotAllowed):
        games_play.match_join(match_id=match.pk, user=opponent)
    games_play.match_join(match_id=match.pk, user=opponent, invite_code=match.invite_code)
    with pytest.raises(BadRequest, match="already"):
        games_play.match_join(match_id=match.pk, user=opponent, invite_code=match.invite_code)
    with pytest.raises(NotAllowed):
        games_play.match_start(match_id=match.pk, user=opponent)
    with pytest.raises(BadRequest, match="needs 3"):
        games_play.match_start(match_id=match.pk, user=player)
    games_play.match_join(match_id=match.pk, user=outsider, invite_code=match.invite_code)
    match.refresh_from_db()
    assert match.status == Match.RUNNING


def test_action_applies_logs_and_moves_the_turn(race_match, player, opponent):
    games_play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"}, expected_version=0)
    match = games_play.action_apply(match_id=race_match.pk, user=player, action={"type": "advance"}, expected_version=1).match
    assert match.version == 2
    rows = list(ActionLog.objects.filter(match=match).order_by("seq"))
    assert [r.action["type"] for r in rows] == ["roll", "advance"]
    assert rows[0].events[0]["dice"][0] in range(1, 7)
    assert match.state["positions"][0] == rows[0].events[0]["dice"][0]
    assert match.turn_seats == [1]


def test_illegal_and_out_of_turn_actions_change_nothing(race_match, player, opponent, outsider):
    before = Match.objects.get(pk=race_match.pk)
    with pytest.raises(BadRequest, match="not your turn"):
        games_play.action_apply(match_id=race_match.pk, user=opponent, action={"type": "roll"})
    with pytest.raises(BadRequest, match="cannot advance"):
        games_play.action_apply(match_id=race_match.pk, user=player, action={"type": "advance"})
    with pytest.raises(BadRequest, match="JSON object"):
        games_play.action_apply(match_id=race_match.pk, user=player, action=["roll"])
    with pytest.raises(NotAllowed):
        games_play.action_apply(match_id=race_match.pk, user=outsider, action={"type": "roll"})
    after = Match.objects.get(pk=race_match.pk)
    assert (after.state, after.version) == (before.state, before.version)
    assert not ActionLog.objects.filter(match=race_match).exists()


def test_stale_version_gets_409_with_the_current_version(race_match, player):
    games_play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"}, expected_version=0)
    with pytest.raises(StaleVersion) as caught:
        games_play.action_apply(match_id=race_match.pk, user=player, action={"type": "advance"}, expected_version=0)
    assert caught.value.status == 409 and caught.value.extra["version"] == 1


def test_system_action_runs_after_commit_and_round_passes(race_match, player, opponent,
                                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for user in (player, opponent):
            games_play.action_apply(match_id=race_match.pk, user=user, action={"type": "roll"})
            games_play.action_apply(match_id=race_match.pk, user=user, action={"type": "stay"})
    match = Match.objects.get(pk=race_match.pk)
    kinds = list(match.log.order_by("seq").values_list("kind", flat=True))
    assert kinds[-1] == ActionLog.SYSTEM
    assert match.state["round"] == 2 and not match.state["wind_due"] and not match.needs_system
    assert match.turn_seats == [0]


def test_round_limit_finishes_with_standings(player, opponent):
    match = games_play.match_create(creator=player, game="race", seats=2, round_limit=1, options={"wind": False})
    games_play.match_join(match_id=match.pk, user=opponent)
    for user in (player, opponent):
        games_play.action_apply(match_id=match.pk, user=user, action={"type": "roll"})
        games_play.action_apply(match_id=match.pk, user=user, action={"type": "advance"})
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    assert "round limit" in match.finish_reason
    assert {s["seat"] for s in match.standings} == {0, 1}
    assert match.next_due_at is None


@pytest.mark.django_db(transaction=True)
def test_two_racing_requests_exactly_one_wins():
    """Two threads submit the same turn on the same version: one applies, one gets 409."""
    anna, bo = make_user("anna"), make_user("bo")
    match = games_play.match_create(creator=anna, game="race", seats=2)
    games_play.match_join(match_id=match.pk, user=bo)
    barrier = threading.Barrier(2)
    outcomes = []

    def play():
        try:
            barrier.wait()
            games_play.action_apply(match_id=match.pk, user=anna, action={"type": "roll"}, expected_version=0)
            outcomes.append("won")
        except (StaleVersion, BadRequest) as exc:
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["StaleVersion", "won"]
    match.refresh_from_db()
    assert match.version == 1 and match.log.count() == 1


def test_admin_services_are_logged(race_match, staff, outsider):
    games_play.match_pause(match_id=race_match.pk, actor=staff)
    with pytest.raises(BadRequest, match="paused"):
        games_play.action_apply(match_id=race_match.pk, user=race_match.creator, action={"type": "roll"})
    games_play.match_resume(match_id=race_match.pk, actor=staff)
    games_play.match_extend(match_id=race_match.pk, actor=staff, turn_hours=5)
    games_play.seat_hand_over(match_id=race_match.pk, seat_number=1, to_user=outsider, actor=staff)
    match = games_play.match_finish(match_id=race_match.pk, reason="ended by an admin", actor=staff).match
    admin_rows = list(match.log.filter(kind=ActionLog.ADMIN).values_list("action__type", flat=True))
    assert admin_rows == ["admin_pause", "admin_resume", "admin_extend", "admin_hand_seat"]
    assert match.status == Match.FINISHED and match.standings
    assert match.seats.get(number=1).user == outsider


def test_an_admin_moves_a_match_deadline_only_to_a_time_pages_can_show(race_match, staff):
    """As at a match's creation: 9999-12-31 is year 10000 in a zone east of UTC, and every page
    showing the match's end answered 500."""
    version = Match.objects.get(pk=race_match.pk).version
    with pytest.raises(BadRequest, match="within 10 years"):
        games_play.match_extend(match_id=race_match.pk, actor=staff,
                                game_deadline=timezone.now().replace(year=9999, month=12, day=31))
    match = Match.objects.get(pk=race_match.pk)
    assert match.game_deadline is None and match.version == version
    games_play.match_extend(match_id=race_match.pk, actor=staff, game_deadline=timezone.now() + timedelta(days=3000))
    assert Match.objects.get(pk=race_match.pk).game_deadline is not None


def test_abort_stops_deadlines(race_match, staff):
    match = games_play.match_abort(match_id=race_match.pk, actor=staff).match
    assert match.status == Match.ABORTED and match.next_due_at is None
    with pytest.raises(BadRequest):
        games_play.match_abort(match_id=race_match.pk, actor=staff)


def test_time_bank_is_spent_by_a_slow_turn(player, opponent):
    match = games_play.match_create(creator=player, game="race", seats=2, turn_seconds=3600, time_bank_seconds=7200)
    games_play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    assert match.turn_deadline - match.turn_started_at == timedelta(hours=3)
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(minutes=90))
    games_play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    games_play.action_apply(match_id=match.pk, user=player, action={"type": "stay"})
    bank = match.seats.get(number=0).time_bank_left
    assert 7200 - 1900 < bank < 7200 - 1700


@pytest.mark.django_db
def test_a_deal_and_a_lobby_change_are_announced_as_unversioned_a_move_as_a_new_version(
        player, opponent, monkeypatch, django_capture_on_commit_callbacks):
    """Sockets skip an announcement of the version they show (its state never changes), unless
    it says the change kept the version: a seat taken, the deal (which stays at version 0)."""
    from games.live import publisher

    heard = []
    monkeypatch.setattr(publisher, "publish", lambda change: heard.append((change.version, bool(change.revision))))
    with django_capture_on_commit_callbacks(execute=True):
        match = games_play.match_create(creator=player, game="race", seats=3, options={"finish": 30})
    with django_capture_on_commit_callbacks(execute=True):
        games_play.match_join(match_id=match.pk, user=opponent)
    assert heard[-1] == (0, True)  # a seat taken in the lobby
    with django_capture_on_commit_callbacks(execute=True):
        games_play.match_join(match_id=match.pk, user=make_user("cy"))
    assert heard[-1] == (0, True)  # the last seat deals the match: still version 0
    with django_capture_on_commit_callbacks(execute=True):
        games_play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    assert heard[-1] == (1, False)
