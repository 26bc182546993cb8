from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from notifications import services
from notifications.models import Notification
from notifications.wording import notification_text


@login_required
@never_cache
@require_safe
def inbox(request):
    notifications = list(Notification.objects.filter(user=request.user).select_related("match")
                         .defer("match__state")[:100])
    for n in notifications:
        n.worded = notification_text(n)  # in the language the page is in now
    return render(request, "notifications/inbox.html", {"notifications": notifications})


@login_required
@require_POST
def read(request):
    """One notification read (`id`), or all of them (no id: "Mark all as read"). An id that is
    not one is refused: it once marked every notification read. `next` is a page of this site
    only (a "/\\host" the browser reads as another site is not)."""
    raw = request.POST.get("id")
    if raw and not raw.isdecimal():
        return render(request, "games/error.html", {"message": _("There is no such notification.")}, status=400)
    services.mark_read(user=request.user, notification_id=int(raw) if raw else None)
    target = request.POST.get("next", "")
    safe = target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                                     require_https=request.is_secure())
    return redirect(target if safe else "inbox")


def unread_count(request):
    """Context processor: the number beside the inbox link."""
    if not request.user.is_authenticated:
        return {}
    return {"unread_count": Notification.objects.filter(user=request.user, read_at__isnull=True).count()}
