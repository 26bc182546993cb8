"""Issue 15: under a WSGI server (granian in production) a move's answer leaves once its
transaction commits; telling the sockets and nudging the worker waits for the response's
close(), which the server calls once the body is sent (config/after_response.py)."""
import json
import logging

import pytest
from django.db import transaction
from django.test import RequestFactory

from accounts.models import ApiToken
from config import after_response
from config.wsgi import application
from games.live import publisher
from games.models import Match


@pytest.fixture
def told(monkeypatch):
    calls = []
    # A committed change, published to whoever watches.
    monkeypatch.setattr(publisher, "publish", lambda change: calls.append(("broadcast", change.version)))
    return calls


@pytest.fixture
def sent(settings, monkeypatch):
    from config.celery import app

    settings.JOBS_IN_PROCESS = False
    settings.MATCH_CHANGED_LISTENERS = ["tests.listeners.record"]
    out = []
    monkeypatch.setattr(app, "send_task", lambda name, args=(), **options: out.append(name))
    return out


def _serve_move(match, user, version):
    """The player's move on `version`, served as granian serves it: the status line, and the
    response before its close()."""
    key = ApiToken.issue(user)[1]
    environ = RequestFactory().post(
        f"/api/matches/{match.pk}/actions", data=json.dumps({"action": {"type": "roll"}, "version": version}),
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}").environ
    started = []
    response = application(environ, lambda status, headers, exc_info=None: started.append(status))
    return started, response


@pytest.mark.django_db(transaction=True)
def test_a_move_over_wsgi_is_answered_before_the_sockets_and_the_worker_are_told(race_match, player, told, sent):
    started, response = _serve_move(race_match, player, 0)
    body = json.loads(b"".join(response))
    # The answer is complete and the move committed, but nobody has been told yet.
    assert started[0].startswith("201") and body["version"] == 1
    assert Match.objects.get(pk=race_match.pk).version == 1
    assert told == [] and sent == []
    response.close()
    assert told == [("broadcast", 1)]
    assert sent == ["games.tasks.run_jobs"]


@pytest.mark.django_db(transaction=True)
def test_a_refused_move_over_wsgi_puts_nothing_off(race_match, player, told, sent):
    started, response = _serve_move(race_match, player, 5)
    assert started[0].startswith("409")
    # Nothing was committed, so nothing waits: the server gets Django's own response back.
    assert not isinstance(response, after_response._Closing)
    response.close()
    assert told == [] and sent == []


@pytest.mark.django_db(transaction=True)
def test_outside_a_wsgi_request_the_work_runs_at_the_commit():
    ran = []
    with transaction.atomic():
        after_response.on_commit(lambda: ran.append("told"))
        assert ran == []
    assert ran == ["told"]


@pytest.mark.django_db(transaction=True)
def test_work_put_off_that_fails_is_logged_and_the_rest_still_runs(caplog):
    ran, closed = [], []

    class Body(list):
        def close(self):
            closed.append(True)

    def app(environ, start_response):
        with transaction.atomic():
            after_response.on_commit(lambda: 1 / 0)
            after_response.on_commit(lambda: ran.append("second"))
        start_response("200 OK", [])
        return Body([b"ok"])

    response = after_response.AfterResponse(app)({}, lambda *a: None)
    assert list(response) == [b"ok"] and ran == []
    with caplog.at_level(logging.ERROR, logger="config.after_response"):
        response.close()
    assert ran == ["second"] and closed == [True]
    assert "put off until after a response failed" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_an_application_that_raises_still_runs_what_it_committed():
    ran = []

    def app(environ, start_response):
        with transaction.atomic():
            after_response.on_commit(lambda: ran.append("told"))
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        after_response.AfterResponse(app)({}, lambda *a: None)
    assert ran == ["told"]
    # and the next request of this thread starts with nothing put off
    assert after_response._pending.get() is None
