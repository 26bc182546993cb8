"""Replaying a match from its seed and log: the proof that every die was fair.

A match replays under the rules edition it was dealt under (contract, "Rule editions"): the
edition its state records, a state from before editions were recorded being edition 1."""
import json

from games.engines import get_engine
from games.models import Match


def match_edition(match: Match) -> int:
    """The edition of a started match: from its state (no key: edition 1); for one not yet
    started, the rules version recorded when it was created."""
    if match.state is not None:
        return match.state.get("edition", 1)
    try:
        return int(match.rules_version or 1)
    except ValueError:
        return 1


def deal(engine, players: int, seed: str, options: dict, edition: int) -> dict:
    """The first state under `edition`; an engine with a single edition (no `editions`)
    is asked as before."""
    if getattr(engine, "editions", None) is None:
        return engine.new_game(players, seed, options)
    return engine.new_game(players, seed, options, edition=edition)


def replay_states(match: Match):
    """Yield (log row, state after it) from the first state to the last move."""
    engine = get_engine(match.game)
    state = deal(engine, match.seats_count, match.seed, match.options, match_edition(match))
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
    return {"ok": error is None and state == match.state, "steps": steps, "error": error,
            "edition": match_edition(match)}
