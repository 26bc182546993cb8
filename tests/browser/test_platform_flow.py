"""Two people in two browsers: sign up, create and join a match, take turns seeing each other's
moves live, and watch the match deadline end it. Screenshots land in tests/artifacts/."""
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match

pytestmark = pytest.mark.browser


def test_two_players_play_live_and_the_deadline_ends_the_match(people):
    anna, bo = people("anna"), people("bo", viewport={"width": 375, "height": 740})
    anna.sign_up("anna")
    bo.sign_up("bo")

    anna.go("/matches/new/?game=race")
    anna.page.select_option("#id_game", "race")
    anna.page.fill("#id_title", "Race to the Cape")
    anna.page.fill("#opt_finish", "200")
    anna.page.fill("#id_game_deadline", (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    anna.shot("new-match")
    anna.page.click("text=Create match")
    anna.page.wait_for_selector("text=Join this match", state="detached")
    match_url = anna.page.url
    anna.shot("created")

    bo.go("/lobby/")
    bo.page.click("text=Race to the Cape")
    bo.page.click("text=Join this match")
    bo.page.wait_for_selector("text=Waiting for anna")
    bo.shot("joined")
    # Anna's page learns of the start over the socket, without a reload.
    anna.page.wait_for_selector("text=Your turn", timeout=20000)
    anna.shot("her-turn")

    anna.page.click("button:has-text('roll')")
    anna.page.wait_for_selector("button:has-text('advance')")
    bo.page.wait_for_selector("text=anna rolled", timeout=20000)  # live on Bo's phone
    anna.page.click("button:has-text('advance')")
    bo.page.wait_for_selector("text=Your turn", timeout=20000)
    bo.shot("his-turn")
    bo.page.click("button:has-text('roll')")
    anna.page.wait_for_selector("text=bo rolled", timeout=20000)
    bo.page.keyboard.press("Tab")  # keyboard users reach the actions too
    bo.page.click("button:has-text('stay')")
    anna.page.wait_for_selector("text=A wind pushed", timeout=20000)  # the system's move, live

    match = Match.objects.get(title="Race to the Cape")
    assert match.version >= 5 and match.status == Match.RUNNING
    # The agreed end arrives: the sweep in the server ends the match and both pages show it.
    Match.objects.filter(pk=match.pk).update(game_deadline=timezone.now() + timedelta(seconds=2),
                                             next_due_at=timezone.now() + timedelta(seconds=2))
    for person in (anna, bo):
        person.page.wait_for_selector("text=Final standings", timeout=30000)
        person.shot("finished")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and "deadline" in match.finish_reason
    assert re.search(r"/matches/\d+/", match_url)
    anna.page.reload()
    anna.page.click("text=verify")
    anna.page.wait_for_selector("text=reproduce the final state")
    anna.shot("verified")
    assert anna.errors == [] and bo.errors == []
    width = bo.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375 + 1, "no sideways scrolling on a phone"
