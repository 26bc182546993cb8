"""A Fuldrigger campaign in two browsers: created and joined through the pages, turns taken
live, the chance card of each round drawn by the background job and seen by both, and the
campaign ended by its agreed deadline with the fortune ranking."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engines import get_engine
from games.models import ActionLog, Match

pytestmark = pytest.mark.browser


def _plain_opening(seed: str):
    """The order in which the two seats of a game from this seed choose their home cities
    (F7/F8: the first to choose begins), if its two opening cards leave both players their turns
    (a card may cost a turn or sink a ship): the flow below clicks through those turns. Each seat
    takes the first city offered, as the test clicks the first button."""
    engine = get_engine("fuldrigger")
    state = engine.new_game(2, seed, engine.check_options({}, 2))
    choosers = []
    while state["phase"] == "homes":
        seat = engine.to_act(state)[0]
        choosers.append(seat)
        state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    first, second = choosers
    draws = 0
    for seat, action in [(None, None), (first, {"type": "roll"}), (first, {"type": "end_turn"}),
                         (second, {"type": "roll"}), (second, {"type": "end_turn"}), (None, None)]:
        if seat is None:
            if engine.system_action(state) is None:
                return None
            state, _ = engine.apply(state, None, engine.system_action(state))
            draws += 1
        elif engine.to_act(state) != [seat]:
            return None
        else:
            state, _ = engine.apply(state, seat, action)
    return choosers if draws == 2 and engine.to_act(state) == [first] and state["round"] == 2 else None


@pytest.fixture
def plain_seed(monkeypatch):
    """The server (forked after this) deals a seed whose opening the test can click through;
    with it, the order the seats choose their homes in."""
    seed, choosers = next((f"campaign-{n:04d}", _plain_opening(f"campaign-{n:04d}")) for n in range(1000)
                          if _plain_opening(f"campaign-{n:04d}"))
    monkeypatch.setattr("games.play.lobby.secrets.token_hex", lambda n=32: seed)
    return seed, choosers


def test_a_campaign_from_lobby_to_deadline(plain_seed, people):
    plain_seed, choosers = plain_seed
    anna, bo = people("campaign-anna"), people("campaign-bo", viewport={"width": 390, "height": 844})
    anna.sign_up("anna")
    bo.sign_up("bo")

    anna.go("/matches/new/?game=fuldrigger")
    anna.page.fill("#id_title", "The Spice Race")
    anna.page.fill("#id_seats", "2")
    anna.page.fill("#id_game_deadline", (timezone.localtime() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M"))
    anna.page.click("text=Create match")
    anna.page.wait_for_selector("text=Change colour")

    bo.go("/lobby/")
    bo.page.click("text=The Spice Race")
    bo.page.click("text=Join this match")
    # F7/F8: after the roll, each chooses a home city in roll order, live on both pages.
    seated = {0: ("anna", anna), 1: ("bo", bo)}
    for seat in choosers:
        chooser = seated[seat][1]
        chooser.page.wait_for_selector("button:has-text('Home city')", timeout=30000)
        chooser.page.locator("button:has-text('Home city')").first.click()
        chooser.page.wait_for_selector("button:has-text('Home city')", state="detached", timeout=30000)
    (first_name, first), (_, second) = seated[choosers[0]], seated[choosers[1]]
    # The banker's turn opens with a chance card, drawn by the job and shown to both, live.
    for person in (anna, bo):
        person.page.wait_for_selector(".fd-card", timeout=30000)
    first.shot("first-card")
    first.page.click("button:has-text('Roll the dice')")
    first.page.wait_for_selector("button:has-text('End the turn')")
    second.page.wait_for_selector(f"text={first_name} rolled", timeout=20000)
    first.page.click("button:has-text('End the turn')")
    second.page.wait_for_selector("button:has-text('Roll the dice')", timeout=20000)
    second.page.click("button:has-text('Roll the dice')")
    second.page.wait_for_selector("button:has-text('End the turn')")
    second.page.click("button:has-text('End the turn')")
    # Round 2: the next card is drawn by the job before the first player may act again.
    first.page.wait_for_selector("button:has-text('Roll the dice')", timeout=30000)
    match = Match.objects.get(title="The Spice Race")
    assert match.seed == plain_seed
    assert ActionLog.objects.filter(match=match, kind=ActionLog.SYSTEM).count() == 2
    assert match.state["round"] == 2
    bo.shot("round-two")

    Match.objects.filter(pk=match.pk).update(game_deadline=timezone.now() + timedelta(seconds=2),
                                             next_due_at=timezone.now() + timedelta(seconds=2))
    for person in (anna, bo):
        person.page.wait_for_selector("text=Final ranking", timeout=30000)
        person.shot("final")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and "deadline" in match.finish_reason
    assert [row["score"] for row in match.standings] == sorted((row["score"] for row in match.standings), reverse=True)
    assert anna.errors == [] and bo.errors == []
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= 391
