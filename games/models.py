import re
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _, pgettext_lazy

# Why a match ended. The reason is stored in English on the match and in its log (a stored
# value must not depend on who happened to end it); it is put into the reader's language when
# shown. A reason outside these is shown as it was stored.
FINISH_REASONS = {
    "the game reached its end": _("the game reached its end"),
    "the match deadline passed": _("the match deadline passed"),
    "cancelled by its creator": _("cancelled by its creator"),
    "aborted by an admin": _("aborted by an admin"),
    "imported from another site": _("imported from another site"),
}
FINISH_REASON_PATTERNS = [
    (re.compile(r"the round limit of (?P<rounds>\d+) was reached"), _("the round limit of %(rounds)s was reached")),
    (re.compile(r"ended by an admin \((?P<admin>.*)\)"), _("ended by an admin (%(admin)s)")),
]


def finish_reason_display(reason: str) -> str:
    if reason in FINISH_REASONS:
        return str(FINISH_REASONS[reason])
    for pattern, text in FINISH_REASON_PATTERNS:
        found = pattern.fullmatch(reason or "")
        if found:
            return text % found.groupdict()
    return reason


class Match(models.Model):
    """One game played on the site: its settings, its current state and its deadlines."""

    OPEN, RUNNING, PAUSED, FINISHED, ABORTED = "open", "running", "paused", "finished", "aborted"
    STATUS_CHOICES = [(OPEN, pgettext_lazy("match status", "Open")),
                      (RUNNING, pgettext_lazy("match status", "Running")),
                      (PAUSED, pgettext_lazy("match status", "Paused")),
                      (FINISHED, pgettext_lazy("match status", "Finished")),
                      (ABORTED, pgettext_lazy("match status", "Aborted"))]

    game = models.CharField(_("game"), max_length=32, db_index=True)
    rules_version = models.CharField(_("rules version"), max_length=16, blank=True)
    title = models.CharField(_("title"), max_length=80, blank=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seats_count = models.PositiveSmallIntegerField(_("seats"))
    status = models.CharField(_("status"), max_length=10, choices=STATUS_CHOICES, default=OPEN, db_index=True)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches",
                                verbose_name=_("creator"))
    is_public = models.BooleanField(_("public"), default=True)
    rated = models.BooleanField(_("rated"), default=True, help_text=_("Counts for ratings and leaderboards."))
    allow_vacation = models.BooleanField(_("vacations allowed"), default=True,
                                         help_text=_("A player on vacation pauses their deadlines here."))
    bots_cover_absence = models.BooleanField(_("bots cover absences"), default=False,
                                             help_text=_("A bot plays an absent player's turns."))
    invite_code = models.CharField(_("invitation code"), max_length=64, unique=True, default=secrets.token_urlsafe)

    turn_seconds = models.PositiveIntegerField(_("seconds per turn"), default=24 * 3600)
    time_bank_seconds = models.PositiveIntegerField(_("time bank (seconds)"), default=0)
    game_deadline = models.DateTimeField(_("match deadline"), null=True, blank=True)
    round_limit = models.PositiveIntegerField(_("round limit"), null=True, blank=True)
    # The share of turns in time (percent, games/reads/reliability.py) a player needs to join.
    min_reliability = models.PositiveSmallIntegerField(_("minimum reliability (%)"), null=True, blank=True)

    state = models.JSONField(_("game state"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    # The last change that kept the version (a seat taken, the deal at version 0, a deadline
    # moved), told apart by its revision (games/change.py); "" once a change makes a new version.
    # Pages and sockets' catch-ups show it, so a part the page missed is never taken for the one
    # it shows.
    revision = models.CharField(_("revision"), max_length=20, blank=True, default="")
    seed = models.CharField(_("seed"), max_length=64, blank=True)
    seed_hash = models.CharField(_("seed hash"), max_length=64, blank=True)

    turn_seats = models.JSONField(_("seats to play"), default=list, blank=True)
    turn_key = models.CharField(_("turn key"), max_length=40, blank=True)
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    # The earliest moment a job must look at this match (a turn or the game deadline); the
    # sweep selects on it through an index, so its cost follows the number due.
    next_due_at = models.DateTimeField(_("next due"), null=True, blank=True)
    needs_system = models.BooleanField(_("awaits the system"), default=False)
    # The latest a seated player may still vote to refuse a substitute who took a seat here
    # (SeatOffer.refusable_until; kept by SeatOffer.save): a match's parts look for such offers
    # only before then, not with a query for every change of every match.
    refusable_until = models.DateTimeField(_("substitutes refusable until"), null=True, blank=True, editable=False)

    # An imported match keeps its players' names from the site it was played on.
    player_names = models.JSONField(_("player names"), null=True, blank=True)
    standings = models.JSONField(_("standings"), null=True, blank=True)
    finish_reason = models.CharField(_("why it ended"), max_length=200, blank=True)  # "ended by an admin (<username>)"
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [
            models.Index(fields=["next_due_at"], name="match_due_idx",
                         condition=models.Q(status="running")),
            models.Index(fields=["id"], name="match_system_idx",
                         condition=models.Q(status="running", needs_system=True)),
        ]

    def __str__(self):
        if self.title and self.title.strip():  # a title of spaces would be no name at all
            return self.title.strip()
        return f"{self.game_title} #{self.pk}"

    @property
    def game_title(self) -> str:
        """The match's game by its options: a variant that is another game is named so (Catan
        with ships off is "Catan"), wherever a match's game is shown."""
        from games.engines import ENGINES

        engine = ENGINES.get(self.game)
        if engine is None:
            return self.game.title()
        title_of = getattr(engine, "title_of", None)
        return title_of(self.options) if title_of else engine.title

    def get_absolute_url(self):
        return reverse("match_detail", args=[self.pk])

    def get_finish_reason_display(self) -> str:
        return finish_reason_display(self.finish_reason)

    @property
    def is_over(self):
        return self.status in (self.FINISHED, self.ABORTED)


class Seat(models.Model):
    COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "black", "white"]
    # The stored colour is a CSS class as well as a word; the word is shown in the reader's language.
    COLOUR_NAMES = {"red": pgettext_lazy("colour", "red"), "blue": pgettext_lazy("colour", "blue"),
                    "green": pgettext_lazy("colour", "green"), "yellow": pgettext_lazy("colour", "yellow"),
                    "purple": pgettext_lazy("colour", "purple"), "orange": pgettext_lazy("colour", "orange"),
                    "black": pgettext_lazy("colour", "black"), "white": pgettext_lazy("colour", "white")}

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats",
                             verbose_name=_("player"))
    colour = models.CharField(_("colour"), max_length=10)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    consecutive_timeouts = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    is_absent = models.BooleanField(_("absent"), default=False)
    is_bot = models.BooleanField(_("bot"), default=False)
    time_bank_left = models.PositiveIntegerField(_("time bank left (seconds)"), default=0)
    # Whether the seat keeps standing orders that may play (lines, not paused), kept by
    # StandingOrders.save: a move reads it with the seats under the lock to learn whether the
    # next seat's orders are due, with no query or subquery of its own.
    has_orders = models.BooleanField(_("standing orders on"), default=False, editable=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["number", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["match", "colour"], name="one_colour_per_match"),
            models.UniqueConstraint(fields=["match", "number"], name="one_seat_number"),
        ]

    def __str__(self):
        return f"{self.match} seat {self.number} ({self.user})"

    def played_by_bot(self, match=None) -> bool:
        """A bot seat, or an absent player's seat in a match that lets a bot cover for them."""
        match = match or self.match
        return self.is_bot or (self.is_absent and match.bots_cover_absence)


class ActionLog(models.Model):
    """The append-only record of a match: every action and what it caused, in order."""

    PLAYER, TIMEOUT, SYSTEM, BOT, ADMIN, RECORD = "player", "timeout", "system", "bot", "admin", "record"
    ORDER = "order"  # a move a seat's standing orders played (games/play/orders.py)
    KIND_CHOICES = [(PLAYER, pgettext_lazy("log entry by", "Player")),
                    (TIMEOUT, pgettext_lazy("log entry by", "Timeout")),
                    (SYSTEM, pgettext_lazy("log entry by", "System")),
                    (BOT, pgettext_lazy("log entry by", "Bot")),
                    (ADMIN, pgettext_lazy("log entry by", "Admin")),
                    (RECORD, pgettext_lazy("log entry by", "Record")),
                    (ORDER, pgettext_lazy("log entry by", "Standing order"))]
    ENGINE_KINDS = (PLAYER, TIMEOUT, SYSTEM, BOT, ORDER)

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log", verbose_name=_("match"))
    seq = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=8, choices=KIND_CHOICES)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              verbose_name=_("done by"))
    action = models.JSONField(_("action"))
    events = models.JSONField(_("events"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("log entry")
        verbose_name_plural = _("log entries")
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_log_row_per_seq")]

    def __str__(self):
        return f"{self.match} #{self.seq} {self.action.get('type')}"

    @property
    def applies_to_engine(self):
        """Admin and record rows (pause, extend, the end) note what happened around the game;
        they are not moves, and a replay skips them."""
        return self.kind in self.ENGINE_KINDS


class ChatMessage(models.Model):
    """A word between the players of a match, kept with it; an admin may hide one."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat", verbose_name=_("match"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player"))
    text = models.CharField(_("text"), max_length=500)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)
    hidden = models.BooleanField(_("hidden"), default=False)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.user}: {self.text[:40]}"


class Job(models.Model):
    """Work that must follow a committed change of a match (its listeners: notifications,
    ratings), written in the same transaction as the change. The broker only carries a nudge:
    if it is away the row stays, and the sweep runs it later. Done jobs are deleted, so a job
    that runs twice finds nothing the second time."""

    MATCH_CHANGED, MATCH_FINISHED = "match_changed", "match_finished"
    KINDS = [(MATCH_CHANGED, _("match changed")), (MATCH_FINISHED, _("match finished"))]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="jobs", verbose_name=_("match"))
    kind = models.CharField(_("kind"), max_length=20, choices=KINDS)
    args = models.JSONField(_("arguments"), default=dict, blank=True)
    # The listeners the change has something for (their dotted paths, as settings name them),
    # known at the commit from the change itself (each listener's `cares`, games.play.core):
    # the run calls only these, so a turn that passes wakes no league and no standing orders.
    # Empty: every listener of the kind (a match's end, a row written before this field).
    listeners = models.JSONField(_("listeners"), default=list, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # A run that fails is tried again later, each time after a longer wait (games/tasks.py), and
    # after MAX_JOB_ATTEMPTS the job is marked failed and kept with its error for staff to see
    # (and retry) in the admin: no run tries it again by itself.
    attempts = models.PositiveSmallIntegerField(_("failed runs"), default=0)
    next_try_at = models.DateTimeField(_("next try"), null=True, blank=True)
    failed_at = models.DateTimeField(_("failed"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["failed_at"], name="job_failed_idx", condition=models.Q(failed_at__isnull=False))]

    def __str__(self):
        return f"{self.kind} {self.match_id} {self.args}"


class StandingOrders(models.Model):
    """A seat's standing orders: the lines its player left to be played while away, read from
    the top (games/play/orders.py). Shown to that player alone."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="standing_orders",
                              verbose_name=_("match"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player"))
    # [{"kind": ..., its fields, "scope": "always" | "turn" | "until", "until": ISO time}]
    lines = models.JSONField(_("lines"), default=list, blank=True)
    paused = models.BooleanField(_("paused"), default=False)
    # Lines dropped because they no longer made sense, told to the player on the page once.
    dropped = models.JSONField(_("dropped lines"), default=list, blank=True)
    # The turn whose notification went out, so a turn is told at most once.
    told_turn = models.CharField(_("turn told"), max_length=40, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("standing orders")
        verbose_name_plural = _("standing orders")
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_orders_per_seat")]

    def __str__(self):
        return f"{self.match} seat {self.seat} orders"

    @property
    def may_play(self) -> bool:
        return bool(self.lines) and not self.paused

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        fields = kwargs.get("update_fields")
        if fields is None or {"lines", "paused"} & set(fields):
            Seat.objects.filter(match_id=self.match_id, number=self.seat).update(has_orders=self.may_play)

    def delete(self, *args, **kwargs):
        Seat.objects.filter(match_id=self.match_id, number=self.seat).update(has_orders=False)
        return super().delete(*args, **kwargs)


class Volunteer(models.Model):
    """A player ready to take over an absent player's seat in one game, in the hours of the day
    (in their own time zone) they can play (games/play/substitutes.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="volunteering",
                             verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=32)
    # Hours of the day, 0-23, in the player's zone; from > until wraps past midnight (22 to 6).
    hours_from = models.PositiveSmallIntegerField(_("from hour"), default=0)
    hours_until = models.PositiveSmallIntegerField(_("until hour"), default=24)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("substitute volunteer")
        verbose_name_plural = _("substitute volunteers")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_volunteering_per_game")]

    def __str__(self):
        return f"{self.user} for {self.game} {self.hours_from}-{self.hours_until}"


class SeatOffer(models.Model):
    """An absent player's seat offered to volunteers. The first who accepts takes it over at
    once; the other seated players may refuse them until `refusable_until` (docs/substitutes.md)."""

    OPEN, TAKEN, WITHDRAWN, CLOSED = "open", "taken", "withdrawn", "closed"
    STATUS_CHOICES = [(OPEN, pgettext_lazy("seat offer", "Open")), (TAKEN, pgettext_lazy("seat offer", "Taken")),
                      (WITHDRAWN, pgettext_lazy("seat offer", "Withdrawn")),
                      (CLOSED, pgettext_lazy("seat offer", "Closed"))]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_offers", verbose_name=_("match"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    leaver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats_left",
                               verbose_name=_("absent player"))
    substitute = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="seats_taken_over", verbose_name=_("substitute"))
    status = models.CharField(_("status"), max_length=10, choices=STATUS_CHOICES, default=OPEN)
    created_at = models.DateTimeField(_("offered"), auto_now_add=True)
    taken_at = models.DateTimeField(_("taken"), null=True, blank=True)
    taken_in_round = models.PositiveIntegerField(_("taken in round"), null=True, blank=True)
    refusable_until = models.DateTimeField(_("may be refused until"), null=True, blank=True)
    # User ids of the seated players who voted to refuse the substitute now in the seat.
    refusals = models.JSONField(_("refusals"), default=list, blank=True)
    # Substitutes the table refused here: not offered this seat again.
    refused = models.JSONField(_("refused substitutes"), default=list, blank=True)

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        if self.refusable_until is not None:
            # The match's mark never comes earlier than an offer's: a service that saves the
            # match afterwards sets it on its own copy too (games/play/substitutes.py).
            Match.objects.filter(pk=self.match_id).filter(
                models.Q(refusable_until=None) | models.Q(refusable_until__lt=self.refusable_until)
            ).update(refusable_until=self.refusable_until)

    class Meta:
        verbose_name = _("seat offer")
        verbose_name_plural = _("seat offers")
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], condition=models.Q(status="open"),
                                               name="one_open_offer_per_seat")]

    def __str__(self):
        return f"{self.match} seat {self.seat} ({self.status})"
