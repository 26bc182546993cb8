from django.urls import path

from community import views

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:game>/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.player, name="player"),
    path("players/<str:username>/vs/", views.head_to_head_pick, name="head_to_head_pick"),
    path("players/<str:username>/vs/<str:other>/", views.head_to_head, name="head_to_head"),
]
