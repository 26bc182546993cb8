"""The match page of a Fuldrigger game: the map with its ports, hazards and legend, the pieces
for players and spectators, what spectators must not see, the rules page and the admin."""
import re

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.reads import panels, selectors
from games import play
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.cards import card
from games.fuldrigger.models import Fortress, Ship
from tests.conftest import client_for, make_user
from tests.fuldrigger.fuldrigger_pages_support import change_state, seat_users, start


@pytest.fixture
def match(player, opponent, outsider):
    return start([player, opponent, make_user("dora")])


def test_the_map_shows_every_port_hazard_symbol_and_the_legend(match, player):
    body = client_for(player).get(match.get_absolute_url()).content.decode()
    assert 'id="fd-sea"' in body and 'id="fd-map"' in body
    for port in WORLD.ports:
        assert f">{WORLD.nodes[port]['name']}</text>" in body
    hazards = {data.get("hazard") for data in WORLD.nodes.values()} - {None}
    for hazard in hazards | {"calm_square"}:
        assert f'<symbol id="fd-s-{hazard}"' in body
        assert body.count(f'href="#fd-s-{hazard}"') >= 2        # on the map and in the legend
    placed = sum(1 for data in WORLD.nodes.values() if data.get("hazard"))
    assert len(re.findall(r'<use href="#fd-s-(?!calm_square)', body)) == placed + len(hazards)
    for letter in {data["reef"] for data in WORLD.nodes.values() if data.get("reef")}:
        assert 'class="fd-reef-letter" y=' in body and f">{letter}</text>" in body
    legend = body[body.index('class="fd-legend"'):body.index("</details>", body.index('class="fd-legend"'))]
    for words in ("Tailwind", "Headwind", "Storm", "Icebergs", "Calm", "Calm square", "Reef", "Pirate waters",
                  "privateer", "Fortress"):
        assert words in legend
    assert 'data-zoom="in"' in body and 'data-zoom="out"' in body and 'data-zoom="reset"' in body


def test_the_pacific_is_split_not_crossed():
    from games.fuldrigger.world_map import chart

    c = chart()
    for part in c["routes"].split("M")[1:]:
        (x1, _), (x2, _) = (map(float, p.split()) for p in part.split("L"))
        assert abs(x1 - x2) < c["width"] / 2


def test_players_and_spectators_see_every_ship_and_fortress(match, player, outsider):
    change_state(match, lambda s: s["fortresses"].update({"lisbon": 1}))
    ships = len(match.state["ships"])
    for client in (client_for(player), client_for(outsider), Client()):
        body = client.get(match.get_absolute_url()).content.decode()
        pieces = body[body.index('id="fd-pieces"'):body.index("</svg>", body.index('id="fd-pieces"'))]
        assert len(re.findall(r'<use href="#fd-ship-', pieces)) == ships
        assert pieces.count('href="#fd-fort"') == 1 and "Fortress in Lisbon (Bo)" in pieces
        assert "colour-red" in pieces and "colour-blue" in pieces
        assert "Players" in body and "Chance card:" in body


def test_spectators_get_no_action_forms(match, outsider):
    body = client_for(outsider).get(match.get_absolute_url()).content.decode()
    assert 'id="fd-act"' not in body and "Sail…" not in body and "Roll the dice" not in body


def test_spectators_never_see_private_offers_the_seed_or_the_deck(match, player, opponent, outsider):
    users = seat_users(match)
    mine = next(s["id"] for s in match.state["ships"].values() if s["owner"] == 1)
    play.action_apply(match_id=match.pk, user=users[0], action={
        "type": "offer", "to": 1, "give": {"ducats": 37}, "take": {"ships": [mine]}})
    match.refresh_from_db()
    deck_texts = [card(c)["text"] for c in match.state["deck"]]
    for client, sees_offer in ((client_for(outsider), False), (client_for(users[2]), False), (Client(), False),
                               (client_for(opponent), True), (client_for(player), True)):
        body = client.get(match.get_absolute_url()).content.decode()
        assert ("37 ducats" in body) is sees_offer
        assert match.seed not in body
        assert not [text for text in deck_texts if text in body]
    assert "Accept" in client_for(opponent).get(match.get_absolute_url()).content.decode()


def test_the_fuldrigger_templates_cost_no_queries(match, player):
    """The page's own parts render from the engine's view and the recent log the socket reads
    with the match (what the fleet's losses are told from)."""
    match = selectors.match_live(match_id=match.pk)
    context = panels.match_context(match, player)
    with CaptureQueriesContext(connection) as queries:
        render_to_string("games/fuldrigger/board.html", context)
        render_to_string("games/fuldrigger/partials/live.html", context)
    assert len(queries) == 0


def test_the_rules_page_explains_the_game_with_the_odds():
    body = Client().get(reverse("rules", args=["fuldrigger"])).content.decode()
    assert "Fuldrigger" in body and "Trade war" in body and "10 squares" in body
    assert "17% / 56% / 28%" in body                       # one attacker: F37 on two dice


@pytest.mark.django_db
def test_the_admin_lists_and_filters_ships_and_fortresses_for_staff(match, staff, outsider):
    Fortress.objects.create(match=match, owner_seat=0, owner=match.creator, port="lisbon")
    ship = Ship.objects.filter(match=match).first()
    client = client_for(staff)
    ships_url = reverse("admin:fuldrigger_ship_changelist")
    forts_url = reverse("admin:fuldrigger_fortress_changelist")
    for query in ("", f"?match__id__exact={match.pk}", f"?owner__id__exact={ship.owner_id}", "?port=copenhagen",
                  "?port=-", "?privateer__exact=0", "?cargo=-", "?cargo=tea", "?q=Batavia"):
        response = client.get(ships_url + query)
        assert response.status_code == 200, query
    body = client.get(ships_url + "?port=copenhagen").content.decode()
    assert "Kronprinsen" in body and "Duyfken" not in body
    for query in ("", "?port=lisbon", f"?match__id__exact={match.pk}"):
        assert client.get(forts_url + query).status_code == 200
    assert "Lisbon" in client.get(forts_url).content.decode()
    assert client_for(outsider).get(ships_url).status_code == 302
