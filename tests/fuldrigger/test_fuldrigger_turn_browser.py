"""One Fuldrigger turn on one screen, on a desktop (1366×900) and on a touch phone (390×844): roll,
choose a ship on the map, tap a lit square, sail, buy, end the turn. At every step the map and
the control in use are both on screen (not under the map), the page never scrolls sideways, no
action scrolls the page away from what it acted on, and no JavaScript error is logged. Labels
stay readable and, on the phone, ships and lit squares are big enough to tap. A screenshot of
the screen per step lands in tests/artifacts/."""
import pytest

from games.engines.fuldrigger.board import WORLD
from games import play
from games.models import Match
from tests.browser.conftest import ARTIFACTS, SETTLED, SOCKET_DIARY, browser, live_site, wait_for_socket  # noqa: F401  (fixtures)
from tests.conftest import make_user
from tests.fuldrigger.fuldrigger_pages_support import calm_start, change_state, start

pytestmark = pytest.mark.browser

DEVICES = {
    "desktop": {"viewport": {"width": 1366, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
}

ON_SCREEN = """(el, map) => {
    const r = el.getBoundingClientRect(), m = map.getBoundingClientRect();
    const sticky = getComputedStyle(map).position === 'sticky';
    const inside = r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {inside, covered: !(hit && (el === hit || el.contains(hit) || map.contains(el))),
            under_map: sticky && !map.contains(el) && r.top < m.bottom - 1};
}"""


class Player:
    def __init__(self, browser, base, device):
        self.device, self.base = device, base
        self.context = browser.new_context(**DEVICES[device])
        self.context.add_init_script(SOCKET_DIARY)
        self.page = self.context.new_page()
        self.errors, self.shots = [], 0
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def log_in(self, username):
        self.page.goto(self.base + "/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", "pw-" + username * 2)
        self.page.click("main button[type=submit]")
        self.page.wait_for_url(self.base + "/")

    def press(self, locator):
        """A tap on the phone, a click on the desktop."""
        if self.device == "phone":
            locator.tap()
        else:
            locator.click()

    def press_at(self, x, y):
        if self.device == "phone":
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def settled(self):
        """The live part swapped in and settled (the page's script puts things in view on
        htmx's settle, in the same task), and on a match's page the socket's copy of the
        version shown has landed (kept out as shown already, or swapped in and settled too). A
        replay has no socket."""
        self.page.wait_for_function(SETTLED)
        if self.page.locator("[ws-connect]").count():
            wait_for_socket(self.page)
            self.page.wait_for_function(SETTLED)

    def check(self, control, label):
        """The map and `control` are both on screen, the control not hidden under the map; no
        sideways scroll; no error. Then a screenshot of the screen."""
        page = self.page
        self.settled()
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], label
        box, view = page.locator("#fd-map").bounding_box(), page.viewport_size
        assert box["y"] >= -1 and box["y"] + box["height"] <= view["height"] + 1, (label, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"] + 1, (label, box)
        where = control.evaluate(ON_SCREEN, page.locator("#fd-map").element_handle()) if control else None
        if where:
            assert where["inside"] and not where["under_map"] and not where["covered"], (label, where)
        self.shots += 1
        page.screenshot(path=str(ARTIFACTS / f"fd-turn-{self.device}-{self.shots:02d}-{label}.png"))
        assert self.errors == [], (label, self.errors)


def ship_at(match_id, ship_id):
    return Match.objects.get(pk=match_id).state["ships"][str(ship_id)]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_turn_on_one_screen(device, browser, live_site):  # noqa: F811
    users = [make_user(name) for name in ("anna", "bo", "carl")]
    match = start(users)
    # Every reef known (harmless, F18), so that the square tapped is not a gamble on the dice.
    change_state(match, lambda state: state["known_reefs"].__setitem__(
        0, sorted({data["reef"] for data in WORLD.nodes.values() if data.get("reef")})))
    ARTIFACTS.mkdir(exist_ok=True)
    anna = Player(browser, live_site, device)
    page = anna.page
    try:
        anna.log_in("anna")
        page.goto(f"{live_site}/matches/{match.pk}/")
        page.wait_for_selector("#fd-map #fd-pieces .fd-ship.fd-mine")
        page.wait_for_function("() => document.documentElement.style.getPropertyValue('--fd-k') !== ''")

        # The map opens on anna's fleet, shows land, and its names are readable.
        assert page.locator("#fd-sea .fd-land").get_attribute("d").count("z") > 100
        assert "Natural Earth" in page.locator(".fd-credit").inner_text()
        mine = page.locator("#fd-pieces .fd-ship.fd-mine")
        map_box = page.locator("#fd-map").bounding_box()
        for i in range(mine.count()):
            ship = mine.nth(i).bounding_box()
            assert map_box["x"] <= ship["x"] and ship["x"] + ship["width"] <= map_box["x"] + map_box["width"]
            assert map_box["y"] <= ship["y"] and ship["y"] + ship["height"] <= map_box["y"] + map_box["height"]
        sizes = page.evaluate("""() => [...document.querySelectorAll('#fd-sea .fd-port text')]
            .filter(t => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0)
            .map(t => t.getBoundingClientRect().height)""")
        assert len(sizes) >= 4 and min(sizes) >= 11, sizes
        roll = page.locator(".fd-turn button:has-text('Roll the dice')")
        anna.check(roll, "opened")

        # Roll: the turn's controls stay where they were.
        anna.press(roll)
        page.wait_for_selector("text=ships sail up to")
        page.wait_for_selector("#fd-pieces .fd-ship.fd-mine a")
        anna.check(page.locator(".fd-turn button:has-text('End the turn')"), "rolled")

        # Choose a ship on the map: the squares it can reach light up on the map, the sail form
        # is on screen beside (or below) it.
        ship_link = page.locator("#fd-pieces .fd-ship.fd-mine a").first
        ship_id = int(ship_link.get_attribute("data-ship"))
        hit = page.locator(f"#fd-pieces a[data-ship='{ship_id}'] .fd-hit").bounding_box()
        if device == "phone":
            assert min(hit["width"], hit["height"]) >= 24, hit
        anna.press_at(hit["x"] + hit["width"] / 2, hit["y"] + hit["height"] / 2)
        page.wait_for_selector("#fd-dest")
        page.wait_for_selector("#fd-map #fd-pieces .fd-reach a")
        anna.settled()
        assert int(page.get_attribute(".fd-sail form", "data-ship")) == ship_id
        anna.check(page.locator(".fd-sail button.primary"), "ship-chosen")

        # Tap a lit square that shows on the map (a calm one, not under another piece).
        target = page.evaluate("""() => {
            const map = document.getElementById('fd-map').getBoundingClientRect();
            const safe = [...document.querySelectorAll('#fd-dest option[data-to]')]
              .filter(o => !/storm|iceberg|calm|pirate|reef/i.test(o.textContent.replace(/reef \\w \\([^)]*known: harmless\\)/g, '')))
              .map(o => o.dataset.to);
            for (const a of document.querySelectorAll('#fd-pieces .fd-reach a')) {
              const r = a.querySelector('circle').getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
              if (x < map.left + 30 || x > map.right - 60 || y < map.top + 10 || y > map.bottom - 20) continue;
              if (!safe.includes(a.dataset.to) || !a.contains(document.elementFromPoint(x, y))) continue;
              return {to: a.dataset.to, x, y, w: r.width};
            }
            return null; }""")
        assert target, "no lit square to tap on the map"
        if device == "phone":
            assert target["w"] >= 24, target
        anna.press_at(target["x"], target["y"])
        assert page.eval_on_selector("#fd-dest", "s => s.selectedOptions[0].dataset.to") == target["to"]
        assert page.get_attribute("#fd-preview", "d").startswith("M")
        anna.check(page.locator(".fd-sail button.primary"), "square-chosen")

        # Sail: on the phone by tapping the lit square again, on the desktop with the button.
        if device == "phone":
            anna.press_at(target["x"], target["y"])
        else:
            anna.press(page.locator(".fd-sail button.primary"))
        page.wait_for_selector("#fd-dest", state="detached")
        assert ship_at(match.pk, ship_id)["node"] == target["to"]
        anna.check(page.locator(".fd-turn .actions"), "sailed")

        # Buy a load for a ship still at home: the port's panel stays where it was.
        buy = page.locator(".fd-port-panel .fd-prices button").first
        buy.scroll_into_view_if_needed()
        anna.check(buy, "to-buy")
        panel_top = page.locator(".fd-port-panel").first.bounding_box()["y"]
        anna.press(buy)
        page.wait_for_function("""() => document.querySelector('.fd-markets') !== null""")
        anna.settled()
        laden = [s for s in Match.objects.get(pk=match.pk).state["ships"].values() if s["owner"] == 0 and s["cargo"]]
        assert len(laden) == 1
        panel = page.locator(".fd-port-panel").first
        # It stays put on the screen, though the lines above it change (a laden ship can no longer
        # be fitted out as a privateer).
        assert abs(panel.bounding_box()["y"] - panel_top) < 30, "the page jumped away from the port"
        # Trade at a glance: where the new cargo sells, marked on the map too.
        assert page.locator(".fd-markets li").count() >= 1
        assert page.locator("#fd-pieces .fd-buyer").count() >= 1
        # What the purchase did (the load aboard, and how far it must go) shows where it was made.
        anna.check(page.locator(".fd-port-panel .fd-cargo-line").first, "bought")

        # End the turn.
        end = page.locator(".fd-turn button:has-text('End the turn')")
        end.scroll_into_view_if_needed()
        anna.check(end, "to-end")
        anna.press(end)
        page.wait_for_selector(".fd-turn button:has-text('End the turn')", state="detached")
        assert Match.objects.get(pk=match.pk).state["turn"]["seat"] == 1
        anna.check(page.locator(".fd-turn p").first, "ended")
    finally:
        anna.context.close()


def _rolled(browser, live_site, device):
    """Anna's page at her first turn, the dice rolled: her ships may sail."""
    match = start([make_user(name) for name in ("anna", "bo")])
    anna = Player(browser, live_site, device)
    page = anna.page
    anna.log_in("anna")
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_selector("#fd-map #fd-pieces .fd-ship.fd-mine")
    anna.press(page.locator(".fd-turn button:has-text('Roll the dice')"))
    page.wait_for_selector("#fd-pieces .fd-ship.fd-mine a")
    anna.settled()
    return match, anna


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_one_tap_on_a_lit_square_only_chooses_it_even_when_the_list_chose_it_first(device, browser, live_site):  # noqa: F811
    """Issue 33: on a phone one tap on a lit square sailed at once when the list had chosen that
    square first (as a player does who reads the list, then looks at the map). The words say a
    tap chooses and a second tap sails: so it is, on every device; and they say "tap" on the
    phone, "click" on the desktop."""
    match, anna = _rolled(browser, live_site, device)
    page = anna.page
    try:
        sail = page.locator(".fd-fleet a.button").first                        # "Sail…"
        sail.scroll_into_view_if_needed()
        before = page.evaluate("scrollY")
        anna.press(sail)
        page.wait_for_selector("#fd-dest")
        anna.settled()
        # The form opens under the ship's row, where the player is reading: the page stays put
        # (it jumped 338 px up to the turn's panel).
        assert page.locator(".fd-fleet #fd-sail").count() == 1
        assert abs(page.evaluate("scrollY") - before) < 60, (before, page.evaluate("scrollY"))
        page.screenshot(path=str(ARTIFACTS / f"fd-sail-from-fleet-{device}.png"))
        hint = page.locator(".fd-sail .fd-hint").inner_text()
        verb = "Tap" if device == "phone" else "Click"
        assert hint.startswith(verb + " a lit square") and (verb.lower() + " it again") in hint, hint
        version = Match.objects.get(pk=match.pk).version
        to = page.evaluate("""() => [...document.querySelectorAll('#fd-pieces .fd-reach a[data-to]')].filter(a => {
            const r = a.querySelector('circle').getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
            return x > 0 && y > 0 && x < innerWidth && y < innerHeight && a.contains(document.elementFromPoint(x, y));
        }).map(a => a.dataset.to)[0]""")
        assert to, "no lit square shows on the map"
        page.select_option("#fd-dest", value=page.get_attribute(f"#fd-dest option[data-to='{to}']", "value"))
        page.evaluate("() => { window.fdClicks = 0; document.addEventListener('click', () => window.fdClicks++, true); }")
        anna.press(page.locator(f"#fd-pieces .fd-reach a[data-to='{to}']"))
        page.wait_for_function("() => window.fdClicks === 1")
        anna.settled()
        # Chosen, not sailed: the page and the match are where they were, and say so.
        assert Match.objects.get(pk=match.pk).version == version
        assert page.get_attribute("#match-live", "data-version") == str(version)
        assert page.eval_on_selector("#fd-dest", "s => s.selectedOptions[0].dataset.to") == to
        note = page.locator("#fd-dest-hazards").inner_text()
        assert f"{verb} it again, or press Sail." in note, note
        # The second tap sails.
        anna.press(page.locator(f"#fd-pieces .fd-reach a[data-to='{to}']"))
        page.wait_for_selector("#fd-dest", state="detached")
        assert Match.objects.get(pk=match.pk).version > version
        assert not anna.errors, anna.errors
    finally:
        anna.context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_ship_acted_on_under_an_open_sail_form_stays_where_it_was(device, browser, live_site):  # noqa: F811
    """The sail form opened under one ship's row, then "Fit out as privateer" pressed on the next
    ship's: the form closes above the row, and the row acted in stays where it was on the screen,
    with the focus in it on the desktop's keyboard (a 40-step crawl on a phone saw the list's top
    kept in place instead, and the ship's row carried 350 px up, under the map)."""
    users = [make_user(name) for name in ("anna", "bo")]
    match = start(users)

    def two_empty_merchants_at_home(state):
        home = state["homes"][0]
        mine = sorted((s for s in state["ships"].values() if s["owner"] == 0), key=lambda s: s["id"])
        for ship in mine[:2]:
            ship.update(node=home, cargo=None, privateer=False)
        assert len(mine) >= 2
    change_state(match, two_empty_merchants_at_home)
    first, second = sorted(s["id"] for s in match.state["ships"].values() if s["owner"] == 0)[:2]
    anna = Player(browser, live_site, device)
    page = anna.page
    try:
        anna.log_in("anna")
        page.goto(f"{live_site}/matches/{match.pk}/")
        anna.press(page.locator(".fd-turn button:has-text('Roll the dice')"))
        page.wait_for_selector(f'[data-row="ship-{first}"] a.button[href*="near=fleet"]')
        anna.settled()
        anna.press(page.locator(f'[data-row="ship-{first}"] a.button[href*="near=fleet"]'))
        page.wait_for_selector(f'[data-row="ship-{first}"] .fd-sail')
        anna.settled()
        fit = page.locator(f'[data-row="ship-{second}"] button:has-text("Fit out as privateer")')
        # In the middle of the screen: the page has scrolled far enough for the form above to close
        # without the page's top stopping it.
        fit.evaluate("el => el.scrollIntoView({block: 'center'})")
        row = f'[data-row="ship-{second}"]'
        before = page.evaluate(f"() => document.querySelector('{row}').getBoundingClientRect().top")
        version = Match.objects.get(pk=match.pk).version
        if device == "desktop":
            fit.focus()
            page.keyboard.press("Enter")
        else:
            anna.press(fit)
        page.wait_for_selector(f'#match-live[data-version="{version + 1}"]')
        anna.settled()
        assert page.locator(".fd-sail").count() == 0          # the form above the row has gone
        after = page.evaluate(f"() => document.querySelector('{row}').getBoundingClientRect().top")
        assert abs(after - before) <= 2, (before, after)
        assert ship_at(match.pk, second)["privateer"]
        if device == "desktop":
            assert page.evaluate(f"() => !!document.activeElement.closest('{row}')")
        page.screenshot(path=str(ARTIFACTS / f"fd-turn-{device}-row-kept.png"))
        assert anna.errors == []
    finally:
        anna.context.close()


# Two frames drawn: what the page's script does when the layout changes (a ResizeObserver's
# callback, after layout and before paint) has been done.
FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def test_the_board_opened_taller_than_the_screen_scrolls_to_its_foot_and_stays_where_it_was(browser, live_site):  # noqa: F811
    """On a desktop the board (the map, its legend, the price lists) stays on screen beside the
    turn while that scrolls. The legend opened with the page scrolled makes it taller than the
    screen: it stays where it was (the summary pressed does not move, nor does the page), scrolling
    on brings its foot (the price lists' summary) into view, and scrolling back its head. Stuck by
    its head, its foot stayed below the screen until the turn's column ran out (a 40-step crawl, seed 9: the click on "Price lists of every port"
    had to scroll the page 750 px to find it)."""
    users = [make_user(name) for name in ("anna", "bo")]
    match = start(users)
    anna = Player(browser, live_site, "desktop")
    page = anna.page
    try:
        anna.log_in("anna")
        page.goto(f"{live_site}/matches/{match.pk}/")
        anna.settled()
        board = page.locator(".fd-board")
        # The turn's column longer than the board, so that the board sticks over a long way.
        page.evaluate("""() => { const pad = document.createElement('div'); pad.style.height = '3000px';
                                 document.querySelector('#match-live').appendChild(pad); }""")
        page.evaluate("window.scrollTo(0, 600)")
        assert board.evaluate("el => getComputedStyle(el).position") == "sticky"
        legend = page.locator(".fd-legend > summary")
        before = legend.evaluate("el => el.getBoundingClientRect().top")
        legend.click()
        page.wait_for_function("() => document.querySelector('.fd-legend').open")
        page.evaluate(FRAMES)
        after = legend.evaluate("el => el.getBoundingClientRect().top")
        assert abs(after - before) <= 2, (before, after)
        assert page.evaluate("scrollY") == 600      # nor did anything else move
        foot = page.locator(".fd-price-lists > summary")
        below = foot.evaluate("el => el.getBoundingClientRect().bottom - innerHeight")
        assert below > 0     # the legend opened pushed the board's foot below the screen
        page.mouse.move(1100, 400)    # over the turn's column (a wheel over the map zooms it)
        page.mouse.wheel(0, below + 40)
        page.wait_for_function("() => document.querySelector('.fd-price-lists > summary').getBoundingClientRect().bottom"
                               " <= innerHeight", timeout=5000)
        page.screenshot(path=str(ARTIFACTS / "fd-turn-desktop-board-foot.png"))
        # And back up: its head (the map) comes back into view long before the page's top.
        page.mouse.wheel(0, -(below + 40))
        page.wait_for_function("() => document.querySelector('#fd-map').getBoundingClientRect().top >= 0", timeout=5000)
        assert page.evaluate("scrollY") > 300
        assert anna.errors == []
    finally:
        anna.context.close()


def test_the_orders_panel_keeps_its_place_while_a_change_resizes_the_turn_above_it(browser, live_site):  # noqa: F811
    """On a phone, a player at their standing orders (the turn's part all above the screen, under
    the map) while the other player moves: the turn's part above grows or shrinks with each
    change, and the orders stay where they were on the screen. (A crawl while the match played on
    by itself, 80 steps: a new order, shown below the map, was carried 560 px up under it by the
    next round.)"""
    users = [make_user(name) for name in ("anna", "bo")]
    match = start(users)
    change_state(match, calm_start)
    by_seat = {s.number: s.user for s in match.seats.all()}
    mover, watcher = by_seat[0], by_seat[1]
    viewer = Player(browser, live_site, "phone")
    page = viewer.page
    try:
        viewer.log_in(watcher.username)
        page.goto(f"{live_site}/matches/{match.pk}/")
        page.wait_for_selector("#orders details.orders-add")
        viewer.settled()
        page.locator("#orders details.orders-add summary").first.evaluate("el => el.scrollIntoView({block: 'start'})")
        place = """() => ({orders: document.getElementById('orders').getBoundingClientRect().top,
                           live: document.getElementById('match-live').getBoundingClientRect(),
                           map: document.getElementById('fd-map').getBoundingClientRect().bottom})"""
        before = page.evaluate(place)
        assert before["live"]["bottom"] <= before["map"] + 1, before   # the turn's part is all above
        for action in ({"type": "roll"}, {"type": "end_turn"}):
            version = Match.objects.get(pk=match.pk).version
            play.action_apply(match_id=match.pk, user=mover, action=action, expected_version=version)
            page.wait_for_selector(f'#match-live[data-version="{version + 1}"]')
            viewer.settled()
        after = page.evaluate(place)
        assert abs(after["live"]["height"] - before["live"]["height"]) > 20, (before, after)   # it did change
        assert abs(after["orders"] - before["orders"]) <= 2, (before, after)
        page.screenshot(path=str(ARTIFACTS / "fd-turn-phone-orders-kept.png"))
        assert viewer.errors == []
    finally:
        viewer.context.close()


def test_a_change_that_comes_while_the_player_is_at_their_orders_leaves_the_sail_form_where_it_is(browser, live_site):  # noqa: F811
    """On a phone, the player opens the sail form in the fleet, then goes down to their standing
    orders (the turn's part all above, under the map). A change comes (the admins extend the
    turn): the page asks for the open form again with the new version, and the form, put back in
    the fleet, was brought into view, taking the player away from the orders they were at."""
    from games.play import staff

    match, anna = _rolled(browser, live_site, "phone")
    page = anna.page
    try:
        sail = page.locator(".fd-fleet a.button").first                        # "Sail…"
        sail.scroll_into_view_if_needed()
        anna.press(sail)
        page.wait_for_selector(".fd-fleet #fd-sail")
        anna.settled()
        page.locator("#orders details.orders-add summary").first.evaluate("el => el.scrollIntoView({block: 'start'})")
        place = """() => ({orders: document.getElementById('orders').getBoundingClientRect().top,
                           live: document.getElementById('match-live').getBoundingClientRect().bottom,
                           map: document.getElementById('fd-map').getBoundingClientRect().bottom})"""
        before = page.evaluate(place)
        assert before["live"] <= before["map"] + 1, before   # the turn's part is all above
        version = Match.objects.get(pk=match.pk).version
        staff.match_extend(match_id=match.pk, actor=None, turn_hours=2)
        page.wait_for_selector(f'#match-live[data-version="{version + 1}"] .fd-fleet #fd-sail')  # asked for again
        anna.settled()
        after = page.evaluate(place)
        assert abs(after["orders"] - before["orders"]) <= 2, (before, after)
        assert anna.errors == []
    finally:
        anna.context.close()
