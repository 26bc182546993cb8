"""Sign up, log in with rate limiting, profile, password reset, tokens."""
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from accounts.models import ApiToken
from tests.conftest import client_for


def test_signup_creates_a_profile_and_logs_in(client, db):
    response = client.post(reverse("signup"), {"username": "dora", "email": "dora@example.com",
                                               "password1": "sail-the-seven-seas", "password2": "sail-the-seven-seas"})
    assert response.status_code == 302
    user = User.objects.get(username="dora")
    assert user.profile.time_zone == "UTC"
    assert client.get(reverse("home")).wsgi_request.user == user


def test_signup_errors_are_400(client, player):
    response = client.post(reverse("signup"), {"username": "anna", "email": "anna@example.com",
                                               "password1": "x", "password2": "y"})
    assert response.status_code == 400
    assert User.objects.filter(username="anna").count() == 1


def test_login_is_rate_limited(client, player, settings):
    settings.LOGIN_ATTEMPTS = 3
    for _ in range(3):
        assert client.post(reverse("login"), {"username": "anna", "password": "wrong"}).status_code == 400
    response = client.post(reverse("login"), {"username": "anna", "password": "pw-annaanna"})
    assert response.status_code == 429 and "Too many failed attempts" in response.content.decode()


def test_login_works_with_the_right_password(client, player):
    response = client.post(reverse("login"), {"username": "anna", "password": "pw-annaanna"})
    assert response.status_code == 302


def test_profile_saves_time_zone_and_shows_times_in_it(player):
    client = client_for(player)
    response = client.post(reverse("profile"), {"display_name": "Captain Anna", "time_zone": "Europe/Copenhagen",
                                                "language": "da", "notify_email": "digest", "notify_turn": "on"})
    assert response.status_code == 302
    player.profile.refresh_from_db()
    assert player.profile.time_zone == "Europe/Copenhagen" and player.profile.name == "Captain Anna"
    assert client.post(reverse("profile"), {"time_zone": "Mars/Olympus", "notify_email": "each"}).status_code == 400


def test_password_reset_sends_an_email(client, player):
    client.post(reverse("password_reset"), {"email": "anna@example.com"})
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body


def test_tokens_are_made_shown_once_and_deleted(player, opponent):
    client = client_for(player)
    response = client.post(reverse("token_create"), {"name": "my bot"}, follow=True)
    token = ApiToken.objects.get(user=player)
    assert "tw_" in response.content.decode() and token.name == "my bot"
    assert client_for(opponent).post(reverse("token_delete", args=[token.pk])).status_code == 404
    client.post(reverse("token_delete", args=[token.pk]))
    assert not ApiToken.objects.exists()
