"""C8 on the site: a ship docked at its owner's settlement is unloaded at once, in another
player's turn. The move is optional (the engine's may_act, not to_act): the platform accepts it
and the page offers it, while the turn's clock, the timeouts and the bots follow to_act alone."""
import copy
from datetime import timedelta

import pytest
from django.utils import timezone

from games.reads import panels
from games import play
from games.play import core
from games.errors import BadRequest
from games.engines.catan_ships.board import geometry
from games.models import Match
from tests.browser.conftest import LIVE_WAIT_MS, browser, live_site, people  # noqa: F401  (fixtures)
from tests.catan_ships.catan_pages_support import ENGINE, new_match, offered, set_state, users_by_seat
from tests.conftest import make_user


def docked_for_seat_1(state: dict) -> dict:
    """Seat 0's main phase; seat 1's ship 1 docked at its own settlement with 2 ore aboard."""
    s = copy.deepcopy(state)
    geo = geometry(s["board"])
    v, e = next((v, e) for v in range(geo.vertex_count) if geo.vertex_on_land[v]
                for e in geo.vertex_edges[v] if geo.edge_kind[e] == "coast")
    s.update(phase="main", current=0, turn=5, round=2, setup_step=2 * s["players"], rolled=True,
             dice=[2, 3], setup_vertex=None)
    s["owner"][v] = 1
    s["pieces"][1][1] += 1
    s["ships"] = [{"seat": 1, "number": 1, "edge": e, "cargo": {"ore": 2}}]
    s["bank"]["ore"] -= 2
    return s


@pytest.fixture
def match(player, opponent, outsider):
    m = new_match(player, opponent, outsider, options={"ships": True})
    m = set_state(m, docked_for_seat_1(m.state))
    core.schedule(m, ENGINE, timezone.now())
    m.save()
    return m


@pytest.mark.rule("C8")
def test_c8_the_owner_unloads_in_another_players_turn_and_the_clock_stays(match):
    users = users_by_seat(match)
    assert match.turn_seats == [0]
    deadline, version = match.turn_deadline, match.version
    play.action_apply(match_id=match.pk, user=users[1], action={"type": "unload", "ship": 1})
    match.refresh_from_db()
    assert match.state["hands"][1]["ore"] == 2 and match.state["ships"][0]["cargo"] == {}
    assert match.version == version + 1 and match.turn_seats == [0] and match.turn_deadline == deadline
    # Nothing else is open to him outside his turn.
    with pytest.raises(BadRequest):
        play.action_apply(match_id=match.pk, user=users[1], action={"type": "unload", "ship": 1})
    with pytest.raises(BadRequest):
        play.action_apply(match_id=match.pk, user=users[2], action={"type": "end_turn"})


@pytest.mark.rule("C8")
def test_c8_the_page_offers_the_unload_outside_the_owners_turn(match):
    users = users_by_seat(match)
    page = panels.render_live(match, users[1])
    assert offered(page) == [{"type": "unload", "ship": 1}]
    assert offered(panels.render_live(match, users[2])) == []
    assert {"type": "end_turn"} in offered(panels.render_live(match, users[0]))


@pytest.mark.rule("C8")
def test_c8_a_timeout_plays_only_for_the_turns_owner(match):
    """The deadline plays the turn's owner's timeout (ending his turn); the optional unload is
    never played for its owner, who is not counted as absent for it."""
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert play.deadline_apply(match_id=match.pk)
    match.refresh_from_db()
    assert match.state["current"] == 1 and match.state["phase"] == "roll"
    assert match.state["ships"][0]["cargo"] == {"ore": 2}
    seats = {s.number: s for s in match.seats.all()}
    assert seats[0].consecutive_timeouts == 1 and seats[1].consecutive_timeouts == 0


@pytest.mark.browser
@pytest.mark.rule("C8")
def test_c8_unloading_at_once_from_the_page_in_chromium(people):
    """In Chromium, on a desktop and on a phone: the owner of a docked ship sees "Unload ship 1"
    in another player's turn (not "Your turn"), presses it, and the cargo is in his hand while
    the turn stays with its owner. Screenshots land in tests/artifacts/."""
    anna, bo, carl = (make_user(n) for n in ("anna", "bo", "carl"))
    m = new_match(anna, bo, carl, options={"ships": True})
    docked = docked_for_seat_1(m.state)
    owner = users_by_seat(m)[1]
    for label, viewport, touch in (("desktop", {"width": 1366, "height": 900}, False),
                                   ("phone", {"width": 390, "height": 844}, True)):
        m = set_state(m, docked)
        core.schedule(m, ENGINE, timezone.now())
        m.save()
        person = people(f"cs-unload-{label}", viewport=viewport)
        if touch:   # a touch device: a context of its own
            chromium = person.context.browser
            person.context.close()
            person.context = chromium.new_context(viewport=viewport, has_touch=True, is_mobile=True)
            person.page = person.context.new_page()
            person.page.on("pageerror", lambda e, person=person: person.errors.append(str(e)))
        person.log_in(owner.username)
        person.go(m.get_absolute_url())
        button = person.page.locator("button:has-text('Unload ship 1')")
        button.wait_for(timeout=LIVE_WAIT_MS)
        assert person.page.locator("#match-live strong.hot", has_text="Your turn").count() == 0  # the status line
        person.shot("offered")
        if touch:
            button.tap()
        else:
            button.click()
        person.page.wait_for_selector(f'#match-live[data-version="{m.version + 1}"]', timeout=LIVE_WAIT_MS)
        person.shot("unloaded")
        m.refresh_from_db()
        assert m.state["hands"][1]["ore"] == 2 and m.turn_seats == [0]
        assert person.page.locator("button:has-text('Unload ship 1')").count() == 0
        assert not person.errors
