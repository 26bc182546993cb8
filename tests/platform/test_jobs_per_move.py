"""A move that tells nobody anything queues nothing (issue 26): the worker's job per move was
mostly a read that found nothing to tell."""
import pytest

from games import play
from games.models import Job

pytestmark = pytest.mark.django_db


def test_a_move_that_keeps_the_turn_and_tells_nothing_records_no_job(race_match, player, opponent):
    Job.objects.all().delete()  # the deal's (anna's turn to tell)
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})  # still anna's turn
    assert Job.objects.count() == 0
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})  # bo's turn now
    assert list(Job.objects.values_list("kind", "args__turn_passed_to")) == [(Job.MATCH_CHANGED, 1)]


def test_a_listener_that_cannot_say_beforehand_hears_of_every_change(race_match, player, settings):
    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record"]
    Job.objects.all().delete()
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    assert Job.objects.filter(kind=Job.MATCH_CHANGED).count() == 1


def test_no_listener_no_job(race_match, player, settings):
    settings.MATCH_CHANGED_LISTENERS = []
    Job.objects.all().delete()
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})
    assert Job.objects.count() == 0


def test_the_orders_listener_cares_only_for_moves_played_by_standing_order():
    from games.models import ActionLog
    from notifications.orders import orders_played

    assert orders_played.cares(events=[{"type": "roll"}], turn_passed_to=None, kinds={ActionLog.ORDER})
    assert not orders_played.cares(events=[{"type": "roll"}], turn_passed_to=1, kinds={ActionLog.PLAYER})
