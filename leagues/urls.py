from django.urls import path

from leagues import views, views_ladders

app_name = "leagues"
urlpatterns = [
    path("", views.events, name="events"),
    path("<int:event_id>/", views.event, name="event"),
    path("<int:event_id>/act/", views.event_act, name="event_act"),
    path("ladders/", views_ladders.ladder_list, name="ladders"),
    path("ladders/<int:ladder_id>/", views_ladders.ladder, name="ladder"),
    path("ladders/<int:ladder_id>/act/", views_ladders.ladder_act, name="ladder_act"),
]
