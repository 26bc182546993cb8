from django.contrib import admin

from leagues.models import Challenge, Entry, Event, Ladder, Pairing, Round, Rung, Table


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["user"]
    readonly_fields = ["score", "byes", "rating", "joined_at"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "league", "season", "division", "seats", "rounds", "current_round",
                    "status", "starts_at", "organiser"]
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


class RungInline(admin.TabularInline):
    model = Rung
    extra = 0
    raw_id_fields = ["user"]
    # Places move by challenges and the idle drop (leagues/ladders.py), under the ladder's lock.
    readonly_fields = ["position", "active_at"]


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "reach", "idle_days", "organiser", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "organiser__username"]
    raw_id_fields = ["organiser"]
    inlines = [RungInline]


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["ladder", "challenger", "defender", "match", "status", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["challenger", "defender", "match"]
    readonly_fields = ["status"]
