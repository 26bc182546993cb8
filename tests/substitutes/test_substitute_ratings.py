"""Ratings with a substitute (docs/substitutes.md): the leaver takes the loss; the substitute's
change is the change their place earned, weighed by the share of the seat's turns they played."""
import pytest
from django.utils import timezone

from community import ratings
from community.models import ALL_TIME, RatingEvent
from games import play
from games.models import ActionLog, Match, Seat, SeatOffer
from tests.conftest import make_user


@pytest.mark.django_db
def test_the_leaver_loses_and_the_substitute_counts_by_share(player, opponent, outsider):
    anna, bo, carl, kenji = player, opponent, outsider, make_user("kenji")
    match = play.match_create(creator=anna, game="race", seats=3, options={"finish": 200})
    play.match_join(match_id=match.pk, user=bo)
    play.match_join(match_id=match.pk, user=carl)
    match.refresh_from_db()
    # Seat 0: one turn row by anna, three by kenji after he took it over: he played 3/4 of it.
    seq = match.version
    for actor in (anna, kenji, kenji, kenji):
        seq += 1
        ActionLog.objects.create(match=match, seq=seq, seat=0, kind="player", actor=actor, action={"type": "roll"})
    Match.objects.filter(pk=match.pk).update(version=seq)
    Seat.objects.filter(match=match, number=0).update(user=kenji)
    SeatOffer.objects.create(match=match, seat=0, leaver=anna, substitute=kenji, status=SeatOffer.TAKEN,
                             taken_at=timezone.now())
    state = Match.objects.get(pk=match.pk).state
    state["positions"] = [40, 20, 5]  # kenji's seat wins
    Match.objects.filter(pk=match.pk).update(state=state)
    play.match_finish(match_id=match.pk, reason="ended by an admin")
    assert ratings.match_finished(match_id=match.pk) is True
    events = {e.user_id: e for e in RatingEvent.objects.filter(match=match, season=ALL_TIME)}
    assert {u: e.rank for u, e in events.items()} == {kenji.pk: 1, bo.pk: 2, carl.pk: 3, anna.pk: 4}
    assert events[anna.pk].mu_after < events[anna.pk].mu_before  # the leaver takes the loss
    model = ratings.MODEL
    full = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 3, 4])
    gain = full[0][0].mu - model.mu
    assert events[kenji.pk].mu_after - events[kenji.pk].mu_before == pytest.approx(0.75 * gain)
    assert events[bo.pk].mu_after == pytest.approx(full[1][0].mu)  # the others as without a substitute
