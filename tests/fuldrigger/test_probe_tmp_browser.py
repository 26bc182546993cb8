import pytest
from games.engines.fuldrigger.board import WORLD
from games.models import Match
from tests.browser.conftest import ARTIFACTS, browser, live_site  # noqa: F401
from tests.conftest import make_user
from tests.fuldrigger.fuldrigger_pages_support import change_state, start
from tests.fuldrigger.test_fuldrigger_turn_browser import Player

pytestmark = pytest.mark.browser

def test_probe(browser, live_site):  # noqa: F811
    users = [make_user(n) for n in ("anna", "bo")]
    match = start(users)
    anna = Player(browser, live_site, "phone")
    page = anna.page
    page.on("console", lambda m: print("CONSOLE", m.type, m.text))
    anna.log_in("anna")
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_selector("#fd-map #fd-pieces .fd-ship.fd-mine")
    anna.press(page.locator(".fd-turn button:has-text('Roll the dice')"))
    page.wait_for_selector("#fd-pieces .fd-ship.fd-mine a")
    anna.settled()
    page.locator(".fd-fleet a.button").first.tap()
    page.wait_for_selector("#fd-dest"); anna.settled(); page.wait_for_timeout(300)
    v0 = page.get_attribute("#match-live", "data-version")
    lit = page.evaluate("""() => [...document.querySelectorAll('#fd-pieces .fd-reach a')].map(a => {
       const r = a.querySelector('circle').getBoundingClientRect(); const x = r.left + r.width/2, y = r.top + r.height/2;
       return {to: a.dataset.to, x, y, ok: a.contains(document.elementFromPoint(x, y)) && y > 0 && y < innerHeight}}).filter(s => s.ok)""")
    print("LIT", len(lit), lit[:3])
    page.screenshot(path="/tmp/fdprobe/before.png")
    to = lit[1]['to']
    page.select_option("#fd-dest", value=page.get_attribute(f"#fd-dest option[data-to='{to}']", "value"))
    print("SEL", page.evaluate("document.getElementById('fd-dest').selectedOptions[0].dataset.to"))
    page.evaluate("document.addEventListener('click', e => console.log('CLICK', e.target.outerHTML.slice(0,80), document.getElementById('fd-dest').value.slice(0,30)), true)")
    page.locator(f"#fd-pieces .fd-reach a[data-to='{to}']").tap()
    page.wait_for_timeout(1500); print('SCROLL', page.evaluate('scrollY'))
    print("VERSION", v0, page.get_attribute("#match-live", "data-version"), page.locator("#fd-dest").count())
    page.screenshot(path="/tmp/fdprobe/after.png")
    anna.context.close()
