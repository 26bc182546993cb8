"""The site in a player's own language, in a real browser: a visitor on a phone picks Svenska in
the footer with the keyboard, signs up, creates a Pirater match against a bot and plays a turn
in Swedish (the page's words from the catalogue, the log's from the engine's phrase book); a
Danish player's profile language rules her pages wherever she signs in."""
import pytest
from django.utils import translation

from accounts.models import Profile
from games.engines import get_engine
from games.models import Match
from games.reads.selectors import seat_names
from tests.browser.conftest import LIVE_WAIT_MS
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def said(lang, text, context=None):
    with translation.override(lang):
        return translation.pgettext(context, text) if context else translation.gettext(text)


def test_a_visitor_picks_swedish_by_keyboard_and_plays_in_swedish(people):
    sven = people("sv-phone", viewport={"width": 375, "height": 740})
    sven.go("/lobby/")
    assert sven.page.get_attribute("html", "lang") == "en"
    chooser = sven.page.locator("footer select[name=language]")
    chooser.focus()
    chooser.select_option("sv")
    sven.page.keyboard.press("Tab")      # to the chooser's button
    with sven.page.expect_navigation():
        sven.page.keyboard.press("Enter")
    assert sven.page.get_attribute("html", "lang") == "sv"
    sven.shot("lobby-in-swedish")

    sven.sign_up("sven")
    assert sven.page.get_attribute("html", "lang") == "sv"
    sven.go("/matches/new/?game=pirater")
    sven.page.fill("#id_title", "Skattjakt")
    sven.page.fill("#id_bot_seats", "1")
    sven.page.click(f"main button:has-text('{said('sv', 'Create match')}')")
    sven.page.wait_for_selector("#match-live .pt-pieces")
    match = Match.objects.get(title="Skattjakt")
    assert match.status == Match.RUNNING
    sven.shot("match-in-swedish")

    roll = said("sv", "Roll the dice")
    assert roll != "Roll the dice"
    # Rules edition 2 (P5): the ports are chosen first, in roll order (the bot picks at once).
    sven.page.wait_for_selector(f".pt-ports button, button:has-text('{roll}')", timeout=LIVE_WAIT_MS)
    if sven.page.locator(".pt-ports button").count():
        sven.page.locator(".pt-ports button").first.click()
    sven.page.wait_for_selector(f"button:has-text('{roll}')", timeout=LIVE_WAIT_MS)
    before = int(sven.page.get_attribute("#match-live", "data-version"))
    sven.page.click(f"button:has-text('{roll}')")
    # The roll's answer on the page, then its line in the log (looking there for 10 s at most
    # after the click is too short a wait for the server on a busy machine).
    sven.wait_for_version(before + 1)
    seat = match.seats.get(user__username="sven").number
    rolled = next((e for row in match.log.order_by("seq") for e in row.events
                   if e["type"] == "roll" and e["seat"] == seat), None)
    assert rolled, "her roll is not in the match's log"
    names = seat_names(Match.objects.get(pk=match.pk))
    swedish = get_engine("pirater").describe(rolled, names, "sv")
    assert swedish != get_engine("pirater").describe(rolled, names, "en")
    sven.page.wait_for_selector(f"#match-live .log-lines li:has-text('{swedish}')")
    sven.shot("rolled-in-swedish")
    assert sven.errors == []
    assert sven.page.evaluate("document.documentElement.scrollWidth") <= 375 + 1


def test_a_danish_profile_wins_over_the_browser(people):
    make_user("dorte")
    Profile.objects.filter(user__username="dorte").update(language="da")
    dorte = people("da-profile")
    dorte.log_in("dorte")
    dorte.go("/")
    assert dorte.page.get_attribute("html", "lang") == "da"
    dorte.go("/leaderboards/")
    assert dorte.page.get_attribute("html", "lang") == "da"
    assert dorte.page.locator(f"text={said('da', 'Leaderboards')}").count() >= 1
    dorte.shot("leaderboards-in-danish")
    assert dorte.errors == []
