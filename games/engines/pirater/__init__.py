"""Pirater: a race for the treasure of Treasure Island (rules digest P1–P28).

`ENGINE` is the object the registry uses; it only routes the contract's calls to the modules
beside it: board.py (the grid), state.py (options, a new game), rules.py (actions), view.py
(view, standings, events in words), book.py (words.json, the phrase book the refusals and the
events are told in) and bots.py.
"""
from games.engines.base import IllegalAction, check_edition
from games.engines.pirater import rules, state, view
from games.engines.pirater.book import WORDS


class PiraterEngine:
    name = "pirater"
    title = "Pirater"
    min_players = 2
    max_players = 4
    # Rules editions (docs/rules/changelog.md): 2 has ports chosen in roll order (P5/P7), the
    # board with ports along the sides and diagonal trade winds (P3, P13), loading as a choice
    # (P12), wrecks that shield nobody (P23) and a confirmed powder ship (P24).
    edition = 2
    editions = (1, 2)
    version = str(edition)        # what the platform records as the match's rules version

    def options(self, lang: str = "en") -> list[dict]:
        return view.options(lang)

    def check_options(self, options: dict, players: int, edition: int | None = None) -> dict:
        return state.check_options(options, players, check_edition(self, edition))

    def new_game(self, players: int, seed: str, options: dict, edition: int | None = None) -> dict:
        return state.new_game(players, seed, options, check_edition(self, edition))

    def to_act(self, st: dict) -> list[int]:
        return [] if st["phase"] == "over" else [st["current"]]

    def system_action(self, st: dict):
        return None  # every die is rolled by the player whose turn it is

    def legal_actions(self, st: dict, seat) -> list[dict]:
        return rules.legal_actions(st, seat)

    def apply(self, st: dict, seat, action) -> tuple[dict, list[dict]]:
        return rules.apply(st, seat, action)

    def timeout_action(self, st: dict, seat: int) -> dict:
        """Roll, or the first legal move (while ports are chosen: the first free port)."""
        actions = rules.legal_actions(st, seat)
        if not actions:
            raise IllegalAction.said(WORDS, "error.nothing_to_do")
        return actions[0]

    def is_over(self, st: dict) -> bool:
        return st["phase"] == "over"

    def standings(self, st: dict) -> list[dict]:
        return view.standings(st)

    def view(self, st: dict, seat=None) -> dict:
        return view.view(st, seat)

    def describe(self, event: dict, names: list[str], lang: str = "en") -> str:
        return view.describe(event, names, lang)


ENGINE = PiraterEngine()

__all__ = ["ENGINE", "PiraterEngine"]
