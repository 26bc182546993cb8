"""An event in Chromium with real accounts: an organiser creates it, two players enter (one on
a phone, by keyboard), the round starts, and the event page links each table's match, whose
page links back."""
from datetime import timedelta

import pytest
from django.utils import timezone

from leagues.models import Event
from leagues.tasks import sweep_events
from tests.browser.events_support import create_event

pytestmark = pytest.mark.browser


def test_an_event_is_created_joined_and_its_first_round_seated(people):
    org, ann, bo = people("org"), people("ann"), people("bo", viewport={"width": 390, "height": 844})
    for person in (org, ann, bo):
        person.sign_up(person.name)

    event_url = create_event(org, "Harbour Cup", seats=2, rounds=2)
    org.shot("created")

    ann.page.goto(event_url)
    ann.page.click("text=Enter the event")
    ann.page.wait_for_selector("text=Leave the event")
    bo.page.goto(event_url)
    bo.page.focus("button:has-text('Enter the event')")   # by keyboard, on a phone
    bo.page.keyboard.press("Enter")
    bo.page.wait_for_selector("text=Leave the event")
    bo.shot("entered")
    assert bo.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    event = Event.objects.get(name="Harbour Cup")
    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    sweep_events()   # what the beat does each minute
    bo.page.reload()
    bo.page.click("text=Table 1")
    bo.page.wait_for_selector("text=Harbour Cup, round 1 >> nth=0")
    bo.shot("match")
    bo.page.click("a:has-text('Harbour Cup, round 1')")
    bo.page.wait_for_selector("h2:has-text('Round 1')")
    assert "to move" in bo.page.content()
    bo.go("/")
    bo.page.wait_for_selector("text=Your events")
    assert not ann.errors and not bo.errors and not org.errors
