"""Fuldrigger in a real Chromium: a desktop player rolls, picks a ship and a square on the map,
sails, zooms and pans (the zoom survives the live part being replaced); a keyboard player sails
without the mouse; a phone 360 px wide shows the map without sideways scrolling. No page may
log a JavaScript error. Screenshots land in tests/artifacts/."""
import pytest

from games import play
from games.models import Match
from tests.browser.conftest import browser, live_site, people  # noqa: F401  (fixtures)
from tests.conftest import make_user
from tests.fuldrigger.fuldrigger_pages_support import start

pytestmark = pytest.mark.browser


def ship_node(match_id, ship_id):
    return Match.objects.get(pk=match_id).state["ships"][str(ship_id)]["node"]


def view_box(page, selector):
    return page.get_attribute(selector, "viewBox")


def test_sail_by_map_and_by_keyboard_zoom_and_phone(people):
    users = [make_user(name) for name in ("anna", "bo", "carl", "dora")]
    match = start(users)          # homes chosen (edition 2, F7), the first card turned, anna to play
    url = f"/matches/{match.pk}/"

    anna = people("fd-anna")
    anna.log_in("anna")
    anna.go(url)
    page = anna.page
    page.wait_for_selector("#fd-pieces use")
    assert page.locator("#fd-sea .fd-port").count() >= 30
    page.click("button:has-text('Roll the dice')")
    page.wait_for_selector("text=ships sail up to")

    # Zoom with the + button, pan by dragging: both maps follow, and keep it through swaps.
    before = view_box(page, "#fd-sea")
    page.click("[data-zoom=in]")
    page.click("[data-zoom=in]")
    box = page.locator("#fd-sea").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2 + 30, steps=5)
    page.mouse.up()
    zoomed = view_box(page, "#fd-sea")
    assert zoomed != before and view_box(page, "#fd-pieces") == zoomed

    # A ship on the map: its reachable squares light up; a lit square picks the destination.
    page.locator("#fd-pieces a[href^='?sail=']").first.dispatch_event("click")
    page.wait_for_selector("#fd-dest")
    # The new pieces follow the map's zoom, which shows the ship's reach: all of it when its lit
    # squares can stay targets (none covering the middle of the next), else the ship and the
    # squares around her, the rest a pan away (the zoom is kept through other swaps: see "Other
    # routes…" below).
    page.wait_for_function("() => document.querySelector('#fd-pieces').getAttribute('viewBox') === "
                           "document.querySelector('#fd-sea').getAttribute('viewBox')", timeout=10000)
    assert page.evaluate("""() => {
        const [x, y, w, h] = document.querySelector('#fd-sea').getAttribute('viewBox').split(' ').map(Number);
        const inside = (cx, cy) => cx >= x && cx <= x + w && cy >= y && cy <= y + h;
        const lit = [...document.querySelectorAll('.fd-reach circle')];
        const ship = document.querySelector('#fd-pieces .fd-ship.fd-selected');
        const shown = lit.filter(c => inside(Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))));
        return lit.length > 0 && shown.length > 0
            && inside(Number(ship.getAttribute('data-x')), Number(ship.getAttribute('data-y')))
            && shown.every(c => { const r = c.getBoundingClientRect();
                return c.closest('a').contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }); }""")
    ship_id = int(page.get_attribute(".fd-sail form", "data-ship"))
    lit = page.locator(".fd-reach a")
    assert lit.count() == page.locator("#fd-dest option[data-to]").count() > 0
    target = page.evaluate("""() => {
        const opts = [...document.querySelectorAll('#fd-dest option[data-to]')];
        const calm = opts.filter(o => !o.textContent.includes(';'));
        return (calm.length ? calm : opts).pop().getAttribute('data-to'); }""")
    page.locator(f".fd-reach a[data-to='{target}']").dispatch_event("click")
    assert page.get_attribute("#fd-preview", "d").startswith("M")
    assert page.eval_on_selector("#fd-dest", "s => s.selectedOptions[0].dataset.to") == target
    anna.shot("chosen")
    page.click(".fd-sail button:has-text('Sail')")
    page.wait_for_selector("#fd-dest", state="detached")
    assert ship_node(match.pk, ship_id) == target
    # The zoom is put back on the new pieces once the swap settles.
    page.wait_for_function("() => document.querySelector('#fd-pieces').getAttribute('viewBox') === "
                           "document.querySelector('#fd-sea').getAttribute('viewBox')", timeout=10000)

    # Other routes for a destination, then the keyboard alone sails the next ship.
    page.locator("a:has-text('Sail…')").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#fd-dest")
    second = int(page.get_attribute(".fd-sail form", "data-ship"))
    page.focus("#fd-dest")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    chosen = page.eval_on_selector("#fd-dest", "s => s.selectedOptions[0].dataset.to")
    assert chosen and page.get_attribute("#fd-preview", "d").startswith("M")
    kept = view_box(page, "#fd-sea")
    # The form's top 120 px above the screen, its buttons on it (as a crawl left it): the routes
    # that come are brought wholly into view, not left above with the form's foot showing. (Room
    # below, as a long log and chat give, so the page can scroll that far.)
    page.evaluate("() => { document.body.style.paddingBottom = '2000px';"
                  " window.scrollBy(0, document.querySelector('.fd-sail').getBoundingClientRect().top + 120); }")
    assert page.eval_on_selector(".fd-sail", "s => Math.round(s.getBoundingClientRect().top)") == -120
    page.click("button:has-text('Other routes…')")
    page.wait_for_selector("text=Route to")
    page.wait_for_function("z => document.querySelector('#fd-pieces').getAttribute('viewBox') === z",
                           arg=kept, timeout=10000)  # the swap kept the zoom
    page.wait_for_function("""() => { const r = document.querySelector('.fd-sail fieldset').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; }""", timeout=10000)
    assert page.locator("input[name='a.path'][type=radio]").count() >= 1
    page.focus("input[name='a.path'][type=radio] >> nth=0")
    page.keyboard.press("Tab")
    while page.evaluate("document.activeElement.textContent.trim()") != "Sail":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Route to", state="detached")
    assert Match.objects.get(pk=match.pk).state["turn"]["moved"][-1] == second
    anna.shot("sailed")
    assert anna.errors == []

    # A spectator on a phone: the map fits 360 px, no sideways scrolling, the legend is there.
    phone = people("fd-phone", viewport={"width": 360, "height": 740})
    phone.go(url)
    phone.page.wait_for_selector("#fd-pieces use")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
    assert phone.page.locator("#fd-sea").bounding_box()["width"] <= 360
    phone.page.click("[data-zoom=out]")
    phone.page.click("[data-zoom=reset]")
    phone.shot("phone")
    phone.go("/games/fuldrigger/rules/")
    phone.page.wait_for_selector("text=Trade war")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
    play.match_finish(match_id=match.pk, reason="the test ended it")
    phone.go(url)
    phone.page.wait_for_selector("text=Final ranking")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
    phone.shot("finished")
    assert phone.errors == []
