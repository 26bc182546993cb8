from django.contrib import admin

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
