from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from accounts.forms import AdminLoginForm
from accounts.models import ApiToken, Profile

# The admin's login counts failures with the site's limiter: same keys, so an address or an
# account locked out of one is locked out of the other.
admin.site.login_form = AdminLoginForm


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "time_zone", "language", "notify_email")
    search_fields = ("user__username", "display_name", "user__email")
    list_filter = ("language", "notify_email")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at")
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("digest", "prefix", "created_at", "last_used_at")


class TokenRevokingUserAdmin(UserAdmin):
    """A password set by staff ends the account's API tokens, as the player's own change does."""

    def user_change_password(self, request, id, form_url=""):
        response = super().user_change_password(request, id, form_url)
        if request.method == "POST" and response.status_code == 302:
            ApiToken.objects.filter(user_id=id).delete()
        return response


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), TokenRevokingUserAdmin)
