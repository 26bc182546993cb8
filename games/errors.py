"""Errors a service raises for a person to read; views and the API turn them into 4xx answers."""


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str, **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class StaleVersion(ServiceError):
    """The client acted on a state that has moved on; it gets the current version back."""

    status = 409


class BadRequest(ServiceError):
    status = 400


class TooMany(ServiceError):
    """One player asked for more than the site allows in a while (settings.ACTION_RATES)."""

    status = 429
