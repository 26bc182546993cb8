"""Seasons are calendar quarters in UTC, named "2026-Q4"; each has its own boards, which start
fresh: a season's rating counts only the matches finished within it."""
import re
from datetime import UTC, datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

_SEASON = re.compile(r"^(\d{4})-Q([1-4])$")
_MONTHS = {1: gettext_lazy("January–March"), 2: gettext_lazy("April–June"), 3: gettext_lazy("July–September"),
           4: gettext_lazy("October–December")}


def season_of(when: datetime) -> str:
    when = when.astimezone(UTC)
    return f"{when.year}-Q{(when.month - 1) // 3 + 1}"


def current_season(now: datetime | None = None) -> str:
    return season_of(now or timezone.now())


def is_season(text: str) -> bool:
    return bool(_SEASON.match(text or ""))


def season_bounds(season: str) -> tuple[datetime, datetime]:
    """The quarter's first moment and the next quarter's first moment."""
    year, quarter = (int(part) for part in _SEASON.match(season).groups())
    start = datetime(year, 3 * quarter - 2, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC) if quarter == 4 else datetime(year, 3 * quarter + 1, 1, tzinfo=UTC)
    return start, end


def season_title(season: str) -> str:
    if not is_season(season):
        return _("All time")
    year, quarter = _SEASON.match(season).groups()
    # Translators: a season is a calendar quarter, e.g. "2026 Q4 (October–December)".
    return _("%(year)s Q%(quarter)s (%(months)s)") % {"year": year, "quarter": quarter,
                                                      "months": _MONTHS[int(quarter)]}
