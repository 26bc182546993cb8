from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommunityConfig(AppConfig):
    """Ratings, leaderboards, records, seasons and the players' public pages. It reads the
    finished matches; it changes nothing in them."""

    name = "community"
    verbose_name = _("Community")
    default_auto_field = "django.db.models.BigAutoField"
