from django.core.management.base import BaseCommand

from community.ratings import ratings_rebuild


class Command(BaseCommand):
    help = "Forget all ratings and records and rate every finished rated match again, in order."

    def handle(self, *args, **options):
        rated = ratings_rebuild()
        self.stdout.write(f"Rated {rated} match(es).")
