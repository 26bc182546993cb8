from django.urls import path

from notifications import views, views_push

urlpatterns = [
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/read/", views.read, name="inbox_read"),
    path("sw.js", views_push.service_worker, name="service_worker"),
    path("push/subscribe/", views_push.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views_push.unsubscribe, name="push_unsubscribe"),
    path("push/devices/<int:pk>/remove/", views_push.remove, name="push_remove"),
    path("push/choices/", views_push.choices, name="push_choices"),
    path("calendar/<str:token>.ics", views_push.calendar_feed, name="calendar_feed"),
    path("calendar/new/", views_push.calendar_new, name="calendar_new"),
]
