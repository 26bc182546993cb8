from django.apps import AppConfig


class CommunityConfig(AppConfig):
    """Ratings, leaderboards, records, seasons and the players' public pages. It reads the
    finished matches; it changes nothing in them."""

    name = "community"
    verbose_name = "Community"
    default_auto_field = "django.db.models.BigAutoField"
