from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile
from games.validation import no_control_characters


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True, label=_("Email"),
                             help_text=_("For password resets and, if you want, turn reminders."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Names go into e-mail headers and every page: no control characters (a newline breaks a header).
        for name in ("display_name", "webhook_url"):
            self.fields[name].validators.append(no_control_characters)

    def clean_reminder_hours(self):
        value = self.cleaned_data["reminder_hours"].strip()
        parts = [p.strip() for p in value.split(",") if p.strip()]
        if any(not p.isdigit() or not 0 < int(p) <= 336 for p in parts):
            raise forms.ValidationError(_("Give whole hours from 1 to 336, separated by commas."))
        return ",".join(parts)


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, initial="bot", label=_("Name"), validators=[no_control_characters])
