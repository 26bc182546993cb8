"""A league division's season of five players at two-seat tables, run to its end (issue 36's
"done when"): the organiser makes it on the events page choosing the format, three real
accounts in Chromium (one on a phone, by keyboard) and two more through the services enter;
each round's matches are played by random legal moves through the services and the rest ended
at the round's deadline, moved forward as the beat finds it. At every step the page's standings
are the services'; over the season everyone meets everyone once and sits out once (the
balanced schedule: a round robin), and the phone has no sideways scroll."""
import itertools
import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from leagues import services
from leagues.models import Event, Pairing, Round
from leagues.tasks import sweep_events
from tests.browser.events_support import (create_event, play_round_to_its_close, standings_of, standings_on,
                                          standings_shown_after)
from tests.conftest import make_user

pytestmark = pytest.mark.browser

ROUNDS = 5


def test_a_league_division_of_five_at_tables_of_two_plays_its_season_to_the_end(people):
    org, ann = people("league-org"), people("league-ann")
    bo = people("league-bo", viewport={"width": 390, "height": 844})
    for person in (org, ann, bo):
        person.sign_up(person.name.split("-")[1])

    event_url = create_event(org, "North Sea League", seats=2, rounds=ROUNDS, format="league")
    assert "League division" in org.page.content()
    for person in (org, ann):
        person.page.goto(event_url)
        person.page.click("text=Enter the event")
        person.page.wait_for_selector("text=Leave the event")
    bo.page.goto(event_url)
    bo.page.focus("button:has-text('Enter the event')")   # by keyboard, on a phone
    bo.page.keyboard.press("Enter")
    bo.page.wait_for_selector("text=Leave the event")
    event = Event.objects.get(name="North Sea League")
    assert event.format == Event.LEAGUE
    for n in range(2):
        services.event_join(event_id=event.pk, user=make_user(f"crew{n}"))

    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    sweep_events()   # the beat: the season's first round starts
    rnd = random.Random(3636)
    for number in range(1, ROUNDS + 1):
        current = Round.objects.get(event=event, number=number)
        tables = list(current.tables.select_related("match"))
        assert len(tables) == 2 and all(t.match.seats.count() == 2 for t in tables)
        assert current.pairings.filter(table__isnull=True).count() == 1   # one sits out
        bo.page.goto(event_url)
        bo.page.wait_for_selector(f"h2:has-text('Round {number}')")
        assert bo.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert bo.page.locator(f"section:has(h2:has-text('Round {number}')) a:has-text('Table')").count() == 2
        assert standings_on(bo) == standings_of(event)

        play_round_to_its_close(current, rnd)
        shown = standings_shown_after(org, event_url, event, number)
        # Each table of two gives 1 + 0 (a tie shares it) and the bye half a table's: 2.5 a round.
        assert sum(score for _, _, score in shown) == pytest.approx(2.5 * number)

    event.refresh_from_db()
    assert event.status == Event.FINISHED
    # The balanced schedule: every pair met once, everyone sat out once.
    met = Counter()
    for table_rows in itertools.groupby(Pairing.objects.filter(round__event=event, table__isnull=False)
                                        .order_by("table_id"), key=lambda p: p.table_id):
        entries = sorted(p.entry_id for p in table_rows[1])
        met.update(itertools.combinations(entries, 2))
    everyone = sorted(event.entries.values_list("pk", flat=True))
    assert {met[pair] for pair in itertools.combinations(everyone, 2)} == {1}
    assert set(Counter(Pairing.objects.filter(round__event=event, table__isnull=True)
                       .values_list("entry_id", flat=True)).values()) == {1}
    ann.page.goto(event_url)
    ann.page.wait_for_selector(f"h2:has-text('Round {ROUNDS}')")
    assert standings_on(ann) == standings_of(event)
    ann.shot("season-finished")
    bo.page.goto(event_url)
    bo.page.wait_for_selector(f"h2:has-text('Round {ROUNDS}')")
    bo.shot("season-finished")
    assert not org.errors and not ann.errors and not bo.errors
