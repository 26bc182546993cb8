from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Match

# The all-time rating has no season; a season is a quarter, "2026-Q4".
ALL_TIME = ""


class Rating(models.Model):
    """A player's skill at one game (OpenSkill, Plackett–Luce), all time or within one season.
    The ranking value is the ordinal mu − 3σ: a bound the player is very likely above, so a
    newcomer with a lucky first game does not top the board."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings",
                             verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=32)
    season = models.CharField(_("season"), max_length=7, blank=True, default=ALL_TIME,
                              help_text=_("Empty for all time, else a quarter such as 2026-Q4."))
    mu = models.FloatField(_("μ (skill)"))
    sigma = models.FloatField(_("σ (uncertainty)"))
    # Stored (always mu − 3σ) so that the leaderboard sorts in the database.
    ordinal = models.FloatField(_("ordinal (μ − 3σ)"))
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "game", "season"], name="one_rating_per_board")]
        indexes = [models.Index(fields=["game", "season", "-ordinal"], name="rating_board_idx")]

    def __str__(self):
        return f"{self.user} · {self.game} {self.season or 'all time'}: {self.ordinal:.1f}"


class RatingEvent(models.Model):
    """One rating's change through one match. Unique per match, player and board (all time or
    the match's season), so the listener that writes them can run twice and change nothing."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_events", verbose_name=_("match"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_events",
                             verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=32)
    season = models.CharField(_("season"), max_length=7, blank=True, default=ALL_TIME)
    rank = models.PositiveSmallIntegerField(_("place"),
                                            help_text=_("The place counted for the rating: absent seats last."))
    players = models.PositiveSmallIntegerField(_("players"))
    mu_before = models.FloatField(_("μ before"))
    sigma_before = models.FloatField(_("σ before"))
    mu_after = models.FloatField(_("μ after"))
    sigma_after = models.FloatField(_("σ after"))
    capped = models.BooleanField(_("capped"), default=False,
                                 help_text=_("The player met an opponent of this match too often lately: "
                                             "the rating did not move."))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["match", "user", "season"], name="one_rating_event")]
        indexes = [models.Index(fields=["user", "season", "game"], name="rating_event_user_idx")]

    def __str__(self):
        return f"{self.match} · {self.user} {self.season or 'all time'}: {self.change:+.1f}"

    @property
    def ordinal_before(self):
        return self.mu_before - 3 * self.sigma_before

    @property
    def ordinal_after(self):
        return self.mu_after - 3 * self.sigma_after

    @property
    def change(self):
        return self.ordinal_after - self.ordinal_before


class RecordEntry(models.Model):
    """One player's showing in one rated match for their game's record (the fortune, the rounds
    to win); the board's record is the best of them."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="record_entries", verbose_name=_("match"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="record_entries",
                             verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=32)
    season = models.CharField(_("season"), max_length=7)
    value = models.FloatField(_("value"))
    finished_at = models.DateTimeField(_("finished"))

    class Meta:
        verbose_name = _("record entry")
        verbose_name_plural = _("record entries")
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_record_entry")]
        indexes = [models.Index(fields=["game", "value"], name="record_game_value_idx")]

    def __str__(self):
        return f"{self.game}: {self.user} {self.value:g} ({self.match})"
