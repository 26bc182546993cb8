"""A lost database connection is a clear, retryable answer, never a 500 with half a turn:
the transaction was rolled back with the connection, so nothing was applied. And a page asked
with a method it does not take says so, where Django's 405 is an empty page."""
import logging

from django.db import InterfaceError, OperationalError
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _, gettext_lazy

log = logging.getLogger(__name__)

MESSAGE = gettext_lazy("The database could not be reached, so nothing was changed. Please try again in a moment.")


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.warning("database unavailable during %s %s: %s", request.method, request.path, exception)
        if request.path.startswith("/api/"):
            response = JsonResponse({"error": str(MESSAGE)}, status=503)
        else:
            response = render(request, "games/error.html", {"message": str(MESSAGE)}, status=503)
        response["Retry-After"] = "5"
        return response


class MethodNotAllowedMiddleware:
    """A page's 405 (require_POST and the like answer with no body: a blank page for a reload
    of a form's address) gets the site's error page; its Allow header stays. The API's 405s
    are JSON already (games/web/api_urls.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content or request.path.startswith("/api/"):
            return response
        message = _("This address does not take %(method)s requests.") % {"method": request.method}
        page = render(request, "games/error.html", {"message": message}, status=405)
        page["Allow"] = response.get("Allow", "")
        return page
