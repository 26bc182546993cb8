"""Replaying a match from its seed and log: the proof that every die was fair.

A match replays under the rules edition it was dealt under (contract, "Rule editions"): the
edition its state records, a state from before editions were recorded being edition 1."""
import importlib
import json

from django.utils import translation
from django.utils.translation import gettext

from games.engines import dice, get_engine
from games.engines.base import edition_of
from games.models import ActionLog, Match
from games.reads import selectors
from games.reads.panels import game_template


def match_edition(match: Match) -> int:
    """The edition of a started match: from its state (no key: edition 1); for one not yet
    started, the rules version recorded when it was created."""
    if match.state is not None:
        return edition_of(match.state)
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


class ReplayedMatch:
    """The match as it stood at one step of its replay: the live templates ask the match
    whether it is over, how it ended and what its state is; before the last step the answer is
    "still running", so the opening position shows no final ranking and no "the match is over"."""

    def __init__(self, match: Match, state: dict, at_end: bool):
        self._match, self.state, self.at_end = match, state, at_end

    def __getattr__(self, name):
        return getattr(self._match, name)

    def __str__(self):
        return str(self._match)

    @property
    def is_over(self) -> bool:
        return self.at_end and self._match.is_over

    @property
    def status(self) -> str:
        return self._match.status if self.at_end else Match.RUNNING

    def get_status_display(self):
        return self._match.get_status_display() if self.at_end else dict(Match.STATUS_CHOICES)[Match.RUNNING]

    @property
    def standings(self):
        return self._match.standings if self.at_end else []

    @property
    def finish_reason(self) -> str:
        return self._match.finish_reason if self.at_end else ""


def draw_readings(game: str, lang: str | None) -> dict:
    """How `game` makes its dice from the draws, in `lang`: the engine package's own account
    (games/engines/<game>/draws.py), else the plain one-die reading of games/engines/dice.py."""
    try:
        module = importlib.import_module(f"games.engines.{game}.draws")
    except ImportError:
        return {"intro": "", "readings": [{"name": "die", "sides": 6, "faces": dice.one_die,
                                           "label": gettext("One die: the number modulo 6, plus 1")}]}
    return {"intro": module.words("intro", lang),
            "readings": [dict(r, label=module.words(r["name"], lang)) for r in module.READINGS]}


def step_draws(match: Match, before: dict | None, after: dict, readings: list[dict]) -> list[dict]:
    """The draws one step used, each with its hash and every reading of it the game makes."""
    if before is None:
        return []
    out = []
    for n in range(before.get("draws", 0), after.get("draws", 0)):
        number = dice.draw_number(match.seed, n)
        out.append({"n": n, "digest": f"{number:064x}",
                    "readings": [{"rest": number % r["sides"], "sides": r["sides"], "faces": r["faces"](number)}
                                 for r in readings]})
    return out


def replay_context(match: Match, step: int) -> dict:
    """The board as it was after `step` moves of a finished match, as a spectator saw it, with
    the dice of that step and how each follows from the revealed seed, in the game's own way."""
    engine = get_engine(match.game)
    total = match.log.filter(kind__in=ActionLog.ENGINE_KINDS).count()
    step = max(0, min(step, total))
    before = state = row = None
    for index, (row, state) in enumerate(replay_states(match)):
        if index == step:
            break
        before = state
    names = selectors.seat_names(match)
    how = draw_readings(match.game, translation.get_language())
    events = [{"text": selectors.describe(engine, e, names), "dice": e.get("dice")} for e in (row.events if row else [])]
    seats = sorted(match.seats.all(), key=lambda s: (s.number is None, s.number))
    who = None
    if row is not None:
        who = names[row.seat] if row.seat is not None and 0 <= row.seat < len(names) else gettext("The bank")
    return {"match": ReplayedMatch(match, state, step == total), "real_match": match, "engine": engine,
            "view": engine.view(state, None), "legal": [], "my_turn": False,
            "seat": None, "seat_number": None, "seats": seats, "names": names,
            "colours": [s.colour for s in seats], "log_lines": [], "error": None, "replaying": True,
            "step": step, "total": total, "row": row, "who": who, "events": events,
            "draws": step_draws(match, before, state, how["readings"]) if step else [],
            "draw_intro": how["intro"], "readings": how["readings"],
            "live_template": game_template(match.game, "partials/live.html").template.name,
            "board_template": game_template(match.game, "board.html").template.name}
