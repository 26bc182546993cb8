from django.apps import AppConfig


class CatanShipsConfig(AppConfig):
    """Catan with ships' page code: the board drawing and the live part's choices (pages.py)
    and the template tags that reach them. No tables of its own."""

    name = "games.catan_ships"
    label = "catan_ships"
    verbose_name = "Catan with ships"
