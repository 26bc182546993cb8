from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the site with Daphne; without Redis, also run the background jobs in this process."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    def handle(self, bind, port, **options):
        from daphne.cli import CommandLineInterface

        if settings.JOBS_IN_PROCESS:
            from games.jobs import start_sweeper

            start_sweeper()
            self.stdout.write(f"Background jobs run in this process (sweep every {settings.SWEEP_SECONDS} s).")
        self.stdout.write(f"Tradewinds on http://{bind}:{port}/")
        CommandLineInterface().run(["-b", bind, "-p", str(port), "config.asgi:application"])
