"""The games platform in the reader's language: the page's words through gettext, the game's
words (the log, the match options) from the engine's phrase book in the same language, and the
live part on the socket in the viewer's language though it renders without a request.

The catalogues are not translated yet. Where a test must see that a text went through gettext it
uses `marked`: a stand-in catalogue that writes "[de]" before every text it is asked for while
German is active, so the test sees which texts are put into the reader's language, and in which."""
import json
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from accounts.models import Profile
from games.reads import panels, selectors
from games import play
from games.sockets.consumers import MatchConsumer
from games.engines import get_engine
from games.models import Match
from tests.conftest import client_for, refusal_status
from tests.pirater.pirater_pages_support import new_match

PIRATER = get_engine("pirater")


@pytest.fixture
def marked(monkeypatch):
    def mark(text):
        language = translation.get_language()
        return text if language in (None, "en") else f"[{language}]{text}"

    catalogue = translation._trans
    monkeypatch.setattr(catalogue, "gettext", mark)
    monkeypatch.setattr(catalogue, "pgettext", lambda context, text: mark(text))
    monkeypatch.setattr(catalogue, "ngettext", lambda one, many, n: mark(one if n == 1 else many))
    monkeypatch.setattr(catalogue, "npgettext", lambda context, one, many, n: mark(one if n == 1 else many))


def speaks(user, language):
    Profile.objects.filter(user=user).update(language=language)


def rolled(match):
    """Roll for the seat to act; the log row's events are what the page now tells."""
    user = match.seats.get(number=match.turn_seats[0]).user
    play.action_apply(match_id=match.pk, user=user, action={"type": "roll"})
    match.refresh_from_db()
    return match, match.log.order_by("-seq").first().events


def labels(body: str) -> list[str]:
    return re.findall(r">\s*([^<>]+?)</label>", body)


def differing(english: list[str], german: list[str]) -> list[tuple[str, str]]:
    pairs = [(e, g) for e, g in zip(english, german) if e != g]
    assert pairs, "the engine's German words are its English ones: nothing would be checked"
    return pairs


# --- The log: the engine's words in the reader's language -----------------------------------------

def test_a_reader_asking_for_german_gets_the_page_and_the_log_in_german(player, opponent, client):
    match, events = rolled(new_match(player, opponent))
    names = selectors.seat_names(match)
    response = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de")
    body = response.content.decode()
    assert response.status_code == 200 and response["Content-Language"] == "de"
    assert '<html lang="de">' in body
    english = [PIRATER.describe(e, names, lang="en") for e in events]
    german = [PIRATER.describe(e, names, lang="de") for e in events]
    for said_in_english, said_in_german in differing(english, german):
        assert escape(said_in_german) in body and escape(said_in_english) not in body


def test_the_platforms_own_sentences_go_through_gettext_and_the_games_through_the_engine(marked):
    names = ["Anna", "Bo"]
    roll = {"type": "first_player", "seat": 1}
    with translation.override("de"):
        assert selectors.describe(PIRATER, {"type": "bot_covers", "seat": 1}, names) == \
            "[de]A bot plays for Bo until they come back."
        assert selectors.describe(PIRATER, {"type": "admin_hand_seat", "seat": 0, "to": "carl"}, names) == \
            "[de]An admin handed seat 1 to carl."
        assert selectors.describe(PIRATER, {"type": "admin_pause"}, names) == "[de]An admin paused the match."
        assert selectors.describe(PIRATER, roll, names) == PIRATER.describe(roll, names, lang="de")
    assert PIRATER.describe(roll, names, lang="de") != PIRATER.describe(roll, names, lang="en")
    with translation.override("en"):
        assert selectors.describe(PIRATER, {"type": "bot_covers", "seat": 1}, names) == \
            "A bot plays for Bo until they come back."
        assert selectors.describe(PIRATER, roll, names) == PIRATER.describe(roll, names, lang="en")


def test_a_stored_finish_reason_is_told_in_the_readers_language_when_it_is_one_the_site_wrote(marked):
    def ended(reason):
        return selectors.describe(PIRATER, {"type": "match_finished", "reason": reason}, ["Anna", "Bo"])

    with translation.override("de"):
        assert ended("the match deadline passed") == "[de]The match ended: [de]the match deadline passed."
        assert ended("the round limit of 12 was reached") == \
            "[de]The match ended: [de]the round limit of 12 was reached."
        assert ended("ended by an admin (admiral)") == "[de]The match ended: [de]ended by an admin (admiral)."
        # A reason the site did not write (an older or foreign one) is shown as it was stored.
        assert ended("the fleet sank in a storm") == "[de]The match ended: the fleet sank in a storm."
    with translation.override("en"):
        assert ended("the round limit of 12 was reached") == "The match ended: the round limit of 12 was reached."
        assert Match(finish_reason="aborted by an admin").get_finish_reason_display() == "aborted by an admin"


# --- Creating a match: the engine's options in the reader's language --------------------------------

def test_the_match_form_offers_the_games_options_in_the_readers_language(player):
    response = client_for(player).get(reverse("match_new") + "?game=pirater", HTTP_ACCEPT_LANGUAGE="de")
    body = response.content.decode()
    assert response.status_code == 200 and response["Content-Language"] == "de"
    english = [o["label"] for o in PIRATER.options(lang="en")]
    german = [o["label"] for o in PIRATER.options(lang="de")]
    shown = labels(body)
    for label_in_english, label_in_german in differing(english, german):
        assert escape(label_in_german) in shown and escape(label_in_english) not in shown


def test_the_rules_page_lists_the_options_in_the_readers_language(client, db):
    body = client.get(reverse("rules", args=["pirater"]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    english = [o["label"] for o in PIRATER.options(lang="en")]
    german = [o["label"] for o in PIRATER.options(lang="de")]
    for label_in_english, label_in_german in differing(english, german):
        assert f"<strong>{escape(label_in_german)}</strong>" in body
        assert f"<strong>{escape(label_in_english)}</strong>" not in body


def test_the_match_forms_own_words_are_put_into_the_readers_language(player, marked):
    body = client_for(player).get(reverse("match_new") + "?game=pirater", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h1>[de]New match</h1>" in body
    assert "[de]Hours per turn" in labels(body) and "[de]From 1 hour to 14 days (336 hours)." in body
    assert "<legend>[de]Pirater options</legend>" in body


# --- A refusal reaches the player in their language --------------------------------------------------

def test_a_refused_move_is_told_in_the_language_of_the_player_who_tried_it(player, opponent, marked):
    match = new_match(player, opponent)
    waiting = opponent if match.turn_seats == [0] else player
    url = reverse("match_action", args=[match.pk])
    response = client_for(waiting).post(url, {"action": json.dumps({"type": "roll"})},
                                        HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de")
    assert refusal_status(response) == 400
    assert '<p class="error" role="alert">[de]It is not your turn.</p>' in response.content.decode()
    speaks(waiting, "sv")  # the profile's language wins over the browser's
    response = client_for(waiting).post(url, {"action": json.dumps({"type": "roll"})},
                                        HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de")
    assert '<p class="error" role="alert">[sv]It is not your turn.</p>' in response.content.decode()


def test_an_api_refusal_is_told_in_the_language_the_client_asks_for(client, db, marked):
    response = client.get("/api/matches", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 401
    assert response.json()["error"] == "[de]Send a valid API token: 'Authorization: Token <key>'."


# --- The live part: countdowns, colours, the socket -------------------------------------------------

def test_the_countdown_carries_its_words_in_the_readers_language(player, opponent, marked):
    match = new_match(player, opponent)
    body = client_for(player).get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    clock = re.search(r"<time [^>]*data-deadline=[^>]*>", body).group(0)
    assert 'data-hours="[de]{h} h {m} min"' in clock and 'data-up="[de]time is up"' in clock


def test_the_lobby_names_the_colours_in_the_readers_language(player, marked):
    match = play.match_create(creator=player, game="pirater", seats=3)
    body = client_for(player).get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<option value="blue">[de]blue</option>' in body
    assert "[de]Open" in body  # the match's status


def test_the_socket_renders_the_live_part_in_the_viewers_language(player, opponent):
    match, events = rolled(new_match(player, opponent))
    names = selectors.seat_names(match)
    english = [PIRATER.describe(e, names, lang="en") for e in events]
    german = [PIRATER.describe(e, names, lang="de") for e in events]
    swedish = [PIRATER.describe(e, names, lang="sv") for e in events]
    spectator = panels.render_live(match, AnonymousUser(), browser_language="de")
    for said_in_english, said_in_german in differing(english, german):
        assert escape(said_in_german) in spectator and escape(said_in_english) not in spectator
    speaks(opponent, "sv")  # the profile's language wins over the handshake's
    opponent.refresh_from_db()
    seated = panels.render_live(match, opponent, browser_language="de")
    for said_in_english, said_in_swedish in differing(english, swedish):
        assert escape(said_in_swedish) in seated and escape(said_in_english) not in seated


@pytest.mark.parametrize("headers, cookies, language", [
    ([(b"accept-language", b"de-DE,de;q=0.9,en;q=0.5")], {}, "de"),
    ([(b"accept-language", b"de-DE,de;q=0.9")], {"django_language": "sv"}, "sv"),  # the footer's choice
    ([], {}, "en"),
])
def test_the_socket_reads_the_language_from_its_handshake(headers, cookies, language):
    consumer = MatchConsumer()
    consumer.scope = {"headers": headers, "cookies": cookies}
    assert consumer._browser_language() == language


@pytest.mark.parametrize("lang", ["da", "de", "sv"])
def test_a_move_the_rules_refuse_is_explained_in_the_players_language(lang, player, opponent):
    """A page refusing a move shows the engine's own reason in the player's language, and the
    move changes nothing."""
    match = new_match(player, opponent)
    Profile.objects.filter(user=player).update(language=lang)
    version = Match.objects.get(pk=match.pk).version
    move = {"type": "move", "die": 3, "ship": 0, "direction": "n"}  # before the dice are rolled
    with pytest.raises(Exception) as english:
        PIRATER.apply(match.state, 0, move)
    response = client_for(player).post(reverse("match_action", args=[match.pk]),
                                       {"action": json.dumps(move), "version": version})
    assert response.status_code == 400
    page = response.content.decode()
    assert escape(english.value.in_language(lang)) in page and str(english.value) not in page
    assert Match.objects.get(pk=match.pk).version == version
