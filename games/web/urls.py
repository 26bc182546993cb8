from django.urls import path

from games.web import substitutes, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/<int:match_id>/", views.match_detail, name="match_detail"),
    path("matches/<int:match_id>/action/", views.match_action, name="match_action"),
    path("matches/<int:match_id>/join/", views.match_join, name="match_join"),
    path("matches/<int:match_id>/leave/", views.match_leave, name="match_leave"),
    path("matches/<int:match_id>/colour/", views.match_colour, name="match_colour"),
    path("matches/<int:match_id>/start/", views.match_start, name="match_start"),
    path("matches/<int:match_id>/return/", views.match_return, name="match_return"),
    path("matches/<int:match_id>/verify/", views.match_verify, name="match_verify"),
    path("matches/<int:match_id>/replay/", views.match_replay, name="match_replay"),
    path("matches/<int:match_id>/export.json", views.match_export, name="match_export"),
    path("matches/<int:match_id>/orders/", views.match_orders, name="match_orders"),
    path("matches/<int:match_id>/chat/", views.chat_post, name="chat_post"),
    path("matches/import/", views.match_import, name="match_import"),
    path("substitutes/", substitutes.substitutes, name="substitutes"),
    path("substitutes/offers/<int:offer_id>/accept/", substitutes.offer_accept, name="offer_accept"),
    path("substitutes/offers/<int:offer_id>/refuse/", substitutes.offer_refuse, name="offer_refuse"),
    path("games/<str:game>/rules/", views.rules, name="rules"),
    # Under /accounts/ where the profile has always posted it; games owns it (it moves clocks).
    path("accounts/vacation/", views.vacation, name="vacation"),
]
