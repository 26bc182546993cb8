from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from accounts import ratelimit
from accounts.forms import LoginForm, ProfileForm, SignupForm, TokenForm
from accounts.models import ApiToken, Profile, active_vacation, vacation_days_left


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        Profile.objects.create(user=user, time_zone=form.cleaned_data["time_zone"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome aboard! Create a match or join one in the lobby. Times are shown in "
                                    "%(zone)s; change it in your profile.") % {"zone": form.cleaned_data["time_zone"]})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)


class LoginView(auth_views.LoginView):
    """Django's login through LoginForm, which counts failures (accounts.ratelimit)."""

    template_name = "accounts/login.html"
    http_method_names = ["get", "head", "post"]
    authentication_form = LoginForm

    def form_valid(self, form):
        response = super().form_valid(form)
        # Proof of this sign-in for later: the account's guessers elsewhere cannot lock it out here.
        ratelimit.remember_browser(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 429 if form.locked else 400
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset, with mails bounded per requesting address and per e-mail address. The
    counts go up whether or not an account has the address, so a 429 tells nothing about it."""

    template_name = "accounts/form_page.html"
    extra_context = {"title": gettext_lazy("Reset password")}
    http_method_names = ["get", "head", "post"]

    def form_valid(self, form):
        email = form.cleaned_data["email"].strip().lower()
        address = ratelimit.client_address(self.request)
        allowed = ratelimit.allow("reset-addr", address, *ratelimit.parse_rate(settings.PASSWORD_RESET_RATE_PER_ADDRESS))
        allowed &= ratelimit.allow("reset-email", ratelimit.digest(email),
                                   *ratelimit.parse_rate(settings.PASSWORD_RESET_RATE_PER_EMAIL))
        if not allowed:
            form.add_error(None, _("Too many reset mails asked for. Please wait an hour and try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


def _revoke_tokens(request, user) -> None:
    """A new password ends the API tokens too: whoever had the old one may have made them."""
    revoked, _per_model = ApiToken.objects.filter(user=user).delete()
    if revoked:
        messages.info(request, ngettext("Your API token was revoked with the old password: make a new one for your bots.",
                                        "Your %(count)s API tokens were revoked with the old password: make new ones "
                                        "for your bots.", revoked) % {"count": revoked})


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/form_page.html"
    extra_context = {"title": gettext_lazy("Change password")}
    http_method_names = ["get", "head", "post"]

    def form_valid(self, form):
        response = super().form_valid(form)
        _revoke_tokens(self.request, form.user)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's reset confirmation. The mailed link is the owner's proof: the browser and address
    that open it become known to the login limiter, so an account that guessers elsewhere have
    closed to unknown places opens here (accounts.ratelimit)."""

    template_name = "accounts/form_page.html"
    extra_context = {"title": gettext_lazy("Choose a new password")}
    http_method_names = ["get", "head", "post"]

    def form_valid(self, form):
        response = super().form_valid(form)
        _revoke_tokens(self.request, form.user)
        username = form.user.get_username()
        ratelimit.signed_in(username, ratelimit.client_address(self.request))
        ratelimit.remember_browser(self.request, response, username)
        return response


@login_required
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request):
    profile = Profile.objects.get_or_create(user=request.user)[0]
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        # The form's fields alone: what the site keeps on the profile meanwhile (a vacation
        # begun in another tab, the turns' records the worker counts) is not written back stale.
        form.save(commit=False).save(update_fields=list(form.Meta.fields))
        messages.success(request, _("Profile saved."))
        return redirect("profile")
    return _profile_page(request, form)


def _profile_page(request, form, *, new_key=None, status=None):
    context = {"form": form, "tokens": request.user.api_tokens.order_by("-created_at"), "token_form": TokenForm(),
               "away": active_vacation(request.user, timezone.now()),
               "vacation_days_left": vacation_days_left(user=request.user),
               # Sections other apps add (push devices, the calendar address), so accounts names none.
               "profile_sections": settings.PROFILE_SECTIONS,
               # A new token's key goes in this response only: not in the messages cookie.
               "new_key_text": _("Your new API token (shown only now): %(key)s") % {"key": new_key}
               if new_key else None}
    return render(request, "accounts/profile.html", context, status=status or (400 if form.errors else 200))


@login_required
@never_cache
@require_POST
def token_create(request):
    form = TokenForm(request.POST)
    if not form.is_valid():  # refused: the reason, and a 4xx that says nothing was kept
        message = " ".join(form.errors.get("name", [])) or _("Give the token a name of at most 60 characters.")
        return render(request, "games/error.html", {"message": message}, status=400)
    key = ApiToken.issue(request.user, form.cleaned_data["name"])[1]
    profile = Profile.objects.get_or_create(user=request.user)[0]
    return _profile_page(request, ProfileForm(instance=profile), new_key=key, status=201)


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
