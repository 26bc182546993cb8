"""API tokens (issue 19.8): a new key is shown in the page, never in a cookie, and every token ends
with a password change, a reset or a password set by staff."""
from django.urls import reverse

from tests.conftest import client_for


def test_a_new_tokens_key_is_shown_in_the_page_not_in_a_cookie(player):
    client = client_for(player)
    response = client.post(reverse("token_create"), {"name": "my bot"})
    page = response.content.decode()
    assert response.status_code == 201 and "tw_" in page
    assert "no-store" in response["Cache-Control"]
    assert all("tw_" not in morsel.value for morsel in response.cookies.values())
    assert "tw_" not in client.get(reverse("profile")).content.decode()  # once only


def test_tokens_end_with_a_password_change(player):
    from accounts.models import ApiToken

    key = ApiToken.issue(player, "bot")[1]
    api = {"HTTP_AUTHORIZATION": f"Token {key}"}
    from django.test import Client

    assert Client().get("/api/me", **api).status_code == 200
    response = client_for(player).post(reverse("password_change"), {
        "old_password": "pw-annaanna", "new_password1": "a-new-sail-2026", "new_password2": "a-new-sail-2026"},
        follow=True)
    assert "revoked" in response.content.decode()
    assert not ApiToken.objects.filter(user=player).exists()
    assert Client().get("/api/me", **api).status_code in (401, 403)


def test_tokens_end_with_a_password_reset(player):
    from django.contrib.auth.tokens import default_token_generator
    from django.test import Client
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from accounts.models import ApiToken

    ApiToken.issue(player, "bot")
    client = Client()
    url = reverse("password_reset_confirm", args=[urlsafe_base64_encode(force_bytes(player.pk)),
                                                  default_token_generator.make_token(player)])
    form_url = client.get(url)["Location"]
    response = client.post(form_url, {"new_password1": "a-new-sail-2026", "new_password2": "a-new-sail-2026"})
    assert response.status_code == 302
    assert not ApiToken.objects.filter(user=player).exists()


def test_tokens_end_when_staff_set_a_password(player, staff):
    from accounts.models import ApiToken

    ApiToken.issue(player, "bot")
    response = client_for(staff).post(f"/admin/auth/user/{player.pk}/password/", {
        "password1": "a-new-sail-2026", "password2": "a-new-sail-2026", "usable_password": "true"})
    assert response.status_code == 302
    assert not ApiToken.objects.filter(user=player).exists()
