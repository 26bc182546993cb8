"""A real Daphne serving the test database, and a real Chromium driven by Playwright."""
import os
import pathlib
import shutil
from functools import partial

import pytest
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from tests.conftest import close_pools

ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM = "/usr/bin/chromium"
SWEEP_SECONDS = 1.0
# How long a page may take to show a version: under CI's load (the whole suite on two cores) a
# socket's update has taken more than 15 s.
LIVE_WAIT_MS = 30000
# Every htmx swap settled: a new part shows at once and settles a moment later, when the pages'
# scripts (htmx.onLoad, afterSettle) put the focus back and keep the part acted in in view.
SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
# What the match socket did on a page, for a test's failure to tell: opened, closed (with its
# code), each message (the version it carried, if any) and whether it was swapped in.
SOCKET_DIARY = """
window.socketDiary = [];
window.socketVersions = [];
(() => {
  const at = () => Math.round(performance.now());
  const note = (what) => { window.socketDiary.push(at() + " " + what); if (window.socketDiary.length > 60) window.socketDiary.shift(); };
  document.addEventListener('htmx:wsOpen', () => note('open'));
  document.addEventListener('htmx:wsClose', (e) => note('close ' + (e.detail.event && e.detail.event.code)));
  document.addEventListener('htmx:wsError', () => note('error'));
  document.addEventListener('htmx:wsBeforeMessage', (e) => {
    const m = /data-version="(\\d+)"/.exec(e.detail.message || '');
    // After the message is handled (swapped in, or kept out as shown already): then it has landed.
    setTimeout(() => {
      note('message ' + (m ? 'v' + m[1] : (e.detail.message || '').slice(0, 30)) + (e.defaultPrevented ? ' (kept out)' : ''));
      if (m) window.socketVersions.push(Number(m[1]));
    });
  });
})();
"""

# Each word (a run of characters that are neither white space nor one of `breaks`) in the text of
# the elements a selector matches whose letters the page draws on more than one line ("Runni" /
# "ng", "Point" / "s"): [word, the element's text].
_BROKEN_WORDS = r"""([selector, breaks]) => {
  const out = [], seen = new Set();
  const word = new RegExp('[^\\s' + breaks.replace(/[\\\]^-]/g, '\\$&') + ']+', 'g');
  document.querySelectorAll(selector).forEach(element => {
    const walk = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (seen.has(node)) continue;   // inside two elements the selector matches: once is enough
      seen.add(node);
      for (const m of node.data.matchAll(word)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1)
          out.push([m[0], element.textContent.replace(/\s+/g, ' ').trim().slice(0, 80)]);
      }
    }
  });
  return out;
}"""


def broken_words(page, selector, breaks=""):
    """The words drawn over two lines in the elements `selector` matches, each as (word, its
    element's text): [] when every word is whole. A line may end at white space, or at one of
    `breaks` (a hyphen or a dash, say) without a word counting as broken there."""
    return [tuple(found) for found in page.evaluate(_BROKEN_WORDS, [selector, breaks])]


def wait_for_socket(page, version=None, timeout=LIVE_WAIT_MS):
    """Wait until the page's match socket has delivered a part of `version` or later (by default
    the version the page shows), swapped in or kept out as shown already: the event that says
    the socket's copy of a move's answer, or its catch-up on opening, can no longer replace what
    a test looks at next. Needs SOCKET_DIARY in the page."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    if version is None:
        version = int(page.get_attribute("#match-live", "data-version"))
    try:
        page.wait_for_function("v => window.socketVersions.some(x => x >= v)", arg=version, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"no part of version {version} or later came over the socket in {timeout / 1000:.0f} s; "
                             f"its socket: {page.evaluate('() => window.socketDiary')}") from None


def _application():
    from channels.routing import get_default_application

    return ASGIStaticFilesHandler(get_default_application())


def _server_setup():
    """In the server process (a fork, which already points at the test database): run the
    deadline sweep quickly, as `manage.py serve` does without Redis."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from django.conf import settings

    from games.play.jobs import start_worker

    # asgiref runs thread-sensitive calls (channels' session and user lookups of every socket
    # handshake) on one class-wide executor of one thread. Once a test in this process has used
    # it (an in-process socket test), the fork inherits the executor with that thread counted but
    # not running: its work would wait for ever, and every handshake was reset after Daphne's
    # 5 s (the Pirater browser tests after tests/orders/test_privacy.py in the PostgreSQL run).
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sync-to-async")

    settings.SWEEP_SECONDS = SWEEP_SECONDS
    start_worker()


@pytest.fixture
def live_site(transactional_db, settings, monkeypatch):
    # Playwright's sync API keeps an event loop in this thread; Django's ORM calls from the test
    # body are still plain synchronous calls, so let them through (for these tests only).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    # The server is a fork: it must not inherit (and later close) this process's connections,
    # nor a pool whose threads stay behind.
    close_pools()
    process = DaphneProcess("127.0.0.1", partial(_application), setup=_server_setup)
    process.start()
    if not process.ready.wait(timeout=30):
        process.terminate()
        raise RuntimeError("Daphne did not start")
    yield f"http://127.0.0.1:{process.port.value}"
    process.terminate()
    process.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    # Per module: Playwright's loop must be gone before async tests elsewhere run.
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        options = {"headless": True, "args": ["--no-sandbox", "--disable-gpu", "--disable-quic",
                                              "--no-first-run", "--disable-background-networking",
                                              "--disable-component-update", "--disable-sync"]}
        if os.path.exists(CHROMIUM) or shutil.which("chromium"):
            options["executable_path"] = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
        browser = p.chromium.launch(**options)
        yield browser
        browser.close()


class Person:
    """One browser context: a player with their own cookies, watching their console."""

    def __init__(self, browser, base, name, viewport=None):
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
        self.context.add_init_script(SOCKET_DIARY)
        self.page = self.context.new_page()
        self.base, self.name, self.errors, self.shots = base, name, [], 0
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def go(self, path):
        self.page.goto(self.base + path)

    def shot(self, label):
        self.shots += 1
        self.page.screenshot(path=str(ARTIFACTS / f"{self.name}-{self.shots:02d}-{label}.png"), full_page=True)

    def wait_for_version(self, version, timeout=LIVE_WAIT_MS):
        """Wait until the page shows the match at `version` or later (by a swap or over its
        socket); on a timeout say what the page shows, so a lost update is told from a slow one."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(
                "v => Number(document.querySelector('#match-live')?.dataset.version) >= v", arg=version,
                timeout=timeout)
        except PlaywrightTimeout:
            shown = self.page.evaluate("() => document.querySelector('#match-live')?.dataset.version")
            diary = self.page.evaluate("() => window.socketDiary")
            raise AssertionError(f"{self.name}'s page shows version {shown}, not {version} or later, after "
                                 f"{timeout / 1000:.0f} s; its socket: {diary}; its console: {self.errors}") from None

    def wait_while_playing(self, selector, match, stall=LIVE_WAIT_MS, most=20000):
        """Wait for `selector` (a game's end) while the match plays on by itself: every new
        version the page shows starts the wait again, so a slow machine only takes longer, and a
        match or page that stops moving for `stall` ms fails with what each shows. (`most`: a
        bound on the versions, far above a whole game's: bots' Catan to its winner took over 1,000.)"""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        first = int(self.page.get_attribute("#match-live", "data-version"))
        shown = first
        while not self.page.locator(selector).count():
            if shown - first > most:
                raise AssertionError(f"{self.name}'s page went {most} versions on without {selector}")
            try:
                self.page.wait_for_function(
                    "([selector, v]) => document.querySelector(selector)"
                    " || Number(document.querySelector('#match-live')?.dataset.version) > v",
                    arg=[selector, shown], timeout=stall)
            except PlaywrightTimeout:
                match.refresh_from_db()
                diary = self.page.evaluate("() => window.socketDiary")
                raise AssertionError(
                    f"{self.name}'s page stood at version {shown} for {stall / 1000:.0f} s without {selector};"
                    f" the match is {match.status} at version {match.version}, round {match.state.get('round')},"
                    f" due {match.next_due_at}, needs the system: {match.needs_system}; its socket: {diary};"
                    f" its console: {self.errors}") from None
            shown = int(self.page.get_attribute("#match-live", "data-version"))
        self.page.wait_for_selector(selector, timeout=stall)

    def log_in(self, username, password=None):
        """Log in a user made by tests.conftest.make_user (whose password follows from the name)."""
        self.go("/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password or "pw-" + username * 2)
        self.page.click("main button[type=submit]")
        self.page.wait_for_url(self.base + "/")

    def sign_up(self, username):
        self.go("/accounts/signup/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_email", f"{username}@example.com")
        self.page.fill("#id_password1", "sail-the-seven-seas")
        self.page.fill("#id_password2", "sail-the-seven-seas")
        self.page.click("button[type=submit]")
        self.page.wait_for_url(self.base + "/")


@pytest.fixture
def people(browser, live_site):
    made = []

    def make(name, viewport=None):
        person = Person(browser, live_site, name, viewport)
        made.append(person)
        return person

    yield make
    for person in made:
        person.context.close()
