from django.apps import AppConfig


class CatanShipsConfig(AppConfig):
    """Catan with ships' page code: the board drawing and the live part's choices (pages.py)
    and the template tags that reach them. No tables of its own."""

    name = "games.catan_ships"
    label = "catan_ships"
    verbose_name = "Catan with ships"

    def ready(self):
        # The engine knows no Django, so its title is one English string; Fuldrigger and
        # Pirater are names and read the same in every language, "Catan with ships" is not.
        # Every page shows `engine.title`: make it the reader's words (a lazy translation).
        from django.utils.translation import pgettext_lazy

        from games.engines import ENGINES

        if "catan_ships" in ENGINES:
            ENGINES["catan_ships"].title = pgettext_lazy("game title", "Catan with ships")
