"""The Fuldrigger map as a player meets it (issue 24), on a desktop (1366×900) and on a touch phone
(390×844): every hazard drawn on its own square at every zoom; on the phone the map filled with
the world, not with empty ocean; choosing a ship zooms to her reach, and every lit square is a
target of at least 24 × 24 CSS px that nothing covers; by keyboard the focus stays on something
useful; in German the page has no English left and no rule codes; axe-core finds no WCAG 2.1
A/AA violation in the states reached. Screenshots land in tests/artifacts/."""
import re

import pytest

from accounts.models import Profile
from games.engines.fuldrigger.board import WORLD
from tests.browser.conftest import ARTIFACTS, broken_words, browser, live_site  # noqa: F401  (fixtures)
from tests.conftest import make_user
from tests.fuldrigger.fuldrigger_pages_support import change_state, start
from tests.fuldrigger.test_fuldrigger_turn_browser import Player

pytestmark = pytest.mark.browser

# Each hazard's symbol centre on screen against where its square is: the square's map point
# through the chart's own transform.
HAZARDS_PLACED = """() => {
    const sea = document.getElementById('fd-sea');
    const map = document.getElementById('fd-map').getBoundingClientRect();
    let worst = 0, shown = 0;
    for (const use of sea.querySelectorAll('.fd-hazards use')) {
        // Where its square is: the symbol's middle in map units, through its parents' transforms
        // (not its own CSS scale, which only sizes it).
        const n = k => Number(use.getAttribute(k) || 0);
        const want = new DOMPoint(n('x') + n('width') / 2, n('y') + n('height') / 2)
            .matrixTransform(use.parentNode.getScreenCTM());
        const r = use.getBoundingClientRect();
        const off = Math.hypot(r.left + r.width / 2 - want.x, r.top + r.height / 2 - want.y);
        worst = Math.max(worst, off);
        if (want.x > map.left && want.x < map.right && want.y > map.top && want.y < map.bottom && r.width >= 8) shown++;
    }
    return {worst, shown};
}"""

LIT_SQUARES = """() => {
    const map = document.getElementById('fd-map').getBoundingClientRect();
    const out = [];
    for (const a of document.querySelectorAll('#fd-pieces .fd-reach a')) {
        const r = a.querySelector('circle').getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (x < map.left || x > map.right || y < map.top || y > map.bottom) continue;
        const hit = document.elementFromPoint(x, y);
        out.push({to: a.dataset.to, w: r.width, h: r.height, mine: !!hit && a.contains(hit)});
    }
    return out;
}"""

VISIBLE_TEXT = """() => {
    const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    const out = [];
    while (walk.nextNode()) {
        const n = walk.currentNode, el = n.parentElement;
        if (!n.textContent.trim() || el.closest('script, style, title, svg, select:not(:focus) option')) continue;
        const s = getComputedStyle(el), r = el.getBoundingClientRect();
        if (s.display === 'none' || s.visibility === 'hidden' || r.width === 0) continue;
        if (el.closest('details:not([open])') && !el.closest('summary')) continue;
        out.push(n.textContent.trim());
    }
    return out.join(' | ');
}"""

WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


def axe_clean(page, label):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context={"include": [["main"]]}, options=WCAG)
    assert results.violations_count == 0, (label, results.generate_report())


def open_match(anna, base, match):
    page = anna.page
    anna.log_in("anna")
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_selector("#fd-map #fd-pieces .fd-ship.fd-mine")
    page.wait_for_function("() => document.documentElement.style.getPropertyValue('--fd-k') !== ''")
    return page


def world_zoom(page):
    # The map's buttons zoom in their click handler (static/js/fuldrigger.js): done when the click is.
    page.click("[data-zoom='reset']")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_hazards_sit_on_their_squares_at_every_zoom(device, browser, live_site):  # noqa: F811
    match = start([make_user(name) for name in ("anna", "bo")])
    anna = Player(browser, live_site, device)
    try:
        page = open_match(anna, live_site, match)
        world_zoom(page)
        placed = page.evaluate(HAZARDS_PLACED)
        assert placed["worst"] < 2, placed           # Caribbean hazards south of Australia: hundreds off
        assert placed["shown"] >= 20, placed         # the phone showed none
        page.screenshot(path=str(ARTIFACTS / f"fd-map-{device}-world.png"))
        if device == "phone":
            # The phone's map is filled with the world top to bottom, not a strip in empty ocean.
            land = page.locator("#fd-sea .fd-land").bounding_box()
            box = page.locator("#fd-map").bounding_box()
            assert land["height"] >= box["height"] * 0.85, (land, box)
        for _ in range(3):
            page.click("[data-zoom='in']")
        placed = page.evaluate(HAZARDS_PLACED)
        assert placed["worst"] < 2, placed
        page.screenshot(path=str(ARTIFACTS / f"fd-map-{device}-zoomed.png"))
        assert not anna.errors, anna.errors
    finally:
        anna.context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_choosing_a_ship_zooms_to_her_reach_and_each_lit_square_can_be_tapped(device, browser, live_site):  # noqa: F811
    users = [make_user(name) for name in ("anna", "bo")]
    match = start(users)
    change_state(match, lambda state: state["known_reefs"].__setitem__(
        0, sorted({data["reef"] for data in WORLD.nodes.values() if data.get("reef")})))
    anna = Player(browser, live_site, device)
    try:
        page = open_match(anna, live_site, match)
        axe_clean(page, "opened")
        roll = page.locator(".fd-turn button:has-text('Roll the dice')")
        anna.press(roll)
        page.wait_for_selector("#fd-pieces .fd-ship.fd-mine a")
        anna.settled()
        world_zoom(page)                               # where the issue found it: the whole world
        whole = float(page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--fd-k')"))
        anna.press(page.locator(".fd-fleet a.button").first)         # "Sail…"
        page.wait_for_selector("#fd-dest")
        anna.settled()
        zoomed = float(page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--fd-k')"))
        assert zoomed < whole / 2, (whole, zoomed)      # the map came closer to the ship's reach
        lit = page.evaluate(LIT_SQUARES)
        assert lit, "no lit square on the map"
        small = [s for s in lit if min(s["w"], s["h"]) < 24]
        covered = [s for s in lit if not s["mine"]]
        assert not small and not covered, (small, covered)
        page.screenshot(path=str(ARTIFACTS / f"fd-reach-{device}.png"))
        axe_clean(page, "ship chosen")
        # Tap one: it is chosen (the list says so), and tapping it again sails there.
        box = page.locator(f"#fd-pieces .fd-reach a[data-to='{lit[0]['to']}'] circle").bounding_box()
        anna.press_at(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        assert page.eval_on_selector("#fd-dest", "s => s.selectedOptions[0].dataset.to") == lit[0]["to"]
        assert not anna.errors, anna.errors
    finally:
        anna.context.close()


def test_a_german_turn_by_keyboard_keeps_the_focus_and_has_no_english(browser, live_site):  # noqa: F811
    users = [make_user(name) for name in ("anna", "bo")]
    Profile.objects.filter(user=users[0]).update(language="de")
    match = start(users)
    anna = Player(browser, live_site, "desktop")
    try:
        page = open_match(anna, live_site, match)
        roll = page.locator(".fd-turn button.primary")
        roll.focus()
        y = page.evaluate("scrollY")
        page.keyboard.press("Enter")
        page.wait_for_selector("text=Schiffe segeln bis zu")
        anna.settled()
        assert abs(page.evaluate("scrollY") - y) < 200
        # The socket's copy of the same version may land just after the answer: give it a moment.
        try:
            page.wait_for_function("() => document.activeElement && document.activeElement !== document.body",
                                   timeout=3000)
        except Exception:
            pass
        focused = page.evaluate("document.activeElement.tagName + ' ' + document.activeElement.className")
        assert not focused.startswith("BODY"), focused
        # "Segeln…" by keyboard, the sail form opens with a destination list in German.
        page.locator(".fd-fleet a.button").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#fd-dest")
        anna.settled()
        assert page.evaluate("document.activeElement.id") == "fd-dest"     # on to where she may sail
        words = page.evaluate(VISIBLE_TEXT)
        assert not re.search(r"\(F\d|\bF\d+:|\bNone\b|\b[a-z]+_[a-z]+\b", words), words
        english = [w for w in ("Your ships", "to play", "squares", "Players", "Sail the", "in port at", "fortune",
                               "Roll the dice", "End the turn", "Offers", "Route", "Destination")
                   if re.search(rf"\b{w}\b", words)]
        assert not english, (english, words)
        page.screenshot(path=str(ARTIFACTS / "fd-de-sail.png"))
        axe_clean(page, "German sail form")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
        assert not anna.errors, anna.errors
    finally:
        anna.context.close()


def test_a_wreck_is_told_on_screen_and_the_panels_pass_axe_on_a_phone(browser, live_site):  # noqa: F811
    from tests.fuldrigger.test_fuldrigger_page_words import wreck

    users = [make_user(name) for name in ("anna", "bo")]
    match = start(users)
    change_state(match, lambda state: state["cash"].__setitem__(0, 5))      # too poor to buy: says why
    ship = wreck(match)
    anna = Player(browser, live_site, "phone")
    try:
        page = open_match(anna, live_site, match)
        anna.press(page.locator(".fd-turn button.primary"))                  # roll
        page.wait_for_selector("#fd-pieces .fd-ship.fd-mine a")
        anna.settled()
        notice = page.locator(".fd-turn .fd-lost")
        assert ship["name"] in notice.inner_text()
        anna.check(notice, "wreck-told")          # on screen, not under the map, nothing over it
        axe_clean(page, "wreck told")
        why = page.locator(".fd-port-panel .fd-why-not").first
        why.scroll_into_view_if_needed()
        assert "5" in why.inner_text()
        axe_clean(page, "port panel")
        page.locator(".fd-offers a.button").tap()
        page.wait_for_selector("#fd-offer-to")
        anna.settled()
        anna.check(page.locator("#fd-offer-to"), "offer-form")
        axe_clean(page, "offer form")
        assert not anna.errors, anna.errors
    finally:
        anna.context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_legend_reads_as_sentences(device, browser, live_site):  # noqa: F811
    """The legend's line of three ships once stood as three narrow columns ("with" / "cargo" /
    ";" under each other): its icons flow in its text."""
    match = start([make_user(name) for name in ("anna", "bo")])
    anna = Player(browser, live_site, device)
    try:
        page = open_match(anna, live_site, match)
        page.evaluate("document.querySelectorAll('.fd-legend').forEach(d => d.open = true)")
        assert page.locator(".fd-legend li").count() >= 5
        # No word drawn over two lines (a line may end at a hyphen or a dash: "2–" / "3").
        broken = broken_words(page, ".fd-legend li", breaks="-–")
        assert broken == [], f"legend's words drawn over two lines: {broken}"
        ships = page.locator(".fd-legend li:has(use[href='#fd-ship-laden'])")
        ships.scroll_into_view_if_needed()
        # One sentence: its lines are as wide as the list allows, not a column per kind of ship.
        assert ships.bounding_box()["height"] < 3.2 * float(ships.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20"))
        ships.screenshot(path=str(ARTIFACTS / f"fd-legend-{device}.png"))
        assert anna.errors == []
    finally:
        anna.context.close()
