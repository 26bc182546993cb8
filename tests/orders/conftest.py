import pytest

from games import play
from games.engines import get_engine
from games.models import Match
from tests.conftest import make_user


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run a call as the site does: its commit's jobs (orders, notifications) right after it."""
    def run(call, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(**kwargs)
    return run


def seat_user(match, number):
    return match.seats.get(number=number).user


def act(commits, match, number, kind=None):
    """The seat plays its first legal action (of `kind`, if given)."""
    match.refresh_from_db()
    legal = get_engine(match.game).legal_actions(match.state, number)
    action = next(a for a in legal if kind is None or a["type"] == kind)
    return commits(play.action_apply, match_id=match.pk, user=seat_user(match, number), action=action)


@pytest.fixture
def sea_match(player, opponent, commits):
    """A running Fuldrigger match past choosing homes: anna seat 0, bo seat 1."""
    match = play.match_create(creator=player, game="fuldrigger", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    while match.state["phase"] == "homes":
        act(commits, match, match.turn_seats[0])
        match.refresh_from_db()
    return match


@pytest.fixture
def third(db):
    return make_user("dora")


def running(match_id) -> Match:
    return Match.objects.get(pk=match_id)


# The browser tests' server and Chromium (tests/browser/conftest.py), for tests/orders/test_browser.py.
from tests.browser.conftest import browser, live_site  # noqa: E402,F401
