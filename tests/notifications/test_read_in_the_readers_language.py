"""Issue 24: a notification is worded when it is read, in the reader's language then (the inbox,
the mails, the webhook), and names its match even when the match has no title."""
import json
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games import play as games_play
from games.models import ActionLog, Match
from notifications import listeners
from notifications import services as notify_services
from notifications.models import Notification
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _inbox(user) -> str:
    return client_for(user).get(reverse("inbox")).content.decode()


def test_a_turn_told_in_english_reads_in_german_once_the_player_switches(race_match, player, opponent, play):
    play(race_match, (player, "roll"), (player, "stay"))
    note = Notification.objects.get(user=opponent, kind=Notification.TURN)
    assert note.text == f"It is your turn in {race_match}."  # made while bo spoke English
    assert "It is your turn in" in _inbox(opponent)
    Profile.objects.filter(user=opponent).update(language="de")
    page = _inbox(opponent)
    assert f"Du bist in {race_match} am Zug." in page
    assert "It is your turn" not in page


def test_the_digest_goes_in_the_language_the_player_has_when_it_is_sent(race_match, player, opponent, play):
    Profile.objects.filter(user=opponent).update(notify_email=Profile.NOTIFY_DIGEST, time_zone="UTC")
    play(race_match, (player, "roll"), (player, "stay"))
    assert mail.outbox == []
    Profile.objects.filter(user=opponent).update(language="de")
    assert notify_services.send_digests(now=timezone.now().replace(hour=8, minute=0)) == 1
    body = mail.outbox[0].body
    assert f"Du bist in {race_match} am Zug." in body and "It is your turn" not in body
    assert "Seit deiner letzten Zusammenfassung:" in body


def test_each_mail_goes_in_the_players_language(race_match, player, opponent, play):
    Profile.objects.filter(user=opponent).update(notify_email=Profile.NOTIFY_EACH, language="de")
    play(race_match, (player, "roll"), (player, "stay"))
    assert [m.subject for m in mail.outbox] == [f"[Tradewinds] Du bist in {race_match} am Zug."]


def test_the_end_and_a_reminder_read_in_the_readers_language(race_match, player, opponent):
    Match.objects.filter(pk=race_match.pk).update(standings=[{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}],
                                                  turn_started_at=timezone.now() - timedelta(hours=48),
                                                  turn_deadline=timezone.now() + timedelta(minutes=30))
    listeners.match_finished(match_id=race_match.pk)
    assert listeners.send_reminders() == 1  # anna's turn, half an hour left
    assert "has ended: you placed 2 of 2." in _inbox(opponent)
    Profile.objects.filter(user__in=[player, opponent]).update(language="de")
    assert f"{race_match} ist beendet: Du hast Platz 2 von 2 belegt." in _inbox(opponent)
    anna_page = _inbox(player)
    assert f"{race_match} ist beendet: Du hast Platz 1 von 2 belegt." in anna_page
    assert f"Noch etwa 1 Stunde für deinen Zug in {race_match}." in anna_page
    assert "has ended" not in anna_page and "hour left" not in anna_page


def test_an_offer_is_worded_by_its_game_in_the_readers_language(player, opponent):
    match = games_play.match_create(creator=player, game="fuldrigger", seats=2)
    games_play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    seq = match.log.count() + 1
    ActionLog.objects.create(match=match, seq=seq, seat=0, kind=ActionLog.PLAYER, actor=player,
                             action={"type": "offer"}, events=[{"type": "offer", "seat": 0, "to": 1}])
    listeners.match_changed(match_id=match.pk, first_seq=seq, last_seq=seq)
    note = Notification.objects.get(user=opponent, kind=Notification.OFFER)
    assert note.text == f"{match}: Anna made an offer to Bo."
    Profile.objects.filter(user=opponent).update(language="de")
    assert f"{match}: Anna machte Bo ein Angebot." in _inbox(opponent)


def test_a_notification_made_before_the_words_were_kept_as_data_shows_its_text(player):
    Notification.objects.create(user=player, kind=Notification.TURN, key="old", text="Gammel tekst fra før.")
    Profile.objects.filter(user=player).update(language="de")
    assert "Gammel tekst fra før." in _inbox(player)


def test_the_webhook_carries_the_words_in_the_players_language_at_delivery(race_match, player, opponent,
                                                                         monkeypatch):
    sent = []

    def post(url, body, headers, timeout):
        sent.append(body)
        return True, ""

    monkeypatch.setattr(notify_services.webhooks, "post", post)
    Profile.objects.filter(user=opponent).update(webhook_url="https://hooks.example.com/tw")
    note = notify_services.notify(user=opponent, kind=Notification.TURN, key="t", match=race_match,
                                  text=f"It is your turn in {race_match}.", params={})
    Profile.objects.filter(user=opponent).update(language="sv")
    assert notify_services.deliver(note.deliveries.get())
    assert json.loads(sent[-1])["text"] == f"Det är din tur i {race_match}."


@pytest.mark.parametrize("title", ["", "   "])
def test_a_match_without_a_title_is_named_by_its_game_and_number(race_match, player, opponent, play, title):
    Match.objects.filter(pk=race_match.pk).update(title=title)
    race_match.refresh_from_db()
    play(race_match, (player, "roll"), (player, "stay"))
    expected = f"It is your turn in Race (test game) #{race_match.pk}."
    assert Notification.objects.get(user=opponent, kind=Notification.TURN).text == expected
    assert expected in _inbox(opponent)
