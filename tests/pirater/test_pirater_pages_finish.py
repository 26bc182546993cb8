"""A whole game of Pirater through the pages, always posting one of the buttons the page offers,
to a winner; the finished page names the winner for players and spectators."""
import html
import json
import re

from django.urls import reverse

from games import play
from games.engines import get_engine
from games.engines.pirater.bots import score_move
from games.models import Match
from tests.conftest import client_for

ENGINE = get_engine("pirater")
MAX_ACTIONS = 500


def offered(body: str) -> list[dict]:
    return [json.loads(html.unescape(v)) for v in re.findall(r"<button[^>]*name=\"action\" value='([^']*)'", body)]


def sort_key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def choose(match, actions: list[dict]) -> dict:
    """Roll when rolling is offered; otherwise the move that best serves the treasure race
    (the engine's bot heuristic), so that the game ends soon."""
    if actions[0]["type"] in ("roll", "choose_port"):
        return actions[0]
    seat = match.state["current"]
    return max(actions, key=lambda a: score_move(match.state, seat, a))


def test_a_game_played_through_the_pages_ends_with_the_winner_shown(player, opponent, outsider):
    match = play.match_create(creator=player, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    clients = {s.number: client_for(s.user) for s in match.seats.all()}
    url = reverse("match_action", args=[match.pk])
    live, poster = "", None
    for _ in range(MAX_ACTIONS):
        seat = match.state["current"]
        client = clients[seat]
        if seat != poster:   # the turn passed: the next player loads their live part
            live = client.get(match.get_absolute_url(), HTTP_HX_REQUEST="true").content.decode()
        actions = offered(live)
        legal = ENGINE.legal_actions(match.state, match.state["current"])
        assert sorted(actions, key=sort_key) == sorted(legal, key=sort_key)   # listed in the dice's order
        response = client.post(url, {"action": json.dumps(choose(match, actions)), "version": match.version},
                               HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        live, poster = response.content.decode(), seat
        match.refresh_from_db()
        if match.status != Match.RUNNING:
            break
    assert match.status == Match.FINISHED
    winner = match.state["winner"]
    name = match.seats.get(number=winner).user.profile.display_name
    how = {"treasure": "brought the treasure home", "last_ships": "sank the last of the other ships"}
    banner = f"<strong>{name} {how[match.state['win']]} and wins!</strong>"
    assert banner in response.content.decode()   # the winning move's own response
    for viewer in (player, opponent, outsider):
        page = client_for(viewer).get(match.get_absolute_url()).content.decode()
        assert '<p class="pt-winner" role="status">' in page and banner in page
        assert "Final standings" in page
        assert 'class="pt-list"' not in page and "Roll the dice" not in page


def test_a_game_with_no_ship_left_says_nobody_wins(player, opponent):
    """P24: a powder blast can sink the last ships of everyone at once."""
    match = play.match_create(creator=player, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    match.state = {**match.state, "phase": "over", "winner": None, "win": None,
                   "ships": [dict(s, at=None, lost="powder") for s in match.state["ships"]]}
    match.save(update_fields=["state"])
    page = client_for(player).get(match.get_absolute_url()).content.decode()
    assert "No ship is left afloat: nobody wins." in page


def test_a_match_ended_by_the_platform_says_why(player, opponent, staff):
    match = play.match_create(creator=player, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    play.match_finish(match_id=match.pk, reason="the match deadline passed", actor=staff)
    page = client_for(opponent).get(match.get_absolute_url()).content.decode()
    assert "The match is over: the match deadline passed." in page
    assert "Roll the dice" not in page
