"""Fuldrigger's ships and fortresses as rows, so admins can browse and filter them across
matches. The engine's state stays the source of truth: these rows are a projection of it,
rewritten by `projection.project_match` in the transaction of every change."""
from django.conf import settings
from django.db import models
from django.utils.translation import get_language, gettext as _, gettext_lazy

from games.engines.fuldrigger import view as book
from games.engines.fuldrigger.board import WORLD
from games.models import Match


def _place(node: str) -> str:
    return book.place_name(node, lang=get_language() or "en")


class Ship(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="fuldrigger_ships",
                              verbose_name=gettext_lazy("match"))
    engine_id = models.PositiveIntegerField(gettext_lazy("ship number"),
                                            help_text=gettext_lazy("The ship's id in the game state."))
    owner_seat = models.PositiveSmallIntegerField(gettext_lazy("owner's seat"))
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="fuldrigger_ships", verbose_name=gettext_lazy("owner"))
    name = models.CharField(gettext_lazy("name"), max_length=80)
    node = models.CharField(gettext_lazy("position"), max_length=64,
                            help_text=gettext_lazy("The square or port the ship is on."))
    cargo = models.CharField(gettext_lazy("cargo"), max_length=32, blank=True,
                             help_text=gettext_lazy("The good on board; blank if none."))
    cargo_paid = models.PositiveIntegerField(gettext_lazy("cargo price paid"), null=True, blank=True)
    privateer = models.BooleanField(gettext_lazy("privateer"), default=False)

    class Meta:
        verbose_name = gettext_lazy("ship")
        verbose_name_plural = gettext_lazy("ships")
        ordering = ["match", "engine_id"]
        constraints = [models.UniqueConstraint(fields=["match", "engine_id"], name="fuldrigger_one_row_per_ship")]

    def __str__(self):
        return f"{self.name} (#{self.engine_id}, {self.match})"

    @property
    def position(self) -> str:
        return _place(self.node)

    @property
    def in_port(self) -> bool:
        return self.node in WORLD.nodes and WORLD.is_port(self.node)


class Fortress(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="fuldrigger_fortresses",
                              verbose_name=gettext_lazy("match"))
    owner_seat = models.PositiveSmallIntegerField(gettext_lazy("owner's seat"))
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="fuldrigger_fortresses", verbose_name=gettext_lazy("owner"))
    port = models.CharField(gettext_lazy("port"), max_length=64)

    class Meta:
        verbose_name = gettext_lazy("fortress")
        verbose_name_plural = gettext_lazy("fortresses")
        ordering = ["match", "port"]
        constraints = [models.UniqueConstraint(fields=["match", "port"], name="fuldrigger_one_fortress_per_port")]

    def __str__(self):
        return _("Fortress in %(port)s (%(match)s)") % {"port": self.port_name, "match": self.match}

    @property
    def port_name(self) -> str:
        return _place(self.port)
