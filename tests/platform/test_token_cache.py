"""Issue 15: an API token's holder is kept in the cache, and whatever changes the answer takes
effect on the very next request: a token revoked however it goes, a user deactivated or deleted,
a profile changed. With the cache away, the database answers."""
import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts import models as accounts_models
from accounts.models import ApiToken, Profile
from games.web.api import token_user
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def me(client, key):
    response = client.get("/api/me", HTTP_AUTHORIZATION=f"Token {key}")
    return response.status_code, response.json()


def request_with(key):
    return RequestFactory().get("/api/me", HTTP_AUTHORIZATION=f"Token {key}")


@pytest.fixture
def key(player):
    return ApiToken.issue(player, "bot")[1]


@pytest.fixture
def warm(client, key):
    """The token has answered once, so its holder is kept."""
    assert me(client, key)[0] == 200
    return key


def test_a_token_used_again_authenticates_without_a_query(player, warm, django_assert_num_queries):
    request = request_with(warm)
    with django_assert_num_queries(0):
        user = token_user(request)
        # The profile comes attached, as select_related left it: naming and language cost nothing.
        assert (user.pk, user.username, user.profile.language, str(user.profile)) == (player.pk, "anna", "", "Anna")
        assert user.is_authenticated and user.profile.user is user


def test_a_user_without_a_profile_is_kept_too_and_asks_no_query_for_it(client, django_assert_num_queries):
    from django.contrib.auth import get_user_model

    loner = get_user_model().objects.create_user("loner")
    key = ApiToken.issue(loner)[1]
    assert me(client, key) == (200, {"username": "loner", "name": "loner", "language": "", "time_zone": "UTC"})
    with django_assert_num_queries(0):
        assert getattr(token_user(request_with(key)), "profile", None) is None


def test_no_secret_is_kept_in_the_cache(player, warm):
    kept = cache.get(accounts_models._holder_cache_key(ApiToken.hash(warm)))
    assert player.password not in repr(kept) and player.profile.webhook_secret not in repr(kept)
    user = token_user(request_with(warm))
    assert user.check_password("pw-" + "anna" * 2)  # read when asked for


def test_a_token_deleted_on_the_profile_page_is_refused_on_the_next_request(client, player, warm):
    token = ApiToken.objects.get(user=player)
    client_for(player).post(reverse("token_delete", args=[token.pk]))
    assert me(client, warm)[0] == 401


def test_tokens_revoked_with_a_new_password_are_refused_on_the_next_request(client, player, warm):
    """The password change deletes a queryset: each token still sends its post_delete."""
    other = ApiToken.issue(player, "second")[1]
    assert me(client, other)[0] == 200
    new = "a new long sail 42"
    response = client_for(player).post(reverse("password_change"), {
        "old_password": "pw-" + "anna" * 2, "new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert me(client, warm)[0] == 401 and me(client, other)[0] == 401


def test_a_deleted_users_tokens_are_refused_on_the_next_request(client, player, warm):
    player.delete()  # the tokens go by cascade
    assert me(client, warm)[0] == 401


def test_a_deactivated_users_token_is_refused_at_once_and_works_again_when_reactivated(client, player, warm):
    player.is_active = False
    player.save()
    assert me(client, warm)[0] == 401
    player.is_active = True
    player.save()
    assert me(client, warm)[0] == 200


def test_a_renamed_user_is_named_anew_on_the_next_request(client, player, warm):
    player.username = "anna2"
    player.save()
    assert me(client, warm)[1]["username"] == "anna2"


def test_a_profile_change_shows_in_the_next_api_answer(client, player, warm):
    profile = Profile.objects.get(user=player)
    profile.language, profile.time_zone, profile.display_name = "de", "Europe/Oslo", "Kaptein Anna"
    profile.save()
    assert me(client, warm)[1] == {"username": "anna", "name": "Kaptein Anna", "language": "de",
                                   "time_zone": "Europe/Oslo"}
    # The footer's chooser saves the profile by update_or_create.
    client_for(player).post(reverse("language"), {"language": "sv"})
    assert me(client, warm)[1]["language"] == "sv"


def test_a_profile_made_after_the_token_was_kept_shows_at_once(client):
    from django.contrib.auth import get_user_model

    loner = get_user_model().objects.create_user("loner")
    key = ApiToken.issue(loner)[1]
    assert me(client, key)[1]["name"] == "loner"
    Profile.objects.create(user=loner, display_name="Lone Sailor")
    assert me(client, key)[1]["name"] == "Lone Sailor"


def test_a_read_from_before_a_change_is_not_kept_after_it(client, player, key, monkeypatch):
    """A request reads the rows, the user is deactivated and forgotten, then the request comes to
    store what it read: it must not, or the old answer would be served for a minute."""
    store = accounts_models._holder_for_cache

    def deactivated_meanwhile(user):
        fresh = type(player).objects.get(pk=player.pk)
        fresh.is_active = False
        fresh.save()
        return store(user)

    monkeypatch.setattr(accounts_models, "_holder_for_cache", deactivated_meanwhile)
    assert me(client, key)[0] == 200  # this request read the user while still active
    monkeypatch.setattr(accounts_models, "_holder_for_cache", store)
    assert me(client, key)[0] == 401


def test_last_used_is_touched_once_a_minute_not_every_request(client, player, key, django_assert_num_queries):
    assert me(client, key)[0] == 200
    token = ApiToken.objects.get(user=player)
    first = token.last_used_at
    assert first is not None
    with django_assert_num_queries(0):
        token_user(request_with(key))
    an_hour_ago = timezone.now() - timezone.timedelta(hours=1)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=an_hour_ago)
    cache.delete(accounts_models._holder_cache_key(token.digest))  # the kept answer expired
    assert me(client, key)[0] == 200
    token.refresh_from_db()
    assert token.last_used_at > first


@pytest.fixture
def cache_away(settings):
    """Redis at an address where nothing listens: every cache call fails."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:9/0"}}
    with pytest.raises(Exception):
        cache.get("anything")


def test_with_the_cache_away_the_database_answers(client, player, key, cache_away):
    assert me(client, key) == (200, {"username": "anna", "name": "Anna", "language": "", "time_zone": "UTC"})
    assert me(client, key)[0] == 200
    player.is_active = False
    player.save()  # forgetting fails quietly; the database has the answer
    assert me(client, key)[0] == 401
    ApiToken.objects.filter(user=player).delete()
    assert me(client, key)[0] == 401


def test_unknown_keys_are_refused_and_not_kept(client, db):
    assert me(client, "tw_nonsense")[0] == 401
    assert cache.get(accounts_models._holder_cache_key(ApiToken.hash("tw_nonsense"))) is None


def test_another_users_token_is_untouched_by_a_change(client, player, warm, django_assert_num_queries):
    other = make_user("bo")
    key = ApiToken.issue(other)[1]
    assert me(client, key)[0] == 200
    player.is_active = False
    player.save()
    with django_assert_num_queries(0):
        assert token_user(request_with(key)).username == "bo"


def test_a_login_forgets_the_holder_only_for_a_moment(client, player, warm, monkeypatch, django_assert_num_queries):
    """A login saves the user (its last login), which forgets the kept holder; the forgetting
    must not outlast the race it guards against, or each login would send that player's API
    requests to the database for a long while (the load benchmark logs its players in just
    before it starts)."""
    import time

    assert accounts_models.FORGOTTEN_SECONDS <= 10  # seconds, not the minute an answer is kept
    monkeypatch.setattr(accounts_models, "FORGOTTEN_SECONDS", 1)
    client_for(player)  # force_login saves last_login
    assert cache.get(accounts_models._holder_cache_key(ApiToken.hash(warm))) == accounts_models.FORGOTTEN
    time.sleep(1.2)
    assert token_user(request_with(warm)) == player  # read from the database, and kept again
    with django_assert_num_queries(0):
        assert token_user(request_with(warm)) == player
