"""Pirater in a real Chromium: the player to act rolls, picks a die and a ship, sees their
squares light up and sails by clicking one; then sails again with the keyboard alone. The other
player, on a phone 360 px wide, sees it live and needs no sideways scrolling. No page may log a
JavaScript error. Screenshots land in tests/artifacts/."""
import pytest
from django.urls import reverse

from games import play
from games.engines import get_engine
from games.engines.dice import seed_hash
from games.models import Match
from tests.browser.conftest import browser, live_site, people  # noqa: F401  (fixtures)
from tests.conftest import make_user
from tests.pirater.pirater_pages_support import choose_ports

pytestmark = pytest.mark.browser


def version_after(page, version):
    page.wait_for_selector(f'#match-live[data-version="{version}"]')


def test_roll_pick_click_a_square_and_sail_by_keyboard_while_a_phone_watches(people):
    anna_user, bo_user = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna_user, game="pirater", seats=2, options={"hurricane": True})
    play.match_join(match_id=match.pk, user=bo_user)
    match = choose_ports(match)            # rules edition 2 (P5): the ports are chosen first
    # A seed whose first roll can be used (P11 would otherwise pass the turn at once).
    engine = get_engine("pirater")
    for n in range(200):
        trial = dict(match.state, seed=f"usable-{n}")
        if engine.apply(trial, trial["current"], {"type": "roll"})[0]["phase"] == "move":
            break
    Match.objects.filter(pk=match.pk).update(state=trial, seed=trial["seed"], seed_hash=seed_hash(trial["seed"]))
    match.refresh_from_db()
    url = f"/matches/{match.pk}/"
    first = match.state["current"]
    names = {s.number: s.user.username for s in match.seats.all()}

    mover = people("pt-" + names[first])
    watcher = people("pt-" + names[1 - first] + "-phone", viewport={"width": 360, "height": 740})
    mover.log_in(names[first])
    watcher.log_in(names[1 - first])
    watcher.go(url)
    mover.go(url)
    page = mover.page
    assert page.locator(".pt-board .k-trade_wind").count() == 20
    assert page.locator(".pt-pieces [href='#pt-ship']").count() == 6

    # The pieces' SVG lies exactly on the board's.
    board, pieces = page.locator(".pt-board").bounding_box(), page.locator(".pt-pieces").bounding_box()
    for side in ("x", "y", "width", "height"):
        assert abs(board[side] - pieces[side]) < 1.5, side

    start = match.version                  # after the port choices
    page.click("button:has-text('Roll the dice')")
    version_after(page, start + 1)
    match.refresh_from_db()
    assert match.state["phase"] == "move"
    mover.shot("rolled")

    # The script shows the pickers; the chosen die and ship light their squares only.
    page.wait_for_selector(".pt-pick input[name=pt-ship]", state="visible")
    assert page.is_visible(".pt-pick legend:has-text('Die')")
    lit = page.locator(".pt-ts > use:not(.off)")
    assert lit.count() >= 1
    assert page.locator(".pt-list p:visible").count() == 1
    lit.first.click()
    version_after(page, start + 2)
    mover.shot("sailed-by-click")
    match.refresh_from_db()
    assert "sailed" in page.inner_text(".log")

    # The watcher's phone got the move over the socket.
    # This version or a later one: with hurricanes on, the bank may act right after the move, and
    # a busy socket shows the newest state with the move in its log.
    watcher.wait_for_version(match.version)
    assert "sailed" in watcher.page.inner_text(".log")
    assert watcher.page.evaluate("document.documentElement.scrollWidth") <= 360
    watcher.shot("watching")

    # Second die by keyboard: focus the die picker, move through it, Tab to a move, Enter.
    if match.state["phase"] == "move" and match.state["current"] == first:
        page.focus(".pt-pick input[name=pt-die]:checked")
        page.keyboard.press("Tab")   # to the ship picker
        focused = page.evaluate("document.activeElement.name")
        assert focused == "pt-ship"
        page.focus(".pt-list p:visible button")
        page.keyboard.press("Enter")
        version_after(page, match.version + 1)
        mover.shot("sailed-by-keyboard")

    assert mover.errors == [] and watcher.errors == []
    assert Match.objects.get(pk=match.pk).status == Match.RUNNING


def test_the_finished_page_and_the_rules_page_have_no_script_errors(people):
    anna_user, bo_user = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna_user, game="pirater", seats=2, options={"flotilla": True})
    play.match_join(match_id=match.pk, user=bo_user)
    match.refresh_from_db()
    state = match.state
    match.state = {**state, "phase": "over", "winner": 0, "win": "treasure", "dice": [], "used": []}
    match.status = Match.FINISHED
    match.save()
    phone = people("pt-finished-phone", viewport={"width": 360, "height": 740})
    phone.log_in("bo")
    phone.go(f"/matches/{match.pk}/")
    phone.page.wait_for_selector(".pt-winner")
    assert "brought the treasure home and wins!" in phone.page.inner_text(".pt-winner")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
    phone.shot("finished")
    phone.go(reverse("rules", args=["pirater"]))
    assert phone.page.locator("dt").count() == 9
    assert phone.errors == []
