"""Words and controls that match what is on the page (rough edges a new player met, session 19):
no sentence about green rings beside an empty ship, no bare "Anna:" for a fleet not yet on the
board, a turn line that says a home city is being chosen, an inbox whose unread notices are not
all alarms, a way on from an empty leaderboard, and no step buttons in the replay of a match
without a move."""
import re

from games import play
from games.engines.fuldrigger.board import WORLD
from games.models import Match
from notifications.models import Notification
from tests.conftest import client_for
from tests.fuldrigger.fuldrigger_pages_support import change_state, start
from tests.fuldrigger.test_fuldrigger_page_words import live_part as _live


def test_the_green_rings_are_told_only_for_a_ship_with_a_cargo(player, opponent):
    match = start([player, opponent])
    play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    match.refresh_from_db()
    ship = min((s for s in match.state["ships"].values() if s["owner"] == 0), key=lambda s: s["id"])
    client = client_for(player)
    empty = _live(client, match, f"?sail={ship['id']}")
    assert "Click a lit square on the map to choose it" in empty
    assert "Green rings" not in empty
    good = next(iter(WORLD.goods))
    change_state(match, lambda state: state["ships"][str(ship["id"])].update(
        cargo={"good": good, "paid": 10, "carried": 0}))
    assert "Green rings: ports that buy your cargo." in _live(client, match, f"?sail={ship['id']}")


def test_while_home_cities_are_chosen_the_turn_line_says_so(player, opponent):
    match = play.match_create(creator=player, game="fuldrigger", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    assert match.state["phase"] == "homes"
    page = _live(client_for(opponent), match)
    assert "to choose a home city, where the fleet starts." in page
    assert "has not rolled yet" not in page


def test_a_fleet_not_on_the_board_is_said_so(player, opponent):
    match = play.match_create(creator=player, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    fleets = re.search(r'<ul class="pt-fleets".*?</ul>', _live(client_for(player), match), re.S).group(0)
    items = re.findall(r"<li\b.*?</li>", fleets, re.S)
    assert len(items) == 2
    for item in items:
        words = re.sub(r"<[^>]+>", "", item)
        assert not words.rstrip().endswith(":"), words
    assert match.state["phase"] == "ports"  # edition 2 (P5): no ship is on the board before its port is chosen
    assert fleets.count("no ships on the board") == 2


def test_unread_notices_are_marked_but_not_as_a_turn_waiting(player):
    Notification.objects.create(user=player, kind=Notification.STARTED, key="started", text="Your match started.")
    page = client_for(player).get("/inbox/").content.decode()
    card = re.search(r'<li class="card[^"]*">', page).group(0)
    assert "unread" in card and "your-turn" not in card


def test_an_empty_leaderboard_leads_a_player_to_a_new_match(client, player):
    page = client_for(player).get("/leaderboards/pirater/").content.decode()
    assert "Nobody has played" in page and "/matches/new/?game=pirater" in page
    assert "/matches/new/" not in client.get("/leaderboards/pirater/").content.decode()


def test_the_replay_of_a_match_without_a_move_has_no_step_buttons(player, opponent):
    match = play.match_create(creator=player, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    Match.objects.filter(pk=match.pk).update(status=Match.FINISHED)
    match.refresh_from_db()
    assert match.version == 0
    response = client_for(player).get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "replay-nav" not in page and "The opening position." in page
