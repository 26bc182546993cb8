"""The game engines and their registry. Nothing here imports Django (a test checks it).

Beyond the contract's members every engine also offers:
- `check_options(options, players) -> dict`: the cleaned options for that many seats, or
  IllegalAction with a message (an impossible variant combination, a seat count outside the
  bounds those variants allow);
- `describe(event, names, lang="en") -> str`: one event in words, names being the seats' display
  names, in one of the site's languages (each engine keeps a phrase book beside it, read with
  games.engines.words; English for a language it doesn't have);
- `options(lang="en")`: the contract's options with their label and help in that language, and
  for a choice option its `choice_labels` ({value: words}).
- `may_act(state) -> list[int]` (optional): to_act, then seats that have only an optional move
  now (Catan's unloading at once, C8). The platform accepts their moves and shows them their
  legal actions, but clocks, bots and timeouts follow to_act alone: nobody waits on them and
  nothing is played for them. Read it through `may_act(engine, state)` below.
An event meant for some seats only carries "private": [seats]; the log shows it to them alone.
Each state keeps `seed` (secret), `draws` (the dice counter) and `round` (1-based).
"""
from games.engines.base import IllegalAction, Option, clean_options

ENGINES: dict = {}


def register(engine) -> None:
    ENGINES[engine.name] = engine


def get_engine(name: str):
    try:
        return ENGINES[name]
    except KeyError:
        raise LookupError(f"no game called {name!r}") from None


def may_act(engine, state) -> list[int]:
    """The seats whose moves are accepted now: the engine's `may_act` if it has one, else to_act."""
    optional = getattr(engine, "may_act", None)
    return optional(state) if optional is not None else engine.to_act(state)


def _load() -> None:
    # Explicit imports, one line per game: a registry that is read, not discovered.
    from games.engines.catan_ships import ENGINE as catan_ships
    from games.engines.fuldrigger import ENGINE as fuldrigger
    from games.engines.pirater import ENGINE as pirater

    for engine in (fuldrigger, pirater, catan_ships):
        register(engine)


__all__ = ["ENGINES", "IllegalAction", "Option", "clean_options", "get_engine", "may_act", "register"]


_load()
