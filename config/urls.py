from django.contrib import admin
from django.urls import include, path

from config.health import Health
from config.metrics import metrics_view

urlpatterns = [
    path("health/", Health.as_view(), name="health"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/", include("games.web.api_urls")),
    path("", include("notifications.urls")),
    path("", include("community.urls")),
    path("events/", include("leagues.urls")),
    path("", include("games.web.urls")),
]


def not_found(request, exception=None):
    """Unknown API addresses answer in JSON like the rest of the API; pages get the site's page."""
    from django.http import JsonResponse
    from django.shortcuts import render

    if request.path.startswith("/api/"):
        return JsonResponse({"error": "No such API address or object."}, status=404)
    return render(request, "games/error.html", {"message": "There is nothing at this address."}, status=404)


def bad_request(request, exception=None):
    """A request Django could not read (a broken multipart body, more fields than it reads, a host
    not served): said in words, in JSON for the API, instead of Django's bare "Bad Request (400)".
    A page without the site's layout, which needs what the middleware of an unserved host never set."""
    from django.http import HttpResponseBadRequest, JsonResponse
    from django.template.loader import render_to_string
    from django.utils.translation import get_language, gettext as _

    message = _("The request could not be read.")
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message}, status=400)
    return HttpResponseBadRequest(render_to_string("games/bad_request.html",
                                                   {"message": message, "language": get_language()}))


handler400 = bad_request
handler404 = not_found
