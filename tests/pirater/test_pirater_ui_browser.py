"""Pirater as a player meets it, in Chromium: by keyboard (focus stays on something useful after
every move, never <body>), on a phone with touch, and through axe-core (WCAG 2.1 A/AA); then a
finished match's replay (stepped by htmx, the address pushed, focus kept), its verify page and the
profile. Screenshots land in tests/artifacts/ (pt-ui-*)."""
import re

import pytest

from games import play
from games.models import ActionLog, Match
from tests.browser.conftest import LIVE_WAIT_MS, ARTIFACTS, browser, live_site  # noqa: F401  (fixtures)
from tests.conftest import make_user
from tests.pirater.pirater_pages_support import choose_ports, usable_first_roll

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1366, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


class Player:
    def __init__(self, browser, base, name, **context):
        self.context = browser.new_context(**context)
        self.page = self.context.new_page()
        self.base, self.name, self.errors, self.shots = base, name, [], 0
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(f"{m.text} at {m.location}"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def go(self, path):
        self.page.goto(self.base + path)

    def log_in(self, username):
        self.go("/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", "pw-" + username * 2)
        self.page.click("main button[type=submit]")
        self.page.wait_for_url(self.base + "/")

    def shot(self, label):
        self.shots += 1
        self.page.screenshot(path=str(ARTIFACTS / f"pt-ui-{self.name}-{self.shots:02d}-{label}.png"), full_page=True)

    def axe(self):
        """WCAG 2.1 A/AA violations on the page as it is now (rule id and the first target)."""
        from axe_playwright_python.sync_playwright import Axe

        results = Axe().run(self.page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
        return [(v["id"], v["nodes"][0]["target"]) for v in results.response["violations"]]

    def sideways(self):
        return self.page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")

    def focused(self):
        return self.page.evaluate("""() => { const el = document.activeElement;
            return el === document.body || !el ? "body" : (el.closest('#pt-live') ? 'live:' : 'page:') + el.tagName
              + ':' + (el.textContent || el.name || el.className || '').trim().slice(0, 40); }""")

    def small_targets(self):
        """Visible enabled buttons and links under 24 × 24 CSS px, or covered at their centre."""
        return self.page.evaluate("""() => [...document.querySelectorAll('main button, main a[href], main input, main select, main summary')]
          .filter(el => !el.disabled && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
          .filter(el => { const r = el.getBoundingClientRect();
             if (r.bottom < 0 || r.top > innerHeight) return false;
             const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
             const inline = el.tagName === 'A' && getComputedStyle(el).display === 'inline';
             return (!inline && (r.width < 24 || r.height < 24)) || (hit && hit !== el && !el.contains(hit) && !(el.labels && [...el.labels].some(l => l.contains(hit)))); })
          .map(el => el.outerHTML.slice(0, 80))""")


# A function, not a bare expression: Playwright polls a bare expression with eval() in the page,
# which the site's CSP forbids (the wait failed whenever focus had not yet moved at its first look).
FOCUS_LEFT_BODY = "() => document.activeElement !== document.body"


def wait_version(page, version):
    page.wait_for_selector(f'#match-live[data-version="{version}"]', timeout=LIVE_WAIT_MS)


def test_by_keyboard_focus_follows_the_turn_and_every_page_passes_axe(browser, live_site):  # noqa: F811
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    match = choose_ports(match)
    match = usable_first_roll(match)
    if match.state["current"] != 0:
        anna, bo = bo, anna
    me = Player(browser, live_site, "desk", **DESKTOP)
    me.log_in(anna.username)
    me.go(match.get_absolute_url())
    page = me.page
    assert me.axe() == []
    me.shot("to-roll")

    # Roll by keyboard: focus lands on the die picker of the new live part, not on <body>.
    page.focus(".pt-roll button")
    page.keyboard.press("Enter")
    wait_version(page, match.version + 1)
    page.wait_for_function(FOCUS_LEFT_BODY)
    match.refresh_from_db()
    assert match.state["phase"] == "move"
    where = me.focused()
    assert where.startswith("live:INPUT") or where.startswith("live:BUTTON"), where
    me.shot("rolled-by-keyboard")
    assert me.axe() == []

    # Sail by keyboard: Tab from the picker to a move, Enter; focus stays in the live part.
    for _ in range(6):
        if me.focused().startswith("live:BUTTON"):
            break
        page.keyboard.press("Tab")
    assert me.focused().startswith("live:BUTTON"), me.focused()
    page.keyboard.press("Enter")
    wait_version(page, match.version + 1)
    page.wait_for_function(FOCUS_LEFT_BODY)
    assert me.focused().startswith("live:"), me.focused()
    me.shot("sailed-by-keyboard")

    # The other player on a phone with touch: no sideways scroll, big enough targets, axe clean.
    phone = Player(browser, live_site, "phone", **PHONE)
    phone.log_in(bo.username)
    phone.go(match.get_absolute_url())
    phone.page.wait_for_selector("#pt-live")
    assert not phone.sideways()
    assert phone.axe() == []
    assert phone.small_targets() == []
    phone.shot("watching")

    # No rule codes and no ids on the page.
    text = page.inner_text("main")
    assert not re.search(r"\(P\d+\)|\bP\d+:", text)
    assert me.errors == [] and phone.errors == []


def test_replay_steps_by_htmx_and_verify_explains_the_draws(browser, live_site):  # noqa: F811
    from games.engines import get_engine

    engine = get_engine("pirater")
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    match = choose_ports(match)
    users = {s.number: s.user for s in match.seats.all()}
    for _ in range(12):
        seat = match.state["current"]
        play.action_apply(match_id=match.pk, user=users[seat], action=engine.timeout_action(match.state, seat))
        match.refresh_from_db()
    play.match_finish(match_id=match.pk, reason="the match deadline passed")
    match.refresh_from_db()

    me = Player(browser, live_site, "replay", **DESKTOP)
    me.log_in("anna")
    me.go(f"/matches/{match.pk}/replay/?step=0")
    page = me.page
    assert "The match is over" not in page.inner_text("main")
    me.shot("opening")
    page.evaluate("window.stayed = true")
    page.focus("#replay-next")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"step=1"))
    page.wait_for_selector("text=Step 1 of")
    assert page.evaluate("window.stayed === true")         # an htmx swap, not a page load
    assert page.evaluate("document.activeElement.id") == "replay-next"
    # (axe runs after the swaps: the attributes it leaves while it measures would be settled by htmx.)
    assert me.axe() == []
    steps = list(match.log.filter(kind__in=ActionLog.ENGINE_KINDS).order_by("seq"))
    rolled = next(i for i, row in enumerate(steps, 1) if row.action.get("type") == "roll")
    page.fill(".replay-nav input[name=step]", str(rolled))
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"step={rolled}"))
    page.click(".replay-step summary")
    # The table's faces are the step's dice: a player following the text finds them.
    faces = [int(x) for x in re.findall(r"→ (\d)", page.inner_text(".draws"))]
    dice = next(e["dice"] for e in steps[rolled - 1].events if e.get("dice"))
    assert faces == dice
    me.shot("step-draws")
    assert me.axe() == []
    icon = page.get_attribute("link[rel=icon]", "href")
    assert page.request.get(live_site + icon).status == 200      # the favicon is linked and served
    phone = Player(browser, live_site, "replay-phone", **PHONE)
    phone.log_in("bo")
    phone.go(f"/matches/{match.pk}/replay/?step={rolled}")
    phone.page.click(".replay-step summary")
    assert not phone.sideways() and phone.small_targets() == [] and phone.axe() == []
    phone.shot("step-draws")
    assert phone.errors == []
    me.go(f"/matches/{match.pk}/verify/")
    me.shot("verify")
    assert me.axe() == []
    me.go("/accounts/profile/")
    assert page.locator("#id_time_zone option[value=Factory]").count() == 0
    assert page.locator("#id_time_zone optgroup").count() >= 8
    me.shot("profile")
    assert me.axe() == []
    assert me.errors == []


def test_on_a_phone_the_board_enlarges_with_the_pieces_and_follows_the_game(browser, live_site):  # noqa: F811
    """A square of the board is ~16 px on a phone and the ports' names unreadable: "Enlarge the
    board" shows it at a desk's size in a frame that scrolls, with the pieces as they stand (and
    as they move while it is open); "Back to the game" returns focus to the button. On a desk the
    button is not shown."""
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    match = usable_first_roll(choose_ports(match))
    users = {s.number: s.user for s in match.seats.all()}
    mover, watcher = users[match.state["current"]], users[1 - match.state["current"]]
    phone = Player(browser, live_site, "zoom", **PHONE)
    phone.log_in(watcher.username)
    phone.go(match.get_absolute_url())
    page = phone.page
    page.wait_for_selector("#pt-live")
    square = page.evaluate("document.querySelector('.pt-board').getBoundingClientRect().width / 21")
    assert square < 20
    page.tap(".pt-enlarge")
    page.wait_for_selector(".pt-zoom[open] .pt-zoom-pieces")
    assert page.evaluate("document.activeElement.className") == "pt-zoom-close"
    sizes = page.evaluate("""() => { const b = document.querySelector('.pt-zoom-board .pt-board').getBoundingClientRect();
        const p = document.querySelector('.pt-zoom-board .pt-pieces').getBoundingClientRect();
        const f = document.querySelector('.pt-zoom-frame');
        return {square: b.width / 21, left: p.left - b.left, top: p.top - b.top, width: p.width - b.width,
                scrolls: f.scrollWidth > f.clientWidth, ships: document.querySelectorAll('.pt-zoom-pieces .pt-fleet use').length,
                page_ships: document.querySelectorAll('#match-live .pt-pieces .pt-fleet use').length,
                ids: [...document.querySelectorAll('[id]')].map(e => e.id).filter((id, i, all) => all.indexOf(id) !== i)}; }""")
    assert sizes["square"] >= 2 * square and sizes["square"] >= 36, sizes
    assert abs(sizes["left"]) < 1 and abs(sizes["top"]) < 1 and abs(sizes["width"]) < 1, sizes   # the pieces lie on the board
    assert sizes["scrolls"] and sizes["ships"] == sizes["page_ships"] > 0, sizes
    assert sizes["ids"] == [], sizes
    assert not phone.sideways()
    page.screenshot(path=str(ARTIFACTS / "pt-ui-zoom-enlarged.png"))
    assert phone.axe() == []

    # A move by the other player while it is open: the enlarged pieces follow the new version.
    before = page.evaluate("document.querySelector('.pt-zoom-pieces').outerHTML")
    desk = Player(browser, live_site, "zoom-desk", **DESKTOP)
    desk.log_in(mover.username)
    desk.go(match.get_absolute_url())
    assert not desk.page.is_visible(".pt-enlarge")   # on a desk the board is large enough
    desk.page.click(".pt-roll button")
    wait_version(desk.page, match.version + 1)
    desk.page.click(".pt-list p:not([hidden]) button")
    wait_version(page, match.version + 2)   # rolled and sailed
    page.wait_for_function("(before) => document.querySelector('.pt-zoom-pieces').outerHTML !== before", arg=before)
    assert page.evaluate("document.querySelector('#match-live .pt-pieces').innerHTML") == \
        page.evaluate("document.querySelector('.pt-zoom-pieces').innerHTML")

    page.tap(".pt-zoom-close")
    page.wait_for_selector(".pt-zoom:not([open])", state="attached")
    assert page.evaluate("document.activeElement.className") == "pt-enlarge"
    assert phone.errors == [] and desk.errors == []
