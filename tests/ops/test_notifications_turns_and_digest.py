"""Issue 24, platform: a "your turn" leaves the unread count once the turn is played (or the match
ends), and a new player gets a daily digest by default instead of a mail for each event: the
digest goes out from the notification sweep, the periodic job beat queues every minute."""
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Profile
from notifications import tasks
from notifications.models import Notification
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _unread(user):
    return Notification.objects.filter(user=user, read_at__isnull=True)


def test_a_turn_played_is_no_longer_unread_and_the_new_one_is(race_match, player, opponent, play):
    play(race_match, (player, "roll"), (player, "stay"))
    assert [n.kind for n in _unread(opponent)] == [Notification.TURN]
    play(race_match, (opponent, "roll"), (opponent, "stay"))  # bo plays the turn he was told of
    assert not _unread(opponent).exists()
    assert 'aria-label="1 unread"' not in client_for(opponent).get("/").content.decode()
    assert [n.kind for n in _unread(player)] == [Notification.TURN]  # anna's new turn stays unread
    play(race_match, (player, "roll"), (player, "stay"))
    assert not _unread(player).exists() and _unread(opponent).count() == 1
    assert Notification.objects.filter(user=opponent, kind=Notification.TURN).count() == 2  # kept, read


def test_the_end_of_a_match_reads_its_turns(race_match, player, opponent, play):
    from games import play as games_play

    play(race_match, (player, "roll"), (player, "stay"))
    games_play.match_finish(match_id=race_match.pk, reason="test")
    from notifications import listeners

    listeners.match_finished(match_id=race_match.pk)
    assert not _unread(opponent).filter(kind=Notification.TURN).exists()


def test_a_new_player_gets_a_daily_digest_by_default_sent_by_the_sweep(race_match, player, opponent, play, settings):
    assert Profile._meta.get_field("notify_email").default == Profile.NOTIFY_DIGEST
    assert {p.notify_email for p in Profile.objects.filter(user__in=[player, opponent])} == {Profile.NOTIFY_DIGEST}
    for _ in range(5):  # ten turns told, none mailed at once
        play(race_match, (player, "roll"), (player, "stay"), (opponent, "roll"), (opponent, "stay"))
    assert mail.outbox == []
    settings.DIGEST_HOUR = 0  # the sweep runs every minute; the digest is due once a day
    assert tasks.sweep_notifications.apply().get()["digests"] == 1  # anna's: her turn, still unread
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["anna@example.com"]
    assert "It is your turn" in mail.outbox[0].body
    play(race_match, (player, "roll"), (player, "stay"))
    assert tasks.sweep_notifications.apply().get()["digests"] == 1  # bo's
    assert tasks.sweep_notifications.apply().get()["digests"] == 0  # and no more today
    play(race_match, (opponent, "roll"), (opponent, "stay"))
    assert tasks.sweep_notifications.apply().get()["digests"] == 0
    Profile.objects.update(last_digest_at=timezone.now() - timedelta(hours=21))
    assert tasks.sweep_notifications.apply().get()["digests"] == 1  # tomorrow's
