"""Fuldrigger: sea trade and trade war for 2–4 players (rules digest F1–F47).

The engine object the registry holds; the rules live in the modules beside this one:
state (options, shape, copy, fortune), sailing (moves and hazards), trade (cargo, ships,
fortresses, isthmus), war (privateers, attacks), offers, chance (the cards), rules (turn,
legality, apply), actions (the fields of each action type), book (the phrase book words.json:
names of goods and places, and the words of every refusal), view (what a seat sees, standings,
events in words), bots (a random player for playouts).
"""
from games.engines.base import RoutedEngine
from games.engines.fuldrigger import actions, rules, state, view


class FuldriggerEngine(RoutedEngine):
    name = "fuldrigger"
    title = "Fuldrigger"
    min_players = state.MIN_PLAYERS
    max_players = state.MAX_PLAYERS
    # Rules editions (docs/rules/changelog.md): 2 chooses home cities after a roll (F7/F8),
    # lets any fortress open a port to attack (F39), ends open rewards at a reshuffle (F43),
    # moves pirate waters near ports (F19), lets a ship return to the port it left (F11) and
    # has the isthmus variant off by default; 3 lets the scurvy card pass when every fortune is
    # the same (no fleet is the richest).
    edition = state.EDITION
    editions = state.EDITIONS

    def system_action(self, game: dict) -> dict | None:
        """The chance card drawn at the start of the banker's turn, with no player."""
        return rules.system_action(game)


ENGINE = FuldriggerEngine(state=state, rules=rules, view=view, actions=actions)

__all__ = ["ENGINE", "FuldriggerEngine"]
