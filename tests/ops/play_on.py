"""Run against a restored database (DATABASE_URL): every running match plays on a few moves, as
its players would, then every match is verified by replaying its log from its seed. Prints one
line per match; exits non-zero if any does not verify."""
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from games import play  # noqa: E402
from games.play.bots import bot_action  # noqa: E402
from games.models import Match  # noqa: E402

MOVES = int(sys.argv[1]) if len(sys.argv) > 1 else 10

for match in Match.objects.filter(status=Match.RUNNING).order_by("pk"):
    before = match.version
    for _ in range(MOVES):
        match.refresh_from_db()
        if match.status != Match.RUNNING:
            break
        if not match.turn_seats:
            play.system_action_apply(match_id=match.pk)
            continue
        seat = match.seats.get(number=match.turn_seats[0])
        play.action_apply(match_id=match.pk, user=seat.user, action=bot_action(match.game, match.state, seat.number))
    match.refresh_from_db()
    print(f"played {match.pk} {before} -> {match.version}")
for match in Match.objects.filter(state__isnull=False).order_by("pk"):
    call_command("verify_match", match.pk)
