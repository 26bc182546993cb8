"""Issue 34.6: one Daphne is to hold 10,000 sockets, each a file, where systemd's default soft
limit of open files is 1,024. The README's units set LimitNOFILE; `manage.py serve` itself takes
its hard limit, so a supervisor that leaves the soft limit low does not cap the sockets."""
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _soft_and_hard(pid: int) -> tuple[int, int]:
    line = next(line for line in Path(f"/proc/{pid}/limits").read_text().splitlines()
                if line.startswith("Max open files"))
    soft, hard = re.findall(r"\d+", line)[:2]
    return int(soft), int(hard)


def test_daphne_takes_its_hard_limit_of_open_files(tmp_path):
    hard = min(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 65536)
    assert hard > 1024, "this machine's hard limit leaves nothing to raise"
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3", "PYTHONPATH": str(ROOT),
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")}  # no jobs in this process

    def as_systemd_starts_it():  # soft 1,024 as systemd's default
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))

    process = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env,
                               preexec_fn=as_systemd_starts_it, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert process.poll() is None, process.stderr.read()
                time.sleep(0.1)
        assert _soft_and_hard(process.pid) == (hard, hard)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def test_the_readmes_units_set_the_limit():
    readme = (ROOT / "README.md").read_text()
    unit = readme[readme.index("[Service]"):readme.index("[Install]")]
    limit = int(re.search(r"^LimitNOFILE=(\d+)", unit, re.M).group(1))
    assert limit >= 2 * 10_000  # 10,000 sockets a Daphne, with room for its Redis and database connections
