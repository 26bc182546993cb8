"""What every part of the benchmark shares: the figures it reports, medians and percentiles, the
bench database and Redis, and the server processes (Daphne, Celery) it runs as a real site would."""
from __future__ import annotations

import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
VENV_BIN = Path(PY).parent

# The bench's own database and Redis database, so nobody else's data or queues mix with ours.
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")


@dataclass
class Figure:
    """One line of the table and one object of results.json."""

    name: str
    value: float | int | None
    unit: str
    target: str = ""
    passed: bool | None = None  # None: a figure reported for information, with no target
    baseline: float | int | None = None
    compared_with: str = ""
    note: str = ""
    detail: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        data = asdict(self)
        data["pass"] = data.pop("passed")
        return data


def median(values):
    return statistics.median(values) if values else None


def percentile(values, p: float):
    """The p-th percentile (0-100) by the nearest-rank method: a value that was measured."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * p // 100)))
    return ordered[int(rank) - 1]


def ratio(a, b):
    return a / b if a is not None and b else None


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / 1024 / 1024:.0f} GB"
    except (OSError, ValueError, IndexError):
        pass
    return {"cores": os.cpu_count(), "cpu": cpu, "memory": mem, "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()}", "load_average": os.getloadavg()}


def env(redis: bool) -> dict:
    """The environment of a server process: the bench database, and Redis when asked."""
    out = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    # Mail (turn notices) is kept in memory: the bench's players have no inboxes.
    out.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=DATABASE_URL, DEBUG="0",
               LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1",
               EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
               # The load test's few users keep hundreds of tabs open, all from loopback.
               SOCKETS_PER_USER="100000", SOCKETS_PER_ADDRESS="100000",
               # and sit at a hundred tables each, starting the next match as one ends.
               MAX_ACTIVE_SEATS_PER_USER="100000", MAX_OPEN_MATCHES_PER_USER="100000",
               RATE_MATCH_CREATE="1000000/60", RATE_JOIN="1000000/60")
    if redis:
        out["REDIS_URL"] = REDIS_URL
    return out


def run(args, **kwargs):
    return subprocess.run(args, cwd=ROOT, check=True, capture_output=True, text=True, **kwargs)


def _pg_args():
    from urllib.parse import urlparse

    url = urlparse(DATABASE_URL)
    return ["-h", url.hostname or "127.0.0.1", "-p", str(url.port or 5432), "-U", url.username or "postgres"], \
        url.path.lstrip("/")


def fresh_database() -> None:
    """Drop and recreate the bench database, migrate it and collect the static files (the
    match page's assets are served as production serves them: hashed and compressed)."""
    args, name = _pg_args()
    run(["dropdb", *args, "--if-exists", "--force", name])
    run(["createdb", *args, name])
    run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], env=env(redis=False))
    run([PY, "manage.py", "collectstatic", "--noinput", "-v", "0"], env=env(redis=False))


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


TIMESTAMP = re.compile(r"^\[[^]]*\] ?")


# The layout README.md recommends for one 2-core machine: granian's WSGI workers serve HTTP
# (config/wsgi.py, persistent database connections), Daphne serves the match sockets, and one
# Celery worker with beat runs the jobs. A reverse proxy would route /ws/ to Daphne; the bench's
# clients talk to each port directly.
# Two HTTP workers with four threads each do more than one with eight on two cores (75.5 against
# 64.8 actions/s back to back, and a third of the open loop's latency: issue 32's ninth session in
# docs/benchmarks.md; at issue 15's third pass, with the change path of then, one with eight had
# done more), and two Daphnes kept the live updates' median in the hundreds of milliseconds where
# one let it reach 1.5 s.
HTTP_WORKERS = int(os.environ.get("BENCH_HTTP_WORKERS", "2"))  # to try other layouts
HTTP_THREADS = int(os.environ.get("BENCH_HTTP_THREADS", "4"))
DAPHNES = int(os.environ.get("BENCH_DAPHNES", "2"))
CONN_MAX_AGE = "60"


class Servers:
    """The site as production runs it (see HTTP_WORKERS above): `base` is the HTTP server,
    `ws_bases` the Daphne processes (sockets are spread over them, as a proxy would), each
    process's output in a file shown when something fails."""

    def __init__(self, http_workers: int = HTTP_WORKERS, daphnes: int = DAPHNES, threads: int = HTTP_THREADS):
        self.http_workers, self.daphnes, self.threads = http_workers, daphnes, threads
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_ports = [free_port() for _ in range(daphnes)]
        self.ws_bases = [f"http://127.0.0.1:{port}" for port in self.ws_ports]
        self.logs = Path(tempfile.mkdtemp(prefix="tradewinds-bench-"))
        self.procs: list[subprocess.Popen] = []
        self.web_procs: list[subprocess.Popen] = []  # HTTP and Daphne: whose CPU the load test reports

    @property
    def layout(self) -> str:
        return (f"granian config.wsgi, {self.http_workers} WSGI worker(s) × {self.threads} threads "
                f"and {self.daphnes} Daphne for /ws/, DB_CONN_MAX_AGE={CONN_MAX_AGE}; a Celery worker --beat "
                f"--concurrency=2")

    def _start(self, name, args, **extra_env):
        out = open(self.logs / f"{name}.log", "w")
        proc = subprocess.Popen(args, cwd=ROOT, env=env(redis=True) | extra_env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(proc)
        return proc

    def __enter__(self):
        self.web_procs.append(self._start("granian", [
            str(VENV_BIN / "granian"), "--interface", "wsgi", "config.wsgi:application", "--host", "127.0.0.1",
            "--port", str(self.port), "--workers", str(self.http_workers), "--blocking-threads", str(self.threads),
            "--log-level", "warning", "--no-ws"], DB_CONN_MAX_AGE=CONN_MAX_AGE))
        for number, port in enumerate(self.ws_ports):
            self.web_procs.append(self._start(f"daphne-{number}", [
                str(VENV_BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                DB_CONN_MAX_AGE=CONN_MAX_AGE))
        self.worker = self._start("celery", [str(VENV_BIN / "celery"), "-A", "config", "worker", "--beat",
                               "--loglevel=warning", "--concurrency=2", "-n", f"bench-{self.port}@%h"])
        self.wait_ready()
        return self

    def pids(self, which: str = "web") -> list[int]:
        """For CPU accounting, the processes of one part with their children (granian's
        workers, Celery's pool): "web" (HTTP and Daphne), "http", "ws" (the Daphnes) or
        "worker"."""
        procs = {"web": self.web_procs, "http": self.web_procs[:1], "ws": self.web_procs[1:],
                 "worker": [self.worker]}[which]
        out = []
        for proc in procs:
            out.append(proc.pid)
            try:
                children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
            except OSError:
                children = []
            out.extend(int(c) for c in children)
        return out

    def wait_ready(self, timeout=60):
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for proc in self.procs:
                if proc.poll() is not None:
                    raise RuntimeError(f"a server process ended early:\n{self.tail()}")
            try:
                if all(httpx.get(base + "/api/openapi.json", timeout=2).status_code == 200
                       for base in [self.base, *self.ws_bases]):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"The servers did not answer in {timeout} s:\n{self.tail()}")

    def tail(self, lines=30) -> str:
        out = []
        for path in sorted(self.logs.glob("*.log")):
            text = path.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {path.name}\n" + "\n".join(text))
        return "\n".join(out)

    def errors(self) -> list[str]:
        """The errors the servers logged (their level is WARNING), each distinct line once with
        how often it came."""
        from collections import Counter

        found = Counter()
        for path in sorted(self.logs.glob("*.log")):
            for line in path.read_text(errors="replace").splitlines():
                line = line.strip()
                if line.startswith("Traceback") or not line:
                    continue
                if " ERROR" in line or "ERROR/" in line or "Exception inside application" in line or (
                        re.match(r"^[\w.]+(Error|Exception): ", line)):
                    found[f"{path.stem}: {TIMESTAMP.sub('', line)[:220]}"] += 1
        return [f"{count} × {line}" for line, count in found.most_common()]

    def __exit__(self, *exc):
        import signal

        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        return False


def postgres_pids() -> list[int]:
    """This machine's PostgreSQL processes (the bench's database is local): their CPU is the
    database's share of a run, with whatever else uses that server meanwhile."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in ("postgres", "postmaster"):
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


def setup_django() -> None:
    """This process talks to the bench database directly, with jobs in process and no Redis:
    the servers are the ones that use Redis."""
    os.environ.pop("REDIS_URL", None)
    os.environ.update(env(redis=False))
    os.environ["DB_CONN_MAX_AGE"] = CONN_MAX_AGE  # as the servers: latency compares the two
    import django

    django.setup()


PASSWORD = "bench-tradewinds-pw"


def make_users(prefix: str, count: int) -> list:
    """Players with profiles, all with one password hashed once (hashing costs a third of a
    second a time, by design)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from accounts.models import Profile

    User = get_user_model()
    encoded = make_password(PASSWORD)
    users = User.objects.bulk_create([User(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com",
                                           password=encoded) for i in range(count)])
    users = list(User.objects.filter(username__in=[u.username for u in users]).order_by("id"))
    Profile.objects.bulk_create([Profile(user=u, display_name=u.username.title()) for u in users])
    return users


def start_match(game: str, users: list, options: dict | None = None):
    """A running match of these players, through the services as the site makes one."""
    from games import play
    from games.models import Match

    match = play.match_create(creator=users[0], game=game, seats=len(users), options=options or {},
                                  turn_seconds=14 * 24 * 3600)
    for user in users[1:]:
        play.match_join(match_id=match.pk, user=user)
    return Match.objects.get(pk=match.pk)
