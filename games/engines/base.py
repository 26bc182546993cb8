"""What every engine shares: the contract it keeps (Engine) and the routing its calls take
(RoutedEngine), the error it raises, how it declares and checks its options, its editions."""
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from games.engines.words import Phrasebook


class IllegalAction(ValueError):
    """An action the rules forbid; its message is shown to the player.

    str(exc) is the English message. An engine that keeps its words in a phrase book raises
    `IllegalAction.said(book, key, **fields)`, so the site can show the message in the player's
    own language with `exc.in_language(lang)`."""

    def __init__(self, message: str, *, book=None, key: str | None = None, fields: dict | None = None):
        super().__init__(message)
        self.book, self.key, self.fields = book, key, fields or {}

    @classmethod
    def said(cls, book, key: str, **fields) -> "IllegalAction":
        return cls(book.say(key, "en", **fields), book=book, key=key, fields=fields)

    def in_language(self, lang: str | None) -> str:
        if self.book is None or self.key is None:
            return str(self)
        return self.book.say(self.key, lang, **self.fields)


def quoted(value, limit: int = 40) -> str:
    """A value from a request, as a refusal names it: quoted, and cut short (an action's type of
    20,000 characters came back whole in its refusal)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# Both engines check their options here, so the refusals have a small book of their own. The
# option's label comes from the engine in English: this module knows no engine's phrase book.
OPTION_WORDS = Phrasebook(Path(__file__).with_name("options_words.json"))


@dataclass(frozen=True)
class Option:
    """One setting a match creator may choose.

    kind is "bool", "int" or "choice"; int options have bounds, choice options their choices.
    """

    name: str
    label: str
    kind: str
    default: Any
    help: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple = field(default_factory=tuple)

    def as_dict(self) -> dict:
        data = {"name": self.name, "label": self.label, "kind": self.kind,
                "default": self.default, "help": self.help}
        if self.kind == "int":
            data.update(min=self.min, max=self.max)
        if self.kind == "choice":
            data["choices"] = list(self.choices)
        return data

    def clean(self, raw: Any) -> Any:
        if raw is None or raw == "":
            return self.default
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if str(raw).lower() in ("1", "true", "on", "yes"):
                return True
            if str(raw).lower() in ("0", "false", "off", "no"):
                return False
            raise IllegalAction.said(OPTION_WORDS, "error.option_yes_no", label=self.label, raw=raw)
        if self.kind == "int":
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise IllegalAction.said(OPTION_WORDS, "error.option_whole_number",
                                         label=self.label, raw=raw) from None
            if isinstance(raw, bool):
                raise IllegalAction.said(OPTION_WORDS, "error.option_whole_number",
                                         label=self.label, raw=raw)
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise IllegalAction.said(OPTION_WORDS, "error.option_between",
                                         label=self.label, min=self.min, max=self.max)
            return value
        if self.kind == "choice":
            if raw not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices)
                raise IllegalAction.said(OPTION_WORDS, "error.option_one_of",
                                         label=self.label, allowed=allowed)
            return raw
        raise ValueError(f"unknown option kind {self.kind}")


def clean_options(declared: list[Option], raw: dict | None) -> dict:
    """Every declared option with a checked value; an unknown name is an error, not ignored."""
    raw = dict(raw or {})
    known = {o.name for o in declared}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise IllegalAction.said(OPTION_WORDS, "error.option_unknown", unknown=", ".join(unknown))
    return {o.name: o.clean(raw.get(o.name)) for o in declared}


# Contract, "What a view carries": no view carries the dice machinery, the secret seed or the
# counter of draws made from it. A page and a bot have no use for either (every die shows in
# its event), and the fair-dice check works from the seed revealed at the end and the log.
DICE_MACHINERY = ("seed", "draws")


def edition_of(state: dict) -> int:
    """The rules edition a state was dealt under (contract: "Rule editions"). A state from
    before editions were recorded has no key and is edition 1."""
    return state.get("edition", 1)


def check_edition(engine, edition) -> int:
    """The edition a new game is dealt under: the engine's current one unless an earlier
    one is asked for (a replay of a match begun under it)."""
    if edition is None:
        return engine.edition
    if isinstance(edition, bool) or not isinstance(edition, int) or edition not in engine.editions:
        raise IllegalAction.said(OPTION_WORDS, "error.option_edition", edition=edition,
                                 editions=", ".join(str(e) for e in engine.editions))
    return edition


class Engine(Protocol):
    """What the platform calls on every game (docs/contract.md). Beyond these an engine may
    offer `may_act(state)`, `told_otherwise(event, seat)`, `title_of(options)` and
    `action_fields` (its actions' schemas); the platform reads those with getattr."""

    name: str
    title: str
    min_players: int
    max_players: int
    edition: int
    editions: tuple[int, ...]
    version: str

    def options(self, lang: str = "en") -> list[dict]: ...

    def check_options(self, options: dict | None, players: int, edition: int | None = None) -> dict: ...

    def new_game(self, players: int, seed: str, options: dict | None,
                 edition: int | None = None) -> dict: ...

    def to_act(self, state: dict) -> list[int]: ...

    def system_action(self, state: dict) -> dict | None: ...

    def legal_actions(self, state: dict, seat) -> list[dict]: ...

    def apply(self, state: dict, seat, action) -> tuple[dict, list[dict]]: ...

    def timeout_action(self, state: dict, seat: int) -> dict: ...

    def is_over(self, state: dict) -> bool: ...

    def standings(self, state: dict) -> list[dict]: ...

    def view(self, state: dict, seat: int | None = None) -> dict: ...

    def describe(self, event: dict, names: list[str], lang: str = "en") -> str: ...


class RoutedEngine:
    """An Engine whose calls go to the modules of its game package, which every game names
    alike: state (OPTIONS, check_options, new_game), rules (to_act, legal_actions, apply,
    timeout_action), view (options, view, standings, describe) and actions (ACTIONS, the
    schemas of its action types). A subclass names the game, its seat bounds and its rules
    editions, and adds only what its game does otherwise."""

    name: str
    title: str
    min_players: int
    max_players: int
    edition: int                   # the rules edition new games are dealt under
    editions: tuple[int, ...]      # every edition a state may have been dealt under

    def __init__(self, *, state: ModuleType, rules: ModuleType, view: ModuleType,
                 actions: ModuleType):
        self._state, self._rules, self._view = state, rules, view
        self.action_fields = actions.ACTIONS

    @property
    def version(self) -> str:
        """What the platform records as a match's rules version."""
        return str(self.edition)

    def options(self, lang: str = "en") -> list[dict]:
        return self._view.options(lang)

    def check_options(self, options: dict | None, players: int, edition: int | None = None) -> dict:
        return self._state.check_options(options, players, check_edition(self, edition))

    def new_game(self, players: int, seed: str, options: dict | None,
                 edition: int | None = None) -> dict:
        return self._state.new_game(players, seed, options, check_edition(self, edition))

    def to_act(self, state: dict) -> list[int]:
        return self._rules.to_act(state)

    def system_action(self, state: dict) -> dict | None:
        return None   # a game whose every die a player rolls

    def legal_actions(self, state: dict, seat) -> list[dict]:
        return self._rules.legal_actions(state, seat)

    def apply(self, state: dict, seat, action) -> tuple[dict, list[dict]]:
        return self._rules.apply(state, seat, action)

    def timeout_action(self, state: dict, seat: int) -> dict:
        return self._rules.timeout_action(state, seat)

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"   # every game's last phase

    def standings(self, state: dict) -> list[dict]:
        return self._view.standings(state)

    def view(self, state: dict, seat: int | None = None) -> dict:
        return self._view.view(state, seat)

    def describe(self, event: dict, names: list[str], lang: str = "en") -> str:
        return self._view.describe(event, names, lang)
