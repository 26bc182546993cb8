"""Admin game management: browse and filter matches, seats and the log; pause, resume, extend,
end now, abort and hand a seat over. Every action goes through the services and into the log."""
import json

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from games import play
from games.errors import BadRequest, ServiceError
from games.models import ActionLog, ChatMessage, Job, Match, Seat, SeatOffer, Volunteer

admin.site.site_header = gettext_lazy("Tradewinds administration")
admin.site.site_title = gettext_lazy("Tradewinds administration")


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records written by the games themselves: browse and filter, never edit by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "colour", "is_absent", "consecutive_timeouts", "time_bank_left")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


def _bulk(service, label, *, confirm=False):
    """An admin action over the selected matches. One that cannot be undone (end now, abort)
    first shows the matches it will act on and runs only when that page is confirmed."""
    def action(modeladmin, request, queryset):
        if confirm and request.POST.get("confirm") != "yes":
            return TemplateResponse(request, "admin/games/match_confirm.html", {
                **modeladmin.admin_site.each_context(request), "opts": modeladmin.model._meta,
                "title": _("Are you sure?"), "label": label, "matches": list(queryset),
                "action_name": action.__name__, "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME})
        done = 0
        for match in queryset:
            try:
                service(match_id=match.pk, actor=request.user)
                done += 1
            except ServiceError as exc:
                modeladmin.message_user(request, f"{match}: {exc.message}", messages.WARNING)
        if done:
            modeladmin.message_user(request, ngettext("%(action)s: %(count)s match.", "%(action)s: %(count)s matches.",
                                                      done) % {"action": label, "count": done}, messages.SUCCESS)

    action.short_description = label
    action.__name__ = f"action_{service.__name__}"
    return action


def _end_now(match_id, actor):
    return play.match_finish(match_id=match_id, reason=f"ended by an admin ({actor})", actor=actor)


_end_now.__name__ = "match_end_now"


class ExtendForm(forms.Form):
    turn_hours = forms.FloatField(required=False, min_value=0, max_value=24 * 30,
                                  label=gettext_lazy("Add hours to the current turn"))
    game_deadline = forms.DateTimeField(required=False, label=gettext_lazy("New match deadline"),
                                        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_deadline"].label = _("New match deadline (%(zone)s)") % {
            "zone": timezone.get_current_timezone_name()}


class HandSeatForm(forms.Form):
    seat = forms.IntegerField(min_value=0, label=gettext_lazy("Seat number (0 is the first)"))
    username = forms.CharField(label=gettext_lazy("Hand it to (username)"))


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "__str__", "game", "status", "seats_count", "version", "turn_deadline",
                    "game_deadline", "created_at")
    list_filter = ("game", "status", "is_public")
    search_fields = ("id", "title", "seats__user__username", "creator__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    readonly_fields = ("game", "rules_version", "options", "state_shown", "version", "seed_hash", "turn_seats",
                       "turn_started_at", "turn_deadline", "next_due_at", "needs_system", "standings",
                       "finish_reason", "created_at", "started_at", "finished_at", "status", "manage_link")
    exclude = ("seed", "state")  # the state is shown by state_shown, its seed hidden
    actions = [_bulk(play.match_pause, gettext_lazy("Pause")),
               _bulk(play.match_resume, gettext_lazy("Resume")),
               _bulk(_end_now, gettext_lazy("End now with current standings"), confirm=True),
               _bulk(play.match_abort, gettext_lazy("Abort"), confirm=True)]

    def get_urls(self):
        return [path("<int:match_id>/manage/", self.admin_site.admin_view(self.manage), name="games_match_manage")] + super().get_urls()

    @admin.display(description=gettext_lazy("State"))
    def state_shown(self, obj):
        """The state with its secret seed replaced by the seed's hash until the match is over,
        as everyone sees it: an admin who also plays must not be able to work out the dice."""
        if not isinstance(obj.state, dict):
            return "—"
        state = dict(obj.state)
        if "seed" in state and not obj.is_over:
            state["seed"] = f"sha256:{obj.seed_hash}"
        return format_html("<pre>{}</pre>", json.dumps(state, indent=1, sort_keys=True, ensure_ascii=False))

    @admin.display(description=gettext_lazy("Manage"))
    def manage_link(self, obj):
        if obj.pk is None:
            return "—"
        return format_html('<a href="{}">{}</a>', reverse("admin:games_match_manage", args=[obj.pk]),
                           _("Extend a deadline or hand a seat over"))

    def manage(self, request, match_id):
        match = get_object_or_404(Match, pk=match_id)
        if not self.has_change_permission(request, match):
            return redirect("admin:index")
        extend, hand = ExtendForm(prefix="extend"), HandSeatForm(prefix="hand")
        if request.method == "POST":
            try:
                if "extend" in request.POST:
                    extend = ExtendForm(request.POST, prefix="extend")
                    if extend.is_valid():
                        before = match.game_deadline
                        after = play.match_extend(match_id=match.pk, actor=request.user,
                                                      turn_hours=extend.cleaned_data["turn_hours"] or 0,
                                                      game_deadline=extend.cleaned_data["game_deadline"])
                        earlier = before is not None and after.match.game_deadline < before
                        self.message_user(request, _("Match deadline moved earlier.") if earlier
                                          else _("Deadline extended."), messages.SUCCESS)
                        return redirect("admin:games_match_manage", match.pk)
                elif "hand" in request.POST:
                    hand = HandSeatForm(request.POST, prefix="hand")
                    if hand.is_valid():
                        user = get_user_model().objects.filter(username=hand.cleaned_data["username"]).first()
                        if user is None:
                            raise BadRequest(_("No user with that name."))
                        play.seat_hand_over(match_id=match.pk, seat_number=hand.cleaned_data["seat"],
                                                to_user=user, actor=request.user)
                        self.message_user(request, _("Seat handed over."), messages.SUCCESS)
                        return redirect("admin:games_match_manage", match.pk)
            except ServiceError as exc:
                self.message_user(request, exc.message, messages.ERROR)
        context = {**self.admin_site.each_context(request), "match": match, "extend": extend, "hand": hand,
                   "opts": self.model._meta, "title": _("Manage %(match)s") % {"match": match}}
        return render(request, "admin/games/match_manage.html", context)


@admin.register(ActionLog)
class ActionLogAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "kind", "seat", "actor", "action_type", "created_at")
    list_filter = ("kind", "match__game")
    search_fields = ("match__id", "actor__username")
    list_select_related = ("match", "actor")

    @admin.display(description=gettext_lazy("Action"))
    def action_type(self, obj):
        return obj.action.get("type")


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("match", "number", "user", "colour", "is_absent", "consecutive_timeouts")
    list_filter = ("is_absent", "match__game")
    search_fields = ("user__username", "match__id")
    readonly_fields = ("match", "number", "user", "colour", "consecutive_timeouts", "time_bank_left", "is_absent")

    def has_add_permission(self, request):
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("match", "user", "text", "created_at", "hidden")
    list_filter = ("hidden",)
    search_fields = ("text", "user__username", "match__id")
    readonly_fields = ("match", "user", "text", "created_at")
    actions = ["hide", "unhide"]

    @admin.action(description=gettext_lazy("Hide the selected messages"))
    def hide(self, request, queryset):
        from games.play.chat import chat_hide

        for message in queryset:
            chat_hide(message_id=message.pk, hidden=True)

    @admin.action(description=gettext_lazy("Show the selected messages again"))
    def unhide(self, request, queryset):
        from games.play.chat import chat_hide

        for message in queryset:
            chat_hide(message_id=message.pk, hidden=False)

    def has_add_permission(self, request):
        return False


class JobStatusFilter(admin.SimpleListFilter):
    title = gettext_lazy("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("failed", gettext_lazy("Failed")), ("retrying", gettext_lazy("Being retried")),
                ("waiting", gettext_lazy("Waiting"))]

    def queryset(self, request, queryset):
        if self.value() == "failed":
            return queryset.filter(failed_at__isnull=False)
        if self.value() == "retrying":
            return queryset.filter(failed_at__isnull=True, attempts__gt=0)
        if self.value() == "waiting":
            return queryset.filter(failed_at__isnull=True, attempts=0)
        return queryset


@admin.register(Job)
class JobAdmin(ReadOnlyAdmin):
    """The jobs still to run after a change: failed ones stay here with their error (issue 29) until
    staff retry them, once what made them fail is fixed."""

    list_display = ("id", "match", "kind", "created_at", "attempts", "next_try_at", "failed_at", "error_line")
    list_filter = (JobStatusFilter, "kind")
    search_fields = ("match__id",)
    list_select_related = ("match",)
    readonly_fields = ("match", "kind", "args", "listeners", "created_at", "attempts", "next_try_at", "failed_at", "last_error")
    actions = ["retry"]

    @admin.display(description=gettext_lazy("Error"))
    def error_line(self, obj):
        lines = [line for line in obj.last_error.strip().splitlines() if line.strip()]
        return lines[-1][:120] if lines else ""

    @admin.action(description=gettext_lazy("Retry the selected jobs"))
    def retry(self, request, queryset):
        from games.tasks import retry_failed_jobs

        count = retry_failed_jobs(queryset.values_list("pk", flat=True))
        self.message_user(request, ngettext("%(count)s job will be run again.", "%(count)s jobs will be run again.",
                                           count) % {"count": count}, messages.SUCCESS)



@admin.register(Volunteer)
class VolunteerAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "hours_from", "hours_until", "created_at")
    list_filter = ("game",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(SeatOffer)
class SeatOfferAdmin(admin.ModelAdmin):
    """Offers are changed by the services alone (one transaction, the match locked): read here."""
    list_display = ("match", "seat", "leaver", "substitute", "status", "created_at", "taken_at", "refusable_until")
    list_filter = ("status",)
    search_fields = ("leaver__username", "substitute__username")
    raw_id_fields = ("match", "leaver", "substitute")

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False
