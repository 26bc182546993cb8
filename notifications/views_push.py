"""The pages' side of Web Push and the calendar feed: thin, the work is in push.py and calendar.py."""
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from notifications import calendar, push
from notifications.models import CalendarFeed


@require_safe
def service_worker(request):
    """The service worker, at the site's root so it may control every page (scope "/")."""
    body = render_to_string("notifications/sw.js", {"icon": static("favicon.svg")})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # browsers check for a new worker on every visit
    return response


def _json_body(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested too deep for the parser: not a body either
        return {}
    return data if isinstance(data, dict) else {}


@login_required
@require_POST
def subscribe(request):
    data = _json_body(request)
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    fields = [data.get("endpoint"), keys.get("p256dh"), keys.get("auth"), data.get("name", "")]
    if not all(isinstance(f, str) for f in fields):
        return JsonResponse({"error": _("The browser gave no push address.")}, status=400)
    try:
        device = push.subscribe(user=request.user, endpoint=fields[0], p256dh=fields[1], auth=fields[2],
                                name=fields[3])
    except push.Refused as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse({"id": device.pk, "name": device.name}, status=201)


@login_required
@require_POST
def unsubscribe(request):
    endpoint = _json_body(request).get("endpoint")
    removed = push.unsubscribe(user=request.user, endpoint=endpoint if isinstance(endpoint, str) else "")
    return JsonResponse({"removed": removed})


@login_required
@require_POST
def remove(request, pk):
    if not push.unsubscribe(user=request.user, pk=pk):
        raise Http404
    messages.success(request, _("The device is no longer told."))
    return redirect("profile")


def _hour(raw):
    return int(raw) if raw and raw.isdecimal() and 0 <= int(raw) < 24 else None


@login_required
@require_POST
def choices(request):
    quiet_from, quiet_until = _hour(request.POST.get("quiet_from")), _hour(request.POST.get("quiet_until"))
    if (quiet_from is None) != (quiet_until is None):
        messages.error(request, _("Quiet hours need both a start and an end."))
        return redirect("profile")
    push.save_choices(user=request.user, kinds=request.POST.getlist("kinds"), quiet_from=quiet_from,
                      quiet_until=quiet_until)
    messages.success(request, _("Your push choices are saved."))
    return redirect("profile")


@never_cache
@require_safe
def calendar_feed(request, token):
    """The feed at its secret address: no login, a 404 for any address not current."""
    feed = CalendarFeed.objects.filter(token=token).select_related("user__profile").first()
    if feed is None or not feed.user.is_active:
        raise Http404
    response = HttpResponse(calendar.ics(feed.user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="tradewinds.ics"'
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


@login_required
@require_POST
def calendar_new(request):
    calendar.renew(user=request.user)
    messages.success(request, _("Your calendar has a new address; the old one no longer works."))
    return redirect("profile")
