"""Every legal action can be played from the page: as a lit place on the board, a button, or
one of the forms for open-ended choices (bank trade, offers, discards, year of plenty,
monopoly); and every button posts a legal action. Checked on states all along random games:
with ships and without, and with five players (the special building phase)."""
import html

import pytest

from games.reads import panels
from tests.conftest import make_user
from tests.catan_ships.catan_pages_support import (
    new_match, offered, set_state, states_of_a_playout, users_by_seat,
)

# Open-ended choices: a form whose fields fill in the action, marked by its JSON base.
FORMS = {"bank_trade": '{"type":"bank_trade"}', "offer": '{"to":null,"type":"offer"}',
         "discard": '{"type":"discard"}', "play_year_of_plenty": '{"type":"play_year_of_plenty"}',
         "play_monopoly": '{"type":"play_monopoly"}'}


def sampled(states):
    """The first state offering each action type, and every 40th state besides."""
    seen = set()
    for n, (state, seat, legal) in enumerate(states):
        new = {a["type"] for a in legal} - seen
        if new or n % 40 == 0:
            seen |= new
            yield state, seat, legal


@pytest.mark.parametrize("ships,players", [(True, 3), (False, 3), (True, 5)])
def test_every_legal_action_is_on_the_page_and_every_button_is_legal(ships, players, player, opponent, outsider):
    more = [make_user(f"sailor{n}") for n in range(players - 3)]
    match = new_match(player, opponent, outsider, *more, options={"ships": ships})
    users = users_by_seat(match)
    types = set()
    for state, seat, legal in sampled(states_of_a_playout(players=players, seed=f"actions-{ships}",
                                                          options={"ships": ships})):
        match = set_state(match, state)
        page = panels.render_live(match, users[seat])
        buttons = offered(page)
        for action in buttons:
            assert action in legal, action
        for action in legal:
            types.add(action["type"])
            if action["type"] in FORMS:
                assert f"value='{FORMS[action['type']]}'" in page, action["type"]
            else:
                assert action in buttons, action
        assert html.unescape(page).count('name="version" value="%d"' % match.version) >= (1 if legal else 0)
    # The game went far enough to check the turn's ordinary actions.
    assert {"place_settlement", "place_road", "roll", "build_road", "end_turn", "move_robber"} <= types
    if ships:
        assert {"build_ship", "load", "sail"} <= types
    if players > 4:
        assert "pass" in types   # the special building phase


def test_a_form_for_an_open_choice_posts_a_legal_action(player, opponent, outsider):
    """The bank trade form's fields make the action the engine expects (one of its legal ones)."""
    from django.http import QueryDict

    from games.web.views import parse_action

    match = new_match(player, opponent, outsider)
    for state, seat, legal in states_of_a_playout(seed="bank"):
        trades = [a for a in legal if a["type"] == "bank_trade"]
        if trades:
            break
    else:
        pytest.fail("no bank trade on the way")
    match = set_state(match, state)
    page = panels.render_live(match, users_by_seat(match)[seat])
    assert 'name="a.give"' in page and 'name="a.get"' in page
    trade = trades[0]
    post = QueryDict(mutable=True)
    post.update({"action": FORMS["bank_trade"], "a.give": trade["give"], "a.get": trade["get"]})
    assert parse_action(post) == trade
    assert f'<option value="{trade["give"]}"' in page and f'<option value="{trade["get"]}"' in page
