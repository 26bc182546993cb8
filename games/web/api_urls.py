"""/api/: the ninja API's addresses. A method an address does not take is a 405 in JSON, like
every other answer of the API (ninja's own is plain text)."""
import functools

from django.http import JsonResponse
from django.utils.translation import gettext as _

from games.web import api_substitutes  # noqa: F401  (its endpoints join the api)
from games.web.api import api


def _json_405(view):
    @functools.wraps(view)
    def inner(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if response.status_code == 405 and not response.get("Content-Type", "").startswith("application/json"):
            allowed = response.get("Allow", "")
            response = JsonResponse({"error": _("Method %(method)s not allowed.") % {"method": request.method}},
                                    status=405)
            response["Allow"] = allowed
        return response

    return inner


patterns, _app, app_name = api.urls  # the namespace ninja reverses its docs' addresses in
for pattern in patterns:
    pattern.callback = _json_405(pattern.callback)
urlpatterns = patterns
