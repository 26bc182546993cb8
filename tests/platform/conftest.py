"""The production layout of README's "Running in production", started for real: nginx with
docs/deploy/nginx.conf (on ports of the test's own, without TLS), granian for HTTP and
Daphnes for the sockets as the README starts them, one Redis, and the test's database."""
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
NGINX_CONF = ROOT / "docs" / "deploy" / "nginx.conf"

# The README's commands (tests/platform/test_proxy_layout.py checks that it still says so);
# {port} is each one's own.
GRANIAN = ("granian --interface wsgi config.wsgi:application --workers 2 --blocking-threads 4 --no-ws "
           "--host 127.0.0.1 --port {port}")
DAPHNE = "python manage.py serve --port {port} --proxy-headers"
# The environment the README gives them beside DATABASE_URL, REDIS_URL and SECRET_KEY.
ENVIRONMENT = {"DB_CONN_MAX_AGE": "60", "TRUSTED_PROXY_HOPS": "1"}

# Ports of this worktree's range; the kernel's own picks could be anybody's.
PORTS = range(9310, 9400)


def free_port() -> int:
    for port in random.sample(PORTS, len(PORTS)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port")


def database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not found:
        raise RuntimeError("nginx is not installed: `apt-get install -y nginx` (make test installs it)")
    return found


def _wait_for_port(port, processes, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if any(p.poll() is not None for p in processes):
                break
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


@pytest.fixture
def redis_url(tmp_path):
    """The configured Redis (CI's), or a private redis-server on a port of ours."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    try:
        _wait_for_port(port, [process], 10)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait()


class Layout:
    """nginx → granian (HTTP) and Daphnes (/ws/), as documented. `daphnes[i]` is a Popen."""

    def __init__(self, redis_url, logs: Path, daphnes=2, **environment):
        self.env = {**os.environ, **ENVIRONMENT, "DATABASE_URL": database_url(), "REDIS_URL": redis_url,
                    "DEBUG": "0", "COLLECTSTATIC": "0", "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT),
                    "DJANGO_SETTINGS_MODULE": "config.settings", **environment}
        self.logs, self.processes, self.daphnes = logs, [], []
        # Three different ports: a free port is only free until someone binds it, and nginx
        # once drew granian's own (bind() failed: the test then spoke to granian, not nginx).
        ports: list[int] = []
        while len(ports) < daphnes + 2:
            port = free_port()
            if port not in ports:
                ports.append(port)
        self.http_port, self.port, self.ws_ports = ports[0], ports[1], ports[2:]
        self.base = f"http://127.0.0.1:{self.port}"

    def _start(self, name, command):
        out = open(self.logs / f"{name}.log", "w")
        args = command.split()
        args[0] = str(BIN / args[0])
        process = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def start_daphnes(self, *numbers):
        """Start these Daphnes (again) at once, and return once each of them answers."""
        for number in numbers:
            process = self._start(f"daphne-{number}-{time.monotonic_ns()}", DAPHNE.format(port=self.ws_ports[number]))
            if number < len(self.daphnes):
                self.daphnes[number] = process
            else:
                self.daphnes.append(process)
        for number in numbers:
            self._wait_http(self.ws_ports[number])

    def kill_daphne(self, number):
        process = self.daphnes[number]
        process.send_signal(signal.SIGKILL)
        process.wait()
        self.processes.remove(process)  # gone on purpose

    def nginx_conf(self) -> str:
        """docs/deploy/nginx.conf on this layout's ports, listening without TLS."""
        text = NGINX_CONF.read_text()
        text = re.sub(r"\n\s*ssl_certificate\S*\s+[^;]+;", "", text)
        text = text.replace("listen 443 ssl;", f"listen 127.0.0.1:{self.port};")
        text = text.replace("127.0.0.1:8001", f"127.0.0.1:{self.http_port}")
        for default, port in zip(("127.0.0.1:8002", "127.0.0.1:8003"), self.ws_ports):
            text = text.replace(default, f"127.0.0.1:{port}")
        assert "8001" not in text and "8002" not in text and "ssl" not in text
        return text

    def _start_nginx(self):
        prefix = self.logs / "nginx"
        prefix.mkdir(exist_ok=True)
        (prefix / "tradewinds.conf").write_text(self.nginx_conf())
        temp = "".join(f"{kind}_temp_path {prefix}/{kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root;\n" if os.geteuid() == 0 else ""
        (prefix / "nginx.conf").write_text(
            f"{user}worker_processes 1;\nerror_log {prefix}/error.log warn;\npid {prefix}/nginx.pid;\n"
            "events { worker_connections 8192; }\n"
            f"http {{\naccess_log {prefix}/access.log;\n{temp}include {prefix}/tradewinds.conf;\n}}\n")
        self.nginx = subprocess.Popen([nginx(), "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                                       "-g", "daemon off;"], stdout=open(self.logs / "nginx.log", "w"),
                                      stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(self.nginx)
        _wait_for_port(self.port, [self.nginx], 20)

    def _wait_http(self, port, seconds=90):
        deadline = time.monotonic() + seconds
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/openapi.json", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                raise RuntimeError(f"the web processes did not start:\n{self.tail()}")
            time.sleep(0.2)

    def __enter__(self):
        try:
            self._start("granian", GRANIAN.format(port=self.http_port))
            self.start_daphnes(*range(len(self.ws_ports)))
            self._wait_http(self.http_port)
            self._start_nginx()
        except BaseException:
            self.__exit__()
            raise
        return self

    def tail(self):
        return "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(self.logs.rglob("*.log")))

    def __exit__(self, *exc):
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
