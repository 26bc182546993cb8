"""Fuldrigger: sea trade and trade war for 2–4 players (rules digest F1–F47).

The engine object the registry holds; the rules live in the modules beside this one:
state (shape, copy, fortune), sailing (moves and hazards), trade (cargo, ships, fortresses,
isthmus), war (privateers, attacks), offers, chance (the cards), rules (turn, legality, apply),
view (what a seat sees, standings, events in words), bots (a random player for playouts).
"""
from games.engines.base import IllegalAction, Option, clean_options
from games.engines.fuldrigger import rules, state, view

OPTIONS = (
    Option("rounds", "Rounds", "int", 0, min=0, max=200,
           help="Number of rounds to play; 0 means no limit: the match deadline ends the game."),
    Option("isthmus", "Isthmus crossings", "bool", True,
           help="Cargo may be carried overland at Suez and Porto Bello for a toll (F44–F47)."),
    Option("start_cash", "Starting cash", "int", 100, min=50, max=1000,
           help="Ducats each player starts with (F5: 100)."),
)


class FuldriggerEngine:
    name = "fuldrigger"
    title = "Fuldrigger"
    min_players = 2
    max_players = 4

    def options(self) -> list[dict]:
        return [option.as_dict() for option in OPTIONS]

    def check_options(self, options: dict, players: int) -> dict:
        if isinstance(players, bool) or not isinstance(players, int) or not (
                self.min_players <= players <= self.max_players):
            raise IllegalAction(f"Fuldrigger is played by {self.min_players} to "
                                f"{self.max_players} players, not {players}.")
        return clean_options(list(OPTIONS), options)

    def new_game(self, players: int, seed: str, options: dict) -> dict:
        return state.new_game(players, seed, self.check_options(options, players))

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

    def describe(self, event: dict, names: list[str]) -> str:
        return view.describe(event, names)


ENGINE = FuldriggerEngine()

__all__ = ["ENGINE", "FuldriggerEngine"]
