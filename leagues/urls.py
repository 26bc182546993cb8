from django.urls import path

from leagues import views

app_name = "leagues"
urlpatterns = [
    path("", views.events, name="events"),
    path("<int:event_id>/", views.event, name="event"),
    path("<int:event_id>/act/", views.event_act, name="event_act"),
]
