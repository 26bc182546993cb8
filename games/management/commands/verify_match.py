from django.core.management.base import BaseCommand, CommandError

from games.engines.dice import seed_hash
from games.models import Match
from games.replay import replay_match


class Command(BaseCommand):
    help = "Replay a match's log from its seed and report whether it reproduces the final state."

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int)

    def handle(self, match_id, **options):
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"No match {match_id}.")
        if match.state is None:
            raise CommandError("The match has not started.")
        if seed_hash(match.seed) != match.seed_hash:
            raise CommandError("The seed does not match the hash published at the start.")
        result = replay_match(match)
        if not result["ok"]:
            raise CommandError(f"Replay of {result['steps']} actions does NOT reproduce the state. {result['error'] or ''}")
        self.stdout.write(f"OK: {result['steps']} actions replayed from the seed reproduce match {match_id}.")
