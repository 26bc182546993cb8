from django.urls import path

from games import api

urlpatterns = [
    path("openapi.json", api.openapi, name="api_openapi"),
    path("me", api.me, name="api_me"),
    path("matches", api.matches, name="api_matches"),
    path("matches/<int:match_id>", api.match, name="api_match"),
    path("matches/<int:match_id>/join", api.join, name="api_join"),
    path("matches/<int:match_id>/start", api.start, name="api_start"),
    path("matches/<int:match_id>/actions", api.actions, name="api_actions"),
    path("matches/<int:match_id>/log", api.public_log, name="api_log"),
    path("matches/<int:match_id>/replay", api.replay, name="api_replay"),
]
