"""A round limit (issue 19.2) ends a match only once every seat has moved in its last round,
however far the system's own steps carried the round."""
from games import play
from games.models import Match


def test_a_round_limit_does_not_end_a_match_before_every_seat_moved(player, opponent):
    """Issue 19.2: two chance cards, then the round limit, ended a match nobody had moved in."""
    match = play.match_create(creator=player, game="race", seats=2, round_limit=1, options={"wind": False})
    play.match_join(match_id=match.pk, user=opponent)
    state = Match.objects.get(pk=match.pk).state
    state["round"] = 3  # as if the system's own steps had carried it past the limit
    Match.objects.filter(pk=match.pk).update(state=state)
    play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    match = play.action_apply(match_id=match.pk, user=player, action={"type": "stay"}).match
    assert match.status == Match.RUNNING  # bo has not moved yet
    match = play.action_apply(match_id=match.pk, user=opponent, action={"type": "roll"}).match
    assert match.status == Match.FINISHED and "round limit" in match.finish_reason
