"""A short crawl of Catan (ships on and off) in Chromium, at 1366×900 and on a 390×844 touch
phone, one of them in German: the player in the browser plays a random enabled control of the
board or the panel (every fifth by keyboard), the other two play through the services, and at
every step the page stays put, the focus is useful, the phone's targets are big enough and not
covered, the text has no codes, None or English on a German page, axe-core finds nothing, the
console stays clean and nothing scrolls sideways. Bounded: a dozen of the player's own moves."""
import random
import re

import pytest

from games import play
from games.models import Match
from tests.catan_ships.catan_pages_support import ENGINE, new_match, users_by_seat
from tests.catan_ships.test_catan_ships_pages_table_browser import DESKTOP, PHONE, Player, table  # noqa: F401
from tests.browser.conftest import LIVE_WAIT_MS, browser, live_site, wait_for_socket  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

CODES = re.compile(r"\bNone\b|\b[a-z]+_[a-z_]+\b|\([A-Z]\d+\)")
ENGLISH = ("Your move", "Roll the dice", "End the turn", "Confirm", "Your hand", "Trade with the bank")

CONTROLS = """() => {
  const seen = [...document.querySelectorAll(
      '#cs-live .cs-spots.placed > .cs-spot, #cs-live .cs-spots.placed > .cs-spot-menu > summary, ' +
      '#cs-live .cs-actions button, #cs-live .cs-bank button, #cs-live .cs-discard button')]
    .filter(e => { const r = e.getBoundingClientRect(); return r.width && r.height && !e.disabled
                   && getComputedStyle(e).visibility !== 'hidden'; });
  seen.forEach((e, i) => e.setAttribute('data-crawl', i));
  return seen.length; }"""

TARGETS = """() => {
  const all = [...document.querySelectorAll('#match-live button, #match-live summary, #match-live a, #match-live input, #match-live select')]
    // checkVisibility: a closed list's buttons still have boxes, but nobody can see or tap them.
    .filter(e => { const r = e.getBoundingClientRect(); return r.width && r.height && !e.disabled && e.checkVisibility(); });
  const boxes = all.map(e => e.getBoundingClientRect());
  const bad = [];
  all.forEach((e, i) => {
    const r = boxes[i];
    if (r.width >= 24 && r.height >= 24) return;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    // WCAG 2.2's spacing: a 24 px circle round the centre meets no other target.
    const near = boxes.some((o, j) => j !== i && Math.max(o.left - cx, 0, cx - o.right) ** 2 +
                                                 Math.max(o.top - cy, 0, cy - o.bottom) ** 2 < 144);
    if (near) bad.push(e.outerHTML.slice(0, 90) + ' ' + r.width.toFixed(1) + 'x' + r.height.toFixed(1));
  });
  const covered = all.filter(e => { if (!e.closest('.cs-spots')) return false;
    // Only what can be seen: inside the window and inside the zoomed board's frame.
    const r = e.getBoundingClientRect(), f = e.closest('.cs-board-frame').getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (y < Math.max(0, f.top) || y > Math.min(innerHeight, f.bottom) || x < Math.max(0, f.left) || x > Math.min(innerWidth, f.right)) return false;
    const hit = document.elementFromPoint(x, y);
    return hit && !(hit === e || e.contains(hit) || hit.closest('.cs-confirm')); }).map(e => e.outerHTML.slice(0, 90));
  return [bad, covered]; }"""


def others_play(match, me_seat, rnd):
    """The two other seats (and the bank) act through the services until it is the browser's turn."""
    users = users_by_seat(match)
    for _ in range(400):
        match.refresh_from_db()
        if match.status != Match.RUNNING or me_seat in match.turn_seats:
            return match
        if not match.turn_seats:
            play.system_action_apply(match_id=match.pk)
            continue
        seat = match.turn_seats[0]
        legal = ENGINE.legal_actions(match.state, seat)
        useful = [a for a in legal if a["type"] not in ("offer", "withdraw", "play_knight")] or legal
        roll = [a for a in useful if a["type"] == "roll"]
        play.action_apply(match_id=match.pk, user=users[seat], action=(roll or [rnd.choice(useful)])[0])
    return match


@pytest.mark.parametrize("ships,device,label,language", [
    (True, DESKTOP, "ships-desktop", "de"), (False, PHONE, "base-phone", "en"),
    (True, PHONE, "ships-phone", "da"), (False, DESKTOP, "base-desktop", "sv")])
def test_a_short_crawl_keeps_the_page_put_useful_and_clean(table, ships, device, label, language):
    users, sit = table
    rnd = random.Random(label)
    for user in users:
        user.profile.language = language
        user.profile.save()
    match = new_match(*users, options={"ships": ships})
    me_seat = 0
    me = sit(match, me_seat, device, label)
    moves = 0
    for step in range(60):
        match = others_play(match, me_seat, rnd)
        if match.status != Match.RUNNING or moves >= 12:
            break
        # The others' moves are made in this process, whose broadcasts cannot reach the server's
        # sockets (Playwright's loop is in this thread): the page is opened again after them.
        if step == 0 or me.page.get_attribute("#match-live", "data-version") != str(match.version):
            me.open(match)
        phase = match.state["phase"]
        if phase == "discard":   # the form's numbers first: half the hand, resource by resource
            need = match.state["discarding"].get(str(me_seat), match.state["discarding"].get(me_seat))
            for box in me.page.locator(".cs-discard input[type=number]").all():
                take = min(need, int(box.get_attribute("max")))
                box.fill(str(take))
                need -= take
        # The socket's catch-up (Player.open) and its copy of the last move (below) have landed:
        # nothing replaces the part between counting its controls and pressing one.
        count = me.page.evaluate(CONTROLS)
        assert count, f"nothing to do in {phase}"
        control = me.page.locator(f'[data-crawl="{rnd.randrange(count)}"]')
        control.scroll_into_view_if_needed()
        before = me.scroll_y()
        by_keyboard = moves % 5 == 4
        version = match.version
        if by_keyboard:
            control.focus()
            me.page.keyboard.press("Enter")
        else:
            me.press(control)
        if control.evaluate("e => e.tagName") == "SUMMARY":
            item = me.page.locator(".cs-spot-menu[open] .cs-menu button").first
            item.focus() if by_keyboard else None
            me.page.keyboard.press("Enter") if by_keyboard else me.press(item)
        if me.touch and not by_keyboard and me.page.locator(".cs-confirm").is_visible():
            me.press(me.page.locator(".cs-confirm-yes"))
        me.page.wait_for_function(
            f"() => Number(document.querySelector('#match-live').dataset.version) > {version}"
            " || document.querySelector('#match-live .error')", timeout=LIVE_WAIT_MS)
        wait_for_socket(me.page)   # the socket's copy of the same version lands too
        me.settled()               # and the page has put the focus back (htmx.onLoad, on the settle)
        moves += 1
        where = f"{label} move {moves} ({phase})"
        assert abs(me.scroll_y() - before) <= 200, (where, before, me.scroll_y())
        if by_keyboard:
            assert me.page.evaluate("document.activeElement.tagName") != "BODY", where
        text = me.page.inner_text("#match-live")
        assert not CODES.search(text), (where, CODES.search(text).group(0))
        if language != "en":
            assert [w for w in ENGLISH if w in text] == [], where
        if me.touch:
            small, covered = me.page.evaluate(TARGETS)
            if covered:
                me.shot(f"covered-{moves:02d}")
                print(where, me.page.evaluate("[...document.querySelectorAll('.cs-spot-menu[open]')].map(d => d.outerHTML.slice(0, 300))"),
                      me.page.evaluate("""() => { const b = [...document.querySelectorAll('.cs-spot-menu[open] .cs-menu button')][0]; if (!b) return null;
                        const r = b.getBoundingClientRect(); const h = document.elementFromPoint(r.left + r.width/2, r.top + r.height/2);
                        return [r.left, r.top, r.width, r.height, h && h.outerHTML.slice(0, 200)]; }"""))
            assert small == [] and covered == [], (where, small[:3], covered[:3])
        me.no_sideways_scroll()
        if moves in (1, 6, 12):
            assert me.axe_violations() == [], where
            me.shot(f"crawl-{moves:02d}")
        match.refresh_from_db()
    assert moves >= 6 and me.errors == []
