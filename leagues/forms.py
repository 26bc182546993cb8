from django import forms
from django.utils.translation import gettext_lazy as _

from games.engines import ENGINES
from leagues.models import Event


class EventForm(forms.Form):
    """What an organiser sets; the services check it all again (and against the game)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    game = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(
        label=_("Format"), choices=Event.FORMAT_CHOICES, initial=Event.SWISS, required=False,  # none said: Swiss
        help_text=_("Swiss: each round seats players of near scores together. League division: a balanced "
                    "schedule in which everyone meets everyone about equally often."))
    league = forms.CharField(label=_("League"), max_length=80, required=False,
                             help_text=_("A league division only: the name its divisions share, season after season."))
    division = forms.IntegerField(label=_("Division (1 is the top)"), min_value=1, max_value=20, initial=1, required=False)
    moves = forms.IntegerField(label=_("Promoted and relegated each season"), min_value=0, max_value=10, initial=0,
                               required=False)
    seats = forms.IntegerField(label=_("Players at each table"), min_value=2, max_value=6, initial=3)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=3)
    fill = forms.ChoiceField(label=_("When the players do not fill the tables"), choices=Event.FILL_CHOICES)
    turn_hours = forms.IntegerField(label=_("Hours per turn"), min_value=1, max_value=336, initial=24)
    game_hours = forms.IntegerField(label=_("Hours for a whole match"), min_value=1, initial=14 * 24)
    round_hours = forms.IntegerField(label=_("Hours for a round"), min_value=1, initial=14 * 24)
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    min_rating = forms.FloatField(label=_("Least rating to enter"), min_value=Event.MIN_RATING_BAR,
                                  max_value=Event.MAX_RATING_BAR, required=False)
    min_reliability = forms.IntegerField(label=_("Least share of turns taken in time to enter (%)"), min_value=0,
                                         max_value=100, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():   # the help is read out with its field
            if field.help_text:
                field.widget.attrs["aria-describedby"] = f"id_{name}-help"
        self.fields["game"].choices = [(name, engine.title) for name, engine in ENGINES.items()
                                       if not name.startswith("race")]
