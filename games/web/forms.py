from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import get_language, gettext as _, gettext_lazy

from accounts.validators import no_control_characters
from games.engines import ENGINES, IllegalAction
from games.play.limits import ROUNDS_OPTION


def game_choices():
    return [(name, engine.title) for name, engine in sorted(ENGINES.items())]


def seat_bounds(engine) -> tuple[int, int]:
    """The fewest and the most seats the engine allows with its default options or with one of
    its yes/no variants switched on (Pirater's double board seats 5 to 8)."""
    tries = [{}] + [{o["name"]: True} for o in engine.options() if o["kind"] == "bool"]
    allowed = []
    for seats in range(1, 13):
        for options in tries:
            try:
                engine.check_options(options, seats)
            except IllegalAction:
                continue
            allowed.append(seats)
            break
    return (min(allowed), max(allowed)) if allowed else (2, 8)


def seats_help(engine, lang=None) -> str:
    """What the seats field says: the seats the game takes as it is, and those only a variant
    allows, with the variant's name ("2 to 4 players; 5 to 8 with “Double board”"), so that a
    player who types 6 knows before the form refuses it."""
    least, most = seat_bounds(engine)
    plain = [n for n in range(least, most + 1) if _seats_ok(engine, {}, n)]
    if not plain or plain == list(range(least, most + 1)):
        return _("%(least)s to %(most)s players.") % {"least": least, "most": most}
    parts = [_("%(least)s to %(most)s players") % {"least": plain[0], "most": plain[-1]}]
    for o in engine.options(lang=lang):
        if o["kind"] != "bool":
            continue
        more = [n for n in range(least, most + 1) if n not in plain and _seats_ok(engine, {o["name"]: True}, n)]
        if more:
            parts.append(_("%(least)s to %(most)s with “%(variant)s”") % {
                "least": more[0], "most": more[-1], "variant": o["label"]})
    return "; ".join(parts) + "."


def _seats_ok(engine, options, seats) -> bool:
    try:
        engine.check_options(options, seats)
    except IllegalAction:
        return False
    return True


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
    round_limit = forms.IntegerField(min_value=1, max_value=1000, required=False, label=gettext_lazy("Round limit"),
                                     help_text=gettext_lazy(
                                         "Optional: after this many rounds the best placed player wins."))
    is_public = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Public (listed in the lobby)"))
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Rated (counts for the leaderboards)"))
    allow_vacation = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Vacations pause deadlines"))
    bot_seats = forms.IntegerField(min_value=0, max_value=7, initial=0, required=False,
                                   label=gettext_lazy("Seats for bots"),
                                   help_text=gettext_lazy("Bots take these seats at once; the rest wait for people."))
    bots_cover_absence = forms.BooleanField(required=False, initial=False,
                                            label=gettext_lazy("A bot plays for absent players"))
    min_reliability = forms.IntegerField(
        min_value=0, max_value=100, required=False, label=gettext_lazy("Minimum reliability to join (%)"),
        help_text=gettext_lazy("Players must take this share of their turns in time; newcomers may join."))

    def __init__(self, *args, engine=None, **kwargs):
        super().__init__(*args, **kwargs)
        if engine is not None:
            least, most = seat_bounds(engine)
            self._bound("seats", least, most, initial=least,
                        help_text=seats_help(engine, get_language()))
            self._bound("bot_seats", 0, most - 1)
            rounds = next((o for o in engine.options() if o["name"] == ROUNDS_OPTION), None)
            if rounds is not None:
                self._bound("round_limit", 1, rounds["max"])
        # A time typed into the form is read in the viewer's zone (the profile's, made active by
        # the middleware): say which, beside the field.
        self.fields["game_deadline"].label = _("Match ends at (%(zone)s)") % {
            "zone": timezone.get_current_timezone_name()}

    def _bound(self, name, least, most, **changes):
        """The same whole-number field with the bounds of the chosen game (the browser's number
        input shows them, and the form refuses others beside the field)."""
        field = self.fields[name]
        kept = {"required": field.required, "label": field.label, "initial": field.initial,
                "help_text": field.help_text}
        self.fields[name] = forms.IntegerField(min_value=least, max_value=most, **{**kept, **changes})

    def clean_game_deadline(self):
        deadline = self.cleaned_data.get("game_deadline")
        if deadline and deadline <= timezone.now() + timedelta(minutes=1):
            raise forms.ValidationError(_("The match deadline must be in the future."))
        return deadline
