from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from accounts import ratelimit
from accounts.models import TIME_ZONES, Profile, zone_choices
from accounts.validators import no_control_characters, no_look_alikes


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True, label=_("Email"),
                             help_text=_("For password resets and, if you want, turn reminders."))
    # Filled in by site.js from the browser's own zone; without a script (or with a zone we do
    # not know) the account starts in UTC and the profile says so.
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput(
        attrs={"data-browser-time-zone": "fill"}))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(no_look_alikes)

    def clean_time_zone(self):
        zone = self.cleaned_data.get("time_zone", "")
        return zone if zone in TIME_ZONES else "UTC"

    def clean_email(self):
        # No "already exists": that would tell anyone whether an address has an account, which
        # the password reset is careful not to. A reset mail for a shared address lists each
        # account's link (Django's PasswordResetForm), so the address's owner keeps control.
        return self.cleaned_data["email"].lower()


class LimitedLoginMixin:
    """Counts failed logins (accounts.ratelimit) and refuses to check a password once a bound
    is reached, for the site's login and the admin's alike."""

    locked = False

    def clean(self):
        username = str(self.data.get("username", ""))
        address = ratelimit.client_address(self.request) if self.request is not None else ""
        known = self.request is not None and ratelimit.known_browser(self.request, username)
        why = ratelimit.locked(username, address, browser_known=known)
        if why == ratelimit.HERE:
            self.locked = True
            raise forms.ValidationError(_("Too many failed attempts. Please wait a few minutes and try again."),
                                        code="locked")
        if why == ratelimit.ELSEWHERE:
            self.locked = True
            raise forms.ValidationError(_("Too many failed attempts at this account from other places. Log in "
                                          "from a device or network you have logged in from before, or reset "
                                          "your password: the link we mail you lets you log in from here."),
                                        code="locked_elsewhere")
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            ratelimit.record_failure(username, address)
            raise
        ratelimit.signed_in(username, address)
        return cleaned


class LoginForm(LimitedLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(LimitedLoginMixin, AdminAuthenticationForm):
    pass


class ProfileForm(forms.ModelForm):
    webhook_url = forms.URLField(required=False, assume_scheme="https", max_length=300, label=_("Webhook URL"),
                                 help_text=_("We POST each notification there as JSON, signed with your secret."))

    class Meta:
        model = Profile
        fields = ("display_name", "time_zone", "language", "notify_email", "notify_turn", "reminder_hours",
                  "webhook_url")
        # The form's own wording, which reads better to a player than the admin's field names.
        labels = {"display_name": _("Display name"), "time_zone": _("Time zone"), "language": _("Language"),
                  "notify_email": _("Notify email")}
        help_texts = {"reminder_hours": _("How many hours before a turn's deadline to remind you, separated by "
                                          "commas: 24,4,1 reminds you a day, four hours and an hour before. "
                                          "Leave it empty for no reminders.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Names go into e-mail headers and every page: no control characters (a newline breaks a header).
        for name in ("display_name", "webhook_url"):
            self.fields[name].validators.append(no_control_characters)
        # The places people live, grouped by continent, rather than every name the zone database
        # knows (Factory, localtime, Etc/GMT+5…); a zone saved before stays on offer.
        saved = self.instance.time_zone if self.instance and self.instance.pk else None
        self.fields["time_zone"].choices = zone_choices(keep=saved)
        # The zones are named by their places, in the zone database's own words.
        self.fields["time_zone"].widget.attrs["translate"] = "no"
        for name, field in self.fields.items():
            if field.help_text:
                field.widget.attrs["aria-describedby"] = f"id_{name}-help"

    def clean_webhook_url(self):
        # Whoever delivers webhooks says which addresses it will send to (notifications.webhooks,
        # named in the settings): accounts know nothing of the apps that listen to them.
        url = self.cleaned_data["webhook_url"]
        if url:
            try:
                import_string(settings.WEBHOOK_URL_CHECK)(url)
            except ValueError as exc:
                raise forms.ValidationError(str(exc)) from None
        return url

    def clean_reminder_hours(self):
        value = self.cleaned_data["reminder_hours"].strip()
        parts = [p.strip() for p in value.split(",") if p.strip()]
        if any(not p.isdecimal() or not 0 < int(p) <= 336 for p in parts):
            raise forms.ValidationError(_("Give whole hours from 1 to 336, separated by commas."))
        return ",".join(parts)


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, initial="bot", label=_("Name"), validators=[no_control_characters])
