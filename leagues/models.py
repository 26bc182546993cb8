"""Events the site runs: a Swiss tournament of many rounds, each round's tables, each table an
ordinary match (games.Match) linked back from here, so the platform never knows of events."""
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Event(models.Model):
    SWISS, LEAGUE = "swiss", "league"
    FORMAT_CHOICES = [(SWISS, _("Swiss")), (LEAGUE, _("League division"))]
    ENTRY, RUNNING, PAUSED, FINISHED = "entry", "running", "paused", "finished"
    STATUS_CHOICES = [(ENTRY, _("Taking entries")), (RUNNING, _("Running")), (PAUSED, _("Paused")),
                      (FINISHED, _("Finished"))]
    BYES, BOTS, SMALLER = "byes", "bots", "smaller"
    FILL_CHOICES = [(BYES, _("Byes")), (BOTS, _("A bot seat")), (SMALLER, _("Smaller tables"))]
    # The least rating an event may ask for lies in these bounds (a rating is a skill less three
    # times its doubt: a new player has 0, the best rarely pass 60); outside them a bar would
    # admit everyone or no one.
    MIN_RATING_BAR, MAX_RATING_BAR = -100, 100

    name = models.CharField(max_length=80)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_events")
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=16, choices=FORMAT_CHOICES, default=SWISS)
    seats = models.PositiveSmallIntegerField(help_text=_("Players at each table."))
    fill = models.CharField(max_length=8, choices=FILL_CHOICES, default=BYES)
    rounds = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField()
    game_hours = models.PositiveIntegerField(help_text=_("Each match's whole-game deadline, from its round's start."))
    round_hours = models.PositiveIntegerField(help_text=_("Each round's deadline, from its start."))
    min_rating = models.FloatField(null=True, blank=True)
    # The share of turns in time (percent, games/reads/reliability.py) a player needs to enter.
    min_reliability = models.PositiveSmallIntegerField(null=True, blank=True)
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=8, choices=STATUS_CHOICES, default=ENTRY)
    entries_open = models.BooleanField(default=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    # A league division belongs to a league (`league`, its name) and a season; between seasons
    # the top `moves` of each division go up one and the bottom `moves` down one (docs/leagues.md).
    league = models.CharField(max_length=80, blank=True)
    season = models.PositiveSmallIntegerField(default=1)
    division = models.PositiveSmallIntegerField(default=1, help_text=_("1 is the top division."))
    moves = models.PositiveSmallIntegerField(default=0, help_text=_("Players promoted and relegated between seasons."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]
        ordering = ["-starts_at"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:event", args=[self.pk])


class Entry(models.Model):
    """A player in an event, with what the pairing needs kept up to date at each round's close."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    removed = models.BooleanField(default=False)
    score = models.FloatField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    rating = models.FloatField(default=0)   # the game's rating when the event started

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="one_entry_per_player")]
        ordering = ["joined_at", "pk"]

    def __str__(self):
        return f"{self.user} in {self.event}"


class Round(models.Model):
    OPEN, CLOSED = "open", "closed"
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=[(OPEN, _("Playing")), (CLOSED, _("Closed"))], default=OPEN)
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_round_per_number")]
        indexes = [models.Index(fields=["status", "deadline"])]
        ordering = ["number"]

    def __str__(self):
        return f"{self.event} round {self.number}"


class Table(models.Model):
    """One table of a round: its match (an ordinary match, linked from here only)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField("games.Match", on_delete=models.PROTECT, related_name="event_table")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")]
        ordering = ["number"]


class Pairing(models.Model):
    """A player's place in a round: at a table in a seat, or a bye; the place and points once
    the round closes."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="pairings")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="pairings")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="seated_once_a_round")]


class Ladder(models.Model):
    """A standing ranking: a player challenges one up to `reach` places above to a match of two;
    a challenger who wins takes that place and everyone between moves down one; a player who
    plays no challenge for `idle_days` drops one place (docs/leagues.md)."""

    name = models.CharField(max_length=80)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_ladders")
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    reach = models.PositiveSmallIntegerField(default=3, help_text=_("How many places above a player may challenge."))
    idle_days = models.PositiveSmallIntegerField(default=14, help_text=_("Days without a challenge before a drop."))
    turn_seconds = models.PositiveIntegerField(default=24 * 3600)
    game_hours = models.PositiveIntegerField(default=14 * 24)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:ladder", args=[self.pk])


class Rung(models.Model):
    """A player's place on a ladder (1 the top)."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rungs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_rungs")
    position = models.PositiveIntegerField()
    active_at = models.DateTimeField()   # the last challenge played or made, or the join

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "user"], name="one_rung_per_player")]
        ordering = ["position"]


class Challenge(models.Model):
    OPEN, WON, LOST = "open", "won", "lost"
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField("games.Match", on_delete=models.PROTECT, related_name="ladder_challenge")
    status = models.CharField(max_length=8, default=OPEN,
                              choices=[(OPEN, _("Playing")), (WON, _("Challenger won")), (LOST, _("Defender held"))])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
