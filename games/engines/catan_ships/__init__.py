"""Catan with ships: the base game of The Settlers of Catan (3-6 players, the 5-6 player
extension rules above four) and the ships variant (rules digest C1-C20).

`ENGINE` routes the contract's calls to the modules beside it: board.py (hexes, the generated
board, the cached geometry), state.py (options, a new game, what every area reads), rules.py
(the turn: who acts, legality, apply, routing each action to its area: placement, roll, building,
trade, cards, ships, scoring), actions.py (the fields of each action type), view.py (view, standings, events in words),
book.py (words.json, the phrase book) and bots.py.
"""
from games.engines.base import RoutedEngine
from games.engines.catan_ships import actions, rules, state, view


class CatanShipsEngine(RoutedEngine):
    name = "catan_ships"
    title = "Catan with ships"
    min_players = 3
    max_players = 6
    # Rules editions (docs/rules/changelog.md): a match plays to its end under the edition it
    # was dealt under; edition 1's behaviour stays for its states.
    edition = state.EDITION
    editions = state.EDITIONS

    def title_of(self, options: dict) -> str:
        """A match's game by its options: with ships off it is the standard base game."""
        return "Catan" if (options or {}).get("ships", True) is False else self.title

    def may_act(self, st: dict) -> list[int]:
        """to_act, then the seats with only an optional move now (C8: unloading a docked ship
        at once, in any player's turn). No clock waits on those and nothing is played for them."""
        return rules.may_act(st)

    def told_otherwise(self, event: dict, seat) -> bool:
        """This seat reads the event already in a private twin of it (a theft's thief and
        victim see which card went): the log does not tell them twice."""
        return view.told_otherwise(event, seat)


ENGINE = CatanShipsEngine(state=state, rules=rules, view=view, actions=actions)

__all__ = ["ENGINE", "CatanShipsEngine"]
