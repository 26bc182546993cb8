"""Fuldrigger: sea trade and trade war for 2–4 players (rules digest F1–F47).

The engine object the registry holds; the rules live in the modules beside this one:
state (shape, copy, fortune), sailing (moves and hazards), trade (cargo, ships, fortresses,
isthmus), war (privateers, attacks), offers, chance (the cards), rules (turn, legality, apply),
book (the phrase book words.json: names of goods and places, and the words of every refusal),
view (what a seat sees, standings, events in words), bots (a random player for playouts).
"""
from games.engines.base import IllegalAction, Option, check_edition, clean_options
from games.engines.fuldrigger import rules, state, view
from games.engines.fuldrigger.book import WORDS


def _option(name: str, kind: str, default, **bounds) -> Option:
    # Labels and help texts live in the phrase book (words.json) with their translations.
    label, help_text = view.option_words(name)
    return Option(name, label, kind, default, help=help_text, **bounds)


OPTIONS = (
    _option("rounds", "int", 0, min=0, max=200),
    _option("isthmus", "bool", False),   # a variant in the original: off since edition 2
    _option("start_cash", "int", 100, min=50, max=1000),
)


class FuldriggerEngine:
    name = "fuldrigger"
    title = "Fuldrigger"
    min_players = 2
    max_players = 4
    # Rules editions (docs/rules/changelog.md): 2 chooses home cities after a roll (F7/F8),
    # lets any fortress open a port to attack (F39), ends open rewards at a reshuffle (F43),
    # moves pirate waters near ports (F19), lets a ship return to the port it left (F11) and
    # has the isthmus variant off by default.
    edition = 2
    editions = (1, 2)
    version = str(edition)        # what the platform records as the match's rules version

    def options(self, lang: str = "en") -> list[dict]:
        listed = []
        for option in OPTIONS:
            label, help_text = view.option_words(option.name, lang)
            listed.append({**option.as_dict(), "label": label, "help": help_text})
        return listed

    def check_options(self, options: dict, players: int, edition: int | None = None) -> dict:
        if isinstance(players, bool) or not isinstance(players, int) or not (
                self.min_players <= players <= self.max_players):
            raise IllegalAction.said(WORDS, "error.players", min=self.min_players,
                                     max=self.max_players, players=players)
        cleaned = clean_options(list(OPTIONS), options)
        if check_edition(self, edition) == 1 and (options or {}).get("isthmus") in (None, ""):
            cleaned["isthmus"] = True        # edition 1 played the isthmus by default
        return cleaned

    def new_game(self, players: int, seed: str, options: dict, edition: int | None = None) -> dict:
        edition = check_edition(self, edition)
        return state.new_game(players, seed, self.check_options(options, players, edition),
                              edition)

    def to_act(self, game: dict) -> list[int]:
        return rules.to_act(game)

    def system_action(self, game: dict) -> dict | None:
        return rules.system_action(game)

    def legal_actions(self, game: dict, seat: int) -> list[dict]:
        return rules.legal_actions(game, seat)

    def apply(self, game: dict, seat, action) -> tuple[dict, list]:
        return rules.apply(game, seat, action)

    def timeout_action(self, game: dict, seat: int) -> dict:
        return rules.timeout_action(game, seat)

    def is_over(self, game: dict) -> bool:
        return rules.is_over(game)

    def standings(self, game: dict) -> list[dict]:
        return view.standings(game)

    def view(self, game: dict, seat: int | None) -> dict:
        return view.view(game, seat)

    def describe(self, event: dict, names: list[str], lang: str = "en") -> str:
        return view.describe(event, names, lang)


ENGINE = FuldriggerEngine()

__all__ = ["ENGINE", "FuldriggerEngine"]
