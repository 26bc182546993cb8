from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from games.engines import ENGINES
from games.validation import no_control_characters


def game_choices():
    return [(name, engine.title) for name, engine in sorted(ENGINES.items())]


class MatchForm(forms.Form):
    """The settings every game shares; a game's own options come from engine.options()."""

    game = forms.ChoiceField(choices=game_choices, label=gettext_lazy("Game"))
    title = forms.CharField(max_length=80, required=False, label=gettext_lazy("Title"),
                            validators=[no_control_characters])
    seats = forms.IntegerField(min_value=2, max_value=8, initial=2, label=gettext_lazy("Seats"))
    turn_hours = forms.IntegerField(min_value=1, max_value=14 * 24, initial=24, label=gettext_lazy("Hours per turn"),
                                    help_text=gettext_lazy("From 1 hour to 14 days (336 hours)."))
    time_bank_hours = forms.IntegerField(min_value=0, max_value=30 * 24, initial=0,
                                         label=gettext_lazy("Time bank (hours)"),
                                         help_text=gettext_lazy(
                                             "Extra time each player may spend over the whole match."))
    game_deadline = forms.DateTimeField(required=False, label=gettext_lazy("Match ends at"),
                                        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                        help_text=gettext_lazy(
                                            "Optional: the agreed end; the best placed player wins."))
    round_limit = forms.IntegerField(min_value=1, max_value=1000, required=False, label=gettext_lazy("Round limit"))
    is_public = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Public (listed in the lobby)"))
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Rated (counts for the leaderboards)"))
    allow_vacation = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Vacations pause deadlines"))
    bot_seats = forms.IntegerField(min_value=0, max_value=7, initial=0, required=False,
                                   label=gettext_lazy("Seats for bots"),
                                   help_text=gettext_lazy("Bots take these seats at once; the rest wait for people."))
    bots_cover_absence = forms.BooleanField(required=False, initial=False,
                                            label=gettext_lazy("A bot plays for absent players"))

    def clean_game_deadline(self):
        deadline = self.cleaned_data.get("game_deadline")
        if deadline and deadline <= timezone.now() + timedelta(minutes=1):
            raise forms.ValidationError(_("The match deadline must be in the future."))
        return deadline
