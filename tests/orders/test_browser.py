"""In each game a player sets standing orders in Chromium (desktop and phone, with touch), goes
away, and the match goes on: the bots' turns and theirs, the latter played by their orders."""
import time

import pytest

from games import play
from games.engines import get_engine
from games.models import ActionLog, Match, StandingOrders
from tests.browser.conftest import ARTIFACTS
from tests.conftest import make_user

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SETUP = {"homes", "setup", "ports", "choose_ports"}
# What the player leaves: (the kind's words in the panel, {field: value to choose}).
ORDERS = {
    "fuldrigger": [("Roll the dice", {}), ("Decline offers from others", {}), ("End the turn", {})],
    "pirater": [("Roll the dice", {}), ("Capture a ship when possible", {}),
                ("Move the ship nearest the treasure towards it", {}), ("Otherwise, any move the dice allow", {})],
    "catan_ships": [("Roll the dice", {}), ("On a 7, discard in this order of resources", {"f.order": ["ore", "grain"]}),
                    ("Put the robber on the leader", {}), ("Move the pirate onto a ship of the leader", {}),
                    ("Decline every trade offer", {}), ("Leave my ships where they are", {}), ("End the turn", {})],
}


def _to_the_game_proper(match, anna):
    """Anna's setup choices (homes, ports, first settlements) made for her; bots play at once."""
    engine = get_engine(match.game)
    for _ in range(40):
        match.refresh_from_db()
        state = match.state
        if 0 in engine.to_act(state) and (state.get("phase") in SETUP or state.get("choosing")):
            play.action_apply(match_id=match.pk, user=anna, action=engine.legal_actions(state, 0)[0])
            continue
        if 0 in engine.to_act(state):
            return match
        play.deadline_apply(match_id=match.pk)
    raise AssertionError(f"never past setup: {match.state.get('phase')}")


@pytest.mark.parametrize("game,seats,device", [("fuldrigger", 2, "desktop"), ("pirater", 2, "phone"),
                                               ("catan_ships", 3, "phone"), ("fuldrigger", 2, "phone"),
                                               ("catan_ships", 3, "desktop")])
def test_orders_set_in_the_browser_play_on_while_the_player_is_away(browser, live_site, game, seats, device):
    anna = make_user("anna")
    match = play.match_create(creator=anna, game=game, seats=seats, bot_seats=seats - 1,
                                  title=f"Orders in {game}", round_limit=4)
    match = _to_the_game_proper(Match.objects.get(pk=match.pk), anna)
    context = browser.new_context(**(DESKTOP if device == "desktop" else PHONE))
    page, errors = context.new_page(), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_site + "/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "pw-" + "anna" * 2)
    page.click("main button[type=submit]")
    page.wait_for_url(live_site + "/")
    page.goto(f"{live_site}/matches/{match.pk}/")
    panel = page.locator("#orders")
    panel.scroll_into_view_if_needed()
    assert "No standing orders" in panel.inner_text()
    # Pause first, so the lines wait until all are in (then one switch lets them play).
    panel.locator("button.orders-pause").click()
    page.wait_for_selector("#orders button.orders-pause[aria-pressed=true]")
    for count, (words, fields) in enumerate(ORDERS[game], start=1):
        kind = page.locator("#orders details.orders-add", has=page.locator(f"summary:has-text(\"{words}\")"))
        summary = kind.locator("summary")
        summary.tap() if device == "phone" else summary.click()
        for name, values in fields.items():
            for place, value in enumerate(values):  # first, second...: the order they are named in
                kind.locator(f"select[name='{name}']").nth(place).select_option(value)
        if device == "desktop" and count == 1:
            kind.locator("button[type=submit]").focus()
            page.keyboard.press("Enter")  # the keyboard works as well as the mouse
        else:
            kind.locator("button[type=submit]").click()
        page.wait_for_function(f"() => document.querySelectorAll('#orders .orders-lines li:not(.empty)').length == {count}")
    if game == "catan_ships":
        assert "ore, grain" in panel.inner_text()
    page.locator("#orders .orders-lines li").nth(1).locator("button[value=up]").click()
    page.wait_for_function("() => document.querySelector('#orders .orders-lines li').innerText.indexOf('Roll') < 0")
    page.locator("#orders .orders-lines li").nth(0).locator("button[value=down]").click()
    page.wait_for_function("() => document.querySelector('#orders .orders-lines li').innerText.indexOf('Roll') == 0")
    panel.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"orders-{game}-{device}.png"), full_page=False)
    version = Match.objects.get(pk=match.pk).version
    page.locator("button.orders-pause").click()  # resume: the orders take over
    # With bots in every other seat the orders and the bots play on to the round limit at once.
    # (The panel goes once the match is over: the round limit may come within this one request.)
    page.wait_for_function("() => !document.querySelector('#orders') || "
                           "document.querySelector('#orders button.orders-pause[aria-pressed=false]')", timeout=60000)
    context.close()  # anna goes away

    deadline, played = time.monotonic() + 45, 0
    while time.monotonic() < deadline:
        played = ActionLog.objects.filter(match=match, seat=0, kind=ActionLog.ORDER).count()
        rolls = ActionLog.objects.filter(match=match, seat=0, kind=ActionLog.ORDER, action__type="roll").count()
        if rolls >= 2 or Match.objects.get(pk=match.pk).is_over:
            break
        time.sleep(0.5)
    match = Match.objects.get(pk=match.pk)
    assert rolls >= 2 or match.is_over, f"{played} moves by order"
    bots_moved = ActionLog.objects.filter(match=match, seq__gt=version, kind=ActionLog.BOT).exists()
    assert bots_moved and match.version > version + 3
    assert not ActionLog.objects.filter(match=match, seat=0, kind=ActionLog.TIMEOUT).exists()
    assert errors == []


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_road_order_takes_its_edge_from_a_pick_on_the_board(browser, live_site, device):
    """Catan's "Build a road at an edge" (issue 33): the place is picked on the board, lit as the
    knight's hexes are, by a tap on a phone; the pick only fills the field, the order is added
    by its own button, and the line names the place in words."""
    anna = make_user("anna")
    match = play.match_create(creator=anna, game="catan_ships", seats=3, bot_seats=2, title="Roads by order")
    match = _to_the_game_proper(Match.objects.get(pk=match.pk), anna)
    context = browser.new_context(**(DESKTOP if device == "desktop" else PHONE))
    page, errors = context.new_page(), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_site + "/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", "pw-" + "anna" * 2)
    page.click("main button[type=submit]")
    page.wait_for_url(live_site + "/")
    page.goto(f"{live_site}/matches/{match.pk}/")
    kind = page.locator("#orders details.orders-add", has=page.locator("summary:has-text(\"Build a road at an edge\")"))
    summary = kind.locator("summary")
    summary.scroll_into_view_if_needed()
    summary.tap() if device == "phone" else summary.click()
    pick = kind.locator("button.orders-pick")
    pick.wait_for(state="visible")
    version = Match.objects.get(pk=match.pk).version
    pick.tap() if device == "phone" else pick.click()
    spots = page.locator("#cs-live .cs-board.orders-picking .orders-picks .orders-pick-spot")
    spots.first.wait_for(state="visible")
    assert spots.count() == kind.locator("select[name='f.edge'] option[value]:not([value=''])").count()
    spot = spots.nth(spots.count() // 2)
    spot.scroll_into_view_if_needed()
    value, words = spot.get_attribute("value"), spot.get_attribute("title")
    page.screenshot(path=str(ARTIFACTS / f"orders-road-pick-{device}.png"), full_page=False)
    spot.tap() if device == "phone" else spot.click()
    page.wait_for_function("() => !document.querySelector('.orders-picks')")
    assert kind.locator("select[name='f.edge']").input_value() == value
    assert Match.objects.get(pk=match.pk).version == version, "a pick plays nothing"
    assert not StandingOrders.objects.filter(match=match).exists(), "a pick saves nothing"
    add = kind.locator("button[type=submit]")
    add.tap() if device == "phone" else add.click()
    page.wait_for_function("() => document.querySelectorAll('#orders .orders-lines li:not(.empty)').length == 1")
    assert words in page.locator("#orders .orders-lines li").first.inner_text()
    assert StandingOrders.objects.get(match=match, seat=0).lines[0]["edge"] == value
    context.close()
    assert errors == []
