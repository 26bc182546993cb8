"""Every Pirater variant in the browser: created through the new-match page with bots in the
other seats, a turn played by clicking, then (the player gone absent, a bot covering) played on
to its end (a winner, or the round limit), which the page shows live with the standings."""
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from games.models import Match
from tests.browser.conftest import LIVE_WAIT_MS
from tests.conftest import make_user

pytestmark = pytest.mark.browser

VARIANTS = [("curse_island", 2), ("hurricane", 2), ("double_board", 5), ("shipwreck", 3), ("powder_ship", 2),
            ("one_two", 2), ("opposing_realms", 2), ("headwind_realm", 2), ("flotilla", 2)]


@pytest.mark.parametrize("variant,seats", VARIANTS, ids=[v for v, _ in VARIANTS])
def test_each_variant_is_created_played_and_won_in_the_browser(people, variant, seats):
    make_user("anna")
    anna = people(f"variant-{variant}")
    anna.log_in("anna")

    anna.go("/matches/new/?game=pirater")
    anna.page.fill("#id_title", f"Pirater with {variant}")
    anna.page.fill("#id_seats", str(seats))
    anna.page.fill("#id_bot_seats", str(seats - 1))
    # Wrecks can wall the last ships in for good: the agreed round limit ends such a game too.
    anna.page.fill("#id_round_limit", "40")
    anna.page.check("#id_bots_cover_absence")
    anna.page.check(f"input[name=opt_{variant}]")
    anna.page.click("text=Create match")
    anna.page.wait_for_selector("#match-live .pt-pieces")
    match = Match.objects.get(title=f"Pirater with {variant}")
    assert match.status == Match.RUNNING and match.options[variant] is True

    # Edition 2 (P5): ports are chosen in roll order first; bots choose at once, anna by clicking.
    # A socket update may swap the form away under a click: choose again while it is offered.
    ports = anna.page.locator("fieldset:has(legend:has-text('Choose your home port')) button")
    roll = anna.page.locator("button:has-text('Roll the dice')")
    won = anna.page.locator(".pt-winner")
    deadline = time.monotonic() + 30
    while not roll.count() and not won.count() and time.monotonic() < deadline:
        shown = anna.page.get_attribute("#match-live", "data-version")
        if ports.count():
            try:
                ports.first.click(timeout=2000)
            except PlaywrightError:
                pass  # swapped away meanwhile: look again
        # The next version (her choice or a bot's), or the roll or the winner: then look again.
        anna.page.wait_for_function(
            "v => document.querySelector('#match-live')?.dataset.version !== v"
            " || document.querySelector('.pt-winner')"
            " || [...document.querySelectorAll('button')].some(b => b.textContent.includes('Roll the dice'))",
            arg=shown, timeout=LIVE_WAIT_MS)
    # Bots move at once; when it is anna's turn she rolls and sails by clicking. In Flotilla a
    # bot that rolls first may capture her whole fleet on its home anchorage before she ever
    # rolls (P15, P19; see the test below): the page then shows the winner, which is the end.
    anna.page.wait_for_selector("button:has-text('Roll the dice'), .pt-winner", timeout=LIVE_WAIT_MS)
    if won.count() and not roll.count():
        match.refresh_from_db()
        # (Seen in Flotilla; on a loaded machine the bots may also finish a short match first.)
        assert match.status == Match.FINISHED, (variant, match.status)
        assert match.standings[0]["rank"] == 1 and anna.errors == []
        anna.shot("won at once")
        return
    before = int(anna.page.get_attribute("#match-live", "data-version"))
    anna.page.click("button:has-text('Roll the dice')")
    # The roll's answer swapped in (the port choices had already raised the version).
    anna.wait_for_version(before + 1)
    moves = anna.page.locator(".pt-moves button, form button[name=action]:not(:has-text('Roll'))")
    if moves.count():
        moves.first.click()
        # Her move's answer, before she is marked away: a move that landed after that would say
        # she is back (as a player's own move does), and the match would wait a day for her
        # next turn (seen once on a busy CI machine: the page stood still for three minutes).
        anna.wait_for_version(before + 2)
    anna.shot("played")

    # She leaves; the match lets a bot cover for her, and the game runs on to its winner.
    seat = match.seats.get(user__username="anna")
    seat.is_absent = True
    seat.save(update_fields=["is_absent"])
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1),
                                             next_due_at=timezone.now() - timedelta(seconds=1))
    # Up to 40 rounds of bot moves, each a committed action the page is sent: ~350 versions when
    # wrecks wall the ships in, which a busy CI machine took over three minutes to show. So the
    # wait lasts while the match moves on, however long that takes, and fails once it stops.
    anna.wait_while_playing(".pt-winner", match)
    anna.shot("won")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.standings[0]["rank"] == 1
    assert anna.errors == []


@pytest.mark.rule("P28")
@pytest.mark.rule("P19")
def test_a_flotilla_can_be_captured_whole_before_its_owner_first_rolls():
    """Why the variant's browser run may end before anna's first roll: the three ships wait
    stacked on the home anchorage (P28), and a first roller whose dice reach it exactly takes
    the whole fleet, the last of her ships, and wins (P15, P19)."""
    from games.engines import get_engine

    engine = get_engine("pirater")
    state = engine.new_game(2, "3a6fc6215ad1de5b", {"flotilla": True})
    assert engine.to_act(state) == [1] and state["phase"] == "ports"
    state, _ = engine.apply(state, 1, {"type": "choose_port", "port": 0})
    state, _ = engine.apply(state, 0, {"type": "choose_port", "port": 1})
    rolled_by = []
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = engine.timeout_action(state, seat)
        if action["type"] == "roll":
            rolled_by.append(seat)
        state, events = engine.apply(state, seat, action)
    assert rolled_by == [1]
    assert engine.standings(state)[0]["seat"] == 1 and "win" in [e["type"] for e in events]
