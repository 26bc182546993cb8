"""Catan with ships' match page: the board for every viewer, the seat's legal places lit as
buttons that post exactly the legal actions, and hands hidden from everyone but their owner
over the page, the HTMX live part, the socket's render and the JSON API."""
import json
import re

import pytest

from django.urls import reverse

from accounts.models import ApiToken
from games.reads import panels
from games.catan_ships import pages
from games.models import Match
from tests.catan_ships.catan_pages_support import (
    ENGINE, new_match, offered, play_until, set_state, users_by_seat,
)
from tests.conftest import client_for, refusal_status


def live_of(user, match, **headers):
    return client_for(user).get(match.get_absolute_url(), HTTP_HX_REQUEST="true", **headers).content.decode()


def test_setup_lights_every_legal_corner_for_the_seat_to_act_only(player, opponent, outsider, staff):
    match = new_match(player, opponent, outsider)
    users = users_by_seat(match)
    first = match.turn_seats[0]
    legal = ENGINE.legal_actions(match.state, first)
    assert {a["type"] for a in legal} == {"place_settlement"}
    page = client_for(users[first]).get(match.get_absolute_url()).content.decode()
    # The board: every hex drawn, the lit places are buttons posting exactly the legal actions.
    view = ENGINE.view(match.state, first)
    assert page.count("<polygon ") == len(view["board"]["hexes"])
    assert page.count('class="cs-spot k-vertex') == len(legal)
    assert sorted(map(json.dumps, offered(page))) == sorted(map(json.dumps, legal))
    assert "Place a settlement on a lit corner, then a road on a lit edge beside it." in page
    for other in [u for s, u in users.items() if s != first] + [staff]:
        body = client_for(other).get(match.get_absolute_url()).content.decode()
        assert "cs-spot" not in body and offered(body) == []
        assert body.count("<polygon ") == len(view["board"]["hexes"])


def test_clicking_a_lit_corner_then_a_lit_edge_places_them(player, opponent, outsider):
    match = new_match(player, opponent, outsider)
    users = users_by_seat(match)
    first = match.turn_seats[0]
    url = reverse("match_action", args=[match.pk])
    client = client_for(users[first])
    page = live_of(users[first], match)
    corner = offered(page)[0]
    response = client.post(url, {"action": json.dumps(corner), "version": match.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    match.refresh_from_db()
    assert {"vertex": corner["vertex"], "seat": first, "kind": "settlement"} in ENGINE.view(match.state, None)["buildings"]
    # The answer is the new live part: now the edges by that settlement are lit.
    roads = offered(response.content.decode())
    assert roads and {a["type"] for a in roads} == {"place_road"}
    assert roads == [a for a in roads if a in ENGINE.legal_actions(match.state, first)]
    assert response.content.decode().count('class="cs-spot k-edge') == len(roads)
    response = client.post(url, {"action": json.dumps(roads[0]), "version": match.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    match.refresh_from_db()
    assert {"edge": roads[0]["edge"], "seat": first} in ENGINE.view(match.state, None)["roads"]
    # An action that is not legal (the same edge again) is refused with a message, not a 500
    # (to htmx as a 200 with the refusal's status, config/htmx.py), and changes nothing.
    version = match.version
    response = client.post(url, {"action": json.dumps(roads[0]), "version": match.version}, HTTP_HX_REQUEST="true")
    assert 400 <= refusal_status(response) < 500 and 'role="alert"' in response.content.decode()
    match.refresh_from_db()
    assert match.version == version


def test_hands_and_development_cards_are_seen_by_their_owner_only(player, opponent, outsider, staff, client):
    match = new_match(player, opponent, outsider)
    match = play_until(match, lambda s: s["phase"] == "main")
    state = dict(match.state)
    # Give seat 0 a hand and a card no one else holds, so their words can be looked for.
    state["hands"] = [dict(h) for h in state["hands"]]
    state["hands"][0] = {"brick": 0, "lumber": 0, "wool": 0, "grain": 0, "ore": 0, **{"ore": 3, "wool": 2}}
    state["dev"] = [list(d) for d in state["dev"]]
    state["dev"][0] = [["year_of_plenty", 0]]
    for seat in (1, 2):
        state["dev"][seat] = []
    match = set_state(match, state)
    users = users_by_seat(match)
    owner = users[0]

    def shown(html):
        return 'class="cs-hand"' in html and "Year of plenty" in html

    assert shown(client_for(owner).get(match.get_absolute_url()).content.decode())
    assert shown(live_of(owner, match))
    assert shown(panels.render_live(match, owner))   # what the socket sends
    for viewer in (users[1], users[2], staff):
        for html in (client_for(viewer).get(match.get_absolute_url()).content.decode(), live_of(viewer, match),
                     panels.render_live(match, viewer)):
            assert "Year of plenty" not in html
            # Another player reads their own hand only; a spectator reads none.
            assert ('class="cs-hand"' in html) is (viewer != staff)
    anonymous = client.get(match.get_absolute_url()).content.decode()
    assert 'class="cs-hand"' not in anonymous and "Year of plenty" not in anonymous
    assert "Year of plenty" not in panels.render_live(match, None)
    # The JSON API's view: the hand and the cards in the owner's entry only, counts for others.
    for seat, user in ((0, owner), (1, users[1]), (None, staff)):
        key = ApiToken.issue(user)[1]
        body = client.get(f"/api/matches/{match.pk}", HTTP_AUTHORIZATION=f"Token {key}").json()
        assert body["view"]["players"][0]["cards"] == 5 and body["view"]["players"][0]["development"] == 1
        for entry in body["view"]["players"]:
            mine = entry["seat"] == seat
            assert ("hand" in entry) is mine and ("dev_cards" in entry) is mine


def test_a_finished_match_names_the_winner_to_everyone(player, opponent, outsider, staff):
    match = new_match(player, opponent, outsider)
    state = dict(match.state, phase="over", winner=1)
    Match.objects.filter(pk=match.pk).update(state=state, turn_seats=[], status=Match.FINISHED)
    match.refresh_from_db()
    name = users_by_seat(match)[1].profile.display_name
    for viewer in (player, opponent, outsider, staff):
        page = client_for(viewer).get(match.get_absolute_url()).content.decode()
        assert re.search(r'<p class="cs-winner" role="status"[^>]*>.*<strong>' + name + " wins!</strong>", page)
        assert "cs-spot" not in page and offered(page) == []


@pytest.mark.parametrize("ships, players", [(False, 3), (False, 5), (True, 3), (True, 4), (True, 6)])
def test_no_two_places_of_a_board_share_a_name(ships, players):
    """Every corner, edge and hex of a board is told apart in words (a list of choices, a screen
    reader's label): two land hexes whose shared edge has water at both ends meet at two
    corners, named by their end ("north corner of Hills 3 / Forest 5"), not both alike."""
    for seed in range(6):
        state = ENGINE.new_game(players, f"names-{seed}", {"ships": ships})
        board = pages.Board(ENGINE.view(state, None)["board"])
        for kind, ids in (("vertex", board.vertices), ("edge", board.edges), ("hex", board.hex_by_id)):
            names = [board.place_words(kind, i) for i in ids]
            twins = {n for n in names if names.count(n) > 1}
            assert not twins, (kind, seed, sorted(twins)[:3])


@pytest.mark.parametrize("ships, players", [(False, 4), (True, 3), (True, 5)])
def test_no_harbour_marker_covers_a_number_token(ships, players):
    """A harbour's marker stands out at sea but clear of the water hex's number token (a "2:1"
    covered a "12"): the drawn circles keep apart, strokes included."""
    for seed in range(8):
        state = ENGINE.new_game(players, f"harbours-{seed}", {"ships": ships})
        board = pages.Board(ENGINE.view(state, None)["board"])
        tokens = [(h["x"], h["y"]) for h in board.hexes if h.get("number")]
        markers = [d for d in (board.harbour_drawing(h) for h in board.harbours) if d]
        assert markers
        for m in markers:
            nearest = min(((m["x"] - x) ** 2 + (m["y"] - y) ** 2) ** .5 for x, y in tokens)
            assert nearest >= pages.TOKEN_R + pages.HARBOUR_R + .04, (seed, m["kind"], nearest)
