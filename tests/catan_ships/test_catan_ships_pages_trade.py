"""Trading between players on the page: the offer form makes the offer, the others read it and
answer with its buttons, the offerer confirms with one who accepted, and the hands change; the
replay of a finished match draws the board as it was."""
import html
import json

from django.urls import reverse

from games import play
from tests.catan_ships.catan_pages_support import (
    ENGINE, new_match, offered, play_until, set_state, users_by_seat,
)
from tests.conftest import client_for

EMPTY = {"brick": 0, "lumber": 0, "wool": 0, "grain": 0, "ore": 0}


def post(user, match, data):
    data = dict(data, version=match.version)
    return client_for(user).post(reverse("match_action", args=[match.pk]), data, HTTP_HX_REQUEST="true")


def test_an_offer_made_with_the_form_is_answered_and_confirmed_on_the_page(player, opponent, outsider):
    match = play_until(new_match(player, opponent, outsider), lambda s: s["phase"] == "main")
    users = users_by_seat(match)
    me = match.state["current"]
    other = (me + 1) % 3
    third = (me + 2) % 3
    hands = [dict(EMPTY) for _ in range(3)]
    hands[me]["brick"], hands[other]["wool"], hands[third]["ore"] = 2, 1, 1
    match = set_state(match, dict(match.state, hands=hands))
    page = client_for(users[me]).get(match.get_absolute_url()).content.decode()
    assert '<input type="hidden" name="action" value=\'{"to":null,"type":"offer"}\'>' in page
    assert 'name="a.give.brick"' in page and 'name="a.get.wool"' in page

    # The form's fields: give 1 brick, get 1 wool, to the other player only.
    response = post(users[me], match, {"action": '{"to":null,"type":"offer"}', "a.give.brick": "1",
                                       "a.get.wool": "1", "a.give.ore": "", "a.to[]": str(other)})
    assert response.status_code == 200, response.content.decode()[:400]
    match.refresh_from_db()
    offer = ENGINE.view(match.state, None)["offers"][0]
    assert offer["give"] == {"brick": 1} and offer["get"] == {"wool": 1} and offer["to"] == [other]
    assert "Withdraw" in response.content.decode()

    # The other player reads it and answers with a button; the third is not asked.
    name = users[me].profile.display_name
    answer_page = client_for(users[other]).get(match.get_absolute_url()).content.decode()
    assert f"{name} gives 1 Brick for 1 Wool" in answer_page
    assert "An offer waits for your answer." in answer_page and "Your move" not in answer_page
    accept = {"type": "answer", "offer": offer["id"], "accept": True}
    assert accept in offered(answer_page)
    assert not any(a["type"] == "answer" for a in offered(client_for(users[third]).get(match.get_absolute_url())
                                                           .content.decode()))
    response = post(users[other], match, {"action": json.dumps(accept)})
    assert response.status_code == 200
    match.refresh_from_db()

    # The offerer confirms with the one who accepted; the goods change hands.
    page = client_for(users[me]).get(match.get_absolute_url()).content.decode()
    assert f"{users[other].profile.display_name} accepts" in page
    confirm = {"type": "confirm", "offer": offer["id"], "with": other}
    assert confirm in offered(page)
    assert post(users[me], match, {"action": json.dumps(confirm)}).status_code == 200
    match.refresh_from_db()
    assert match.state["hands"][me]["wool"] == 1 and match.state["hands"][me]["brick"] == 1
    assert match.state["hands"][other]["brick"] == 1 and match.state["hands"][other]["wool"] == 0


def test_a_counter_offer_declines_with_terms_of_ones_own(player, opponent, outsider):
    match = play_until(new_match(player, opponent, outsider), lambda s: s["phase"] == "main")
    users = users_by_seat(match)
    me = match.state["current"]
    other = (me + 1) % 3
    hands = [dict(EMPTY) for _ in range(3)]
    hands[me]["brick"], hands[me]["grain"], hands[other]["ore"] = 2, 1, 1
    match = set_state(match, dict(match.state, hands=hands))
    assert post(users[me], match, {"action": '{"to":null,"type":"offer"}', "a.give.brick": "1",
                                   "a.get.wool": "1"}).status_code == 200
    match.refresh_from_db()
    offer = match.state["offers"][0]["id"]
    page = client_for(users[other]).get(match.get_absolute_url()).content.decode()
    base = '{"accept":false,"offer":%d,"type":"answer"}' % offer
    assert f"<input type=\"hidden\" name=\"action\" value='{base}'>" in html.unescape(page)
    assert 'name="a.counter.give.ore"' in page and 'name="a.counter.get.grain"' in page
    response = post(users[other], match, {"action": base, "a.counter.give.ore": "1", "a.counter.get.grain": "1"})
    assert response.status_code == 200, response.content.decode()[:300]
    match.refresh_from_db()
    counter = [o for o in ENGINE.view(match.state, None)["offers"] if o["from"] == other]
    assert counter and counter[0]["give"] == {"ore": 1} and counter[0]["get"] == {"grain": 1}
    assert counter[0]["to"] == [me]
    # The offerer reads the counter-offer and may accept it.
    page = client_for(users[me]).get(match.get_absolute_url()).content.decode()
    assert {"type": "answer", "offer": counter[0]["id"], "accept": True} in offered(page)


def test_the_replay_of_a_finished_match_draws_the_board_as_it_was(player, opponent, outsider, staff):
    match = play_until(new_match(player, opponent, outsider), lambda s: s["phase"] == "roll")
    play.match_finish(match_id=match.pk, reason="the match deadline passed", actor=staff)
    after_two = client_for(outsider).get(reverse("match_replay", args=[match.pk]) + "?step=2").content.decode()
    assert after_two.count('class="cs-building') == 1 and after_two.count('class="cs-road') == 1
    end = client_for(outsider).get(reverse("match_replay", args=[match.pk]) + "?step=12").content.decode()
    assert end.count('class="cs-building') == 6 and end.count('class="cs-road') == 6
    assert "cs-spot" not in end
