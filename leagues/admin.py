from django.contrib import admin

from leagues.models import Entry, Event, Pairing, Round, Table


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["user"]
    readonly_fields = ["score", "byes", "rating", "joined_at"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "seats", "rounds", "current_round", "status", "starts_at", "organiser"]
    list_filter = ["status", "format", "game"]
    search_fields = ["name", "organiser__username"]
    raw_id_fields = ["organiser"]
    inlines = [EntryInline]
    # Rounds, tables and scores are written by the services only (they create the matches).
    readonly_fields = ["current_round"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    raw_id_fields = ["match"]
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "started_at", "deadline", "closed_at"]
    list_filter = ["status"]
    inlines = [TableInline]


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ["round", "entry", "table", "seat", "place", "points"]
    raw_id_fields = ["round", "entry", "table"]
