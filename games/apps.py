from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games import live

        live.connect_receivers()  # who may watch, changed in the admin, reaches the sockets
