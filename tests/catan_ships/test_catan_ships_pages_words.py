"""What Catan's page says and draws, as a player reads it: whose move it is, what a trade
gives, the ships' cargo in plain text, the robber's hex, the pirate's choices told apart, the
knight's hexes on the board, the end of a round-limited match with its leader, the base game
named without ships; and the templates that say it, with no HTML for translators."""
import pathlib
import re

from games.catan_ships import pages
from games.models import Match
from tests.catan_ships.catan_pages_support import (
    ENGINE, new_match, offered, play_until, set_state, states_of_a_playout, users_by_seat,
)
from tests.conftest import client_for

TEMPLATES = pathlib.Path(__file__).resolve().parents[2] / "templates" / "games" / "catan_ships"


def page_of(user, match) -> str:
    return client_for(user).get(match.get_absolute_url()).content.decode()


def turn_line(page: str) -> str:
    found = re.search(r'<p class="cs-turn"[^>]*>(.*?)</p>', page, re.S)
    return found.group(1) if found else ""


def test_the_templates_give_translators_no_html_and_python_writes_none():
    for path in (TEMPLATES / "partials").rglob("*.html"):
        text = path.read_text()
        for words in re.findall(r"{% blocktranslate[^%]*%}(.*?){% (?:endblocktranslate|plural) %}", text, re.S):
            assert "<" not in words, (path.name, words)
        for words in re.findall(r'{% translate "([^"]*)"', text):
            assert "<" not in words, (path.name, words)
    tags = (TEMPLATES.parents[2] / "games" / "catan_ships" / "templatetags" / "catan_ships_tags.py").read_text()
    assert "mark_safe" not in tags and "<" not in tags


def test_the_sail_phase_says_your_move_only_to_whoever_must_sail(player, opponent, outsider):
    match = new_match(player, opponent, outsider, options={"ships": True})
    for state, seat, legal in states_of_a_playout(options={"ships": True}, steps=3000):
        if state["phase"] == "sail" and seat != state["current"]:
            break
    else:
        raise AssertionError("no sail phase where another than the turn's player sails")
    match = set_state(match, state)
    users = users_by_seat(match)
    assert "Your move" in turn_line(page_of(users[seat], match))
    waiting = turn_line(page_of(users[state["current"]], match))
    assert "Your move" not in waiting and users[seat].profile.display_name in waiting


def test_bank_trade_says_what_you_give_at_your_rate(player, opponent, outsider):
    match = play_until(new_match(player, opponent, outsider),
                       lambda s: s["phase"] == "main" and any(
                           a["type"] == "bank_trade" for a in ENGINE.legal_actions(s, s["current"])), seed=2)
    state = match.state
    seat = state["current"]
    page = page_of(users_by_seat(match)[seat], match)
    gives = re.search(r'<select name="a.give">(.*?)</select>', page, re.S).group(1)
    from games.engines.catan_ships import trade
    for give in {a["give"] for a in ENGINE.legal_actions(state, seat) if a["type"] == "bank_trade"}:
        n = trade.rate(state, seat, give)
        word = str(pages.RESOURCE_WORDS[give])
        assert f'<option value="{give}">{n} {word}</option>' in gives


def test_ships_cargo_robber_and_harbours_are_seen_without_a_tooltip(player, opponent, outsider):
    match = new_match(player, opponent, outsider, options={"ships": True})
    for state, seat, legal in states_of_a_playout(options={"ships": True}, steps=4000):
        view = ENGINE.view(state, None)
        if any(sum((s.get("cargo") or {}).values()) for s in view["ships"]) and view.get("robber") is not None:
            break
    else:
        raise AssertionError("no ship ever loaded")
    match = set_state(match, state)
    page = page_of(player, match)
    fleet = re.search(r'<div class="cs-fleet">(.*?)</div>', page, re.S).group(1)
    loaded = next(s for s in view["ships"] if sum((s.get("cargo") or {}).values()))
    assert pages.goods_words(loaded["cargo"]) in fleet and "<title>" not in fleet
    assert page.count('class="cs-robbed"') == 1
    # The harbours are drawn after (above) the ships, their rate readable over a ship.
    assert page.index('<g class="cs-harbours">') > page.index('<g class="cs-pieces">')


def test_the_pirates_choices_each_name_a_different_edge():
    seen = 0
    for state, seat, legal in states_of_a_playout(options={"ships": True}, steps=4000, rnd_seed=3):
        moves = [a for a in legal if a["type"] == "move_pirate" and a.get("edge") is not None]
        if len(moves) < 2:
            continue
        board = pages.Board(ENGINE.view(state, seat)["board"])
        words = [board.place_words("edge", a["edge"]) for a in moves]
        assert len(set(words)) == len({a["edge"] for a in moves}), words
        seen += 1
    assert seen


def test_a_knight_is_played_on_the_board_not_from_a_list_of_names(player, opponent, outsider):
    match = new_match(player, opponent, outsider)
    for state, seat, legal in states_of_a_playout(steps=4000, rnd_seed=11):
        if state["phase"] == "main" and seat == state["current"] and any(a["type"] == "play_knight" for a in legal):
            break
    else:
        raise AssertionError("no knight ever playable")
    match = set_state(match, state)
    page = page_of(users_by_seat(match)[seat], match)
    knights = [a for a in legal if a["type"] == "play_knight"]
    spots = re.findall(r'<(?:button|details) class="cs-spot(?:-menu)? [^"]*knight"', page)
    assert len(spots) == len({a["hex"] for a in knights})
    assert all(k in offered(page) for k in knights)
    assert "new hex among the lit hexes on the board" in page


def test_a_round_limit_end_names_the_leader_and_no_round_beyond_the_limit(player, opponent, outsider):
    match = new_match(player, opponent, outsider)
    state = dict(match.state, phase="over", winner=None, round=2)
    standings = [{"seat": 1, "rank": 1, "score": 5, "detail": {}}, {"seat": 0, "rank": 2, "score": 3, "detail": {}},
                 {"seat": 2, "rank": 3, "score": 2, "detail": {}}]
    Match.objects.filter(pk=match.pk).update(state=state, turn_seats=[], status=Match.FINISHED, round_limit=1,
                                             standings=standings, finish_reason="round_limit")
    match.refresh_from_db()
    page = page_of(player, match)
    leader = users_by_seat(match)[1].profile.display_name
    assert "Round 2 of 1" not in page
    assert f"The match is over: {leader} leads with 5 points." in page
    assert "round_limit" not in re.sub(r"<[^>]*>", "", page)


def test_a_three_way_tie_at_the_end_says_so_and_names_everyone_who_shares_the_lead(
        player, opponent, outsider):
    """A base game ended by its round limit with all three on 2 points: the ranking puts
    everyone first, and so does the line (not "<first seat> leads with 2 points")."""
    match = new_match(player, opponent, outsider, options={"ships": False})
    state = dict(match.state, phase="over", winner=None)
    standings = [{"seat": s, "rank": 1, "score": 2, "detail": {}} for s in range(3)]
    Match.objects.filter(pk=match.pk).update(state=state, turn_seats=[], status=Match.FINISHED, round_limit=3,
                                             standings=standings, finish_reason="round_limit")
    match.refresh_from_db()
    page = page_of(player, match)
    names = [users_by_seat(match)[s].profile.display_name for s in range(3)]
    assert f"The match is over in a tie: {names[0]}, {names[1]} and {names[2]} share the lead with 2 points." in page
    assert "leads with" not in page


def test_the_base_games_standings_have_no_ship_points(player, opponent, outsider):
    """Ships off: the final standings say nothing of ship points (they read "ship points 0")."""
    for ships in (False, True):
        match = new_match(player, opponent, outsider, options={"ships": ships})
        rows = ENGINE.standings(match.state)
        assert all(("ship_points" in row["detail"]) is ships for row in rows)
        Match.objects.filter(pk=match.pk).update(status=Match.FINISHED, standings=rows, turn_seats=[],
                                                 state=dict(match.state, phase="over"), finish_reason="round_limit")
        match.refresh_from_db()
        assert ("ship points" in page_of(player, match)) is ships


def test_the_base_game_is_not_called_catan_with_ships(player, opponent, outsider):
    match = new_match(player, opponent, outsider, options={"ships": False})
    page = page_of(player, match)
    assert 'aria-label="Catan"' in page and 'aria-label="Catan with ships"' not in page
    assert '<p class="meta">Catan ·' in page
    assert "Lit circles (corners), squares (edges)" in page
