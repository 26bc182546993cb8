from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts import ratelimit
from accounts.forms import ProfileForm, SignupForm, TokenForm
from accounts.models import ApiToken, Profile


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        Profile.objects.create(user=user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome aboard! Create a match or join one in the lobby."))
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)


class LoginView(auth_views.LoginView):
    """Django's login, with failed attempts counted per name and per address."""

    template_name = "accounts/login.html"

    def _who(self):
        return self.request.POST.get("username", ""), self.request.META.get("REMOTE_ADDR", "")

    def post(self, request, *args, **kwargs):
        username, address = self._who()
        if ratelimit.is_locked(username, address):
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, _("Too many failed attempts. Please wait a few minutes and try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        ratelimit.record_failure(*self._who())
        response = super().form_invalid(form)
        response.status_code = 400
        return response

    def form_valid(self, form):
        ratelimit.clear(*self._who())
        return super().form_valid(form)


@login_required
def profile(request):
    profile = Profile.objects.get_or_create(user=request.user)[0]
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Profile saved."))
        return redirect("profile")
    from django.utils import timezone

    from accounts.models import active_vacation
    from games.services import vacation_days_left

    context = {"form": form, "tokens": request.user.api_tokens.order_by("-created_at"), "token_form": TokenForm(),
               "away": active_vacation(request.user, timezone.now()),
               "vacation_days_left": vacation_days_left(user=request.user)}
    return render(request, "accounts/profile.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def vacation(request):
    from games import services
    from games.errors import ServiceError

    try:
        if request.POST.get("back"):
            services.vacation_end(user=request.user)
            messages.success(request, _("Welcome back: your clocks run again."))
        else:
            away = services.vacation_start(user=request.user, days=request.POST.get("days"))
            messages.success(request, _("Enjoy your vacation. Your turns wait until %(until)s.")
                             % {"until": date_format(away.ends_at, "d M Y H:i")})
    except ServiceError as exc:  # refused: the reason, and a 4xx that says nothing was kept
        return render(request, "games/error.html", {"message": exc.message}, status=exc.status)
    return redirect("profile")


@login_required
@require_POST
def token_create(request):
    form = TokenForm(request.POST)
    if not form.is_valid():  # refused: the reason, and a 4xx that says nothing was kept
        message = " ".join(form.errors.get("name", [])) or _("Give the token a name of at most 60 characters.")
        return render(request, "games/error.html", {"message": message}, status=400)
    key = ApiToken.issue(request.user, form.cleaned_data["name"])[1]
    messages.success(request, _("Your new API token (shown only now): %(key)s") % {"key": key})
    return redirect("profile")


@login_required
@require_POST
def token_delete(request, token_id):
    get_object_or_404(ApiToken, id=token_id, user=request.user).delete()
    messages.success(request, _("Token deleted."))
    return redirect("profile")


@require_POST
def language(request):
    """The footer's language chooser: Django's set_language (a cookie for the next pages), and for
    a signed-in player also their profile, since the profile language wins over the cookie."""
    response = set_language(request)
    code = request.POST.get("language", "")
    if request.user.is_authenticated and code in dict(settings.LANGUAGES):
        Profile.objects.update_or_create(user=request.user, defaults={"language": code})
    return response
