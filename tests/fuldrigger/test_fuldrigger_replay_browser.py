"""A Fuldrigger replay stepped through in the browser: each step swaps in its pieces with no
console error (issue 33: every step logged htmx:targetError and an uncaught error, the map's
script asking htmx to fetch a live part the replay does not have)."""
import threading

import pytest

from games import play
from tests.browser.conftest import ARTIFACTS, browser, live_site  # noqa: F401  (fixtures)
from tests.conftest import make_user
from tests.fuldrigger.fuldrigger_pages_support import start
from tests.fuldrigger.test_fuldrigger_turn_browser import Player

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_stepping_through_a_replay_logs_no_error(device, browser, live_site):  # noqa: F811
    users = [make_user(name) for name in ("anna", "bo")]
    boss = make_user("boss", is_staff=True, is_superuser=True)
    made = []

    def finished():  # in a thread of its own: the services tell the sockets (not from Playwright's loop)
        match = start(users)
        play.match_finish(match_id=match.pk, reason="the game reached its end", actor=boss)
        made.append(match.pk)

    worker = threading.Thread(target=finished)
    worker.start()
    worker.join()
    anna = Player(browser, live_site, device)
    page = anna.page
    try:
        anna.log_in("anna")
        page.goto(f"{live_site}/matches/{made[0]}/replay/?step=0")
        page.wait_for_selector("#fd-map #fd-pieces")
        for step in (1, 2, 3):
            anna.press(page.locator("#replay-next"))
            page.wait_for_selector(f"#replay-step strong:has-text('Step {step} of')")
            anna.settled()
        page.screenshot(path=str(ARTIFACTS / f"fd-replay-{device}.png"))
        assert not anna.errors, anna.errors
    finally:
        anna.context.close()
