"""Each of Pirater's nine variants (P20–P28) created through the new-match form, and its match
page; impossible combinations refused with the engine's message."""
import html
import json
import re

import pytest
from django.urls import reverse

from accounts.models import Profile
from games import play as games_play
from games.engines import get_engine
from games.models import Match
from games.pirater.pages import Grid
from tests.conftest import client_for, make_user
from tests.pirater.pirater_pages_support import choose_ports

ENGINE = get_engine("pirater")
PLAYERS = ("bo", "cy", "di", "ed", "fi", "gus", "hal")


def create(client, seats=2, **options):
    """Post the new-match form as a browser would: ticked boxes send "true"."""
    data = {"game": "pirater", "seats": seats, "turn_hours": 24, "time_bank_hours": 0, "is_public": "on"}
    data.update({f"opt_{name}": value for name, value in options.items()})
    return client.post(reverse("match_new"), data)


def started(player, seats=2, **options):
    """A match made through the form, filled and started; the page as its creator sees it."""
    response = create(client_for(player), seats, **{k: "true" if v is True else v for k, v in options.items()})
    assert response.status_code == 302, html.unescape(response.content.decode())
    match = Match.objects.get()
    for name in PLAYERS[:seats - 1]:
        games_play.match_join(match_id=match.pk, user=make_user(name))
    match.refresh_from_db()
    assert match.status == Match.RUNNING
    return choose_ports(match)


def page_of(match, user) -> str:
    response = client_for(user).get(match.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def pieces(page: str) -> str:
    return re.search(r'<svg class="pt-pieces".*?</svg>', page, re.S).group(0)


def user_at(match, seat):
    return match.seats.get(number=seat).user


def play(match, action) -> str:
    """The player to act posts one action by htmx; the live part comes back."""
    seat = match.state["current"]
    response = client_for(user_at(match, seat)).post(
        reverse("match_action", args=[match.pk]), {"action": json.dumps(action), "version": match.version},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 200, html.unescape(response.content.decode())
    match.refresh_from_db()
    return response.content.decode()


def set_state(match, **changes):
    """Put the pieces where a test needs them (the page only draws what the state holds)."""
    match.state = {**match.state, **changes}
    match.save(update_fields=["state"])


def test_curse_island_starts_two_ships_of_each_player_at_the_island(player):
    """P20."""
    match = started(player, curse_island=True)
    assert match.options["curse_island"] is True
    page = page_of(match, player)
    assert "☠ Curse" in page and '<span class="tag">Curse Island</span>' in page
    grid = Grid(14, 22)
    anchorages = {(grid.box(r, c)["x"], grid.box(r, c)["y"]) for r, c in
                  [(5, 10), (5, 11), (8, 10), (8, 11), (6, 9), (7, 9), (6, 12), (7, 12)]}
    drawn = {(int(x), int(y)) for x, y in re.findall(r'href="#pt-ship" (?:data-ships="[^"]*" )?x="(\d+)" y="(\d+)"',
                                                     pieces(page))}
    assert len(drawn & anchorages) == 4


def test_hurricane_rolls_three_dice_and_marks_the_ship_at_risk(player):
    """P21: the current player's ship nearest home carries the storm mark before the roll."""
    match = started(player, hurricane=True)
    page = page_of(match, user_at(match, match.state["current"]))
    assert pieces(page).count('href="#pt-storm"') == 1
    live = play(match, {"type": "roll"})
    assert len(match.state["dice"]) == 3 or match.state["phase"] == "roll"
    if match.state["phase"] == "move":
        dice = re.search(r'<span class="pt-dice" role="group" aria-label="Dice">(.*?)</span></p>', live).group(1)
        assert dice.count('class="die') == 3


def test_double_board_for_five_players_rolls_four_dice(player):
    """P22."""
    match = started(player, seats=5, double_board=True, double_treasure="one_each")
    page = page_of(match, player)
    assert 'data-trade-winds="40"' in page and 'data-islands="2"' in page
    assert page.count('class="k-passage"') == 4
    assert pieces(page).count('class="pt-home colour-') == 5
    live = play(match, {"type": "roll"})
    if match.state["phase"] == "move":
        assert len(match.state["dice"]) == 4
        assert re.search(r'<span class="pt-dice" role="group" aria-label="Dice">(.*?)</span></p>', live).group(1).count("die") == 4


def test_shipwreck_draws_the_wrecks(player):
    """P23: a captured ship stays as a wreck on its square."""
    match = started(player, shipwreck=True)
    set_state(match, wrecks=[[5, 5], [0, 8]])
    page = page_of(match, player)
    assert pieces(page).count('href="#pt-wreck"') == 2
    assert '<span class="tag">Shipwreck</span>' in page


def test_powder_ship_shows_each_blast_before_it_is_declared_and_then_the_declared_one(player):
    """P24: the choice offers every own ship with its blast area; declaring keeps it shown."""
    match = started(player, powder_ship=True)
    seat = match.state["current"]
    page = page_of(match, user_at(match, seat))
    form = re.search(r'<form class="pt-powder.*?</form>', page, re.S).group(0)
    own = [s["id"] for s in match.state["ships"] if s["seat"] == seat]
    assert [int(i) for i in re.findall(r'name="a.ship" value="(\d+)" required', form)] == own
    preview = re.search(r'<g class="pt-preview">(.*?)</g></g>', pieces(page), re.S).group(1)
    assert preview.count('<g class="pt-blast">') == 3
    assert preview.count('class="r1"') == 3 and preview.count('class="r6"') == 3
    # The form posts the type as JSON and the chosen ship as a field (games.web.views.parse_action).
    # Three ships by the home port: the blast could sink them all, so it is confirmed (P24).
    response = client_for(user_at(match, seat)).post(reverse("match_action", args=[match.pk]), {
        "action": '{"type":"declare_powder"}', "a.ship": str(own[1]), "a.confirm": "true",
        "version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.state["powder"] == own[1]
    page = page_of(match, player)
    assert "powder ship at" in page and pieces(page).count('href="#pt-keg"') == 1
    assert '<g class="pt-blast"><path class="r1"' in pieces(page)
    assert 'class="pt-powder"' not in page   # once a game


def test_one_two_announces_the_extra_roll(player):
    """P25."""
    match = started(player, one_two=True)
    set_state(match, extra=True)
    assert "One-Two: another roll follows this one." in page_of(match, player)


@pytest.mark.parametrize("variant, homes", [("opposing_realms", ("north-west", "north-east")),
                                            ("headwind_realm", ("west-south", "west-north"))])
def test_the_realms_give_six_ships_and_two_home_ports(player, variant, homes):
    """P26, P27: two ports each, rings in the owner's colour round both."""
    match = started(player, **{variant: True})
    page = page_of(match, player)
    svg = pieces(page)
    red = re.search(r'<g class="pt-fleet colour-red.*?</g>', svg, re.S).group(0)
    assert red.count('href="#pt-ship') == 6
    ring = re.search(r'<path class="pt-home colour-red" d="([^"]+)"', svg).group(1)
    assert ring.count("M") == 2
    assert [p["name"] for p in ENGINE.view(match.state)["ports"] if p["seat"] == 0] == list(homes)


def test_flotilla_draws_each_fleet_once_with_its_size(player):
    """P28: all three ships start stacked on the home anchorage."""
    match = started(player, flotilla=True, flotilla_split="any_six")
    page = page_of(match, player)
    svg = pieces(page)
    assert svg.count('href="#pt-ship"') == 2
    assert svg.count('<text class="pt-count"') == 2 and ">3</text>" in svg
    assert "fleets split on: any six" in page


@pytest.mark.parametrize("seats, options, message", [
    (2, {"opposing_realms": "true", "headwind_realm": "true"},
     "Opposing Realms and Headwind Realm can't be played together"),
    (3, {"opposing_realms": "true"}, "Opposing Realms is for exactly 2 players."),
    (2, {"flotilla": "true", "curse_island": "true"}, "Flotilla and Curse Island both decide where the ships start"),
    (4, {"double_board": "true"}, "The double board is for 5 to 8 players."),
    (5, {"double_board": "true", "hurricane": "true"}, "Hurricane can't be played on the double board"),
])
def test_an_impossible_combination_is_refused_with_the_engines_message(player, seats, options, message):
    response = create(client_for(player), seats, **options)
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert not Match.objects.exists()


@pytest.mark.parametrize("lang, words", [
    ("en", "2 to 4 players; 5 to 8 with “Double board”."),
    ("de", "2 bis 4 Spieler; 5 bis 8 mit „Doppeltes Spielbrett“."),
])
def test_the_form_says_that_five_to_eight_players_need_the_double_board(player, lang, words):
    """P5, P22 (issue 33): the seats field does not promise 2 to 8 as if any of them would do."""
    Profile.objects.filter(user=player).update(language=lang)
    response = client_for(player).get(reverse("match_new") + "?game=pirater")
    text = html.unescape(response.content.decode())
    assert words in text
    assert "2 to 8 players" not in text
