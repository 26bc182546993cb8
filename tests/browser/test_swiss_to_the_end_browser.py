"""A Swiss event of nine players at three-seat tables, run to its end (issue 36's "done when"):
three real accounts in Chromium (one on a phone) create and enter it on its pages, six more
enter through the services; every round's matches are played by random legal moves through the
platform's services and the rest ended at the round deadline, moved forward as the beat would
find it. At every step the event page's standings are the services' standings, every table is
linked, and the phone has no sideways scroll."""
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from leagues import services
from leagues.models import Event, Round
from leagues.tasks import sweep_events
from tests.browser.events_support import (create_event, play_round_to_its_close, standings_of, standings_on,
                                          standings_shown_after)
from tests.conftest import make_user

pytestmark = pytest.mark.browser

def test_a_swiss_event_of_nine_at_tables_of_three_runs_to_its_end(people):
    org, ann = people("swiss-org"), people("swiss-ann")
    bo = people("swiss-bo", viewport={"width": 390, "height": 844})
    for person in (org, ann, bo):
        person.sign_up(person.name.split("-")[1])

    event_url = create_event(org, "Nine Harbours", seats=3, rounds=3)
    for person in (org, ann, bo):
        person.page.goto(event_url)
        person.page.click("text=Enter the event")
        person.page.wait_for_selector("text=Leave the event")
    event = Event.objects.get(name="Nine Harbours")
    for n in range(6):
        services.event_join(event_id=event.pk, user=make_user(f"deck{n}"))
    org.page.reload()
    assert len(standings_on(org)) == 9

    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    sweep_events()   # the beat: the first round starts
    rnd = random.Random(36)
    for number in (1, 2, 3):
        event.refresh_from_db()
        current = Round.objects.get(event=event, number=number)
        tables = list(current.tables.select_related("match"))
        assert len(tables) == 3 and all(t.match.seats.count() == 3 for t in tables)
        seated = [p.entry.user_id for t in tables for p in t.pairings.select_related("entry")]
        assert len(seated) == len(set(seated)) == 9   # everyone seated once a round, no byes

        bo.page.goto(event_url)
        bo.page.wait_for_selector(f"h2:has-text('Round {number}')")
        assert bo.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert bo.page.locator(f"section:has(h2:has-text('Round {number}')) a:has-text('Table')").count() == 3
        assert standings_on(bo) == standings_of(event)
        bo.shot(f"round-{number}")

        play_round_to_its_close(current, rnd)
        shown = standings_shown_after(org, event_url, event, number)
        # Each table of three gives 2 + 1 + 0 points (players tied share theirs): 9 a round.
        assert sum(score for _, _, score in shown) == pytest.approx(9 * number)

    event.refresh_from_db()
    assert event.status == Event.FINISHED
    ann.page.goto(event_url)
    ann.page.wait_for_selector("h2:has-text('Round 3')")
    assert standings_on(ann) == standings_of(event)
    assert "Enter the event" not in ann.page.content()
    ann.shot("finished")
    assert not org.errors and not ann.errors and not bo.errors
