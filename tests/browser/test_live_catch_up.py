"""A match's socket sends the live part once on connecting (the catch-up) and after every change.
The page swaps one in only when it is news (static/js/site.js): the catch-up of a page that
missed nothing must leave alone what the player has opened or chosen — under load it lands
seconds after the page, when a player has already opened a knight's hexes or a menu — while a
change that keeps the version (a seat taken in the lobby) still shows."""
import re

import pytest

from games import play
from tests.browser.conftest import LIVE_WAIT_MS
from tests.conftest import make_user

pytestmark = pytest.mark.browser

# Before any script of the page: count what the socket tells, and mark the live part the page
# came with (a swap replaces the element, and the mark with it).
WATCH = """
window.socketTold = 0;
document.addEventListener('htmx:wsBeforeMessage', () => {
  window.socketTold += 1;
  // a task after this message's handler (and any swap it made) has run
  setTimeout(() => { window.socketHandled = (window.socketHandled || 0) + 1; }, 0);
});
document.addEventListener('DOMContentLoaded', () => {
  const live = document.getElementById('match-live');
  if (live) live.dataset.first = 'yes';
});
"""


def test_the_catch_up_leaves_the_page_alone_and_a_seat_taken_still_shows(people):
    anna_user, _bo_user = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna_user, game="pirater", seats=3)
    url = match.get_absolute_url()

    anna = people("catch-up-anna")
    anna.log_in("anna")
    anna.context.add_init_script(WATCH)
    anna.go(url)
    anna.page.wait_for_function("() => window.socketHandled >= 1", timeout=LIVE_WAIT_MS)
    assert anna.page.locator("#match-live[data-first=yes]").count() == 1, "the catch-up replaced the page's part"

    bo = people("catch-up-bo", viewport={"width": 390, "height": 844})
    bo.log_in("bo")
    bo.go(url)
    bo.page.click("text=Join this match")
    # Joining keeps the version (the match waits for a third player): it comes with a revision.
    anna.page.wait_for_selector(".seats >> text=bo", timeout=LIVE_WAIT_MS)
    assert anna.page.locator("#match-live[data-first=yes]").count() == 0
    assert anna.page.locator("#match-live").get_attribute("data-version") == "0"
    assert anna.errors == [] and bo.errors == []


def test_a_page_whose_socket_opens_after_the_deal_shows_the_running_match(people):
    """Issue 33: a Pirater page once stayed on "open" after its match started. The last seat was
    taken — and the match dealt, at version 0 — after the page loaded and before its socket
    opened: the deal's message reached no socket of that page, and the socket's catch-up came
    with the version and revision the page showed, so the page kept it out. Here the page's
    socket is held until the deal is made, then let through."""
    anna_user, bo_user, carl_user = make_user("anna"), make_user("bo"), make_user("carl")
    match = play.match_create(creator=anna_user, game="pirater", seats=3)
    play.match_join(match_id=match.pk, user=bo_user)
    held = []

    bo = people("deal-bo", viewport={"width": 390, "height": 844})
    bo.log_in("bo")
    bo.page.route_web_socket(re.compile(r"/ws/matches/\d+/"), lambda socket: held.append(socket))
    bo.go(match.get_absolute_url())
    assert bo.page.locator("#match-live .status-open").count() == 1
    for _ in range(LIVE_WAIT_MS // 50):           # until the page opens its socket (held here)
        if held:
            break
        bo.page.wait_for_timeout(50)
    assert held, "the page opened no socket"
    play.match_join(match_id=match.pk, user=carl_user)   # the deal, published to no socket of bo's
    held[0].connect_to_server()
    bo.page.wait_for_selector("#match-live .status-running", timeout=LIVE_WAIT_MS)
    assert bo.page.locator("#match-live").get_attribute("data-version") == "0"
    assert bo.errors == []
