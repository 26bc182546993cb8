"""Issue 14, item 5: every page carries a Content-Security-Policy that allows this site's own
scripts only, and the pages (live sockets, htmx actions, the boards, the admin) break none of it."""
import pytest

from games import play
from tests.conftest import make_user

pytestmark = pytest.mark.browser

VIOLATIONS = """window.__csp = [];
document.addEventListener("securitypolicyviolation",
  e => window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile + ":" + e.lineNumber));"""


def test_pages_carry_a_csp_and_break_none_of_it(people):
    anna = make_user("anna", is_staff=True, is_superuser=True)
    fuldrigger = play.match_create(creator=anna, game="fuldrigger", seats=2, bot_seats=1)
    pirater = play.match_create(creator=anna, game="pirater", seats=2, bot_seats=1)
    person = people("anna")
    person.context.add_init_script(VIOLATIONS)
    response = person.page.goto(person.base + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    person.log_in("anna")
    pages = ["/", "/lobby/", "/matches/new/", "/leaderboards/", "/accounts/profile/", "/games/fuldrigger/rules/",
             fuldrigger.get_absolute_url(), pirater.get_absolute_url(),
             "/admin/", f"/admin/games/match/{fuldrigger.pk}/change/"]
    for path in pages:
        response = person.page.goto(person.base + path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers.get("content-security-policy", ""), path
        person.page.wait_for_load_state("networkidle")
        assert person.page.evaluate("window.__csp") == [], path
    # htmx and its socket extension run under the policy, and the live part has come in.
    person.page.goto(person.base + fuldrigger.get_absolute_url())
    person.page.wait_for_selector("#match-live")
    assert person.page.evaluate("typeof htmx") == "object"
    assert person.page.evaluate("window.__csp") == []
    assert [e for e in person.errors if "Content Security Policy" in e] == []
