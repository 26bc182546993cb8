import os
import threading

from django.conf import settings
from django.core.management.base import BaseCommand


def _exit_after(seconds: float) -> None:
    """Once shutdown has begun, leave after `seconds` whatever still runs: Daphne waits without
    a bound for every open connection's consumer to end, and one stuck in a thread (a Redis or
    database call hanging after an outage) kept a process alive for 20 minutes (issue 14)."""
    timer = threading.Timer(seconds, os._exit, args=(0,))
    timer.daemon = True
    timer.start()


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit, and return it. Every
    socket is a file (and so is each of the channel layer's Redis connections): a Daphne holding
    10,000 sockets needs more than the 1,024 that systemd and most shells give as the soft limit,
    beyond which accept() fails with EMFILE. That soft limit is kept low for programs that use
    select(); Daphne's asyncio reactor uses epoll, so it takes the hard limit, as systemd.exec(5)
    advises such programs to do. The hard limit is the unit's LimitNOFILE (README, "Supervision")."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # a hard limit above the kernel's nr_open: keep what we had
            return soft
        return hard
    return soft


class Command(BaseCommand):
    help = "Serve the site with Daphne; without Redis, also run the background jobs in this process."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default="127.0.0.1")
        parser.add_argument("--port", default="8000")
        parser.add_argument("--stop-seconds", type=float, default=5,
                            help="On SIGTERM or SIGINT, exit at the latest this many seconds later.")
        # Daphne's own default is 50: a crowd reconnecting after a crash or a deploy overflowed
        # it (2,528 kernel listen-queue overflows for 1,200 sockets at once, issue 29). The
        # kernel caps it at net.core.somaxconn (4096 on current Linux).
        parser.add_argument("--backlog", type=int, default=4096,
                            help="Connections the kernel holds for the server while it is busy.")
        parser.add_argument("--proxy-headers", action="store_true",
                            help="Behind a proxy: the visitor's address is the proxy's X-Real-IP header "
                                 "(only for a server that the proxy alone can reach).")

    def handle(self, bind, port, stop_seconds, backlog, proxy_headers, **options):
        from daphne.cli import CommandLineInterface  # installs Twisted's asyncio reactor first
        from twisted.internet import reactor

        if settings.JOBS_IN_PROCESS:
            from games.play.jobs import start_worker

            start_worker()
            self.stdout.write(f"Background jobs run in this process, on a thread of their own (sweep every {settings.SWEEP_SECONDS} s).")
        reactor.addSystemEventTrigger("before", "shutdown", _exit_after, stop_seconds)
        files = raise_open_files_limit()
        if files < 16384:
            self.stderr.write(f"Open files are limited to {files}: fewer sockets than that can be held "
                              f"(README: LimitNOFILE).")
        self.stdout.write(f"Tradewinds on http://{bind}:{port}/")
        # A Twisted endpoint, which takes the backlog (-b/-p do not); colons in an IPv6 address
        # are escaped as in Daphne's own endpoint strings.
        interface = bind.replace(":", "\\:")
        endpoint = f"tcp:port={int(port)}:interface={interface}:backlog={backlog}"
        proxy = ["--proxy-headers", "--proxy-headers-host", "X-Real-IP"] if proxy_headers else []
        # A handshake may wait its turn for a while when a crowd of sockets opens at once (a
        # restart in the evening): given 30 s rather than Daphne's 5 s, it is answered late
        # instead of dropped (nginx then answered 502).
        CommandLineInterface().run(["-e", endpoint, *proxy, "--application-close-timeout", "2",
                                    "--websocket_connect_timeout", "30", "config.asgi:application"])
