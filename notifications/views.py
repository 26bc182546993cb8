from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
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
    raw = request.POST.get("id")
    services.mark_read(user=request.user, notification_id=int(raw) if raw and raw.isdecimal() else None)
    target = request.POST.get("next", "")
    return redirect(target if target.startswith("/") and not target.startswith("//") else "inbox")


def unread_count(request):
    """Context processor: the number beside the inbox link."""
    if not request.user.is_authenticated:
        return {}
    return {"unread_count": Notification.objects.filter(user=request.user, read_at__isnull=True).count()}
