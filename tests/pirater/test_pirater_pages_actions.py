"""Playing Pirater through the match page: rolling and moving by plain form and by htmx, the
die / ship / direction form, illegal moves refused with the engine's message, the size of the
live part."""
import html
import json
import re

import pytest
from django.urls import reverse

from games import play
from games.play import lobby
from games.engines import get_engine
from games.models import Match
from games.pirater.pages import Grid
from tests.pirater.pirater_pages_support import new_match
from tests.conftest import client_for, make_user, refusal_status

ENGINE = get_engine("pirater")
LIVE_LIMIT = 15_000


@pytest.fixture
def pirater_match(player, opponent):
    return new_match(player, opponent)


def to_act(match, *users):
    """The user whose turn it is, and a client logged in as them."""
    current = match.state["current"]
    user = next(u for u in users if match.seats.get(user=u).number == current)
    return user, client_for(user)


def action_url(match):
    return reverse("match_action", args=[match.pk])


def buttons(body: str) -> list[dict]:
    """The actions offered as buttons named "action" (their values are the action's JSON)."""
    found = re.findall(r"<button[^>]*name=\"action\" value='([^']*)'", body)
    return [json.loads(html.unescape(v)) for v in found]


def roll(match, client):
    response = client.post(action_url(match), {"action": '{"type":"roll"}', "version": match.version})
    match.refresh_from_db()
    return response


def test_it_rolls_by_plain_form_and_redirects(pirater_match, player, opponent):
    _, client = to_act(pirater_match, player, opponent)
    response = roll(pirater_match, client)
    assert response.status_code == 302 and response.url == pirater_match.get_absolute_url()
    assert pirater_match.version == 1
    assert pirater_match.state["phase"] in ("move", "roll")  # a lost roll passes the turn (P11)


def test_it_rolls_and_moves_by_htmx_and_gets_the_live_part(pirater_match, player, opponent):
    _, client = to_act(pirater_match, player, opponent)
    response = client.post(action_url(pirater_match), {"action": '{"type":"roll"}', "version": 0},
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.startswith('<div id="match-live"') and "<html" not in body
    assert 'class="pt-pieces"' in body and 'class="pt-board"' not in body   # the board is static
    pirater_match.refresh_from_db()
    assert pirater_match.state["phase"] == "move"  # the seed's first roll is usable
    offered = buttons(body)
    legal = ENGINE.legal_actions(pirater_match.state, pirater_match.state["current"])
    key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
    assert sorted(offered, key=key) == sorted(legal, key=key)   # exactly the engine's legal actions
    dice = [int(d) for d in re.findall(r'<span class="die(?: used)?"[^>]*>(\d)</span>',
                                       body.split('class="pt-dice"')[1].split("</p>")[0])]
    assert sorted(dice) == sorted(pirater_match.state["dice"])
    # The pickers and the move list read the dice in the order the turn line shows them.
    picked = [int(d) for d in re.findall(r'name="pt-die" value="(\d)"', body)]
    listed = list(dict.fromkeys(a["die"] for a in offered))
    shown = [d for d in dict.fromkeys(dice) if d in listed]
    assert picked == listed == shown
    move = legal[0]
    # Targets light up on the board, one per square a legal move reaches.
    targets = re.search(r'<g class="pt-ts">(.*?)</g>', body).group(1)
    grid = Grid(14, 22)
    reached = {tuple(a["to"]) for a in legal}
    assert targets.count("<use") == sum(2 if row == 0 else 1 for row, _ in reached)  # straits: both halves
    for row, col in reached:
        box = grid.box(row, col)
        assert f'x="{box["x"]}" y="{box["y"]}"' in targets
    response = client.post(action_url(pirater_match), {"action": json.dumps(move), "version": 1},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    pirater_match.refresh_from_db()
    assert pirater_match.version == 2
    ship = pirater_match.state["ships"][move["ship"]]
    assert ship["at"] == move["to"]
    assert "sailed" in response.content.decode()   # the log in words


def test_the_move_list_offers_each_die_and_ship_its_directions(pirater_match, player, opponent):
    _, client = to_act(pirater_match, player, opponent)
    roll(pirater_match, client)
    assert pirater_match.state["phase"] == "move"  # the seed's first roll is usable
    page = client.get(pirater_match.get_absolute_url()).content.decode()
    form = re.search(r'<form class="pt-list".*?</form>', page, re.S).group(0)
    legal = ENGINE.legal_actions(pirater_match.state, pirater_match.state["current"])
    # One line per die and ship, one button per direction, in the engine's order.
    groups = re.findall(r'<p><b>(\d)</b> [^:]+: (.*?)</p>', form)
    assert groups and sum(len(buttons(line)) for _, line in groups) == len(legal)
    for die, line in groups:
        assert {a["die"] for a in buttons(line)} == {int(die)}
        assert len({a["ship"] for a in buttons(line)}) == 1
    # The pickers the script shows are there, hidden without it.
    assert '<fieldset class="pt-pick" hidden><legend>Die</legend>' in page
    # The first die picked is the first one the turn line shows (as rolled), not the highest.
    first = next(d for d in pirater_match.state["dice"] if any(a["die"] == d for a in legal))
    assert f'name="pt-die" value="{first}" checked' in page
    # Without JavaScript, any button is the move: the plain form posts it and redirects.
    move = legal[-1]
    response = client.post(action_url(pirater_match), {"action": json.dumps(move), "version": pirater_match.version})
    assert response.status_code == 302
    pirater_match.refresh_from_db()
    assert pirater_match.state["ships"][move["ship"]]["at"] == move["to"]


def test_form_fields_can_name_the_die_ship_and_direction(pirater_match, player, opponent):
    """The generic a.<key> fields fill in a move (games.web.views.parse_action)."""
    _, client = to_act(pirater_match, player, opponent)
    roll(pirater_match, client)
    assert pirater_match.state["phase"] == "move"  # the seed's first roll is usable
    move = ENGINE.legal_actions(pirater_match.state, pirater_match.state["current"])[0]
    response = client.post(action_url(pirater_match), {
        "action": '{"type":"move"}', "version": pirater_match.version,
        "a.die": str(move["die"]), "a.ship": str(move["ship"]), "a.direction": move["direction"]})
    assert response.status_code == 302
    pirater_match.refresh_from_db()
    assert pirater_match.state["ships"][move["ship"]]["at"] == move["to"]


def test_an_illegal_move_is_refused_with_the_engines_message_and_changes_nothing(pirater_match, player, opponent):
    _, client = to_act(pirater_match, player, opponent)
    roll(pirater_match, client)
    assert pirater_match.state["phase"] == "move"  # the seed's first roll is usable
    state, version = pirater_match.state, pirater_match.version
    seat = state["current"]
    ship = next(s for s in state["ships"] if s["seat"] == seat)
    die = state["dice"][0]
    move = {"type": "move", "die": die, "ship": ship["id"], "direction": "ne"}  # no diagonals at sea (P3)
    response = client.post(action_url(pirater_match), {"action": json.dumps(move), "version": version},
                           HTTP_HX_REQUEST="true")
    assert refusal_status(response) == 400
    assert "Ships move diagonally only inside the trade winds." in response.content.decode()
    assert response.content.decode().startswith('<div id="match-live"')
    response = client.post(action_url(pirater_match), {
        "action": '{"type":"move"}', "version": version, "a.die": "7", "a.ship": str(ship["id"]),
        "a.direction": "n"})
    assert response.status_code == 400
    assert "You have no unused die showing 7." in response.content.decode()
    assert 'class="pt-board"' in response.content.decode()   # the whole page, with the message
    pirater_match.refresh_from_db()
    assert pirater_match.version == version and pirater_match.state == state


def test_moving_out_of_turn_is_refused(pirater_match, player, opponent):
    current = pirater_match.state["current"]
    waiting = player if pirater_match.seats.get(user=player).number != current else opponent
    response = client_for(waiting).post(action_url(pirater_match), {"action": '{"type":"roll"}'},
                                        HTTP_HX_REQUEST="true")
    assert refusal_status(response) == 400 and "It is not your turn." in response.content.decode()
    response = client_for(make_user("eve")).post(action_url(pirater_match), {"action": '{"type":"roll"}'})
    assert response.status_code == 403


def test_the_htmx_response_stays_under_15_kb_in_a_crowded_game(player, monkeypatch):
    """Eight players on the double board, four dice: the most pieces and moves there are.
    A fixed dice seed makes the game, and so the sizes, the same on every run."""
    monkeypatch.setattr(lobby.secrets, "token_hex", lambda n: "5eed" * (n // 2))
    match = play.match_create(creator=player, game="pirater", seats=8, options={"double_board": True})
    users = [player] + [make_user(n) for n in ("bo", "cy", "di", "ed", "fi", "gus", "hal")]
    for user in users[1:]:
        play.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    by_seat = {s.number: s.user for s in match.seats.all()}
    largest = 0
    for _ in range(48):   # a few rounds of rolls and moves, every response measured
        seat = match.state["current"]
        client = client_for(by_seat[seat])
        action = ENGINE.legal_actions(match.state, seat)[0]
        response = client.post(action_url(match), {"action": json.dumps(action), "version": match.version},
                               HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        largest = max(largest, len(response.content))
        match.refresh_from_db()
        if match.status != Match.RUNNING:
            break
    assert largest < LIVE_LIMIT, largest


def test_a_stale_form_gets_409_and_the_current_board(pirater_match, player, opponent):
    _, client = to_act(pirater_match, player, opponent)
    roll(pirater_match, client)
    response = client.post(action_url(pirater_match), {"action": '{"type":"roll"}', "version": 0},
                           HTTP_HX_REQUEST="true")
    assert refusal_status(response) == 409
    assert f'data-version="{pirater_match.version}"' in response.content.decode()
