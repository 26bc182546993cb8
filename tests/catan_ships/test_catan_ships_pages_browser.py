"""Catan with ships in a real Chromium: three players meet in the lobby (one creates the match,
two join), make every setup placement by clicking a lit corner and a lit edge — two at 1366×900 (one
placement by keyboard alone), one tapping on a 390×844 phone — play a few turns by clicks, and then, all three gone absent
with bots covering, the game runs to its end on the server and the winner appears live on the
desktop and on the phone. No page logs a JavaScript error, the phone never scrolls sideways.
Screenshots land in tests/artifacts/."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engines import get_engine
from games.models import Match
from tests.browser.conftest import LIVE_WAIT_MS, browser, live_site, people  # noqa: F401  (fixtures)
from tests.conftest import make_user

pytestmark = pytest.mark.browser

ENGINE = get_engine("catan_ships")
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def version(page) -> int:
    return int(page.get_attribute("#match-live", "data-version"))


def press(person, locator):
    """A click on a desktop, a tap on the phone."""
    if person.touch:
        locator.tap()
    else:
        locator.click()


def act_by_click(person, match):
    """Play one of the seat's legal actions the way a player would: a lit place on the board,
    else the turn's button or form."""
    page = person.page
    seat = match.turn_seats[0]
    types = {a["type"] for a in ENGINE.legal_actions(match.state, seat)}
    before = match.version
    page.wait_for_selector(f'#match-live[data-version="{before}"]', timeout=LIVE_WAIT_MS)
    if "roll" in types:
        press(person, page.locator("button:has-text('Roll the dice')"))
    elif "discard" in types:
        need = match.state["discarding"][str(seat)] if str(seat) in match.state["discarding"] else \
            match.state["discarding"][seat]
        for box in page.locator(".cs-discard input[type=number]").all():
            take = min(need, int(box.get_attribute("max")))
            box.fill(str(take))
            need -= take
        press(person, page.locator(".cs-discard button"))
    elif types & {"place_settlement", "place_road", "move_robber", "move_pirate"}:
        spot = page.locator(".cs-spots.placed > .cs-spot, .cs-spots.placed > .cs-spot-menu > .cs-spot").first
        press(person, spot)
        if spot.evaluate("e => e.tagName") == "SUMMARY":   # several choices here: pick from its list
            press(person, page.locator(".cs-spot-menu[open] .cs-menu button").first)
        if person.touch:   # a tap picks the place; the move is made once confirmed
            press(person, page.locator(".cs-confirm-yes"))
    elif "end_sailing" in types:
        press(person, page.locator("button:has-text('Done sailing')"))
    elif "end_turn" in types:
        press(person, page.locator("button:has-text('End the turn')"))
    else:
        press(person, page.locator("#cs-live button[name=action]").first)
    page.wait_for_function(f"() => Number(document.querySelector('#match-live').dataset.version) > {before}",
                           timeout=LIVE_WAIT_MS)


def no_sideways_scroll(person):
    width = person.page.viewport_size["width"]
    assert person.page.evaluate("document.documentElement.scrollWidth") <= width


def test_three_players_set_up_by_clicking_then_bots_play_to_the_winner(people):
    for name in ("anna", "bo", "carl"):
        make_user(name)
    anna = people("cs-anna", viewport=DESKTOP)
    carl = people("cs-carl", viewport=DESKTOP)
    bo = people("cs-bo-phone", viewport=PHONE)
    bo.context.close()   # the phone is a touch device: a context of its own
    bo.context = anna.context.browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    bo.page = bo.context.new_page()
    bo.page.on("console", lambda m: m.type == "error" and bo.errors.append(m.text))
    bo.page.on("pageerror", lambda e: bo.errors.append(str(e)))
    for person in (anna, carl):
        person.touch = False
    bo.touch = True
    anna.log_in("anna")
    bo.log_in("bo")
    carl.log_in("carl")

    # The lobby: anna creates the match (bots may cover absent players), bo and carl join.
    anna.go("/matches/new/?game=catan_ships")
    anna.page.fill("#id_title", "Catan by the sea")
    anna.page.fill("#id_seats", "3")
    anna.page.check("#id_bots_cover_absence")
    anna.page.click("text=Create match")
    anna.page.wait_for_selector("#match-live")
    match = Match.objects.get(title="Catan by the sea")
    for person in (bo, carl):
        person.go("/lobby/")
        person.page.click("a:has-text('Catan by the sea')")
        press(person, person.page.locator("button:has-text('Join this match')"))
        person.page.wait_for_selector("button:has-text('Join this match')", state="detached")
    match.refresh_from_db()
    assert match.status == Match.RUNNING and match.state["phase"] == "setup"
    url = match.get_absolute_url()
    by_seat = {}
    for seat in match.seats.all():
        by_seat[seat.number] = {"anna": anna, "bo": bo, "carl": carl}[seat.user.username]
    for person in (anna, bo, carl):
        person.go(url)
        person.page.wait_for_selector(".cs-svg")
    no_sideways_scroll(bo)

    # Setup: every placement by clicking a lit corner, then a lit edge (snake order).
    placements, by_keyboard = 0, False
    while match.state["phase"] == "setup":
        person = by_seat[match.turn_seats[0]]
        kind = {a["type"] for a in ENGINE.legal_actions(match.state, match.turn_seats[0])}
        person.page.wait_for_selector(".cs-spots.placed .cs-spot", timeout=LIVE_WAIT_MS)
        lit = person.page.locator(".cs-spots.placed .cs-spot")
        assert lit.count() == len(ENGINE.legal_actions(match.state, match.turn_seats[0]))
        assert lit.first.get_attribute("class").startswith(
            "cs-spot k-vertex" if kind == {"place_settlement"} else "cs-spot k-edge")
        if placements in (0, 1) or (person is bo and placements < 6):
            person.shot(f"setup-{placements:02d}")
        if not by_keyboard and not person.touch and kind == {"place_settlement"} and placements >= 2:
            # By keyboard: Tab to a lit corner, Enter; the focus moves on to a lit edge by the
            # new settlement, and Enter places the road.
            before = match.version
            person.page.focus(".cs-spots.placed .cs-spot")
            person.page.keyboard.press("Enter")
            person.page.wait_for_selector(f'#match-live[data-version="{before + 1}"]')
            person.page.wait_for_function(
                "() => document.activeElement.className.startsWith('cs-spot k-edge')", timeout=5000)
            person.page.keyboard.press("Enter")
            person.page.wait_for_selector(f'#match-live[data-version="{before + 2}"]')
            by_keyboard, placements = True, placements + 2
            match.refresh_from_db()
            continue
        act_by_click(person, match)
        placements += 1
        match.refresh_from_db()
    assert placements == 12 and by_keyboard
    view = ENGINE.view(match.state, None)
    assert len(view["buildings"]) == 6 and len(view["roads"]) == 6
    # Everyone's board shows every piece, live.
    for person in (anna, bo, carl):
        person.page.wait_for_selector(f'#match-live[data-version="{match.version}"]', timeout=LIVE_WAIT_MS)
        assert person.page.locator(".cs-building").count() == 6
        assert person.page.locator(".cs-road").count() == 6
    no_sideways_scroll(bo)
    bo.shot("after-setup")
    anna.shot("after-setup")

    # A few turns by clicks.
    turns = 0
    for _ in range(40):
        if turns >= 3 or match.status != Match.RUNNING:
            break
        current = match.state["current"]
        act_by_click(by_seat[match.turn_seats[0]], match)
        match.refresh_from_db()
        if match.state["current"] != current:
            turns += 1
    assert turns >= 2
    for person in (anna, bo, carl):
        person.page.wait_for_selector(f'#match-live[data-version="{match.version}"]', timeout=LIVE_WAIT_MS)
    anna.shot("turns")
    bo.shot("turns")
    no_sideways_scroll(bo)
    # An action never scrolls the page away: the one who acts stays where they were (on a
    # desktop, where the board and the controls are in view without scrolling to them).
    actor = by_seat[match.turn_seats[0]]
    if match.status == Match.RUNNING and not actor.touch:
        actor.page.evaluate("window.scrollTo(0, 120)")
        act_by_click(actor, match)
        assert actor.page.evaluate("window.scrollY") == 120
        match.refresh_from_db()

    # Everyone leaves; bots cover and the game runs to its winner, shown live.
    carl.page.goto("about:blank")
    Match.objects.get(pk=match.pk).seats.update(is_absent=True)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1),
                                             next_due_at=timezone.now() - timedelta(seconds=1))
    anna.wait_while_playing(".cs-winner", match)
    bo.wait_while_playing(".cs-winner", match)
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.state["winner"] is not None
    winner = match.seats.get(number=match.state["winner"]).user.profile.display_name
    assert f"{winner} wins!" in anna.page.inner_text(".cs-winner")
    assert f"{winner} wins!" in bo.page.inner_text(".cs-winner")
    assert anna.page.locator(".cs-spot").count() == 0
    anna.shot("winner")
    bo.shot("winner")
    no_sideways_scroll(bo)
    assert anna.errors == [] and bo.errors == [] and carl.errors == []
