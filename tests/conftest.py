import os

import pytest
from hypothesis import settings as hypothesis_settings

from games.engines import ENGINES
from tests.race_engine import RACE

ENGINES.setdefault(RACE.name, RACE)

# On a developer's machine Hypothesis explores new examples each run; in CI it replays a fixed
# set, so a landing is never decided by the luck of the draw (what it finds locally is kept in
# its example database and shrunk there).
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


def pooled_connections():
    from django.db import connections

    return [c for c in connections.all() if c.vendor == "postgresql" and c.settings_dict["OPTIONS"].get("pool")]


def close_pools() -> None:
    """Close this process's PostgreSQL pools: before a fork (a pool's connections and threads
    don't survive one, and a child finishing an inherited connection would end the parent's)."""
    from django.db import connections

    connections.close_all()
    for connection in pooled_connections():
        connection.close_pool()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    yield
    # The PostgreSQL pool keeps connections open, and threads of the tests' servers may still
    # hold one: end them all so the test database can be dropped.
    with django_db_blocker.unblock():
        for connection in pooled_connections():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        close_pools()


@pytest.fixture(autouse=True)
def _english_to_begin_with():
    # A request leaves its language active in the thread (the middleware activates it and no
    # one deactivates it); a later test in the same thread must not inherit a German page's.
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    # Jobs run where the test can see them; tests of the real worker start one themselves.
    settings.JOBS_IN_PROCESS = True
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}


def make_user(username, **extra):
    from django.contrib.auth import get_user_model

    from accounts.models import Profile

    user = get_user_model().objects.create_user(username, f"{username}@example.com", "pw-" + username * 2, **extra)
    Profile.objects.create(user=user, display_name=username.title())
    return user


@pytest.fixture
def player(db):
    return make_user("anna")


@pytest.fixture
def opponent(db):
    return make_user("bo")


@pytest.fixture
def outsider(db):
    return make_user("carl")


@pytest.fixture
def staff(db):
    return make_user("admiral", is_staff=True, is_superuser=True)


@pytest.fixture
def race_match(player, opponent):
    """A running two-seat race: anna is seat 0, bo seat 1."""
    from games import play as games_play

    match = games_play.match_create(creator=player, game="race", seats=2, options={"finish": 30})
    games_play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    return match


@pytest.fixture
def play(django_capture_on_commit_callbacks):
    """Apply actions as the site does: each commit's jobs (the notifications) run right after it."""
    from games import play as games_play

    def run(match, *moves):
        for user, action in moves:
            with django_capture_on_commit_callbacks(execute=True):
                games_play.action_apply(match_id=match.pk, user=user, action={"type": action})

    return run


def client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    # The rate limits count in the cache (locmem in tests): one test's failed logins, chat
    # posts or new matches must not count against the next test's users.
    from django.core.cache import cache

    cache.clear()
    yield


def refusal_status(response) -> int:
    """A refusal's status as its client meets it: an htmx request is answered 200 with the
    refusal's own status in Refused-Status (config/htmx.py), so the browser's console logs no
    failed load for a message the page shows; any other request gets the 4xx itself."""
    if response.wsgi_request.headers.get("HX-Request") == "true":
        assert response.status_code == 200, response.status_code
        return int(response["Refused-Status"])
    assert "Refused-Status" not in response
    return response.status_code
