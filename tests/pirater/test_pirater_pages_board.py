"""Pirater's match page: the board drawn from the match options, the pieces for players and
spectators, the rules page."""
import re

import pytest
from django.urls import reverse

from games import play
from games.engines import get_engine
from games.models import Match
from tests.pirater.pirater_pages_support import choose_ports, new_match
from tests.conftest import client_for, make_user

ENGINE = get_engine("pirater")


@pytest.fixture
def pirater_match(player, opponent):
    """A running two-player Pirater match: anna is seat 0 (north-west), bo seat 1 (south-east)."""
    return new_match(player, opponent)


def board_svg(page: str) -> str:
    return re.search(r'<svg class="pt-board".*?</svg>', page, re.S).group(0)


def pieces_svg(page: str) -> str:
    return re.search(r'<svg class="pt-pieces".*?</svg>', page, re.S).group(0)


def test_it_draws_the_single_board_with_its_squares(pirater_match, player):
    page = client_for(player).get(pirater_match.get_absolute_url()).content.decode()
    svg = board_svg(page)
    assert svg.count('class="k-trade_wind"') == 20
    assert svg.count('class="k-strait"') == 8          # four straits, two halves each (P4)
    assert svg.count('class="pt-strait-label"') == 8   # both halves carry the pair's label
    for label in ("S1", "S2", "S3", "S4"):
        assert svg.count(f">{label}</text>") == 2
    assert svg.count('class="k-anchorage"') == 8
    assert svg.count('class="k-island"') == 4
    assert svg.count('class="k-home"') == 4 and svg.count('class="k-port"') == 4
    assert svg.count('class="k-sea"') == 204
    assert 'data-trade-winds="20"' in svg and 'data-straits="4"' in svg
    assert "Treasure" in svg and "Island" in svg
    assert 'viewBox="-6 -6 226 136"' in svg
    assert "20 trade-wind squares" in page


def test_the_pieces_share_the_boards_viewbox(pirater_match, player):
    page = client_for(player).get(pirater_match.get_absolute_url()).content.decode()
    viewbox = re.search(r'viewBox="([^"]+)"', board_svg(page)).group(1)
    assert f'viewBox="{viewbox}"' in pieces_svg(page)
    assert 'css/pirater.css' in page and 'js/pirater.js' in page


def ships_drawn(page: str, colour: str) -> int:
    """Ships drawn in a seat's colour (a ship in a strait is drawn on both halves)."""
    fleet = re.search(rf'<g class="pt-fleet colour-{colour}[ "].*?</g>', pieces_svg(page), re.S)
    return fleet.group(0).count('href="#pt-ship') if fleet else 0


def test_it_draws_every_ship_in_its_players_colour(pirater_match, player):
    page = client_for(player).get(pirater_match.get_absolute_url()).content.decode()
    pieces = pieces_svg(page)
    assert ships_drawn(page, "red") == 3 and ships_drawn(page, "blue") == 3
    assert pieces.count('href="#pt-coin"') == 1       # the treasure lies on the island
    assert pieces.count('class="pt-home colour-red"') == 1 and pieces.count('class="pt-home colour-blue"') == 1
    # the fleets in words: anna's ships beside the north-west anchorage, bo's the south-east (P5)
    assert "<strong>Anna</strong>: C1, B2, C2" in page
    assert "<strong>Bo</strong>: U11, T12, T11" in page


def test_spectators_see_the_board_and_pieces_but_no_forms(pirater_match, outsider):
    page = client_for(outsider).get(pirater_match.get_absolute_url()).content.decode()
    assert ships_drawn(page, "red") + ships_drawn(page, "blue") == 6
    assert "movable" not in pieces_svg(page)
    assert 'class="pt-roll"' not in page and 'class="pt-move"' not in page
    anonymous = client_for(outsider)
    anonymous.logout()
    page = anonymous.get(pirater_match.get_absolute_url()).content.decode()
    assert 'class="pt-board"' in page and pieces_svg(page).count('href="#pt-ship') == 6


def test_the_player_to_act_gets_the_roll_button_and_the_other_waits(pirater_match, player, opponent):
    first = pirater_match.state["current"]
    users = {0: player, 1: opponent}
    mine = client_for(users[first]).get(pirater_match.get_absolute_url()).content.decode()
    theirs = client_for(users[1 - first]).get(pirater_match.get_absolute_url()).content.decode()
    assert '<button class="primary" name="action" value=\'{"type":"roll"}\'>Roll the dice</button>' in mine
    # (Their Orders panel may offer "Roll the dice" as a standing order: the live part has no button.)
    live = theirs.split('id="match-live"', 1)[1].split('id="orders"', 1)[0]
    assert "Roll the dice" not in live and 'value=\'{"type":"roll"}\'' not in theirs
    assert "rolls" in theirs


def test_an_open_match_shows_the_board_without_pieces(player):
    match = play.match_create(creator=player, game="pirater", seats=3)
    page = client_for(player).get(match.get_absolute_url()).content.decode()
    assert board_svg(page).count('class="k-trade_wind"') == 20
    assert 'class="pt-pieces"' not in page


def test_the_double_board_has_two_islands_and_passages(player):
    match = play.match_create(creator=player, game="pirater", seats=5, options={"double_board": True})
    for name in ("bo", "cy", "di", "ed"):
        play.match_join(match_id=match.pk, user=make_user(name))
    match = choose_ports(match)
    assert match.status == Match.RUNNING
    page = client_for(player).get(match.get_absolute_url()).content.decode()
    svg = board_svg(page)
    assert svg.count('class="k-trade_wind"') == 40
    assert svg.count('class="k-passage"') == 4
    assert svg.count('class="k-strait"') == 8
    assert svg.count('class="k-home"') == 12                 # edition 2: the seam's ports drop
    assert svg.count(">Island</text>") == 2
    assert 'data-islands="2"' in svg
    assert pieces_svg(page).count('href="#pt-ship') == 15
    assert pieces_svg(page).count('href="#pt-coin"') == 2   # one treasure on each island


def test_the_rules_page_summarises_the_rules_and_the_nine_variants(client):
    page = client.get(reverse("rules", args=["pirater"])).content.decode()
    for variant in ("Curse Island", "Hurricane", "Double board", "Shipwreck", "Powder ship", "One-Two",
                    "Opposing Realms", "Headwind Realm", "Flotilla"):
        assert f"<dt>{variant}" in page
    assert "Trade winds" in page and "Straits" in page


def test_the_treasure_ship_is_marked_on_the_board_and_in_words(pirater_match, outsider):
    """P12: once loaded, the treasure rides on its ship, not on the island."""
    state = pirater_match.state
    ship = state["ships"][0]
    pirater_match.state = {**state, "treasures": [{"id": 0, "island": 0, "ship": ship["id"]}]}
    pirater_match.save(update_fields=["state"])
    page = client_for(outsider).get(pirater_match.get_absolute_url()).content.decode()
    pieces = pieces_svg(page)
    assert pieces.count('href="#pt-coin-s"') == 1 and 'href="#pt-coin"' not in pieces
    assert "<strong>Anna</strong>: C1 (treasure), B2, C2" in page


def test_a_capture_is_marked_on_its_square_and_its_button(pirater_match, player, opponent):
    """P15: a legal move that ends on an enemy ship is flagged as a capture."""
    current = pirater_match.state["current"]
    mover = player if pirater_match.seats.get(user=player).number == current else opponent
    client = client_for(mover)
    client.post(reverse("match_action", args=[pirater_match.pk]), {"action": '{"type":"roll"}'})
    pirater_match.refresh_from_db()
    assert pirater_match.state["phase"] == "move"  # the seed's first roll is usable
    move = ENGINE.legal_actions(pirater_match.state, current)[0]
    enemy = next(s for s in pirater_match.state["ships"] if s["seat"] != current)
    ships = [dict(s, at=move["to"]) if s["id"] == enemy["id"] else s for s in pirater_match.state["ships"]]
    pirater_match.state = {**pirater_match.state, "ships": ships}
    pirater_match.save(update_fields=["state"])
    page = client.get(pirater_match.get_absolute_url()).content.decode()
    assert '<use class="capture" href="#pt-sq"' in pieces_svg(page)
    assert "<em>captures</em>" in page
