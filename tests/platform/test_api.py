"""The JSON API: tokens, matches, legal actions, versioned submissions, the log and the replay."""
import json

import pytest
from django.core.management import call_command

from accounts.models import ApiToken
from games import play
from games.models import Match


def api(client, method, path, key=None, body=None):
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"} if key else {}
    data = json.dumps(body) if body is not None else None
    call = getattr(client, method)
    response = call(f"/api{path}", data=data, content_type="application/json", **headers)
    return response.status_code, response.json()


@pytest.fixture
def keys(player, opponent, outsider):
    return {u.username: ApiToken.issue(u)[1] for u in (player, opponent, outsider)}


def test_no_or_bad_token_is_401_json(client, db):
    assert api(client, "get", "/matches") == (401, {"error": "Send a valid API token: 'Authorization: Token <key>'."})
    assert api(client, "get", "/matches", key="tw_nonsense")[0] == 401


def test_me_says_whose_token_it_is(client, keys, player):
    """GET /api/me answers for the token's owner only: a bot learns who it plays as."""
    player.profile.language = "sv"
    player.profile.save()
    status, me = api(client, "get", "/me", keys["anna"])
    assert status == 200 and me["username"] == "anna" and me["language"] == "sv"
    assert api(client, "get", "/me", keys["bo"])[1]["username"] == "bo"
    assert api(client, "get", "/me")[0] == 401
    assert api(client, "post", "/me", keys["anna"])[0] == 405


def test_a_bot_creates_joins_and_plays_a_match(client, keys):
    status, created = api(client, "post", "/matches", keys["anna"], {"game": "race", "seats": 2, "options": {"finish": 10}})
    assert status == 201 and created["status"] == "open"
    match_id = created["id"]
    status, joined = api(client, "post", f"/matches/{match_id}/join", keys["bo"])
    assert status == 200 and joined["status"] == "running" and joined["my_seat"] == 1
    status, actions = api(client, "get", f"/matches/{match_id}/actions", keys["anna"])
    assert actions == {"version": 0, "my_turn": True, "actions": [{"type": "roll"}]}
    status, after = api(client, "post", f"/matches/{match_id}/actions", keys["anna"],
                        {"action": {"type": "roll"}, "version": 0})
    assert status == 201 and after["version"] == 1 and {"type": "advance"} in after["actions"]
    status, view = api(client, "get", f"/matches/{match_id}", keys["bo"])
    assert view["version"] == 1 and "seed" not in view["view"] and "secrets" not in view["view"]
    assert api(client, "get", "/matches", keys["bo"])[1]["matches"][0]["id"] == match_id


def test_an_open_match_is_read_before_its_deal_with_no_view(client, keys):
    """An open match has no state yet: its view is null (was a 500, found by fuzzing the API)."""
    status, created = api(client, "post", "/matches", keys["anna"], {"game": "pirater", "seats": 3})
    assert status == 201 and created["status"] == "open"
    for who in ("anna", "bo"):
        status, read = api(client, "get", f"/matches/{created['id']}", keys[who])
        assert status == 200 and read["status"] == "open" and read["view"] is None


def test_a_move_before_the_deal_says_the_match_has_not_started(client, keys):
    """The creator of an open match has a seat, not yet its number: a move was told "You have no
    seat in this match.", and standing orders "Only a seated player keeps standing orders."."""
    status, created = api(client, "post", "/matches", keys["anna"], {"game": "pirater", "seats": 3})
    assert api(client, "post", f"/matches/{created['id']}/actions", keys["anna"],
               {"action": {"type": "roll"}, "version": 0}) == (400, {"error": "The match has not started yet."})
    assert api(client, "post", f"/matches/{created['id']}/actions", keys["bo"],
               {"action": {"type": "roll"}, "version": 0}) == (403, {"error": "You have no seat in this match."})
    # Standing orders likewise: kept once the match runs, not refused as if the creator had no seat.
    assert api(client, "put", f"/matches/{created['id']}/orders", keys["anna"], {"lines": [{"kind": "roll"}]}) == (
        400, {"error": "Standing orders are kept while the match runs."})


def test_api_errors_are_json_4xx_and_change_nothing(client, keys, race_match):
    path = f"/matches/{race_match.pk}/actions"
    assert api(client, "post", path, keys["anna"], {"action": {"type": "roll"}}) == \
        (400, {"error": "Send the version you acted on as \"version\"."})
    status, body = api(client, "post", path, keys["anna"], {"action": {"type": "fly"}, "version": 0})
    assert status == 400 and "cannot fly" in body["error"]
    status, body = api(client, "post", path, keys["anna"], {"action": {"type": "roll"}, "version": 7})
    assert status == 409 and body["version"] == 0
    status, body = api(client, "post", path, keys["bo"], {"action": {"type": "roll"}, "version": 0})
    assert status == 400 and body["error"] == "It is not your turn."
    assert api(client, "post", path, keys["carl"], {"action": {"type": "roll"}, "version": 0})[0] == 403
    response = client.post(f"/api{path}", data="{oops", content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {keys['anna']}")
    assert response.status_code == 400 and response.json()["error"] == "The body is not valid JSON."
    assert api(client, "delete", path, keys["anna"])[0] == 405
    assert api(client, "get", "/matches/987654", keys["anna"])[0] == 404
    race_match.refresh_from_db()
    assert race_match.version == 0


def test_create_errors(client, keys):
    assert api(client, "post", "/matches", keys["anna"], {"game": "race", "seats": "many"})[0] == 400
    assert api(client, "post", "/matches", keys["anna"], {"game": "race", "game_deadline": "soon"})[0] == 400
    assert api(client, "post", "/matches", keys["anna"], {"game": "nope"})[0] == 400
    assert Match.objects.count() == 0


def test_log_hides_other_seats_events_and_replay_waits_for_the_end(client, keys, race_match, staff):
    play.action_apply(match_id=race_match.pk, user=race_match.creator, action={"type": "roll"})
    _, mine = api(client, "get", f"/matches/{race_match.pk}/log", keys["anna"])
    _, theirs = api(client, "get", f"/matches/{race_match.pk}/log", keys["bo"])
    assert [e["type"] for e in mine["log"][0]["events"]] == ["roll", "peek"]
    assert [e["type"] for e in theirs["log"][0]["events"]] == ["roll"]
    assert api(client, "get", f"/matches/{race_match.pk}/replay", keys["bo"])[0] == 403
    play.match_finish(match_id=race_match.pk, reason="ended by an admin", actor=staff)
    status, replay = api(client, "get", f"/matches/{race_match.pk}/replay", keys["bo"])
    race_match.refresh_from_db()
    assert status == 200 and replay["seed"] == race_match.seed and len(replay["log"]) == 2


def test_openapi_schema_lists_the_endpoints(client, db):
    schema = client.get("/api/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    assert {"/me", "/matches", "/matches/{match_id}/actions", "/matches/{match_id}/replay"} <= set(schema["paths"])


def test_issue_token_command_prints_a_working_key(client, player, capsys):
    call_command("issue_token", "anna")
    key = capsys.readouterr().out.strip()
    assert api(client, "get", "/matches", key)[0] == 200
    assert ApiToken.objects.get().digest != key  # only the hash is kept


def test_a_players_legal_actions_are_one_read_and_others_are_told_why_not(client, keys, race_match, outsider):
    """A bot asks for its actions whenever its turn comes: its seat is read with the match, in one
    query (the token's holder is kept in the cache). Anyone without a seat is told why not."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    path = f"/matches/{race_match.pk}/actions"
    api(client, "get", path, keys["anna"])  # the token's holder, read once into the cache
    with CaptureQueriesContext(connection) as reads:
        status, actions = api(client, "get", path, keys["anna"])
    assert status == 200 and actions == {"version": 0, "my_turn": True, "actions": [{"type": "roll"}]}
    assert len(reads.captured_queries) == 1, reads.captured_queries
    assert "ORDER BY" not in reads.captured_queries[0]["sql"]  # one seat per player: nothing to sort
    assert api(client, "get", path, keys["bo"])[1] == {"version": 0, "my_turn": False, "actions": []}
    race_match.is_public = False
    race_match.save(update_fields=["is_public"])
    assert api(client, "get", path, keys["carl"]) == (403, {"error": "This match is private."})
    race_match.is_public = True
    race_match.save(update_fields=["is_public"])
    assert api(client, "get", path, keys["carl"]) == (403, {"error": "You have no seat in this match."})
    assert api(client, "get", "/matches/987654/actions", keys["anna"]) == (404, {"error": "No such match."})
