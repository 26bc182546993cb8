"""Pirater: a race for the treasure of Treasure Island (rules digest P1–P28).

`ENGINE` is the object the registry uses; it only routes the contract's calls to the modules
beside it: board.py (the grid), state.py (options, a new game), rules.py with sailing.py
(turns, moves, captures), actions.py (the fields of each action type), view.py (view,
standings, events in words), book.py (words.json, the phrase book the refusals and the events
are told in) and bots.py.
"""
from games.engines.base import RoutedEngine
from games.engines.pirater import actions, rules, state, view


class PiraterEngine(RoutedEngine):
    name = "pirater"
    title = "Pirater"
    min_players = 2
    max_players = 4
    # Rules editions (docs/rules/changelog.md): 2 has ports chosen in roll order (P5/P7), the
    # board with ports along the sides and diagonal trade winds (P3, P13), loading as a choice
    # (P12), wrecks that shield nobody (P23) and a confirmed powder ship (P24).
    edition = state.EDITION
    editions = state.EDITIONS


ENGINE = PiraterEngine(state=state, rules=rules, view=view, actions=actions)

__all__ = ["ENGINE", "PiraterEngine"]
