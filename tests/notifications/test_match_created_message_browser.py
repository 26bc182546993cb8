"""Issue 24: "Match created … starts when every seat is taken" stayed above the board after the
match started live over the socket. It goes once the live board shows the match running."""
import pytest

pytestmark = pytest.mark.browser

CREATED = "Match created. It is listed in the lobby"


def test_the_match_created_message_goes_when_the_match_starts_live(people):
    anna, bo = people("anna-created"), people("bo-created", viewport={"width": 390, "height": 844})
    anna.sign_up("anna")
    bo.sign_up("bo")
    anna.go("/matches/new/?game=race")
    anna.page.select_option("#id_game", "race")
    anna.page.fill("#id_title", "Message at the start")
    anna.page.click("text=Create match")
    message = anna.page.locator(".messages li", has_text=CREATED)
    message.wait_for(state="visible")  # it applies while the match waits for players
    anna.shot("waiting-with-message")

    bo.go("/lobby/")
    bo.page.click("text=Message at the start")
    bo.page.click("text=Join this match")
    bo.page.wait_for_selector("text=Waiting for anna")
    # Anna's page learns of the start over the socket, without a reload: the message is gone.
    anna.page.wait_for_selector("text=Your turn", timeout=20000)
    message.wait_for(state="hidden", timeout=5000)
    assert anna.page.locator("#match-live .status-bar .status-running").is_visible()
    anna.shot("running-without-message")
