"""Replaying a match from its seed and log: the proof that every die was fair."""
import json

from games.engines import get_engine
from games.models import Match


def replay_states(match: Match):
    """Yield (log row, state after it) from the first state to the last move."""
    engine = get_engine(match.game)
    state = engine.new_game(match.seats_count, match.seed, match.options)
    yield None, state
    for row in match.log.order_by("seq"):
        if row.applies_to_engine:
            state, _ = engine.apply(state, row.seat, row.action)
            # Live play feeds the engine states read back from the database: do the same.
            state = json.loads(json.dumps(state))
            yield row, state


def replay_match(match: Match) -> dict:
    """Whether the log, replayed from the revealed seed, reproduces the stored state."""
    state, steps, error = None, 0, None
    try:
        for row, state in replay_states(match):
            steps += 1 if row is not None else 0
    except Exception as exc:  # a replay that fails is a finding to report, not a crash
        error = f"{type(exc).__name__}: {exc}"
    return {"ok": error is None and state == match.state, "steps": steps, "error": error}
