"""One process of a site in multiprocess mode (PROMETHEUS_MULTIPROC_DIR set): `count N` applies
N moves' counter and opens a socket, then waits for stdin to close (or exits at once with
`--exit`); `scrape` prints what /metrics answers."""
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from config import metrics  # noqa: E402


class Socket:
    pass


if sys.argv[1] == "count":
    for _ in range(int(sys.argv[2])):
        metrics.MOVES_APPLIED.labels("race").inc()
    metrics.socket_opened(Socket())
    print(os.getpid(), flush=True)
    if "--exit" not in sys.argv:
        sys.stdin.read()
else:
    from django.test import RequestFactory

    response = metrics.metrics_view(RequestFactory().get("/metrics", REMOTE_ADDR="127.0.0.1"))
    sys.stdout.write(response.content.decode())
