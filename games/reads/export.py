"""A finished match as JSON: settings, seed and actions, everything another site needs to
replay it (games/play/imports.py reads the same format back)."""
from django.utils.translation import gettext as _

from games.errors import NotAllowed
from games.models import ActionLog, Match
from games.reads.replay import match_edition
from games.reads.selectors import seat_names

EXPORT_FORMAT = "tradewinds-match/1"


def match_export(match: Match) -> dict:
    """Settings, seed and actions: everything another site needs to replay the match."""
    if not match.is_over or not match.seed:
        raise NotAllowed(_("A match can be exported once it is over and its seed revealed."))
    rows = match.log.filter(kind__in=ActionLog.ENGINE_KINDS).order_by("seq")
    return {
        "format": EXPORT_FORMAT, "game": match.game, "rules_version": match.rules_version,
        "edition": match_edition(match),
        "title": str(match), "seats": match.seats_count, "options": match.options,
        "players": seat_names(match), "seed": match.seed, "seed_hash": match.seed_hash,
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "finish_reason": match.finish_reason,
        "actions": [{"seat": r.seat, "kind": r.kind, "action": r.action} for r in rows],
    }
