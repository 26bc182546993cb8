"""Substitutes: an absent seat offered to volunteers, taken over by the first who accepts, the
table's refusal, the player coming back, and two volunteers accepting at once."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import play
from games.errors import BadRequest, NotAllowed
from games.models import ActionLog, Match, SeatOffer
from games.reads import selectors
from games.reads.substitutes import offers_for, refusable_offer
from tests.conftest import make_user
from tests.substitutes.support import history


def _absent(match, captured):
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with captured(execute=True):
        play.deadline_apply(match_id=match.pk)


def _volunteer(name, other, game="race"):
    user = make_user(name)
    history(user, in_time=20, other=other)
    play.volunteer_set(user=user, game=game)
    return user


@pytest.fixture
def table(settings, db):
    """A three-seat race: anna (seat 0) goes absent at once; bo and dag stay; a bot covers."""
    settings.ABSENT_AFTER_TIMEOUTS = 1
    anna, bo, dag = make_user("anna"), make_user("bo"), make_user("dag")
    match = play.match_create(creator=anna, game="race", seats=3, bots_cover_absence=True,
                              options={"wind": False, "finish": 60})
    play.match_join(match_id=match.pk, user=bo)
    play.match_join(match_id=match.pk, user=dag)
    return match, anna, bo, dag


def test_an_absent_seat_is_offered_taken_over_and_the_match_goes_on(table, django_capture_on_commit_callbacks):
    match, anna, bo, dag = table
    kenji = _volunteer("kenji", bo)
    newcomer = make_user("nina")
    play.volunteer_set(user=newcomer, game="race")  # no record yet: not offered an abandoned seat
    _absent(match, django_capture_on_commit_callbacks)
    offer = SeatOffer.objects.get(match=match)
    note = ActionLog.objects.filter(match=match, action__type="substitute_offered").get()
    assert note.events[0]["volunteers"] == [kenji.pk] and offer.status == SeatOffer.OPEN
    assert offers_for(kenji) == [offer] and offers_for(newcomer) == []
    # The volunteer the offer names is told (inbox, and e-mail or push as they chose); nobody else.
    from notifications.models import Notification

    told = Notification.objects.filter(kind=Notification.SUBSTITUTE, match=match)
    assert [n.user_id for n in told] == [kenji.pk] and "offered to you as substitute" in told[0].text
    with pytest.raises(NotAllowed):
        play.offer_accept(offer_id=offer.pk, user=newcomer)
    with django_capture_on_commit_callbacks(execute=True):
        change = play.offer_accept(offer_id=offer.pk, user=kenji)
    assert kenji.pk in change.access.seated and anna.pk not in change.access.seated
    match.refresh_from_db()
    seat = match.seats.get(number=0)
    assert seat.user == kenji and not seat.is_absent
    took = ActionLog.objects.get(match=match, action__type="substitute_took_over")
    assert took.events[0] == {"type": "substitute_took_over", "seat": 0, "offer": offer.pk, "from": "anna",
                              "to": "kenji", "round": took.events[0]["round"]}
    assert isinstance(took.events[0]["round"], int)
    from games.engines import get_engine
    assert selectors.describe(get_engine("race"), took.events[0], ["Anna", "Bo", "Dag"]).startswith(
        "kenji took over anna's settlements")
    # The match goes on: whoever is to act plays, and kenji plays seat 0 when it comes.
    for _ in range(12):
        match.refresh_from_db()
        if match.status != Match.RUNNING:
            break
        mover = match.seats.get(number=match.turn_seats[0]).user
        action = {"type": "roll"} if match.state["phase"] == "roll" else {"type": "stay"}
        with django_capture_on_commit_callbacks(execute=True):
            play.action_apply(match_id=match.pk, user=mover, action=action)
    assert ActionLog.objects.filter(match=match, actor=kenji, kind="player").exists()
    assert not ActionLog.objects.filter(match=match, actor=anna, kind="player").exists()


def test_the_absent_player_coming_back_withdraws_the_offer(table, django_capture_on_commit_callbacks):
    match, anna, bo, dag = table
    kenji = _volunteer("kenji", bo)
    _absent(match, django_capture_on_commit_callbacks)
    offer = SeatOffer.objects.get(match=match)
    assert play.seat_return(match_id=match.pk, user=anna)
    offer.refresh_from_db()
    assert offer.status == SeatOffer.WITHDRAWN and offers_for(kenji) == []
    with pytest.raises(BadRequest, match="no longer offered"):
        play.offer_accept(offer_id=offer.pk, user=kenji)
    assert match.seats.get(number=0).user == anna
    assert ActionLog.objects.filter(match=match, action__type="substitute_withdrawn").count() == 1


def test_a_majority_refusing_returns_the_seat_to_the_offer(table, django_capture_on_commit_callbacks):
    match, anna, bo, dag = table
    kenji, lea = _volunteer("kenji", bo), _volunteer("lea", bo)
    _absent(match, django_capture_on_commit_callbacks)
    offer = SeatOffer.objects.get(match=match)
    play.offer_accept(offer_id=offer.pk, user=kenji)
    with pytest.raises(NotAllowed):
        play.offer_refuse(offer_id=offer.pk, user=lea)  # not seated here
    with pytest.raises(NotAllowed):
        play.offer_refuse(offer_id=offer.pk, user=kenji)  # the substitute has no vote on themself
    match.refresh_from_db()  # the match as it is now: it says until when a substitute may be refused
    offer.refresh_from_db()
    assert match.refusable_until == offer.refusable_until
    assert refusable_offer(match, bo) == offer
    play.offer_refuse(offer_id=offer.pk, user=bo)  # one of two: not yet a majority
    with pytest.raises(BadRequest, match="already"):
        play.offer_refuse(offer_id=offer.pk, user=bo)
    assert match.seats.get(number=0).user == kenji
    play.offer_refuse(offer_id=offer.pk, user=dag)
    seat = match.seats.get(number=0)
    assert seat.user == anna and seat.is_absent
    offer.refresh_from_db()
    assert offer.status == SeatOffer.CLOSED and offer.refused == [kenji.pk]
    again = SeatOffer.objects.get(match=match, status=SeatOffer.OPEN)
    assert offers_for(kenji) == [] and offers_for(lea) == [again]
    play.offer_accept(offer_id=again.pk, user=lea)
    assert match.seats.get(number=0).user == lea


def test_refusing_after_the_turn_is_too_late(table, django_capture_on_commit_callbacks):
    match, anna, bo, dag = table
    kenji = _volunteer("kenji", bo)
    _absent(match, django_capture_on_commit_callbacks)
    offer = SeatOffer.objects.get(match=match)
    play.offer_accept(offer_id=offer.pk, user=kenji)
    with pytest.raises(BadRequest, match="passed"):
        play.offer_refuse(offer_id=offer.pk, user=bo, now=timezone.now() + timedelta(seconds=match.turn_seconds + 1))
    assert match.seats.get(number=0).user == kenji


def test_a_match_says_until_when_its_table_may_refuse_a_substitute(table, django_capture_on_commit_callbacks):
    """The parts of a change look for refusable substitutes only while the match's mark says one
    may be refused (Match.refusable_until): no query for the changes of every other match, and
    the offer still found while it may be refused; the migration marks the offers before it."""
    import importlib

    from django.apps import apps
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.reads.substitutes import refusable_offers

    match, anna, bo, dag = table
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        assert refusable_offers(match) == []
    assert len(queries) == 0
    kenji = _volunteer("kenji", bo)
    _absent(match, django_capture_on_commit_callbacks)
    offer = SeatOffer.objects.get(match=match)
    play.offer_accept(offer_id=offer.pk, user=kenji)
    match.refresh_from_db()
    offer.refresh_from_db()
    assert match.refusable_until == offer.refusable_until and refusable_offers(match) == [offer]
    Match.objects.filter(pk=match.pk).update(refusable_until=None)  # as before the field
    importlib.import_module("games.migrations.0015_match_refusable_until").mark(apps, None)
    match.refresh_from_db()
    assert match.refusable_until == offer.refusable_until
    SeatOffer.objects.filter(pk=offer.pk).update(refusable_until=timezone.now() - timedelta(seconds=1))
    Match.objects.filter(pk=match.pk).update(refusable_until=timezone.now() - timedelta(seconds=1))
    match.refresh_from_db()
    assert refusable_offers(match) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_volunteers_accepting_at_once_one_gets_the_seat(attempt, settings):
    settings.ABSENT_AFTER_TIMEOUTS = 1
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="race", seats=2, options={"wind": False})
    play.match_join(match_id=match.pk, user=bo)
    kenji, lea = _volunteer("kenji", bo), _volunteer("lea", bo)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    play.deadline_apply(match_id=match.pk)
    offer = SeatOffer.objects.get(match=match)
    barrier, outcomes = threading.Barrier(2), {}

    def accept(user):
        try:
            barrier.wait()
            play.offer_accept(offer_id=offer.pk, user=user)
            outcomes[user.username] = "seat"
        except BadRequest as exc:
            outcomes[user.username] = exc.message
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(u,)) for u in (kenji, lea)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes.values()) == ["Someone else took this seat a moment ago.", "seat"]
    winner = next(name for name, out in outcomes.items() if out == "seat")
    assert match.seats.get(number=0).user.username == winner
    assert ActionLog.objects.filter(match=match, action__type="substitute_took_over").count() == 1


def test_the_api_volunteers_lists_offers_and_accepts_once(table, client, django_capture_on_commit_callbacks):
    from accounts.models import ApiToken
    match, anna, bo, dag = table
    kenji, lea = make_user("kenji"), make_user("lea")
    for user in (kenji, lea):
        history(user, in_time=20, other=bo)
    auth = {u.username: {"HTTP_AUTHORIZATION": f"Token {ApiToken.issue(u)[1]}"} for u in (kenji, lea)}
    bad = client.put("/api/substitutes/volunteering/race", content_type="application/json",
                     data={"hours_from": 30}, **auth["kenji"])
    assert bad.status_code == 400
    for name in ("kenji", "lea"):
        ok = client.put("/api/substitutes/volunteering/race", content_type="application/json",
                        data={"hours_from": 0, "hours_until": 24}, **auth[name])
        assert ok.json() == {"games": [{"game": "race", "hours_from": 0, "hours_until": 24}]}
    _absent(match, django_capture_on_commit_callbacks)
    offers = client.get("/api/substitutes/offers", **auth["kenji"]).json()["offers"]
    assert [o["match"] for o in offers] == [match.pk] and offers[0]["player"] == "anna"
    first = client.post(f"/api/substitutes/offers/{offers[0]['id']}/accept", content_type="application/json", **auth["kenji"])
    assert first.status_code == 200, first.json()
    assert first.json()["my_seat"] == 0
    second = client.post(f"/api/substitutes/offers/{offers[0]['id']}/accept", content_type="application/json", **auth["lea"])
    assert second.status_code == 400 and second.json()["error"] == "Someone else took this seat a moment ago."
    assert client.post("/api/substitutes/offers/999999/accept", content_type="application/json", **auth["lea"]).status_code == 404
