"""`manage.py backup FILE`: the whole database, consistent as of one moment, into one file.

PostgreSQL: pg_dump's custom format (compressed, restored with `manage.py restore` or
pg_restore; a dump is one snapshot, taken while the site runs, so matches in play are saved as
they were at that instant). SQLite: SQLite's online backup, a copy of the database file.
README ("Backups") gives the schedule and how a restore is checked."""
import os
import shutil
import subprocess
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection


def libpq_env(settings_dict) -> tuple[list[str], dict]:
    """pg_dump/pg_restore arguments and environment for a Django database's settings (the
    password in the environment, never on a command line that `ps` shows)."""
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings_dict.get(key):
            args += [flag, str(settings_dict[key])]
    env = dict(os.environ)
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = settings_dict["PASSWORD"]
    return args, env


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise CommandError(f"{name} is not installed (Debian: apt-get install postgresql-client).")
    return found


class Command(BaseCommand):
    help = "Write a consistent backup of the whole database to FILE (pg_dump custom format, or an SQLite copy)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write the backup")

    def handle(self, file, **options):
        path = Path(file)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")  # a backup cut short never looks whole
        if connection.vendor == "postgresql":
            args, env = libpq_env(connection.settings_dict)
            done = subprocess.run([tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(partial), *args,
                                   connection.settings_dict["NAME"]], env=env, capture_output=True, text=True)
            if done.returncode:
                partial.unlink(missing_ok=True)
                raise CommandError(f"pg_dump failed: {done.stderr.strip()}")
        elif connection.vendor == "sqlite":
            import sqlite3

            connection.ensure_connection()
            target = sqlite3.connect(partial)
            try:
                connection.connection.backup(target)
            finally:
                target.close()
        else:
            raise CommandError(f"No backup for {connection.vendor} databases.")
        partial.replace(path)
        self.stdout.write(f"Backed up the database to {path} ({path.stat().st_size} bytes).")
