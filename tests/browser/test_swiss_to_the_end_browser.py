"""A Swiss event of nine players at three-seat tables, run to its end (issue 36's "done when"):
three real accounts in Chromium (one on a phone) create and enter it on its pages, six more
enter through the services; every round's matches are played by random legal moves through the
platform's services and the rest ended at the round deadline, moved forward as the beat would
find it. At every step the event page's standings are the services' standings, every table is
linked, and the phone has no sideways scroll."""
import importlib
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import play
from games.engines import get_engine
from games.models import Match
from leagues import services
from leagues.models import Event, Round
from leagues.tasks import sweep_events
from tests.conftest import make_user

pytestmark = pytest.mark.browser

MOVES_PER_TABLE = 12


def _play_a_little(match_id, rnd):
    """Random legal moves by whoever is to move, as bots would play them, through play.action_apply."""
    bots = importlib.import_module("games.engines.pirater.bots")
    engine = get_engine("pirater")
    for _ in range(MOVES_PER_TABLE):
        match = Match.objects.get(pk=match_id)
        while match.needs_system:
            play.system_action_apply(match_id=match.pk)
            match = Match.objects.get(pk=match_id)
        if match.status != Match.RUNNING:
            return
        seat = rnd.choice(engine.to_act(match.state))
        user = match.seats.get(number=seat).user
        play.action_apply(match_id=match.pk, user=user, action=bots.random_action(match.state, seat, rnd),
                          expected_version=match.version)


def _standings_on(person):
    rows = person.page.eval_on_selector_all(
        "table.standings tbody tr", "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
    return [(int(r[0]), r[1], float(r[2])) for r in rows]


def _standings_of(event):
    return [(r["rank"], r["user"].username, float(r["score"])) for r in services.standings(event)]


def test_a_swiss_event_of_nine_at_tables_of_three_runs_to_its_end(people):
    org, ann = people("swiss-org"), people("swiss-ann")
    bo = people("swiss-bo", viewport={"width": 390, "height": 844})
    for person in (org, ann, bo):
        person.sign_up(person.name.split("-")[1])

    org.go("/events/")
    org.page.fill("#id_name", "Nine Harbours")
    org.page.select_option("#id_game", "pirater")
    org.page.fill("#id_seats", "3")
    org.page.fill("#id_rounds", "3")
    org.page.fill("#id_starts_at", (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"))
    org.page.click("text=Create the event")
    org.page.wait_for_selector("h1:has-text('Nine Harbours')")
    event_url = org.page.url
    for person in (org, ann, bo):
        person.page.goto(event_url)
        person.page.click("text=Enter the event")
        person.page.wait_for_selector("text=Leave the event")
    event = Event.objects.get(name="Nine Harbours")
    for n in range(6):
        services.event_join(event_id=event.pk, user=make_user(f"deck{n}"))
    org.page.reload()
    assert len(_standings_on(org)) == 9

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
        assert _standings_on(bo) == _standings_of(event)
        bo.shot(f"round-{number}")

        for table in tables:
            _play_a_little(table.match_id, rnd)
        # The round's deadline, as the beat finds it once it has passed: unfinished matches end
        # by the game's own ranking, the round closes and the next is paired.
        Round.objects.filter(pk=current.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        sweep_events()
        current.refresh_from_db()
        assert current.status == Round.CLOSED
        assert all(t.match.is_over for t in current.tables.select_related("match"))

        event.refresh_from_db()
        org.page.goto(event_url)
        org.page.wait_for_selector(f"h2:has-text('Round {number}')")
        assert _standings_on(org) == _standings_of(event)
        # Each table of three gives 2 + 1 + 0 points (players tied share theirs): 9 a round.
        assert sum(score for _, _, score in _standings_on(org)) == pytest.approx(9 * number)

    event.refresh_from_db()
    assert event.status == Event.FINISHED
    ann.page.goto(event_url)
    ann.page.wait_for_selector("h2:has-text('Round 3')")
    assert _standings_on(ann) == _standings_of(event)
    assert "Enter the event" not in ann.page.content()
    ann.shot("finished")
    assert not org.errors and not ann.errors and not bo.errors
