"""What a change tells others once it is committed (the sockets' announcement, the worker's
nudge), done after the response has gone out when a WSGI server serves the request.

The mover waits for nothing it does not need: under granian the answer to a move left once the
transaction committed, and the Redis round trips that tell the sockets and the worker (over a
quarter of a quiet API move's time) ran after it, on the same thread. PEP 3333 calls an iterable's
close() "upon completion of the current request"; granian calls it once the body is sent (a
server that calls it first only answers as late as before).
Elsewhere — Daphne serving HTTP (the embedded default), Celery jobs, Django's test client — the
work runs right after the commit, as transaction.on_commit runs it."""
import logging
from contextvars import ContextVar

from django.db import transaction

log = logging.getLogger(__name__)

# The work a request served through AfterResponse put off; None outside such a request.
_pending: ContextVar[list | None] = ContextVar("after_response", default=None)


def on_commit(work) -> None:
    """Run `work` once the current transaction commits: after the response inside a request
    served through AfterResponse, else at once. It must not raise for the caller to handle:
    after the response nobody is left to tell."""
    transaction.on_commit(lambda: _later(work))


def _later(work) -> None:
    pending = _pending.get()
    if pending is None:
        work()
    else:
        pending.append(work)


def _run(pending: list) -> None:
    while pending:
        work = pending.pop(0)
        try:
            work()
        except Exception:
            log.exception("work put off until after a response failed")


class _Closing:
    """The response's own iterable, running the work put off when the server closes it. The
    work comes before the response's close: that fires request_finished, which hands the
    request's database connection back."""

    def __init__(self, response, pending: list):
        self.response, self.pending = response, pending

    def __iter__(self):
        return iter(self.response)

    def close(self):
        try:
            _run(self.pending)
        finally:
            close = getattr(self.response, "close", None)
            if close is not None:
                close()


class AfterResponse:
    """WSGI middleware: the work on_commit() is given while the application runs waits for the
    response's close()."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        pending = []
        token = _pending.set(pending)
        try:
            response = self.application(environ, start_response)
        except BaseException:
            _run(pending)
            raise
        finally:
            _pending.reset(token)
        return _Closing(response, pending) if pending else response
