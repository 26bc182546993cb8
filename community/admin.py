"""Ratings, their events and the record entries can be looked at, filtered and searched, not
edited: a hand-changed rating would disagree with its events. They change only through matches;
`manage.py ratings_rebuild` computes them all again."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.admin import ReadOnlyAdmin

from community.models import Rating, RatingEvent, RecordEntry


class SeasonFilter(admin.SimpleListFilter):
    title = _("season")
    parameter_name = "season"

    def lookups(self, request, model_admin):
        seasons = (model_admin.model.objects.exclude(season="").order_by("-season")
                   .values_list("season", flat=True).distinct())
        return [("all-time", _("All time"))] + [(s, s) for s in seasons]

    def queryset(self, request, queryset):
        if self.value() == "all-time":
            return queryset.filter(season="")
        if self.value():
            return queryset.filter(season=self.value())
        return queryset


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "season", "ordinal", "mu", "sigma", "games", "wins", "updated_at")
    list_filter = ("game", SeasonFilter)
    search_fields = ("user__username", "user__profile__display_name")
    list_select_related = ("user",)
    ordering = ("game", "season", "-ordinal")


@admin.register(RatingEvent)
class RatingEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "user", "game", "season", "rank", "players", "change_display", "capped", "created_at")
    # "capped": players who keep meeting (rating farming?) — staff look here.
    list_filter = ("capped", "game", SeasonFilter, "rank")
    search_fields = ("user__username", "match__title", "match__id__exact")
    list_select_related = ("match", "user")
    date_hierarchy = "created_at"

    def get_queryset(self, request):
        return super().get_queryset(request).defer("match__state")

    @admin.display(description=_("ordinal change"))
    def change_display(self, obj):
        return f"{obj.change:+.2f}"


@admin.register(RecordEntry)
class RecordEntryAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "value", "season", "match", "finished_at")
    list_filter = ("game", SeasonFilter)
    search_fields = ("user__username", "match__id__exact")
    list_select_related = ("match", "user")

    def get_queryset(self, request):
        return super().get_queryset(request).defer("match__state")
