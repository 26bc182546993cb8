from django.apps import AppConfig


class PiraterConfig(AppConfig):
    """Pirater's page code: the board drawing and the live part's choices (pages.py) and the
    template tags that reach them. No tables of its own."""

    name = "games.pirater"
    label = "pirater"
    verbose_name = "Pirater"
