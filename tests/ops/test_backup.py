"""Issue 29 item 7: a backup taken while matches are being played restores into a fresh database,
where every match verifies by replay from its seed and play goes on."""
import os
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games import play
from games.play.bots import bot_action
from games.models import Match
from tests.conftest import make_user
from tests.test_faults import ROOT, _database_url

pytestmark = pytest.mark.django_db(transaction=True)  # pg_dump reads what is committed


def _play(match, moves):
    for _ in range(moves):
        match.refresh_from_db()
        if not match.turn_seats:
            play.system_action_apply(match_id=match.pk)
            continue
        seat = match.seats.get(number=match.turn_seats[0])
        play.action_apply(match_id=match.pk, user=seat.user, action=bot_action(match.game, match.state, seat.number))


@pytest.fixture
def fresh_database(tmp_path):
    """An empty database beside the test database, and its DATABASE_URL."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    import psycopg

    name = connection.settings_dict["NAME"] + "_restored"
    url = _database_url()
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    yield url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _manage(url, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": url}
    env.pop("REDIS_URL", None)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_a_backup_of_a_site_in_play_restores_and_every_match_verifies_and_plays_on(tmp_path, fresh_database):
    humans = [make_user(name) for name in ("anna", "bo", "carl")]
    matches = []
    for game, seats in (("pirater", 2), ("catan_ships", 3), ("fuldrigger", 2)):
        match = play.match_create(creator=humans[0], game=game, seats=seats)
        for user in humans[1:seats]:
            play.match_join(match_id=match.pk, user=user)
        _play(match, 12)
        matches.append(match)
    versions = {m.pk: Match.objects.get(pk=m.pk).version for m in matches}
    assert all(Match.objects.get(pk=m.pk).status == Match.RUNNING for m in matches)

    backup = tmp_path / "site.dump"
    call_command("backup", str(backup))
    assert backup.stat().st_size > 0
    _play(matches[0], 4)  # the site plays on after the backup: the restore has the moment of the dump

    restored = _manage(fresh_database, "manage.py", "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    again = _manage(fresh_database, "manage.py", "restore", str(backup))
    assert again.returncode != 0 and "fresh one" in again.stderr  # never over a database in use by mistake

    played = _manage(fresh_database, "tests/ops/play_on.py", "10")
    assert played.returncode == 0, played.stdout + played.stderr
    lines = played.stdout.splitlines()
    for match in matches:
        before, after = next(line for line in lines if line.startswith(f"played {match.pk} ")).split()[2::2]
        assert int(before) == versions[match.pk]  # restored as it was when backed up
        assert int(after) > int(before)  # and played on
        assert any(line.startswith("OK:") and f"reproduce match {match.pk} " in line for line in lines), lines
    assert sum(line.startswith("OK:") for line in lines) == len(matches)


def test_restore_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="No backup at"):
        call_command("restore", str(tmp_path / "nothing.dump"))
