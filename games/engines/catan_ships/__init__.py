"""Catan with ships: the base game of The Settlers of Catan (3-6 players, the 5-6 player
extension rules above four) and the ships variant (rules digest C1-C20).

`ENGINE` routes the contract's calls to the modules beside it: board.py (hexes, the generated
board, the cached geometry), state.py (options, a new game), rules.py (turn, legality, apply),
view.py (view, standings, events in words), book.py (words.json, the phrase book) and bots.py.
"""
from games.engines.base import check_edition
from games.engines.catan_ships import rules, state, view


class CatanShipsEngine:
    name = "catan_ships"
    title = "Catan with ships"
    min_players = 3
    max_players = 6

    def options(self, lang: str = "en") -> list[dict]:
        return view.options(lang)

    def title_of(self, options: dict) -> str:
        """A match's game by its options: with ships off it is the standard base game."""
        return "Catan" if (options or {}).get("ships", True) is False else self.title

    # Rules editions (docs/rules/changelog.md): a match plays to its end under the edition it
    # was dealt under; edition 1's behaviour stays for its states.
    edition = state.EDITION
    editions = state.EDITIONS
    version = str(edition)        # what the platform records as the match's rules version

    def check_options(self, options: dict, players: int, edition: int | None = None) -> dict:
        check_edition(self, edition)
        return state.check_options(options, players)

    def new_game(self, players: int, seed: str, options: dict, edition: int | None = None) -> dict:
        return state.new_game(players, seed, options, check_edition(self, edition))

    def to_act(self, st: dict) -> list[int]:
        return rules.to_act(st)

    def may_act(self, st: dict) -> list[int]:
        """to_act, then the seats with only an optional move now (C8: unloading a docked ship
        at once, in any player's turn). No clock waits on those and nothing is played for them."""
        return rules.may_act(st)

    def system_action(self, st: dict):
        return None  # every die is rolled by a player

    def legal_actions(self, st: dict, seat) -> list[dict]:
        return rules.legal_actions(st, seat)

    def apply(self, st: dict, seat, action) -> tuple[dict, list[dict]]:
        return rules.apply(st, seat, action)

    def timeout_action(self, st: dict, seat: int) -> dict:
        return rules.timeout_action(st, seat)

    def is_over(self, st: dict) -> bool:
        return st["phase"] == "over"

    def standings(self, st: dict) -> list[dict]:
        return view.standings(st)

    def view(self, st: dict, seat=None) -> dict:
        return view.view(st, seat)

    def describe(self, event: dict, names: list[str], lang: str = "en") -> str:
        return view.describe(event, names, lang)

    def told_otherwise(self, event: dict, seat) -> bool:
        """This seat reads the event already in a private twin of it (a theft's thief and
        victim see which card went): the log does not tell them twice."""
        return view.told_otherwise(event, seat)


ENGINE = CatanShipsEngine()

__all__ = ["ENGINE", "CatanShipsEngine"]
