"""The site in the reader's language: the footer's chooser, a signed-in player's profile language
over the browser's, and notifications told in the language of the player they are for, not of
the player whose move caused them. The catalogues are not translated yet, so these tests watch
which language is active, not the words."""
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Profile
from games import play as games_play
from games.engines import get_engine
from games.models import Match
from notifications import listeners
from notifications import services as notify_services
from notifications.models import Notification
from tests.conftest import client_for


def page_language(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.content.decode()).group(1)


def chosen_option(response) -> str:
    """The language the footer's chooser shows as selected."""
    chooser = response.content.decode().split('class="language-chooser"', 1)[1].split("</form>", 1)[0]
    return re.search(r'<option value="([^"]+)"[^>]* selected>', chooser).group(1)


@pytest.fixture
def speaks(db):
    def set_language(user, code):
        # Mail for each event (the default is a daily digest): these tests hear each mail's language.
        Profile.objects.filter(user=user).update(language=code, notify_email=Profile.NOTIFY_EACH)

    return set_language




# --- The footer's chooser ------------------------------------------------------------------

def test_it_offers_every_language_in_its_own_name(client, db):
    for browser in ("en", "da"):
        response = client.get(reverse("leaderboards"), HTTP_ACCEPT_LANGUAGE=browser)
        chooser = response.content.decode().split('class="language-chooser"', 1)[1].split("</form>", 1)[0]
        options = re.findall(r'<option value="([^"]+)" lang="[^"]+"[^>]*>([^<]+)</option>', chooser)
        assert options == list(settings.LANGUAGES)  # "English" even on a Danish page, not "engelsk"
        assert 'name="language"' in chooser and "<button>" in chooser and 'name="csrfmiddlewaretoken"' in chooser
        assert page_language(response) == browser and chosen_option(response) == browser


def test_it_changes_the_language_of_an_anonymous_visitors_next_page(client, db):
    response = client.post(reverse("language"), {"language": "sv", "next": reverse("leaderboards")})
    assert response.status_code == 302 and response.url == reverse("leaderboards")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sv"
    # The choice is explicit; the browser's header is only a guess.
    page = client.get(reverse("leaderboards"), HTTP_ACCEPT_LANGUAGE="de")
    assert page_language(page) == "sv" and chosen_option(page) == "sv" and page["Content-Language"] == "sv"


def test_it_saves_a_signed_in_players_choice_to_their_profile(player):
    response = client_for(player).post(reverse("language"), {"language": "de", "next": reverse("inbox")})
    assert response.status_code == 302 and response.url == reverse("inbox")
    player.profile.refresh_from_db()
    assert player.profile.language == "de"
    # Another browser, without the cookie, asking for Swedish: the profile decides.
    page = client_for(player).get(reverse("inbox"), HTTP_ACCEPT_LANGUAGE="sv")
    assert page_language(page) == "de" and chosen_option(page) == "de"


def test_it_ignores_a_language_the_site_does_not_speak(client, player):
    client_for(player).post(reverse("language"), {"language": "xx", "next": "/"})
    player.profile.refresh_from_db()
    assert player.profile.language == ""
    client.post(reverse("language"), {"language": "xx", "next": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_it_only_takes_a_post(client, db):
    assert client.get(reverse("language"), {"language": "da"}).status_code == 405


# --- Which language wins -------------------------------------------------------------------

def test_the_profile_language_wins_over_the_browsers(client, player, speaks):
    assert page_language(client.get(reverse("leaderboards"), HTTP_ACCEPT_LANGUAGE="de")) == "de"
    speaks(player, "da")
    page = client_for(player).get(reverse("leaderboards"), HTTP_ACCEPT_LANGUAGE="de")
    assert page_language(page) == "da" and page["Content-Language"] == "da"


def test_a_profile_left_to_the_browser_follows_the_browser(player):
    page = client_for(player).get(reverse("leaderboards"), HTTP_ACCEPT_LANGUAGE="sv")
    assert page_language(page) == "sv"


# --- Notifications in the recipient's language ---------------------------------------------

@pytest.fixture
def heard(monkeypatch):
    """The language active whenever a notification's words are chosen or its email is sent."""
    said = {"words": [], "emails": []}
    real_send_mail, real_gettext, real_ngettext = (notify_services.send_mail, listeners._, listeners.ngettext)

    def send_mail(subject, body, sender, to, **kwargs):
        said["emails"].append((to, translation.get_language()))
        return real_send_mail(subject, body, sender, to, **kwargs)

    def gettext(message):
        said["words"].append(translation.get_language())
        return real_gettext(message)

    def ngettext(singular, plural, number):
        said["words"].append(translation.get_language())
        return real_ngettext(singular, plural, number)

    monkeypatch.setattr(notify_services, "send_mail", send_mail)
    monkeypatch.setattr(listeners, "_", gettext)
    monkeypatch.setattr(listeners, "ngettext", ngettext)
    return said


def test_a_danish_player_is_told_in_danish_while_a_german_player_moves(race_match, player, opponent, speaks,
                                                                       heard, play):
    speaks(player, "de")
    speaks(opponent, "da")
    with translation.override("de"):  # anna's request, in her language
        play(race_match, (player, "roll"), (player, "stay"))
        assert translation.get_language() == "de"
    assert Notification.objects.get(user=opponent).kind == Notification.TURN
    assert heard["words"] == ["da"]
    assert heard["emails"] == [(["bo@example.com"], "da")] and mail.outbox[0].to == ["bo@example.com"]


def test_a_player_who_left_the_language_to_the_browser_is_told_in_the_sites(race_match, player, opponent,
                                                                            speaks, heard, play):
    speaks(player, "sv")
    Profile.objects.filter(user=opponent).update(notify_email=Profile.NOTIFY_EACH)  # no language of his own
    with translation.override("sv"):
        play(race_match, (player, "roll"), (player, "stay"))
    assert heard["words"] == [settings.LANGUAGE_CODE] and heard["emails"][0][1] == settings.LANGUAGE_CODE


def test_the_end_and_the_reminders_are_told_to_each_player_in_their_language(
        race_match, player, opponent, speaks, heard, django_capture_on_commit_callbacks):
    speaks(player, "de")
    speaks(opponent, "sv")
    Match.objects.filter(pk=race_match.pk).update(turn_started_at=timezone.now() - timedelta(hours=2),
                                                  turn_deadline=timezone.now() + timedelta(minutes=30))
    # Mails go once their notification is committed (the test's transaction never commits: the
    # listeners' own commit callbacks are run here).
    with translation.override("da"):
        with django_capture_on_commit_callbacks(execute=True):
            assert listeners.send_reminders() == 1  # anna's turn
        assert heard["words"] == ["de"]
        games_play.match_finish(match_id=race_match.pk, reason="ended by an admin")
        with django_capture_on_commit_callbacks(execute=True):
            listeners.match_finished(match_id=race_match.pk)
    assert sorted(heard["words"][1:]) == ["de", "sv"]
    assert sorted(lang for to, lang in heard["emails"]) == ["de", "de", "sv"]


class Teller:
    """An engine that says which language it was asked to describe an event in."""

    def __init__(self, engine):
        self.engine, self.asked = engine, []

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def describe(self, event, names, lang="en"):
        self.asked.append(lang)
        return f"an event, said in {lang}"


def test_game_events_are_described_in_each_recipients_language(race_match, player, opponent, speaks,
                                                               monkeypatch):
    teller = Teller(get_engine("race"))
    monkeypatch.setattr(listeners, "get_engine", lambda name: teller)
    speaks(player, "da")
    speaks(opponent, "de")
    race_match.log.create(seq=99, kind="player", seat=0, action={"type": "offer"},
                          events=[{"type": "offer", "seat": 0, "to": 1}, {"type": "offer", "seat": 1, "to": 0}])
    with translation.override("sv"):
        listeners.match_changed(match_id=race_match.pk, first_seq=99, last_seq=99)
    assert sorted(teller.asked) == ["da", "de"]
    texts = dict(Notification.objects.filter(kind=Notification.OFFER).values_list("user__username", "text"))
    assert texts == {"anna": f"{race_match}: an event, said in da", "bo": f"{race_match}: an event, said in de"}


def test_the_digest_is_written_in_the_players_language(race_match, player, opponent, heard, play):
    Profile.objects.filter(user=opponent).update(notify_email=Profile.NOTIFY_DIGEST, language="da")
    play(race_match, (player, "roll"), (player, "stay"))
    with translation.override("de"):
        assert notify_services.send_digests(now=timezone.now().replace(hour=8, minute=0)) == 1
    assert heard["emails"] == [(["bo@example.com"], "da")]
    assert mail.outbox[0].subject == "[Tradewinds] 1 ting siden i går"
