from django.apps import AppConfig


class FuldriggerConfig(AppConfig):
    """Fuldrigger's tables: the fleets and fortresses of every match, written from the engine's
    state by the projector the services call in the same transaction as each change."""

    name = "games.fuldrigger"
    label = "fuldrigger"
    verbose_name = "Fuldrigger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.play import projections
        from games.fuldrigger.projection import project_match

        projections.register("fuldrigger", project_match)
