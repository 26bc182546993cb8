"""The crawl's machinery: a player's browser at one size, the checks of one step, and the
findings, each with the game, size, step, action, element and screenshot, so a failure says
what to fix and replays with the same seed."""
import os
import pathlib
import random
import re
import time
from collections import defaultdict
from contextlib import contextmanager

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.models import Match
from tests.browser.conftest import ARTIFACTS
from tests.browser.crawl.crawl_words import RULE_CODE, findings as text_findings, promises_a_choice, strip_names

SHOTS = ARTIFACTS / "crawl"
PAGE_JS = pathlib.Path(__file__).with_name("crawl_page.js")
SIZES = {
    "desktop": {"viewport": {"width": 1366, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
LANGUAGES = ("da", "de", "sv")
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SCROLL_JUMP = 200        # px the page may move by itself on one action
IN_VIEW = 40             # px of the acted-on region that must stay on screen
GONE_MS = 3000          # ms to wait for a listed control before taking it as gone (with a change, or a fault)
WAIT_MS = 20000          # for the server and the socket; a step never sleeps a fixed time
# The site answers bad input with a 4xx and a message in the page (by design); the browser
# logs each such answer as a console error, which is not a fault of the page.
CLIENT_ERROR = re.compile(r"Failed to load resource: the server responded with a status of 4\d\d")


def actions() -> int:
    return int(os.environ.get("CRAWL_ACTIONS") or 12)


def seeds() -> list[int]:
    """CRAWL_SEEDS: a count (3 → seeds 1, 2, 3) or a list ("4,9")."""
    raw = (os.environ.get("CRAWL_SEEDS") or "1").strip()
    if "," in raw:
        return [int(s) for s in raw.split(",") if s.strip()]
    return list(range(1, int(raw) + 1))


class Stuck(Exception):
    """The page or the match stopped moving: the run ends there, with what it found so far."""


class Findings:
    """Failures, each kept once per check and element (with its first step and a count), so a
    defect on every step reads as one line."""

    PER_PLACE = 6  # findings of one check at one place; more are counted in one line

    def __init__(self, run):
        self.run, self.items, self.order, self.places = run, {}, [], {}

    def add(self, check, where, detail, key=None, shot=None):
        key = (check, key if key is not None else detail)
        if key in self.items:
            self.items[key]["count"] += 1
            return False
        place = (check, where)
        self.places[place] = self.places.get(place, 0) + 1
        if self.places[place] > self.PER_PLACE:
            more = (check, "more", where)
            if more not in self.items:
                self.items[more] = {"check": check, "where": where, "count": 0, "shot": shot,
                                    "detail": "more of the same kind here"}
                self.order.append(more)
            self.items[more]["count"] += 1
            self.items[more]["detail"] = f"{self.items[more]['count']} more of the same kind here"
            self.items[key] = {"hidden": True, "count": 1}
            return True
        self.items[key] = {"check": check, "where": where, "detail": detail, "count": 1, "shot": shot}
        self.order.append(key)
        return True

    def set_shot(self, shot):
        for key in self.order:
            if self.items[key].get("shot") is None:
                self.items[key]["shot"] = shot

    def __bool__(self):
        return bool(self.order)

    def report(self) -> str:
        lines = [f"{len(self.order)} problem(s) in {self.run}:"]
        for key in self.order:
            i = self.items[key]
            again = f" (and {i['count'] - 1} more step(s))" if i["count"] > 1 and key[1] != "more" else ""
            lines.append(f"- [{i['check']}] {self.run} {i['where']}: {i['detail']}{again} — screenshot {i['shot']}")
        return "\n".join(lines)


class Player:
    """One real account in its own browser context at one size, with the crawl's script in
    every page and its console watched."""

    def __init__(self, browser, base, size, run):
        self.base, self.size, self.run = base, size, run
        self.touch = bool(SIZES[size].get("has_touch"))
        self.context = browser.new_context(**SIZES[size])
        self.context.add_init_script(path=str(PAGE_JS))
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.errors, self.server_errors = [], []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("response", lambda r: r.status >= 500 and self.server_errors.append(f"{r.status} {r.url}"))
        self.axe = Axe()
        self.findings = Findings(run)
        self.lang = "en"
        self.rule_code = RULE_CODE
        self.seconds = defaultdict(float)  # where the time goes, printed with each run
        SHOTS.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def timed(self, what):
        start = time.monotonic()
        try:
            yield
        finally:
            self.seconds[what] += time.monotonic() - start

    def timing(self) -> str:
        return ", ".join(f"{k} {v:.1f} s" for k, v in sorted(self.seconds.items(), key=lambda kv: -kv[1]))

    def _console(self, message):
        if message.type == "error" and not CLIENT_ERROR.search(message.text):
            self.errors.append(message.text)

    def close(self):
        self.context.close()

    def go(self, path):
        response = self.page.goto(self.base + path)
        self.page.wait_for_load_state("load")
        return response

    def log_in(self, username):
        self.go("/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", "pw-" + username * 2)
        self.page.click("main button[type=submit]")
        self.page.wait_for_url(self.base + "/")

    def choose_language(self, code):
        """The footer's language chooser, as a player uses it (it also sets the profile's). A
        window open over the page (Pirater's enlarged board, a modal dialog) is closed first, as
        a player goes back to the page before reaching its footer."""
        for _ in range(3):
            if not self.page.evaluate("() => !!document.querySelector('dialog[open]:modal')"):
                break
            self.page.keyboard.press("Escape")
        self.page.select_option("#language-choice", code)
        with self.page.expect_navigation():
            self.page.click(".language-chooser button")
        self.page.wait_for_load_state("load")
        self.lang = code

    def shot(self, label) -> str:
        path = SHOTS / f"{self.run}-{label}.png"
        with self.timed("screenshots"):
            self.page.screenshot(path=str(path))
        return str(path.relative_to(ARTIFACTS.parent.parent))

    # --- the checks ------------------------------------------------------------------------

    def _anchor_now(self, anchor, dy=0):
        """Where the part acted in (found by its kind, as `anchor` knows it) is now, with how much
        of it must show (crawl_page.js, anchorNow); None when it is gone."""
        now = anchor and self.page.evaluate("([parts, dy]) => window.__crawlPage.anchorNow(parts, dy)", [anchor, dy])
        return {**now, "enough": min(IN_VIEW, now["height"]) - 1} if now else None

    def _kept_in_place(self, anchor, dy=0) -> bool:
        """The page scrolled (by `dy` px) so that the part acted in stays where it was on the
        screen (as Fuldrigger's script keeps it while a part above it grows or shrinks), or to
        bring it back where the change would have hidden it (under a phone's sticky map)."""
        now = self._anchor_now(anchor, dy)
        return bool(now) and (abs(now["moved"]) <= SCROLL_JUMP or now["without"] < now["enough"] <= now["now"])

    def _went_with_focus(self, anchor, page) -> bool:
        """The part acted in went with the action (a port's panel once its last ship is sold),
        and the page moved to where it put the focus instead (Fuldrigger's turn and its next
        actions), which shows: the player is shown where they are now, not carried away."""
        return bool(anchor) and _focus_on_screen(page) and self._anchor_now(anchor) is None

    def _followed_the_focus(self, keyboard, page, before) -> bool:
        """A keyboard step after which the page's script put the focus on what comes next (Catan's
        next lit place, once "Confirm" and its bar went) and the page moved to show it, which it
        would not have without the move: a keyboard player must see where their next key acts
        (static/js/site.js, tradewindsLive.focus). A move past a focus already in view is not that."""
        return keyboard and _focus_on_screen(page) and not _focus_on_screen(page, page["scrollY"] - before)

    def _shortened_under_it(self, anchor, page, before) -> bool:
        """The part acted in went with the action and the page, shorter by it, ends above where
        the screen was (Pirater's orders gone with the match's end, played out by them): the
        browser keeps the page's foot on the screen, as far down as the page now goes."""
        return bool(anchor) and page["scrollY"] < before and self._anchor_now(anchor) is None and \
            self.page.evaluate("() => scrollY >= document.documentElement.scrollHeight - innerHeight - 1")

    def _screen_kept(self) -> bool:
        """What the player was looking at (outside the live part) is where it was on the screen:
        the page scrolled to keep it there while the live part above it changed (static/js/site.js
        keeps the orders and the chat so), and nothing moved under the player's eyes."""
        moved = self.page.evaluate("() => window.__crawlPage.screenMoved()")
        return moved is not None and abs(moved) <= 2

    def where_pressed(self, before):
        """Where the page is judged to have moved from: where it stood when the crawl looked
        (`before`), unless a change came before the press (the match played on) and moved the
        control, and Playwright scrolled to it as a player does to find it again; then from where
        it stood when pressed (Fuldrigger desktop seed 41: a bot's move shrank the turn above the
        orders just before "Pause all orders" was pressed)."""
        pressed = self.page.evaluate("() => window.__crawl.changedBeforePress ? window.__crawl.pressY : null")
        return pressed if pressed is not None and abs(pressed - before) > SCROLL_JUMP else before

    def _shown_again(self, anchor) -> bool:
        """The part acted in is in view now."""
        now = self._anchor_now(anchor)
        return bool(now) and now["now"] >= now["enough"]

    def check(self, where, *, names=(), keyboard=False, before=None, region=None, region_shown=IN_VIEW, anchor=(),
              axe=True):
        """Every check of one step on the page as it is now; returns the number of new findings."""
        f = self.findings
        new = 0
        with self.timed("checks"):
            page = self.page.evaluate("sizes => window.__crawlPage.page(sizes)", self.touch)
        if before is not None and abs(page["scrollY"] - before) > SCROLL_JUMP and \
                not self._kept_in_place(anchor, page["scrollY"] - before) and not self._went_with_focus(anchor, page) \
                and not self._followed_the_focus(keyboard, page, before) \
                and not self._shortened_under_it(anchor, page, before) and not self._screen_kept():
            new += f.add("scroll jump", where, f"the page scrolled by itself from {before:.0f} to "
                         f"{page['scrollY']:.0f} px ({page['scrollY'] - before:+.0f} px)", key="scroll")
        if region:
            seen = self.page.evaluate("sel => window.__crawlPage.inView(sel)", region)
            # As much of it as showed before (up to IN_VIEW px) must still show.
            # (Found by its place in the page, which a part added above it can give to another;
            # the part acted in, found by its kind, in view is enough.)
            if seen["found"] and seen["shown"] < min(IN_VIEW, seen["height"], region_shown) - 1 and \
                    not self._shown_again(anchor):
                new += f.add("out of view", where, f"the region acted on, {seen['desc']} ({seen['found']}), left the "
                             f"screen: its top at {seen['top']:.0f} px, {seen['shown']:.0f} px of it showing",
                             key=("region", seen["found"]))
        if keyboard and page["focus"]["body"]:
            new += f.add("focus lost", where, "after a keyboard action the focus is on <body>", key="focus")
        elif keyboard and not page["focus"]["shown"]:
            new += f.add("focus hidden", where, f"after a keyboard action the focus is on {page['focus']['desc']}, "
                         "which is not shown", key=("focus", page["focus"]["desc"]))
        if page["scrollWidth"] > page["clientWidth"]:
            new += f.add("sideways scroll", where, f"the page is {page['scrollWidth']} px wide in "
                         f"{page['clientWidth']} px", key="width")
        for t in page["targets"]["small"]:
            new += f.add("target size", where, f"{t['target']} is {t['size'][0]}×{t['size'][1]} CSS px with "
                         f"{t['near']} within 24 px (at {t['at'][0]},{t['at'][1]})", key=("size", _shape(t["target"])))
        for t in page["targets"]["covered"]:
            new += f.add("covered target", where, f"a tap at the centre of {t['target']} ({t['at'][0]},{t['at'][1]}) "
                         f"hits {t['by']}", key=("cover", _shape(t["target"]), _shape(t["by"])))
        names = list(names) + page["names"]
        for check, found, line in text_findings(page["text"], names=names, lang=self.lang, rule_code=self.rule_code):
            # The same words around it (names and numbers aside) are the same finding.
            new += f.add(check, where, f"{found!r} in “{line}”", key=(check, found, _shape(strip_names(line, names))))
        for error in self.errors:
            new += f.add("console error", where, error, key=("console", error[:80]))
        for error in self.server_errors:
            new += f.add("server error", where, error, key=("server", error))
        self.errors.clear()
        self.server_errors.clear()
        if axe:
            with self.timed("axe"):
                new += self.check_axe(where)
        return new

    def check_axe(self, where):
        # axe-core goes into the page once per document (the library's script, evaluated by
        # the driver: the site's CSP stays as it is); a page unchanged since the last run is
        # not checked again.
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            with self.timed("axe injection"):
                self.page.evaluate(self.axe.axe_script)
        now = self.page.evaluate("() => window.__crawlPage.fingerprint()")
        last, self._axed = getattr(self, "_axed", None), now
        if last is None or now["rest"] != last["rest"]:
            context = "document"     # a new page, or something outside the live part changed
        elif now["live"] != last["live"]:
            context = "document.querySelector('#match-live')"
        else:
            return 0
        response = self.page.evaluate(f"o => axe.run({context}, o)", {
            "runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]})
        new = 0
        for v in response["violations"]:
            for node in v["nodes"][:5]:
                target = " ".join(str(t) for t in node["target"])
                summary = (node.get("failureSummary") or "").replace("\n", " ")
                new += self.findings.add(f"axe {v['id']}", where, f"{v['help']} ({v['impact']}): {target} — {summary[:200]}",
                                         key=("axe", v["id"], _shape(target)))
        return new


def _shape(desc: str) -> str:
    """An element's description without its numbers, so the same control on another step, or
    the same kind of lit place elsewhere, counts as the same finding."""
    return re.sub(r"\d+", "#", desc)[:80]


def _focus_on_screen(page, dy=0) -> bool:
    """The focused control (not the page's body) shows on the screen, as the step's read of the
    page (`page`) found it, or would with the page `dy` px from where it stands."""
    f = page["focus"]
    return not f["body"] and f["shown"] and f["bottom"] + dy > 0 and f["top"] + dy < f["screen"]


def _gone_with_a_change(locator, version) -> bool:
    """The control `locator` finds is gone (or hidden) and the page's match version has moved on
    from `version`, the one its controls were listed at: a change came meanwhile (a socket's swap,
    the match played on by itself or ended) and took it, as a player finds it. A control gone with
    no change is a fault of the page."""
    gone = not locator.count() or not locator.is_visible()
    return gone and locator.page.evaluate("() => window.__crawlPage.version()") != version


class Crawl(Player):
    """A player at a match, acting on random controls of the board and the panel."""

    SCOPE = "#match-socket"

    def __init__(self, browser, base, size, run, game, seed, username):
        super().__init__(browser, base, size, run)
        self.game, self.rnd, self.username = game, random.Random(f"{run}:{seed}"), username
        self.rule_code = game.rule_code
        self.pk = self.seat = None
        self.last_spot = None  # the board spot the last step pressed, if it pressed one

    def match(self) -> Match:
        return Match.objects.get(pk=self.pk)

    def create_match(self, variant_options, title):
        """The new-match form, as a player fills it: this game, its fewest seats, bots in the
        others (so the game goes on), the variant's options."""
        seats = self.game.seats()
        self.go(f"/matches/new/?game={self.game.name}")
        self.page.fill("#id_title", title)
        self.page.fill("#id_seats", str(seats))
        self.page.fill("#id_bot_seats", str(seats - 1))
        for name, value in variant_options.items():
            box = self.page.locator(f"input[name=opt_{name}]")
            if box.get_attribute("type") == "checkbox":
                box.set_checked(bool(value))
            else:
                box.fill(str(value))
        with self.page.expect_navigation():
            self.page.click("main button[type=submit].primary")
        self.page.wait_for_selector("#match-live")
        match = Match.objects.get(title=title)
        self.pk = match.pk
        self.seat = match.seats.get(user__username=self.username).number
        self.settle()

    def names(self):
        match = self.match()
        out = [match.title]  # the creator's words, in whatever language
        for s in match.seats.select_related("user__profile"):
            out += [s.user.username, getattr(getattr(s.user, "profile", None), "display_name", "")]
        return out + self.game.names(match)

    # --- waiting, without sleeping ---------------------------------------------------------

    def _quiet(self, match) -> bool:
        """Nothing more happens until this player acts: the match is over, or only they are to act."""
        if match.status != Match.RUNNING:
            return True
        return bool(match.turn_seats) and set(match.turn_seats) <= {self.seat} and not match.needs_system

    def settle(self):
        """Wait until htmx has answered and settled, the socket is open, the bots and the bank
        have moved, and the page shows the match's latest version."""
        page = self.page
        page.wait_for_load_state("load")  # an action may have loaded another page
        page.wait_for_function("() => window.__crawl && window.__crawl.wsOpen", timeout=WAIT_MS)
        idle = ("v => { const live = document.querySelector('#match-live');"
                " return window.__crawl.idle() && live && Number(live.dataset.version) >= v; }")
        started = time.monotonic()
        while True:
            match = self.match()
            quiet = self._quiet(match)
            # Someone else to move: their move raises the version, and the socket brings it.
            want = match.version if quiet else match.version + 1
            try:
                page.wait_for_function(idle, arg=want, timeout=WAIT_MS)
            except PlaywrightTimeout:
                shown = page.evaluate("() => ({version: document.querySelector('#match-live')?.dataset.version,"
                                      " pending: window.__crawl.pending, busy: [...document.querySelectorAll("
                                      "'.htmx-request, .htmx-swapping, .htmx-settling')].map(e => e.className)})")
                raise Stuck(f"the page did not come to rest in {WAIT_MS / 1000:.0f} s: the match is at version "
                            f"{match.version} ({'waiting for this player' if quiet else f'to act: seats {match.turn_seats}'}),"
                            f" the page shows {shown}") from None
            if quiet and self.match().version == match.version:
                return match
            if time.monotonic() - started > WAIT_MS / 1000 * 3:
                raise Stuck(f"the match did not come to rest: version {match.version}, to act {match.turn_seats}")

    # --- one step --------------------------------------------------------------------------

    def step(self, n, keyboard):
        """Act once on a random enabled control (by keyboard: focus and Enter or Space); return
        what was done, or None when there is nothing to act on."""
        page = self.page
        preferred = self.game.prepare(self)
        # (With the match's version the page shows as they are listed: one read, so no swap between.)
        controls, listed = page.evaluate("scope => [window.__crawlPage.controls(scope), window.__crawlPage.version()]",
                                         self.SCOPE)
        if keyboard:
            controls = [c for c in controls if c["focusable"]]
        if preferred is not None:
            handle = preferred.first.element_handle()
            marked = handle.get_attribute("data-crawl") if handle else None
            chosen = next((c for c in controls if str(c["n"]) == marked), None)
        else:
            chosen = None
        if chosen is None:
            if not controls:
                return None
            chosen = self.rnd.choices(controls, weights=[c["weight"] for c in controls])[0]
        locator = page.locator(f'[data-crawl="{chosen["n"]}"]')
        how = "keyboard" if keyboard else ("tap" if self.touch else "click")
        done = f"{how} {chosen['desc']}"
        try:
            # Bring it into view first, as a player scrolls to it: the page may not move after that.
            # (Also one clipped by a scrolling frame of its own, as Catan's zoomed board: Playwright's
            # tap would scroll the frame and the page to it, and that is the player's scroll, not a jump.)
            # And one under a bar pinned to the screen (Catan's confirm bar at the bottom) is brought
            # out from under it, as a player scrolls it up: else Playwright's tap scrolls for them.
            locator.evaluate("e => { const r = e.getBoundingClientRect();"
                             " if (r.top < 0 || r.bottom > innerHeight) e.scrollIntoView({block: 'center'});"
                             " else e.scrollIntoView({block: 'nearest', inline: 'nearest'});"
                             " const q = e.getBoundingClientRect(), hit = document.elementFromPoint("
                             "(q.left + q.right) / 2, (q.top + q.bottom) / 2);"
                             " if (hit && hit !== e && !e.contains(hit) && !hit.contains(e)) e.scrollIntoView({block: 'center'}); }",
                             timeout=GONE_MS)
            before = page.evaluate("() => { window.__crawlPage.markScreen(); return window.scrollY; }")
            anchor = locator.evaluate("e => window.__crawlPage.anchor(e)", timeout=GONE_MS)
        except PlaywrightTimeout as exc:
            if locator.count():
                raise
            if _gone_with_a_change(locator, listed):
                # Gone with a change that came after the controls were listed (a socket's swap): the
                # player finds it gone before reaching it, and nothing was pressed.
                return f"{chosen['desc']}: gone before the press"
            return self._cannot_act(n, chosen, done, exc)
        shown = page.evaluate("sel => window.__crawlPage.inView(sel)", chosen["region"])
        # A first press on a board spot whose words promise a choice first ("tap it again", "tap
        # one and confirm") must not play: the match's version stays as it is (issue 33).
        spot = chosen["desc"] if chosen.get("spot") and not keyboard and chosen["kind"] == "press" else None
        promise = None
        # A second press on the spot pressed last (steps that left the live part as it was, a
        # zoom or a panel opened, may lie between: the page keeps its choice) is meant to play.
        # (pressed_before: that spot, while the live part it was pressed in is still the page's.)
        pressed_before = self.last_spot if page.evaluate(
            "() => !!(document.querySelector('#match-live') || {}).__crawlPressed") else None
        again = spot and spot == pressed_before
        if spot and not again:
            promise = promises_a_choice(page.evaluate("() => window.__crawlPage.text()"), self.touch)
        version = page.evaluate("() => window.__crawlPage.version()")
        # (A form held back at an earlier step is that step's: a choice in a list clicks nothing.)
        clicks = page.evaluate("() => { window.__crawl.forgetHeldBack(); return window.__crawl.clicks; }")
        if spot or chosen["kind"] == "select":   # a choice in a list replaces the spot's
            self.last_spot = spot
        if spot:   # marks the live part pressed in: a swap for a new one forgets the press
            page.evaluate("() => { const live = document.querySelector('#match-live'); if (live) live.__crawlPressed = true; }")
        try:
            with self.timed("acting"):
                done = self._act(locator, chosen, keyboard) or done
        except Exception as exc:
            if _gone_with_a_change(locator, listed):
                # Gone with a change that came meanwhile (the match played on by itself, or
                # ended): a player finds the control gone, and nothing was pressed.
                now = page.evaluate("() => window.__crawlPage.version()")
                return f"{done}: gone with version {now} before the press"
            return self._cannot_act(n, chosen, done, exc)
        if promise:
            self._check_only_chosen(n, done, promise, version, clicks, pressed_before)
        with self.timed("waiting for the server"):
            self.settle()
        if spot and page.evaluate("n => window.__crawl.clicks > n", clicks):
            # A finger's tap is carried to the nearest spot (Chromium's touch adjustment): the
            # spot pressed is the one the click landed on; on none, the one pressed before stays
            # the page's choice.
            self.last_spot = page.evaluate("() => window.__crawl.landed") or pressed_before
        before = self.where_pressed(before)
        if page.evaluate("() => window.__crawl.heldBack"):
            # The browser held the form back for a field left empty and brought that field into
            # view, whatever the button says it shows: the field must show (the page may move).
            return {"done": done, "before": None, "region": "[data-crawl-held]", "region_shown": IN_VIEW}
        # A control that says it brings another part of the page into view (data-shows, as "Pick
        # it on the board" does) may move the page: that part must then be in view instead.
        # Unless nothing came of it: the control is still there and the page has not moved, and
        # the step is judged as any other.
        shows = chosen.get("shows")
        if not shows and page.evaluate("n => window.__crawl.clicks > n", clicks):
            shows = page.evaluate("() => window.__crawl.shows")   # what the press landed on says
        if shows and not self._came_to_nothing(chosen["n"], before):
            return {"done": done, "before": None, "region": shows, "region_shown": IN_VIEW}
        return {"done": done, "before": before, "region": chosen["region"], "region_shown": shown.get("shown", 0),
                "anchor": anchor}

    def _cannot_act(self, n, chosen, done, exc):
        """The finding of a step that could not act on its control (Playwright's own words say
        what was in the way); returns what was tried."""
        first = str(exc).splitlines()[0][:200]
        hit = re.search(r"<[^>]+> (?:from <[^>]+> subtree )?intercepts pointer events", str(exc))
        self.findings.add("cannot act", f"step {n}", f"{done}: {hit.group(0) if hit else first}",
                          key=("act", _shape(chosen["desc"])))
        return done

    def _came_to_nothing(self, n, before) -> bool:
        """The control marked `n` is still on the page and the page has not moved."""
        page = self.page
        return page.evaluate("n => !!document.querySelector(`[data-crawl=\"${n}\"]`)", n) and \
            abs(page.evaluate("() => window.scrollY") - before) <= 2

    def _check_only_chosen(self, n, done, promise, version, clicks, pressed_before):
        """After one press on a board spot whose words promise a choice first: once the page has
        had the click and answered whatever it asked, the version it shows is the one before.
        (Unless the tap was carried to the spot pressed before: a second press.)"""
        page = self.page
        try:
            page.wait_for_function("n => window.__crawl.clicks > n", arg=clicks, timeout=5000)
        except PlaywrightTimeout:
            return  # the press made no click (a drag, say): nothing to judge
        landed = page.evaluate("() => window.__crawl.landed")
        if pressed_before and landed == pressed_before:
            return
        page.wait_for_function("() => window.__crawl.idle()", timeout=WAIT_MS)
        now = page.evaluate("() => window.__crawlPage.version()")
        if now != version:
            self.findings.add("one press played", f"step {n}", f"{done} played a move at once (version {version} → "
                              f"{now}) though the page says “{promise}”", key=("one press", self.game.name))

    def _act(self, locator, chosen, keyboard):
        kind = chosen["kind"]
        if kind == "select":
            pick = self.rnd.randrange(max(chosen["options"], 1))
            if keyboard:
                locator.focus()
                for _ in range(pick + 1):
                    self.page.keyboard.press("ArrowDown")
                return f"keyboard ArrowDown ×{pick + 1} in {chosen['desc']}"
            locator.select_option(index=pick)
            return f"choose option {pick} of {chosen['desc']}"
        if kind == "fill":
            low = int(chosen["min"] or 0)
            high = int(chosen["max"]) if chosen["max"] not in (None, "") else low + 5
            value = str(self.rnd.randint(low, max(low, high)))
            if keyboard:
                locator.focus()
                self.page.keyboard.press("Control+A")
                self.page.keyboard.type(value)
            else:
                (locator.tap if self.touch else locator.click)(timeout=5000)
                locator.fill(value)
            return f"{'keyboard' if keyboard else 'type'} {value} into {chosen['desc']}"
        if chosen["label"]:  # a hidden box: its label is what one presses
            locator = locator.locator("xpath=ancestor::label[1]")
        if keyboard:
            locator.focus()
            self.page.keyboard.press(chosen["key"])
            return None
        if chosen.get("spot") and locator.locator("xpath=ancestor::*[local-name()='svg']").count():
            # A spot drawn on a map: pressed where it shows, as a finger does (Playwright's own
            # checks would scroll the page under a map that stays put, and miss it).
            box = locator.bounding_box()
            if box:
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                (self.page.touchscreen.tap if self.touch else self.page.mouse.click)(x, y)
                return None
        if self.touch:
            locator.tap(timeout=5000)
        else:
            locator.click(timeout=5000)
        return None
