"""Browse Fuldrigger's fleets and fortresses across matches. Read-only: the rows are written
from the engine's state, which stays the source of truth (change a game through its match)."""
from django.contrib import admin
from django.utils.translation import gettext as _, gettext_lazy, pgettext

from games.admin import ReadOnlyAdmin

from games.engines.fuldrigger.board import WORLD
from games.fuldrigger.models import Fortress, Ship
from games.fuldrigger.pages import good_name, place


def _ports():
    return sorted(((port, place(port)) for port in WORLD.ports), key=lambda p: p[1])


class ShipPortFilter(admin.SimpleListFilter):
    title = gettext_lazy("port")
    parameter_name = "port"

    def lookups(self, request, model_admin):
        return [("-", _("At sea"))] + _ports()

    def queryset(self, request, queryset):
        if self.value() == "-":
            return queryset.exclude(node__in=WORLD.ports)
        if self.value():
            return queryset.filter(node=self.value())
        return queryset


class FortressPortFilter(admin.SimpleListFilter):
    title = gettext_lazy("port")
    parameter_name = "port"

    def lookups(self, request, model_admin):
        return _ports()

    def queryset(self, request, queryset):
        return queryset.filter(port=self.value()) if self.value() else queryset


class CargoFilter(admin.SimpleListFilter):
    title = gettext_lazy("cargo")
    parameter_name = "cargo"

    def lookups(self, request, model_admin):
        goods = sorted(((good, good_name(good)) for good in WORLD.goods), key=lambda g: g[1])
        return [("-", pgettext("fuldrigger", "None"))] + goods

    def queryset(self, request, queryset):
        if self.value() == "-":
            return queryset.filter(cargo="")
        if self.value():
            return queryset.filter(cargo=self.value())
        return queryset


@admin.register(Ship)
class ShipAdmin(ReadOnlyAdmin):
    list_display = ("name", "engine_id", "match", "owner", "owner_seat", "position", "cargo_name",
                    "cargo_paid", "privateer")
    list_filter = (("match", admin.RelatedOnlyFieldListFilter), ("owner", admin.RelatedOnlyFieldListFilter),
                   ShipPortFilter, "privateer", CargoFilter)
    list_select_related = ("match", "owner")
    search_fields = ("name", "match__id", "owner__username")

    @admin.display(description=gettext_lazy("position"), ordering="node")
    def position(self, obj):
        return obj.position

    @admin.display(description=gettext_lazy("cargo"), ordering="cargo")
    def cargo_name(self, obj):
        return good_name(obj.cargo) or "—"


@admin.register(Fortress)
class FortressAdmin(ReadOnlyAdmin):
    list_display = ("port_name", "match", "owner", "owner_seat")
    list_filter = (("match", admin.RelatedOnlyFieldListFilter), ("owner", admin.RelatedOnlyFieldListFilter),
                   FortressPortFilter)
    list_select_related = ("match", "owner")
    search_fields = ("port", "match__id", "owner__username")

    @admin.display(description=gettext_lazy("port"), ordering="port")
    def port_name(self, obj):
        return obj.port_name
