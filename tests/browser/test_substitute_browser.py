"""Three accounts in Chromium: anna stops coming, kenji (a reliable volunteer) takes her seat
from the Substitutes page, bo sees it live and can refuse, and the match goes on with kenji
playing; anna, coming back to look, no longer holds the seat. Waits on what the pages show."""
from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from games import play
from games.models import Match, SeatOffer
from tests.conftest import make_user
from tests.substitutes.support import history

pytestmark = pytest.mark.browser


def test_an_absent_seat_is_taken_over_by_a_volunteer_and_the_match_goes_on(people, settings):
    settings.ABSENT_AFTER_TIMEOUTS = 1  # this process marks anna absent; the server serves the rest
    anna_user, bo_user, kenji_user = make_user("anna"), make_user("bo"), make_user("kenji")
    history(kenji_user, in_time=30, other=bo_user)
    play.volunteer_set(user=kenji_user, game="race")
    match = play.match_create(creator=anna_user, game="race", seats=2, title="Race to Cape Horn",
                              options={"wind": False, "finish": 200})
    play.match_join(match_id=match.pk, user=bo_user)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    play.deadline_apply(match_id=match.pk)  # anna's turn runs out: absent, her seat offered
    offer = SeatOffer.objects.get(match=match, status=SeatOffer.OPEN)
    match.refresh_from_db()
    assert match.turn_seats == [1]

    bo = people("bo", viewport={"width": 390, "height": 844})
    kenji, anna = people("kenji"), people("anna")
    bo.log_in("bo")
    bo.go(match.get_absolute_url())
    bo.page.wait_for_selector("text=Your turn")
    version = int(bo.page.evaluate("() => document.querySelector('#match-live').dataset.version"))

    kenji.log_in("kenji")
    kenji.go("/substitutes/")
    kenji.page.wait_for_selector("text=Race to Cape Horn")
    assert kenji.page.is_visible("text=takes 100 % of turns in time")
    assert Axe().run(kenji.page).violations_count == 0
    kenji.page.focus(f"button[data-offer='{offer.pk}']")  # by keyboard
    kenji.page.keyboard.press("Enter")
    kenji.page.wait_for_url(kenji.base + match.get_absolute_url())
    kenji.page.wait_for_selector("text=kenji took over anna's settlements")
    kenji.shot("took-over")

    # Bo's phone learns of it over its socket, and offers him the vote.
    bo.wait_for_version(version + 1)
    bo.page.wait_for_selector("text=kenji took over anna's settlements")
    bo.page.wait_for_selector("button:has-text('Refuse this substitute')")
    bo.shot("substitute-arrived")
    assert bo.page.is_visible("text=Anna rolled")  # anna's own timed-out moves keep her name
    found = Axe().run(bo.page)
    assert found.violations_count == 0, found.generate_report()

    # The match goes on: bo plays his turn, and kenji's page turns to his.
    bo.page.click("button:has-text('roll')")
    bo.page.wait_for_selector("button:has-text('stay')")
    bo.page.click("button:has-text('stay')")
    kenji.page.wait_for_selector("text=Your turn", timeout=20000)
    kenji.page.click("button:has-text('roll')")
    bo.page.wait_for_selector("text=kenji rolled", timeout=20000)
    match.refresh_from_db()
    assert match.seats.get(number=0).user == kenji_user and match.status == Match.RUNNING

    # Anna comes back to look: the seat is not hers any more (no turn, no "I'm back").
    anna.log_in("anna")
    anna.go(match.get_absolute_url())
    anna.page.wait_for_selector("#match-live")
    assert not anna.page.is_visible("text=I'm back") and not anna.page.is_visible("text=(you)")
    assert bo.errors == [] and kenji.errors == [] and anna.errors == []
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
