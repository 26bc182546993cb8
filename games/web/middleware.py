"""A lost database connection is a clear, retryable answer, never a 500 with half a turn:
the transaction was rolled back with the connection, so nothing was applied."""
import logging

from django.db import InterfaceError, OperationalError
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

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
