"""The site's own Prometheus metrics, beside django-prometheus's (requests, latency, database).

Counting costs a move one counter increment (an mmap write in multiprocess mode); everything
read from the database (jobs waiting, failed, the oldest's age, how late the deadlines are) is
read only when /metrics is scraped. In production every process (granian's workers, the Daphnes,
the Celery workers) writes to PROMETHEUS_MULTIPROC_DIR and whichever answers /metrics reports
the sum (README, "Metrics")."""
import functools
import ipaddress
import os
import re

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, \
    generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily

MOVES_APPLIED = Counter("tradewinds_moves_applied_total", "Players' moves applied", ["game"])
MOVES_REFUSED = Counter("tradewinds_moves_refused_total", "Players' moves refused, by reason", ["reason"])
# One series per live process (multiprocess "liveall": a dead process's sockets are not counted).
OPEN_SOCKETS = Gauge("tradewinds_open_sockets", "Match sockets open in this process", multiprocess_mode="liveall")
JOBS_FAILED = Counter("tradewinds_jobs_failed_total", "Jobs given up after their last retry")
JOBS_RETRIED = Counter("tradewinds_jobs_retried_total", "Failed job runs that will be tried again")
DEADLINE_LATENESS = Histogram("tradewinds_deadline_lateness_seconds", "How long after it was due a deadline was applied",
                              buckets=(0.5, 1, 2, 5, 10, 30, 60, 300, 900))
SWEEPS = Counter("tradewinds_sweeps_total", "Deadline sweeps run")

# Reasons a move is refused, by the service's error (a closed set: one label value each).
REASONS = {"BadRequest": "refused", "NotAllowed": "not_seated", "StaleVersion": "stale_version",
           "NotFound": "not_found", "TooMany": "too_many"}


def counts_moves(apply):
    """Count a move service's outcomes: applied (by game) or refused (by reason)."""
    from games.errors import ServiceError

    @functools.wraps(apply)
    def counted(*args, **kwargs):
        try:
            match = apply(*args, **kwargs)
        except ServiceError as exc:
            MOVES_REFUSED.labels(REASONS.get(type(exc).__name__, "other")).inc()
            raise
        MOVES_APPLIED.labels(match.game).inc()
        return match

    return counted


def socket_opened(consumer) -> None:
    """A match socket was accepted (games/sockets/consumers.py calls this after accept())."""
    consumer.counted_in_metrics = True
    OPEN_SOCKETS.inc()


def socket_closed(consumer) -> None:
    """A socket went; only one that was counted open is counted out (a refused one never was)."""
    if getattr(consumer, "counted_in_metrics", False):
        consumer.counted_in_metrics = False
        OPEN_SOCKETS.dec()


def job_failed() -> None:
    JOBS_FAILED.inc()


def job_retried() -> None:
    JOBS_RETRIED.inc()


def sweep_ran() -> None:
    SWEEPS.inc()


def deadline_applied(due_at) -> None:
    if due_at is not None:
        DEADLINE_LATENESS.observe(max(0.0, (timezone.now() - due_at).total_seconds()))


class SiteCollector:
    """What is read from the database at each scrape: the jobs waiting (and the oldest's age),
    the failed ones, and how late the most overdue deadline of a running match is."""

    def collect(self):
        from django.db.models import Min

        from games.models import Job, Match

        now = timezone.now()
        waiting = Job.objects.filter(failed_at__isnull=True).aggregate(oldest=Min("created_at"))
        queued = GaugeMetricFamily("tradewinds_jobs_queued", "Jobs waiting to run (failed ones not counted)")
        queued.add_metric([], Job.objects.filter(failed_at__isnull=True).count())
        yield queued
        failed = GaugeMetricFamily("tradewinds_jobs_failed", "Jobs given up, waiting for staff (admin: retry)")
        failed.add_metric([], Job.objects.filter(failed_at__isnull=False).count())
        yield failed
        oldest = GaugeMetricFamily("tradewinds_jobs_oldest_age_seconds", "Age of the oldest job waiting")
        oldest.add_metric([], (now - waiting["oldest"]).total_seconds() if waiting["oldest"] else 0.0)
        yield oldest
        yield _gauge("tradewinds_deadline_sweep_lag_seconds", "How long the most overdue deadline has waited",
                     deadline_lag(now))


def _gauge(name, documentation, value):
    family = GaugeMetricFamily(name, documentation)
    family.add_metric([], value)
    return family


def deadline_lag(now=None) -> float:
    """Seconds since the most overdue deadline (or system action's due time) of a running match
    was due: 0 when the sweep keeps up. Through the partial index on running matches."""
    from games.models import Match

    now = now or timezone.now()
    oldest = (Match.objects.filter(status=Match.RUNNING, next_due_at__lte=now).order_by("next_due_at")
              .values_list("next_due_at", flat=True).first())
    return max(0.0, (now - oldest).total_seconds()) if oldest else 0.0


def forget_dead_processes(directory: str) -> None:
    """Drop the live gauges (open sockets) of processes on this machine that have died, a crashed
    Daphne's among them: prometheus_client keeps each process's values in files named after its
    pid, and mark_process_dead removes that pid's live ones. Counters stay (they are totals)."""
    pids = {int(m.group(1)) for name in os.listdir(directory) if (m := re.search(r"_(\d+)\.db$", name))}
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)
        except PermissionError:
            pass  # alive, another user's


def from_operators_network(request) -> bool:
    """The request comes from an address in METRICS_ALLOWED_IPS (Prometheus's network, the
    machine itself). The visitor's address as the limits read it (accounts.ratelimit): behind
    nginx with TRUSTED_PROXY_HOPS=1 the one nginx saw, never REMOTE_ADDR, which is nginx's own
    for every visitor, and never what a visitor wrote into X-Forwarded-For themselves."""
    from accounts.ratelimit import client_address

    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    address = getattr(address, "ipv4_mapped", None) or address  # ::ffff:10.0.0.5 is 10.0.0.5
    return any(address in ipaddress.ip_network(net, strict=False) for net in settings.METRICS_ALLOWED_IPS)


def _allowed(request) -> bool:
    """Prometheus from its network, or staff signed in."""
    if getattr(request, "user", None) is not None and request.user.is_staff:
        return True
    return from_operators_network(request)


def metrics_view(request):
    """/metrics: every process's counters (multiprocess mode) or this one's, and the site's."""
    if not _allowed(request):
        raise Http404
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        forget_dead_processes(os.environ["PROMETHEUS_MULTIPROC_DIR"])
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    site = CollectorRegistry()
    site.register(SiteCollector())
    return HttpResponse(body + generate_latest(site), content_type=CONTENT_TYPE_LATEST)
