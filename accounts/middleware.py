import zoneinfo

from django.utils import timezone, translation


class ProfileTimezoneMiddleware:
    """Shows times in the player's own time zone and the site in their chosen language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
        if profile is not None:
            try:
                timezone.activate(zoneinfo.ZoneInfo(profile.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            if profile.language:
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
        else:
            timezone.deactivate()
        return self.get_response(request)
