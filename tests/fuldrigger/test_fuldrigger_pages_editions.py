"""Rules edition 2 on the Fuldrigger page: the home cities are chosen after the opening roll
(F7/F8) with the page's own buttons, and a match dealt under edition 1 still shows and plays."""
import html
import json
import re

from django.urls import reverse

from games import play
from games.engines.fuldrigger import ENGINE
from games.engines.fuldrigger.board import WORLD
from games.models import Match
from tests.conftest import client_for


def offered(body):
    return [json.loads(html.unescape(raw)) for raw in re.findall(r"name=\"action\" value='([^']*)'", body)]


def test_the_home_cities_are_chosen_on_the_page_in_roll_order(player, opponent):
    """F7: the seat whose pick it is sees one button per free home city, named; the other
    sees none; picking posts through the page, and after both the banker's card comes (F8)."""
    match = play.match_create(creator=player, game="fuldrigger", seats=2, options={})
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    assert match.state["phase"] == "homes" and match.rules_version == str(ENGINE.edition)
    users = {s.number: s.user for s in match.seats.all()}
    for _ in range(2):
        seat = ENGINE.to_act(match.state)[0]
        mine = client_for(users[seat]).get(match.get_absolute_url()).content.decode()
        theirs = client_for(users[1 - seat]).get(match.get_absolute_url()).content.decode()
        picks = [a for a in offered(mine) if a["type"] == "choose_home"]
        assert picks == ENGINE.legal_actions(match.state, seat)
        assert not [a for a in offered(theirs) if a["type"] == "choose_home"]
        assert "Home city: " in mine
        response = client_for(users[seat]).post(reverse("match_action", args=[match.pk]), {
            "action": json.dumps(picks[-1]), "version": match.version})
        assert response.status_code == 302
        match.refresh_from_db()
    assert match.state["phase"] == "card"
    assert sorted(match.state["homes"]) == sorted(WORLD.homes[-2:])     # each took the last free
    assert match.state["turn"]["seat"] == match.state["first"]


def test_a_match_dealt_under_edition_1_still_shows_and_plays(player, opponent):
    """Contract, rule editions: a running match of edition 1 keeps its homes by seat and plays
    on through the page."""
    match = play.match_create(creator=player, game="fuldrigger", seats=2, options={})
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    state = ENGINE.new_game(2, match.seed, match.options, edition=1)
    Match.objects.filter(pk=match.pk).update(state=state, rules_version="1", turn_seats=[])
    play.system_action_apply(match_id=match.pk)
    match.refresh_from_db()
    assert "edition" not in match.state and match.state["homes"] == list(WORLD.homes[:2])
    seat = match.state["turn"]["seat"]
    users = {s.number: s.user for s in match.seats.all()}
    if match.state["phase"] == "play":
        page = client_for(users[seat]).get(match.get_absolute_url())
        assert page.status_code == 200
        response = client_for(users[seat]).post(reverse("match_action", args=[match.pk]), {
            "action": json.dumps({"type": "roll"}), "version": match.version})
        assert response.status_code == 302
        match.refresh_from_db()
        assert match.state["turn"]["roll"] is not None and "edition" not in match.state
