"""Issue 36's ladder: join at the bottom, challenge up to `reach` places above, the result moves
the challenger up or leaves the ladder as it was, the idle drop, and what is refused."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import play
from games.errors import BadRequest, NotAllowed
from games.models import Match
from leagues import ladders
from leagues.listeners import match_changed
from leagues.models import Challenge, Ladder
from leagues.tasks import sweep_events
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _ladder(n=5, **extra):
    olga = make_user("olga")
    ladder = ladders.ladder_create(organiser=olga, name="Harbour Ladder", game="pirater", **extra)
    users = [make_user(f"p{i}") for i in range(1, n + 1)]
    for user in users:
        ladders.ladder_join(ladder_id=ladder.pk, user=user)
    return ladder, users


def _order(ladder):
    return [r.user.username for r in ladder.rungs.select_related("user").order_by("position")]


def _finish(challenge, winner):
    """End the challenge's match with `winner` first: the other resigns through the platform."""
    match = Match.objects.get(pk=challenge.match_id)
    loser = challenge.defender if winner == challenge.challenger else challenge.challenger
    seat = match.seats.get(user=loser).number
    standings = [{"seat": 1 - seat, "rank": 1, "score": 1}, {"seat": seat, "rank": 2, "score": 0}]
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED, standings=standings,
                                             finished_at=timezone.now())
    match_changed(match_id=match.pk)   # the listener, as the platform's job calls it


def test_players_join_at_the_bottom_and_a_won_challenge_moves_the_challenger_up():
    ladder, users = _ladder()
    assert _order(ladder) == ["p1", "p2", "p3", "p4", "p5"]
    challenge = ladders.challenge_make(ladder_id=ladder.pk, challenger=users[4], defender=users[2])
    match = Match.objects.get(pk=challenge.match_id)
    assert match.status == Match.RUNNING and sorted(match.seats.values_list("user__username", flat=True)) == ["p3", "p5"]
    assert match.game_deadline is not None
    _finish(challenge, users[4])
    assert _order(ladder) == ["p1", "p2", "p5", "p3", "p4"]
    challenge.refresh_from_db()
    assert challenge.status == Challenge.WON
    match_changed(match_id=match.pk)          # heard twice: settled once
    assert _order(ladder) == ["p1", "p2", "p5", "p3", "p4"]


def test_a_lost_or_aborted_challenge_leaves_the_ladder_as_it_was():
    ladder, users = _ladder()
    challenge = ladders.challenge_make(ladder_id=ladder.pk, challenger=users[1], defender=users[0])
    _finish(challenge, users[0])
    assert _order(ladder) == ["p1", "p2", "p3", "p4", "p5"]
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.LOST
    other = ladders.challenge_make(ladder_id=ladder.pk, challenger=users[3], defender=users[2])
    play.match_abort(match_id=other.match_id, actor=make_user("admin", is_staff=True))
    sweep_events()   # no listener heard it: the beat settles it
    assert Challenge.objects.get(pk=other.pk).status == Challenge.LOST
    assert _order(ladder) == ["p1", "p2", "p3", "p4", "p5"]


def test_challenges_out_of_reach_downwards_or_doubled_are_refused_and_make_nothing():
    ladder, users = _ladder(reach=2)
    outsider = make_user("stranger")
    for challenger, defender, says in [
        (users[4], users[1], "1 to 2 places above"),      # three above
        (users[1], users[3], "1 to 2 places above"),      # below
        (users[2], users[2], "1 to 2 places above"),      # oneself
        (outsider, users[0], "Join the ladder"),
        (users[1], outsider, "not on this ladder"),
    ]:
        with pytest.raises(BadRequest, match=says):
            ladders.challenge_make(ladder_id=ladder.pk, challenger=challenger, defender=defender)
    ladders.challenge_make(ladder_id=ladder.pk, challenger=users[2], defender=users[0])
    with pytest.raises(BadRequest, match="already"):
        ladders.challenge_make(ladder_id=ladder.pk, challenger=users[1], defender=users[0])
    with pytest.raises(BadRequest, match="already"):
        ladders.ladder_join(ladder_id=ladder.pk, user=users[0])
    with pytest.raises(BadRequest, match="Finish your challenge"):
        ladders.ladder_leave(ladder_id=ladder.pk, user=users[2])
    assert Challenge.objects.count() == 1 and Match.objects.count() == 1


def test_two_challenges_of_one_defender_at_once_make_one_match():
    ladder, users = _ladder()
    results, barrier = [], threading.Barrier(2)

    def challenge(who):
        barrier.wait()
        try:
            results.append(ladders.challenge_make(ladder_id=ladder.pk, challenger=who, defender=users[0]))
        except BadRequest as exc:
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=challenge, args=(u,)) for u in (users[1], users[2])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(type(r).__name__ for r in results) == ["BadRequest", "Challenge"]
    assert Challenge.objects.count() == 1 and Match.objects.count() == 1


def test_the_idle_drop_one_place_a_period_and_the_active_come_up_past_them():
    ladder, users = _ladder(4, idle_days=7)
    later = timezone.now() + timedelta(days=8)
    ladder.rungs.filter(user__in=users[2:]).update(active_at=later)   # p3, p4 active; p1, p2 idle
    assert ladders.ladder_idle_drop(ladder_id=ladder.pk, now=later) == 2
    assert _order(ladder) == ["p3", "p1", "p2", "p4"]
    assert ladders.ladder_idle_drop(ladder_id=ladder.pk, now=later + timedelta(days=1)) == 0   # once a period
    challenge = ladders.challenge_make(ladder_id=ladder.pk, challenger=users[3], defender=users[1],
                                       now=later + timedelta(days=1))
    assert challenge.status == Challenge.OPEN
    # In a challenge nobody drops, however long it lasts (p2 and p4); the idle p3 and p1 do.
    assert ladders.ladder_idle_drop(ladder_id=ladder.pk, now=later + timedelta(days=30)) == 2
    assert _order(ladder) == ["p2", "p3", "p1", "p4"]


def test_leaving_moves_those_below_up_and_bad_settings_are_refused():
    ladder, users = _ladder()
    ladders.ladder_leave(ladder_id=ladder.pk, user=users[1])
    assert _order(ladder) == ["p1", "p3", "p4", "p5"]
    assert list(ladder.rungs.order_by("position").values_list("position", flat=True)) == [1, 2, 3, 4]
    for extra, says in [({"game": "catan_ships"}, "matches of two"), ({"reach": 0}, "1 to 10"),
                        ({"idle_days": "soon"}, "whole number"), ({"name": ""}, "1 to 80")]:
        with pytest.raises(BadRequest, match=says):
            ladders.ladder_create(**{"organiser": users[0], "name": "L", "game": "pirater", **extra})
    assert Ladder.objects.count() == 1
    inactive = make_user("gone", is_active=False)
    with pytest.raises(NotAllowed):
        ladders.ladder_join(ladder_id=ladder.pk, user=inactive)


def test_the_pages_make_a_ladder_join_it_and_challenge_within_reach_only(client):
    olga, ann, bo, cy = make_user("olga"), make_user("ann"), make_user("bo"), make_user("cy")
    client.force_login(olga)
    refused = client.post("/events/ladders/", {"name": "Big", "game": "catan_ships"})
    assert refused.status_code == 400 and "matches of two" in refused.content.decode()
    made = client.post("/events/ladders/", {"name": "Harbour Ladder", "game": "pirater", "reach": 1,
                                            "idle_days": 14, "turn_hours": 24, "game_hours": 48})
    ladder = Ladder.objects.get()
    assert made.status_code == 302 and made["Location"] == ladder.get_absolute_url()
    assert "Harbour Ladder" in client.get("/events/ladders/").content.decode()
    for user in (ann, bo, cy):
        client.force_login(user)
        assert client.post(f"/events/ladders/{ladder.pk}/act/", {"do": "join"}).status_code == 302
    page = client.get(ladder.get_absolute_url()).content.decode()   # cy's, third: may challenge bo only
    assert page.count('name="do" value="challenge"') == 1 and 'value="bo"' in page
    far = client.post(f"/events/ladders/{ladder.pk}/act/", {"do": "challenge", "player": "ann"})
    assert far.status_code == 400 and "1 to 1 places above" in far.content.decode()
    for nobody in ("bo\x00", "x" * 151):   # a NUL was a 500 on PostgreSQL
        refused = client.post(f"/events/ladders/{ladder.pk}/act/", {"do": "challenge", "player": nobody})
        assert refused.status_code == 400 and "There is no player by that name." in refused.content.decode()
    went = client.post(f"/events/ladders/{ladder.pk}/act/", {"do": "challenge", "player": "bo"})
    challenge = Challenge.objects.get()
    assert went.status_code == 302 and went["Location"] == challenge.match.get_absolute_url()
    page = client.get(ladder.get_absolute_url()).content.decode()
    assert "cy challenges bo" in page and 'name="do" value="challenge"' not in page
    assert client.post(f"/events/ladders/{ladder.pk}/act/", {"do": "fly"}).status_code == 400
    client.logout()
    assert client.post(f"/events/ladders/{ladder.pk}/act/", {"do": "join"}).status_code == 302   # to the login
    assert client.get("/events/ladders/999/").status_code == 404


def test_the_ladder_page_speaks_the_viewers_language(client):
    ladder, users = _ladder(3)
    users[2].profile.language = "da"
    users[2].profile.save()
    client.force_login(users[2])
    page = client.get(ladder.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "Udfordr" in page and "Forlad rangstigen" in page and "Rangliste" in page


def test_the_api_documents_and_serves_ladders_and_refuses_bad_input_with_json(client):
    import json

    from accounts.models import ApiToken

    olga, ann, bo = make_user("olga"), make_user("ann"), make_user("bo")
    keys = {u.username: ApiToken.issue(u)[1] for u in (olga, ann, bo)}

    def api(method, path, who=None, body=None):
        headers = {"HTTP_AUTHORIZATION": f"Token {keys[who]}"} if who else {}
        response = getattr(client, method)(f"/api{path}", data=json.dumps(body) if body is not None else None,
                                           content_type="application/json", **headers)
        return response.status_code, (response.json() if response.content else None)

    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/ladders", "/ladders/{ladder_id}", "/ladders/{ladder_id}/rung", "/ladders/{ladder_id}/challenges"} <= set(paths)
    assert api("post", "/ladders", body={"name": "L", "game": "pirater"})[0] == 401
    status, made = api("post", "/ladders", "olga", {"name": "API Ladder", "game": "pirater", "reach": 1})
    assert status == 201 and made["reach"] == 1
    status, refused = api("post", "/ladders", "olga", {"name": "Big", "game": "catan_ships"})
    assert status == 400 and "matches of two" in refused["error"]
    assert api("post", "/ladders", "olga", {"name": "L", "game": "pirater", "extra": 1})[0] in (400, 422)
    # The game's options are taken as a match's are: a float is no whole number, a text no yes-or-no.
    for options, says in (({"rounds": 1.5}, "rounds"), ({"isthmus": "1"}, "isthmus"), ({"rounds": [1]}, "rounds")):
        status, refused = api("post", "/ladders", "olga", {"name": "L", "game": "fuldrigger", "options": options})
        assert status == 400 and says in refused["error"], (options, refused)
    assert Ladder.objects.count() == 1
    for who in ("ann", "bo"):
        assert api("post", f"/ladders/{made['id']}/rung", who)[0] == 201
    status, error = api("post", f"/ladders/{made['id']}/challenges", "ann", {"defender": "bo"})
    assert status == 400 and "places above" in error["error"]          # bo is below ann
    status, error = api("post", f"/ladders/{made['id']}/challenges", "bo", {"defender": "nobody"})
    assert status == 400 and error["error"]
    status, challenge = api("post", f"/ladders/{made['id']}/challenges", "bo", {"defender": "ann"})
    assert status == 201 and challenge["status"] == "open" and Match.objects.filter(pk=challenge["match"]).exists()
    status, detail = api("get", f"/ladders/{made['id']}")
    assert status == 200 and [r["player"] for r in detail["ranking"]] == ["ann", "bo"]
    assert detail["challenges"][0]["id"] == challenge["id"]
    assert api("get", "/ladders/999")[0] == 404
    assert api("delete", f"/ladders/{made['id']}/rung", "bo")[0] == 400     # in a challenge
