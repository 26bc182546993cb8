"""Catan at the table, as a player meets it in Chromium at 1366×900 and on a 390×844 touch
phone: a panel button leaves the page where it was, the focus lands somewhere useful (never the
body, never one Enter from ending the turn), an open list of choices lies above every other lit
place, every lit place on the phone is at least 24 px and a tap only picks it until confirmed,
and axe-core finds no WCAG 2.1 A/AA violation."""
import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.models import Match
from tests.browser.conftest import (LIVE_WAIT_MS, ARTIFACTS, SETTLED, SOCKET_DIARY, broken_words, browser,  # noqa: F401  (fixtures)
                                   live_site, wait_for_socket)
from tests.catan_ships.catan_pages_support import ENGINE, new_match, play_until, users_by_seat
from tests.conftest import make_user

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


class Player:
    def __init__(self, browser, base, user, device, label):
        self.context = browser.new_context(**device)
        self.context.add_init_script(SOCKET_DIARY)
        self.page = self.context.new_page()
        self.base, self.label, self.errors, self.touch = base, label, [], device.get("has_touch", False)
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(base + "/accounts/login/")
        self.page.fill("#id_username", user.username)
        self.page.fill("#id_password", "pw-" + user.username * 2)
        self.page.click("main button[type=submit]")
        self.page.wait_for_url(base + "/")

    def open(self, match):
        self.page.goto(self.base + match.get_absolute_url())
        self.page.wait_for_selector(".cs-svg")
        wait_for_socket(self.page)   # the socket's catch-up on opening, which could replace the part

    def press(self, locator):
        locator.tap() if self.touch else locator.click()

    def shot(self, name):
        self.page.screenshot(path=str(ARTIFACTS / f"cs-table-{self.label}-{name}.png"))

    def scroll_y(self):
        return self.page.evaluate("window.scrollY")

    def wait_version_above(self, version):
        self.page.wait_for_function(
            f"() => Number(document.querySelector('#match-live').dataset.version) > {version}", timeout=LIVE_WAIT_MS)
        wait_for_socket(self.page)   # the socket's copy of the same version lands too
        self.settled()

    def settled(self):
        """Every swap settled: htmx shows a new part at once and settles it a moment later, when
        the page's script (htmx.onLoad) puts the focus back; until then it is on <body>."""
        self.page.wait_for_function(SETTLED, timeout=LIVE_WAIT_MS)

    def in_view(self, selector):
        return self.page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
            return r.bottom > 0 && r.top < innerHeight; }""", selector)

    def axe_violations(self):
        result = Axe().run(self.page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a",
                                                                                         "wcag21aa"]}})
        return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result.response["violations"]]

    def no_sideways_scroll(self):
        assert self.page.evaluate("document.documentElement.scrollWidth") <= self.page.viewport_size["width"]


@pytest.fixture
def table(browser, live_site):
    users = [make_user(n) for n in ("anna", "bo", "carl")]
    made = []

    def sit(match, seat, device, label):
        player = Player(browser, live_site, users_by_seat(match)[seat], device, label)
        made.append(player)
        return player

    yield users, sit
    for player in made:
        player.context.close()


def roll_waits(state):
    return state["phase"] == "roll"


@pytest.mark.parametrize("device,label", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_rolling_leaves_the_page_where_it_was_and_the_focus_off_end_turn(table, device, label):
    users, sit = table
    match = play_until(new_match(*users), roll_waits, seed=3)
    me = sit(match, match.turn_seats[0], device, label)
    me.open(match)
    assert me.axe_violations() == []
    # Scrolled down to the panel's buttons, as a player reaching for Roll is.
    # (An instant scroll: the site's CSS asks for no smooth scrolling, so it is done on return.)
    me.page.evaluate("document.querySelector('.cs-actions').scrollIntoView({block: 'center'})")
    before = me.scroll_y()
    roll = me.page.locator(".cs-actions button.primary")
    roll.focus()
    me.page.keyboard.press("Enter")   # by keyboard: the focus after the move is checked too
    me.wait_version_above(match.version)
    assert abs(me.scroll_y() - before) <= 40, (before, me.scroll_y())
    assert me.in_view(".cs-turn") or me.in_view(".cs-spots")
    focused = me.page.evaluate("[document.activeElement.tagName, document.activeElement.className, "
                               "document.activeElement.textContent.slice(0, 60)]")
    assert focused[0] != "BODY", focused
    assert "End the turn" not in focused[2], focused
    match.refresh_from_db()
    me.shot("after-roll")
    me.no_sideways_scroll()
    assert me.axe_violations() == []
    # Ending the turn by a click stays put as well.
    if "end_turn" in {a["type"] for a in ENGINE.legal_actions(match.state, match.turn_seats[0])}:
        me.page.evaluate("document.querySelector('.cs-actions').scrollIntoView({block: 'center'})")
        before = me.scroll_y()
        me.press(me.page.locator(".cs-actions button:has-text('End the turn')"))
        me.wait_version_above(match.version)
        assert abs(me.scroll_y() - before) <= 40, (before, me.scroll_y())
    assert me.errors == []


def robber_with_a_choice(state):
    if state["phase"] != "robber":
        return False
    hexes = [a["hex"] for a in ENGINE.legal_actions(state, state["current"]) if a["type"] == "move_robber"]
    return any(hexes.count(h) > 1 for h in hexes)


@pytest.mark.parametrize("device,label", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_list_of_choices_lies_above_the_other_lit_places(table, device, label):
    users, sit = table
    match = None
    for seed in range(6):   # a match's dice are its own: some never offer the robber a choice of victims
        try:
            match = play_until(new_match(*users), robber_with_a_choice, seed=seed, prefer=("roll", "move_robber"))
            break
        except AssertionError:
            continue
    assert match is not None
    me = sit(match, match.turn_seats[0], device, label)
    me.open(match)
    menu = me.page.locator(".cs-spots.placed > .cs-spot-menu").first
    me.press(menu.locator("summary"))
    me.page.wait_for_selector(".cs-spot-menu[open] .cs-menu button")
    me.shot("robber-menu")
    covered = me.page.evaluate("""() => [...document.querySelectorAll('.cs-spot-menu[open] .cs-menu button')].map(b => {
        const r = b.getBoundingClientRect(), out = [];
        for (const [fx, fy] of [[.5, .5], [.15, .5], [.85, .5]]) {
          const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
          if (hit !== b && !b.contains(hit)) out.push(b.textContent + ' under ' + (hit && hit.outerHTML.slice(0, 80)));
        }
        return out; }).flat()""")
    assert covered == []
    # The list leaves the hex it is for in sight (it once covered the hex's middle on a phone).
    hidden = me.page.evaluate("""() => { const s = document.querySelector('.cs-spot-menu[open] > summary'),
        r = s.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === s || s.contains(hit) ? null : hit && hit.outerHTML.slice(0, 80); }""")
    assert hidden is None
    # The victim chosen in the list is the one robbed (on the phone, once confirmed).
    choice = me.page.locator(".cs-spot-menu[open] .cs-menu button").last
    value = choice.get_attribute("value")
    me.press(choice)
    if me.touch:
        assert me.page.locator(".cs-confirm").is_visible()
        match.refresh_from_db()
        assert match.state["phase"] == "robber"   # a tap alone commits nothing
        me.shot("robber-confirm")
        me.press(me.page.locator(".cs-confirm-yes"))
    me.wait_version_above(match.version)
    assert json.loads(value) in [row.action for row in Match.objects.get(pk=match.pk).log.all()]
    assert me.errors == []


def test_on_a_phone_every_lit_place_is_big_enough_and_a_tap_only_picks_it(table):
    users, sit = table
    match = new_match(*users)
    me = sit(match, match.turn_seats[0], PHONE, "phone")
    me.open(match)
    me.no_sideways_scroll()
    me.shot("setup-zoomed")
    # Every lit corner: at least 24 × 24 CSS px, or 24 px from the next one's centre, and the
    # place itself under its centre (nothing covers it).
    report = me.page.evaluate("""() => {
        const spots = [...document.querySelectorAll('.cs-spots.placed .cs-spot')];
        const boxes = spots.map(s => s.getBoundingClientRect());
        return spots.map((s, i) => {
          const r = boxes[i], cx = r.left + r.width / 2, cy = r.top + r.height / 2;
          let nearest = 1e9;
          boxes.forEach((o, j) => { if (j !== i) nearest = Math.min(nearest,
              Math.hypot(o.left + o.width / 2 - cx, o.top + o.height / 2 - cy)); });
          s.scrollIntoView({block: 'center', inline: 'center'});
          const q = s.getBoundingClientRect(), hit = document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2);
          return {w: r.width, h: r.height, nearest: nearest, covered: !(hit === s || s.contains(hit))};
        }); }""")
    assert report
    small = [r for r in report if (r["w"] < 24 or r["h"] < 24) and r["nearest"] < 24]
    assert small == [] and [r for r in report if r["covered"]] == []
    assert me.axe_violations() == []
    # A tap picks a corner and asks; nothing is placed until "Confirm".
    version = match.version
    spot = me.page.locator(".cs-spots.placed > .cs-spot").first
    me.press(spot)
    me.page.wait_for_selector(".cs-confirm", state="visible")
    # Asked, and nothing sent: no request of htmx's in flight, no new version.
    assert me.page.evaluate("document.querySelector('.htmx-request')") is None
    match.refresh_from_db()
    assert match.version == version
    assert "Place a settlement" in me.page.inner_text(".cs-confirm")
    # Scrolled to the end, the page's last control comes out from under the bar (a longer crawl
    # could not reach the language chooser).
    last_control_shows = """() => { window.scrollTo(0, document.documentElement.scrollHeight);
        const last = document.querySelector('.language-chooser button'), r = last.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === last || last.contains(hit); }"""
    assert me.page.evaluate(last_control_shows)
    # A place whose words take three lines on a phone (a crawl met one): the page's end makes room
    # for the bar as tall as it is then.
    me.page.evaluate("""() => { document.querySelector('.cs-confirm-what').textContent =
        'Place a settlement: corner of Pasture 10 / Fields 11 in the south-east (2) / Forest 3 in the south-east'; }""")
    me.page.wait_for_function("() => document.querySelector('.cs-confirm').offsetHeight > 112")   # > 6rem + .5rem
    me.page.wait_for_function(last_control_shows, timeout=LIVE_WAIT_MS)
    me.shot("setup-confirm")
    me.press(me.page.locator(".cs-confirm-no"))
    assert not me.page.locator(".cs-confirm").is_visible()
    # The bar that held the focus is hidden: the focus goes back to the place picked, not <body>.
    assert me.page.evaluate("() => document.activeElement.classList.contains('cs-spot')")
    me.press(spot)
    me.press(me.page.locator(".cs-confirm-yes"))
    me.wait_version_above(version)
    match.refresh_from_db()
    assert len(ENGINE.view(match.state, None)["buildings"]) == 1
    # The road that follows: lit edges, as big or as far apart.
    edges = me.page.evaluate("""() => [...document.querySelectorAll('.cs-spots.placed .cs-spot')].map(s => {
        const r = s.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert edges and all(w >= 24 and h >= 24 for w, h in edges)
    focused = me.page.evaluate("document.activeElement.className")
    assert focused.startswith("cs-spot k-edge")
    me.no_sideways_scroll()
    assert me.errors == []


def test_a_keyboard_confirm_far_below_the_board_shows_where_the_focus_went(table):
    """On a phone, a place tapped and its "Confirm" then pressed by key with the page scrolled
    below the board (a crawl did so): the settlement is placed, the focus goes to the first road
    to place, and the page shows it, as a keyboard player's next key acts there. (The focus was
    put there unseen, 856 px above the screen.) A finger's page stays put: see the tests above."""
    users, sit = table
    match = new_match(*users)
    me = sit(match, match.turn_seats[0], PHONE, "phone-keys")
    me.open(match)
    version = match.version
    me.press(me.page.locator(".cs-spots.placed > .cs-spot").first)
    me.page.wait_for_selector(".cs-confirm", state="visible")
    assert me.page.evaluate("() => document.activeElement.classList.contains('cs-confirm-yes')")
    me.page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert not me.in_view(".cs-board")
    me.page.keyboard.press("Enter")
    me.wait_version_above(version)
    match.refresh_from_db()
    assert len(ENGINE.view(match.state, None)["buildings"]) == 1
    assert me.page.evaluate("document.activeElement.className").startswith("cs-spot k-edge")
    shown = me.page.evaluate("""() => { const r = document.activeElement.getBoundingClientRect();
        return r.top > -1 && r.bottom < innerHeight + 1; }""")   # (to a fraction of a pixel)
    me.shot("keyboard-confirm")
    assert shown
    me.no_sideways_scroll()
    assert me.errors == []


def test_an_empty_offer_is_refused_beside_its_form_which_stays_open(table):
    users, sit = table
    match = play_until(new_match(*users), lambda s: s["phase"] == "main", seed=4)
    me = sit(match, match.turn_seats[0], DESKTOP, "desktop")
    me.open(match)
    me.page.click(".cs-offer summary")
    me.page.evaluate("document.querySelector('.cs-offer').scrollIntoView({block: 'center'})")
    before = me.scroll_y()
    me.page.click(".cs-offer form button:not([name])")
    me.page.wait_for_selector(".cs-offer[open] form .error[role=alert]", timeout=LIVE_WAIT_MS)
    assert me.page.locator("#match-live > .error").count() == 0
    assert me.page.evaluate("document.activeElement.closest('.cs-offer') !== null")
    assert abs(me.scroll_y() - before) <= 40
    me.shot("empty-offer")
    match.refresh_from_db()
    assert ENGINE.view(match.state, None)["offers"] == []
    # A refused move reaches htmx as a 200 with its reason (config/htmx.py): nothing is logged,
    # not even a failed load (issue 33).
    assert me.errors == []


def test_a_knight_is_played_by_choosing_its_hex_on_the_board(table):
    from tests.catan_ships.catan_pages_support import set_state, states_of_a_playout

    users, sit = table
    match = new_match(*users)
    for state, seat, legal in states_of_a_playout(steps=4000, rnd_seed=11):
        if state["phase"] == "main" and seat == state["current"] and any(a["type"] == "play_knight" for a in legal):
            break
    match = set_state(match, state)
    me = sit(match, seat, DESKTOP, "desktop")
    me.open(match)
    assert me.page.locator(".cs-spots.placed > .knight").first.is_hidden()
    me.page.click(".cs-knight summary")
    me.page.wait_for_selector(".cs-board.knight-on")
    shown = me.page.locator(".cs-spots.placed > :visible")
    assert shown.count() == len({a["hex"] for a in legal if a["type"] == "play_knight"})
    assert me.page.evaluate("document.activeElement.closest('.knight') !== null")
    me.shot("knight")
    assert me.axe_violations() == []
    first = me.page.locator(".cs-spots.placed > .knight").first
    me.press(first if first.evaluate("e => e.tagName") == "BUTTON" else first.locator("summary"))
    if first.evaluate("e => e.tagName") == "DETAILS":
        me.press(me.page.locator(".cs-spot-menu[open] .cs-menu button").first)
    me.wait_version_above(match.version)
    match.refresh_from_db()
    assert match.log.order_by("-seq").first().action["type"] == "play_knight" or any(
        row.action.get("type") == "play_knight" for row in match.log.all())
    assert me.errors == []


def test_a_discard_of_the_wrong_number_is_refused_beside_its_form_which_keeps_the_numbers(table):
    """As an empty offer: the reason shows in the discard form (not at the top of the live part,
    above the screen), the numbers the player typed stay, and the focus is in the form."""
    users, sit = table
    match = play_until(new_match(*users), lambda s: s["phase"] == "discard", seed=7)
    seat = int(next(iter(match.state["discarding"])))
    need = match.state["discarding"][str(seat)]
    hand = match.state["hands"][seat]
    me = sit(match, seat, DESKTOP, "desktop")
    me.open(match)
    me.page.evaluate("document.querySelector('.cs-discard').scrollIntoView({block: 'center'})")
    typed = {}
    for box in me.page.locator(".cs-discard input[type=number]").all():
        resource = box.get_attribute("name").split(".")[-1]
        if hand.get(resource) and not typed:
            typed[resource] = 1                                  # one card: too few
            box.fill("1")
    assert need > 1 and typed
    before = me.scroll_y()
    version = match.version
    me.page.click(".cs-discard button")
    me.page.wait_for_selector("form.cs-discard .error[role=alert]", timeout=15000)
    assert me.page.locator("#match-live > .error").count() == 0
    assert str(need) in me.page.inner_text("form.cs-discard .error")
    for resource, n in typed.items():
        assert me.page.input_value(f".cs-discard input[name='a.cards.{resource}']") == str(n)
    assert me.page.evaluate("document.activeElement.closest('.cs-discard') !== null")
    assert abs(me.scroll_y() - before) <= 40
    me.shot("wrong-discard")
    match.refresh_from_db()
    assert match.version == version and match.state["discarding"][str(seat)] == need
    assert me.errors == []  # no failed load for a refusal the page shows (config/htmx.py)


@pytest.mark.parametrize("device,label", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_points_table_keeps_its_headers_whole_beside_a_long_name(browser, live_site, device, label):  # noqa: F811
    users = [make_user(n) for n in ("wilhelmina_vanderberg", "bo", "carl")]
    match = new_match(*users)
    me = Player(browser, live_site, users[0], device, label)
    try:
        me.open(match)
        # The headers' words whole: none drawn over two lines ("Point" / "s").
        broken = broken_words(me.page, ".cs-players thead th")
        assert broken == [], f"headers' words drawn over two lines: {broken}"
        me.no_sideways_scroll()
        # The long name wraps instead, beside its colour.
        name = me.page.locator(".cs-players tbody tr").first
        assert "Wilhelmina" in name.inner_text() and name.locator(".swatch").is_visible()
        me.page.locator(".cs-players").screenshot(path=str(ARTIFACTS / f"cs-table-{label}-long-name.png"))
        assert me.errors == []
    finally:
        me.context.close()
