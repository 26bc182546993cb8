# The browser fixtures (a real Daphne, a real Chromium) for this folder's browser test.
from tests.browser.conftest import browser, live_site, people  # noqa: F401
