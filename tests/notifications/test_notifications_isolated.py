"""One failing notification never stops the others (issue 19, item 3): a match title with a
newline once made every e-mail about it raise BadHeaderError, so the opponents were never told
and their webhooks never tried, and the minute's sweep skipped everybody's retries and digests."""
import threading
from http.server import HTTPServer

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Profile
from games.models import Match
from notifications import listeners
from notifications import services as notify_services
from notifications import tasks as notification_tasks
from notifications.models import Notification, WebhookDelivery
from tests.notifications.test_notifications import Receiver

HOSTILE = "Evil\r\nBcc: everyone@example.com\r\n\r\nHello"


@pytest.fixture
def receiver(settings):
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Receiver.received, Receiver.failures_left = [], 0
    settings.WEBHOOK_ALLOWED_HOSTS, settings.WEBHOOK_THREADS = ["127.0.0.1"], 0
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()
    server.server_close()


def test_a_hostile_title_leaves_every_notification_delivered(race_match, player, opponent, play, receiver):
    Match.objects.filter(pk=race_match.pk).update(title=HOSTILE)
    Profile.objects.filter(user__in=[player, opponent]).update(webhook_url=receiver, notify_email=Profile.NOTIFY_EACH)
    Profile.objects.filter(user=player).update(display_name="Anna\r\nX-Evil: 1")
    play(race_match, (player, "roll"), (player, "stay"), (opponent, "roll"), (opponent, "stay"))
    for user in (player, opponent):
        note = Notification.objects.get(user=user, kind=Notification.TURN)
        assert note.emailed_at is not None
        assert WebhookDelivery.objects.get(notification=note).delivered_at is not None
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.com", "bo@example.com"]
    for message in mail.outbox:
        assert "\r" not in message.subject and "\n" not in message.subject
        assert message.subject.startswith("[Tradewinds] It is your turn in Evil Bcc: everyone@example.com")
        assert message.bcc == [] and "X-Evil" not in message.message().as_string().split("\n\n")[0]
    assert len(Receiver.received) == 2


def test_one_failing_notification_is_logged_and_the_others_go(race_match, player, opponent, receiver,
                                                              monkeypatch, caplog, django_capture_on_commit_callbacks):
    Match.objects.filter(pk=race_match.pk).update(standings=[{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}])
    Profile.objects.filter(user__in=[player, opponent]).update(webhook_url=receiver, notify_email=Profile.NOTIFY_EACH)
    real_send = notify_services.send_mail

    def send_mail(subject, body, sender, to):
        if to == ["anna@example.com"]:
            raise ConnectionRefusedError("the mail server is away for anna")
        return real_send(subject, body, sender, to)

    monkeypatch.setattr(notify_services, "send_mail", send_mail)
    with django_capture_on_commit_callbacks(execute=True):
        listeners.match_finished(match_id=race_match.pk)
    anna_note = Notification.objects.get(user=player, kind=Notification.FINISHED)
    bo_note = Notification.objects.get(user=opponent, kind=Notification.FINISHED)
    assert anna_note.emailed_at is None  # left for her digest
    assert bo_note.emailed_at is not None and [m.to for m in mail.outbox] == [["bo@example.com"]]
    assert WebhookDelivery.objects.filter(delivered_at__isnull=False).count() == 2  # anna's webhook still went
    assert "could not email notification" in caplog.text


def test_the_sweep_goes_on_when_one_part_fails(race_match, player, opponent, play, monkeypatch, caplog, settings):
    settings.DIGEST_HOUR = 0  # any time of day is digest time
    Profile.objects.filter(user=opponent).update(notify_email=Profile.NOTIFY_DIGEST, time_zone="UTC")
    play(race_match, (player, "roll"), (player, "stay"))

    def broken(now=None):
        raise ValueError("a reminder that cannot be written")

    monkeypatch.setattr(listeners, "send_reminders", broken)
    result = notification_tasks.sweep_notifications.apply().get()
    assert result["reminders"] is None and result["digests"] == 1
    assert [m.to for m in mail.outbox] == [["bo@example.com"]] and "It is your turn" in mail.outbox[0].body
    assert "the notification sweep's reminders failed" in caplog.text


def test_a_digest_that_fails_leaves_the_others(race_match, player, opponent, play, monkeypatch):
    Profile.objects.filter(user__in=[player, opponent]).update(notify_email=Profile.NOTIFY_DIGEST, time_zone="UTC")
    play(race_match, (player, "roll"), (player, "stay"), (opponent, "roll"), (opponent, "stay"),
         (player, "roll"), (player, "stay"))  # bo's turn now; anna's played turns are read (issue 24)
    notify_services.notify(user=player, kind=Notification.REMINDER, key="reminder", text="About 1 hour left.")
    real_send = notify_services.send_mail

    def send_mail(subject, body, sender, to):
        if to == ["anna@example.com"]:
            raise OSError("the mail server refused anna")
        return real_send(subject, body, sender, to)

    monkeypatch.setattr(notify_services, "send_mail", send_mail)
    morning = timezone.now().replace(hour=8, minute=0)
    assert notify_services.send_digests(now=morning) == 1
    assert [m.to for m in mail.outbox] == [["bo@example.com"]]
    assert Notification.objects.filter(user=player, emailed_at__isnull=True).exists()  # not marked as sent
