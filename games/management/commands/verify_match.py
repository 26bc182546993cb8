from django.core.management.base import BaseCommand, CommandError

from games.engines.dice import seed_hash
from games.models import Match
from games.reads.replay import replay_match


class Command(BaseCommand):
    help = ("Replay a match's log from its seed and report whether it reproduces the final state; "
            "--all replays every finished match, of every rules edition.")

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int, nargs="?")
        parser.add_argument("--all", action="store_true", help="replay every finished match")

    def handle(self, match_id=None, all=False, **options):
        if all == (match_id is not None):
            raise CommandError("Give a match id or --all.")
        if all:
            return self._all()
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
        self.stdout.write(f"OK: {result['steps']} actions replayed from the seed reproduce match {match_id} "
                          f"(rules edition {result['edition']}).")

    def _all(self):
        failed, count = [], 0
        for match in Match.objects.filter(status__in=(Match.FINISHED, Match.ABORTED), state__isnull=False).order_by("pk").iterator():
            count += 1
            result = replay_match(match)
            if not result["ok"] or seed_hash(match.seed) != match.seed_hash:
                failed.append(match.pk)
                self.stdout.write(f"FAILED: match {match.pk} ({match.game}, rules edition {result['edition']}): "
                                  f"{result['error'] or 'the replay does not reproduce the state'}")
            else:
                self.stdout.write(f"OK: match {match.pk} ({match.game}, rules edition {result['edition']}), "
                                  f"{result['steps']} actions.")
        if failed:
            raise CommandError(f"{len(failed)} of {count} finished matches do NOT replay: {failed}")
        self.stdout.write(f"OK: all {count} finished matches replay from their seeds.")
