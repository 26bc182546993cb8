"""/health/ (django-health-check): what a load balancer and a supervisor probe. The package's
checks for the database and the cache (Redis, with REDIS_URL), and ours for what it has none
of: the broker, the worker's and beat's heartbeats, and how late the deadlines are.

The heartbeats are times kept in the cache (Redis): beat's when it queues a periodic job (from
its own process, config/celery.py), the worker's when it runs the deadline sweep. So a dead beat
makes both stale, a dead worker only its own: the report says which process to look at."""
import dataclasses
import datetime
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView

from config.metrics import from_operators_network

WORKER_HEARTBEAT = "ops:heartbeat:worker"
BEAT_HEARTBEAT = "ops:heartbeat:beat"


def stale_after() -> float:
    """A heartbeat older than this means the process is gone or stuck (a few sweeps missed)."""
    return max(60.0, 6 * settings.SWEEP_SECONDS)


def beat(key: str) -> None:
    """Note that a process is alive; never fails its caller (Redis may be away)."""
    try:
        cache.set(key, time.time(), timeout=None)
    except Exception:
        pass


@dataclasses.dataclass
class Broker(HealthCheck):
    """The Celery broker answers a connection."""

    timeout = datetime.timedelta(seconds=3)

    def run(self):
        from config.celery import app

        try:
            with app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1, timeout=2)
        except Exception as exc:
            raise ServiceUnavailable(f"broker unreachable: {type(exc).__name__}") from exc


@dataclasses.dataclass
class Heartbeat(HealthCheck):
    """A process's heartbeat in the cache is recent."""

    process: str = "worker"

    def run(self):
        key = WORKER_HEARTBEAT if self.process == "worker" else BEAT_HEARTBEAT
        try:
            last = cache.get(key)
        except Exception as exc:
            raise ServiceUnavailable("cache unreachable") from exc
        if last is None:
            raise ServiceUnavailable(f"no {self.process} heartbeat yet")
        age = time.time() - float(last)
        if age > stale_after():
            raise ServiceUnavailable(f"{self.process} heartbeat {age:.0f} s old")


@dataclasses.dataclass
class DeadlineSweepLag(HealthCheck):
    """No running match's deadline (or system action) has waited longer than a few sweeps."""

    def run(self):
        from config.metrics import deadline_lag

        lag = deadline_lag()
        if lag > stale_after():
            raise ServiceUnavailable(f"a deadline has waited {lag:.0f} s")


def checks() -> list:
    found = ["health_check.checks.Database", "health_check.checks.Cache", "config.health.DeadlineSweepLag"]
    if not settings.JOBS_IN_PROCESS:
        found += ["config.health.Broker", ("config.health.Heartbeat", {"process": "worker"}),
                  ("config.health.Heartbeat", {"process": "beat"})]
    return found


class Health(HealthCheckView):
    """Every check, 200 if all pass, 500 otherwise. Operators (staff signed in, or a request from
    METRICS_ALLOWED_IPS) get the library's report naming the failing checks (?format=json);
    anyone else the status alone: which process is down and why is not for the world."""

    def get_checks(self):
        self.checks = checks()  # read at each probe: the settings say whether a worker is expected
        return super().get_checks()

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        if from_operators_network(request) or (await request.auser()).is_staff:
            return response
        # The results the library's own renderers read; the status is all an outsider learns,
        # whatever format they asked for.
        healthy = not any(result.error for result in self.results)
        return HttpResponse("OK\n" if healthy else "Unavailable\n", status=200 if healthy else 500,
                            content_type="text/plain; charset=utf-8")
