"""Never miss a turn: the inbox, emails (each event or a daily digest), signed webhooks with
retries against a local receiver, and reminders before deadlines."""
import hashlib
import hmac
import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games import play as games_play
from games.models import Match
from notifications import listeners
from notifications import services as notify_services
from notifications.models import Notification, WebhookDelivery
from tests.conftest import client_for


def test_turn_passing_notifies_the_next_player_on_site_and_by_email(race_match, player, opponent, play):
    Profile.objects.update(notify_email=Profile.NOTIFY_EACH)  # a digest is the default (issue 24)
    play(race_match, (player, "roll"), (player, "stay"))
    note = Notification.objects.get(user=opponent)
    assert note.kind == Notification.TURN and str(race_match) in note.text
    assert [m.to for m in mail.outbox] == [["bo@example.com"]]
    page = client_for(opponent).get(reverse("inbox")).content.decode()
    assert "It is your turn in" in page
    assert 'aria-label="1 unread"' in client_for(opponent).get("/").content.decode()
    client_for(opponent).post(reverse("inbox_read"))
    assert Notification.objects.get(user=opponent).read_at is not None


def test_a_chance_card_goes_to_the_log_not_the_inbox_and_an_offer_still_does(
        player, opponent, django_capture_on_commit_callbacks):
    """Issue 33: every Fuldrigger chance card was an unread item for every player. A card needs
    nothing from its reader: it is in the match's log; an offer, which waits for an answer, is
    still told to the player it is made to, and so is the turn."""
    from games.engines import get_engine

    engine = get_engine("fuldrigger")
    match = games_play.match_create(creator=player, game="fuldrigger", seats=2, options={})
    games_play.match_join(match_id=match.pk, user=opponent)
    users = {s.number: s.user for s in Match.objects.get(pk=match.pk).seats.all()}
    match.refresh_from_db()
    while match.state["phase"] == "homes":
        seat = engine.to_act(match.state)[0]
        with django_capture_on_commit_callbacks(execute=True):
            games_play.action_apply(match_id=match.pk, user=users[seat],
                                  action=engine.legal_actions(match.state, seat)[0])
        match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        games_play.system_action_apply(match_id=match.pk)
    match.refresh_from_db()
    assert any(e["type"] == "card" for row in match.log.all() for e in row.events)
    assert not Notification.objects.filter(kind=Notification.CARD).exists()
    seat = engine.to_act(match.state)[0]
    with django_capture_on_commit_callbacks(execute=True):
        games_play.action_apply(match_id=match.pk, user=users[seat],
                              action={"type": "offer", "to": 1 - seat, "give": {"ducats": 10}, "take": {}})
    assert Notification.objects.filter(kind=Notification.OFFER, user=users[1 - seat]).count() == 1
    assert not Notification.objects.filter(kind=Notification.CARD).exists()


def test_the_same_change_told_twice_notifies_once(race_match, player, opponent):
    games_play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    games_play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})
    race_match.refresh_from_db()
    for _ in range(2):
        listeners.match_changed(match_id=race_match.pk, first_seq=1, last_seq=2, turn_passed_to=1)
    assert Notification.objects.filter(user=opponent).count() == 1


def test_digest_players_get_one_email_a_day_and_none_players_none(race_match, player, opponent, play):
    Profile.objects.filter(user=opponent).update(notify_email=Profile.NOTIFY_DIGEST, time_zone="UTC")
    Profile.objects.filter(user=player).update(notify_email=Profile.NOTIFY_NONE)
    # bo's first turn, played, is read (issue 24); his second waits for the digest
    play(race_match, (player, "roll"), (player, "stay"), (opponent, "roll"), (opponent, "stay"),
         (player, "roll"), (player, "stay"))
    assert mail.outbox == []
    assert Notification.objects.filter(user=player).exists()  # still on the site
    morning = timezone.now().replace(hour=8, minute=0)
    assert notify_services.send_digests(now=morning) == 1
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bo@example.com"]
    assert "It is your turn" in mail.outbox[0].body
    assert notify_services.send_digests(now=morning + timedelta(hours=1)) == 0


class Receiver(BaseHTTPRequestHandler):
    """A local webhook receiver that fails its first request, then accepts."""

    received: list = []
    failures_left = 1

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Receiver.received.append((self.headers["X-Tradewinds-Signature"], body))
        if Receiver.failures_left:
            Receiver.failures_left -= 1
            self.send_response(500)
        else:
            self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_webhooks_are_signed_and_retried_until_taken(race_match, player, opponent, play, settings,
                                                     django_capture_on_commit_callbacks):
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Receiver.received, Receiver.failures_left = [], 1
    # A local receiver is a private address: the operator allows it; delivered right here.
    settings.WEBHOOK_ALLOWED_HOSTS, settings.WEBHOOK_THREADS = ["127.0.0.1"], 0
    try:
        profile = Profile.objects.get(user=opponent)
        profile.webhook_url = f"http://127.0.0.1:{server.server_port}/hook"
        profile.save()
        play(race_match, (player, "roll"), (player, "stay"))
        delivery = WebhookDelivery.objects.get()
        assert delivery.delivered_at is None and delivery.attempts == 1 and "500" in delivery.last_error
        with django_capture_on_commit_callbacks(execute=True):
            assert notify_services.retry_webhooks(now=delivery.next_try_at + timedelta(seconds=1)) == 1
        delivery.refresh_from_db()
        assert delivery.delivered_at is not None and delivery.attempts == 2
    finally:
        server.shutdown()
    signature, body = Receiver.received[-1]
    expected = "sha256=" + hmac.new(profile.webhook_secret.encode(), body, hashlib.sha256).hexdigest()
    assert signature == expected
    assert json.loads(body)["kind"] == "turn"


def test_reminders_at_24_4_and_1_hours_once_each(race_match, player):
    Match.objects.filter(pk=race_match.pk).update(turn_deadline=timezone.now() + timedelta(hours=30))
    now = timezone.now()
    assert listeners.send_reminders(now=now) == 0
    assert listeners.send_reminders(now=now + timedelta(hours=7)) == 1  # 23 h left
    assert listeners.send_reminders(now=now + timedelta(hours=8)) == 0
    assert listeners.send_reminders(now=now + timedelta(hours=26, minutes=30)) == 1  # 3.5 h left
    assert listeners.send_reminders(now=now + timedelta(hours=29, minutes=30)) == 1  # 30 min left
    texts = list(Notification.objects.filter(user=player, kind=Notification.REMINDER).values_list("text", flat=True))
    assert len(texts) == 3 and "About 23 hours left" in texts[-1]


def test_a_late_start_sends_one_reminder_not_three(race_match, player):
    # The turn began two days ago; the reminder job first looks 30 minutes before its end.
    Match.objects.filter(pk=race_match.pk).update(turn_started_at=timezone.now() - timedelta(hours=48),
                                                  turn_deadline=timezone.now() + timedelta(minutes=30))
    assert listeners.send_reminders() == 1
    assert listeners.send_reminders() == 0


@pytest.mark.parametrize("turn_hours, expected", [(1, []), (4, [1]), (24, [4, 1]), (30, [4, 1]), (36, [24, 4, 1])])
def test_a_reminder_comes_only_when_it_says_something_new(race_match, player, turn_hours, expected):
    """With 1-hour turns "about 1 hour left" at the start of every turn is noise: a threshold
    the turn began inside of (or barely above) is skipped."""
    start = timezone.now()
    Match.objects.filter(pk=race_match.pk).update(turn_started_at=start,
                                                  turn_deadline=start + timedelta(hours=turn_hours))
    reminded = []
    for minutes in range(0, turn_hours * 60, 10):
        if listeners.send_reminders(now=start + timedelta(minutes=minutes)):
            reminded.append(turn_hours - minutes / 60)
    assert [round(left + 0.49) for left in reminded] == expected
    assert Notification.objects.filter(user=player, kind=Notification.REMINDER).count() == len(expected)


def test_match_end_tells_every_player_their_place(race_match, player, opponent, staff,
                                                 django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        games_play.match_finish(match_id=race_match.pk, reason="ended by an admin")
    texts = set(Notification.objects.filter(kind=Notification.FINISHED).values_list("user__username", "text"))
    assert {u for u, _ in texts} == {"anna", "bo"}
    assert all("you placed" in t for _, t in texts)


def test_reminder_hours_are_validated_on_the_profile(player):
    response = client_for(player).post(reverse("profile"), {"time_zone": "UTC", "notify_email": "each",
                                                            "reminder_hours": "24,abc"})
    assert response.status_code == 400 and "whole hours" in response.content.decode()


@pytest.mark.parametrize("junk", ["abc", "1 OR 1=1", "-1", "²"])
def test_a_read_of_a_notification_that_is_not_one_is_refused_and_reads_nothing(race_match, player, opponent, play,
                                                                                junk):
    """An id that is not a number marked every notification read (as "Mark all as read" does)."""
    play(race_match, (player, "roll"), (player, "stay"))
    response = client_for(opponent).post(reverse("inbox_read"), {"id": junk})
    assert response.status_code == 400 and "There is no such notification." in response.content.decode()
    assert Notification.objects.get(user=opponent).read_at is None


@pytest.mark.parametrize("target", ["/\\evil.example/", "//evil.example/", "https://evil.example/", "/\t/evil.example"])
def test_reading_a_notification_goes_back_only_to_a_page_of_this_site(race_match, player, opponent, play, target):
    play(race_match, (player, "roll"), (player, "stay"))
    note = Notification.objects.get(user=opponent)
    response = client_for(opponent).post(reverse("inbox_read"), {"id": str(note.pk), "next": target})
    assert response.status_code == 302 and response["Location"] == reverse("inbox")
    assert Notification.objects.get(user=opponent).read_at is not None
    back = client_for(opponent).post(reverse("inbox_read"), {"next": f"/matches/{race_match.pk}/"})
    assert back["Location"] == f"/matches/{race_match.pk}/"
