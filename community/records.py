"""All-time records, one per game. Each is a small function that reads one finished match and
names the seats that set a value; the ratings listener keeps one entry per player and match,
and the board shows the best. A game gets its record with one line in RECORDS."""
from dataclasses import dataclass
from typing import Callable

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Match


@dataclass(frozen=True)
class Record:
    title: str
    # The title inside a sentence ("All-time record: highest fortune"): its own words, since
    # lowering the title's case would spoil languages that capitalise nouns.
    in_sentence: str
    unit: str
    lower_is_better: bool
    # (finished match) -> [(seat number, value)]; absent seats are dropped by the caller.
    find: Callable[[Match], list[tuple[int, float]]]


def _sole_winner(match: Match):
    first = [row["seat"] for row in match.standings or [] if row.get("rank") == 1]
    return first[0] if len(first) == 1 else None


def highest_fortune(match: Match) -> list[tuple[int, float]]:
    """Fuldrigger: every seat's fortune at the end (the standings' score)."""
    return [(row["seat"], row["score"]) for row in match.standings or []
            if isinstance(row.get("score"), (int, float))]


def fastest_treasure_home(match: Match) -> list[tuple[int, float]]:
    """Pirater: the round in which the winner brought a treasure home; a win by being the last
    with ships afloat is no treasure run."""
    state = match.state or {}
    if state.get("win") != "treasure" or state.get("winner") is None or not state.get("round"):
        return []
    return [(state["winner"], state["round"])]


def fewest_rounds_to_win(match: Match) -> list[tuple[int, float]]:
    """Any game with rounds: the round in which the one winner won (shared firsts set none)."""
    winner, rounds = _sole_winner(match), (match.state or {}).get("round")
    return [(winner, rounds)] if winner is not None and rounds else []


RECORDS: dict[str, Record] = {
    "fuldrigger": Record(_("Highest fortune"), _("highest fortune"), pgettext_lazy("record unit", "ducats"), False,
                         highest_fortune),
    "pirater": Record(_("Fastest treasure home"), _("fastest treasure home"), pgettext_lazy("record unit", "rounds"),
                      True, fastest_treasure_home),
    "catan": Record(_("Fewest rounds to win"), _("fewest rounds to win"), pgettext_lazy("record unit", "rounds"),
                    True, fewest_rounds_to_win),
}
