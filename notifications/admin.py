from django.contrib import admin

from notifications.models import CalendarFeed, Notification, PushChoices, PushDelivery, PushSubscription, WebhookDelivery


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "text", "created_at", "read_at", "emailed_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "text")


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ("notification", "url", "attempts", "delivered_at", "next_try_at", "last_error")


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "created_at", "last_sent_at")
    search_fields = ("user__username", "name")
    readonly_fields = ("endpoint", "p256dh", "auth")


@admin.register(PushDelivery)
class PushDeliveryAdmin(admin.ModelAdmin):
    list_display = ("notification", "subscription", "attempts", "delivered_at", "next_try_at", "last_error")
    list_filter = (("delivered_at", admin.EmptyFieldListFilter),)


@admin.register(PushChoices)
class PushChoicesAdmin(admin.ModelAdmin):
    list_display = ("user", "kinds", "quiet_from", "quiet_until")


@admin.register(CalendarFeed)
class CalendarFeedAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at")
    exclude = ("token",)  # the address is the player's secret
