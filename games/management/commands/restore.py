"""`manage.py restore FILE`: put a backup (`manage.py backup`) into the configured database.

Meant for a fresh, empty database (a new server, or a copy to check a backup): point
DATABASE_URL at it and restore. Into a database that has tables already it refuses, unless
--replace, which drops what the backup holds first (pg_restore --clean)."""
import shutil
import subprocess
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from games.management.commands.backup import libpq_env, tool


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` into the configured (fresh) database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a backup written by manage.py backup")
        parser.add_argument("--replace", action="store_true", help="replace the tables of a database in use")

    def handle(self, file, replace=False, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No backup at {path}.")
        if connection.introspection.table_names() and not replace:
            raise CommandError("The database has tables already: restore into a fresh one, or give --replace.")
        if connection.vendor == "postgresql":
            args, env = libpq_env(connection.settings_dict)
            clean = ["--clean", "--if-exists"] if replace else []
            done = subprocess.run([tool("pg_restore"), "--no-owner", "--exit-on-error", "--single-transaction", *clean,
                                   *args, "--dbname", connection.settings_dict["NAME"], str(path)],
                                  env=env, capture_output=True, text=True)
            if done.returncode:
                raise CommandError(f"pg_restore failed: {done.stderr.strip()}")
        elif connection.vendor == "sqlite":
            connection.close()
            shutil.copyfile(path, connection.settings_dict["NAME"])
        else:
            raise CommandError(f"No restore for {connection.vendor} databases.")
        self.stdout.write(f"Restored {path} into the database.")
