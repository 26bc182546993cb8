"""The game engines and their registry. Nothing here imports Django (a test checks it).

Every engine keeps the contract in docs/contract.md, written down as `games.engines.base.Engine`:
the contract's members and what Tradewinds adds (editions, `check_options`, `options(lang)`,
`describe(event, names, lang)`, `action_fields`, and the optional `may_act`, `told_otherwise`
and `title_of`). Each game's `ENGINE` is a `base.RoutedEngine`, which routes those calls to the
modules of its package. `may_act` is read through `may_act(engine, state)` below: an engine
without it accepts moves from `to_act` alone.
"""
from games.engines.base import Engine, IllegalAction, Option, clean_options

ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> None:
    ENGINES[engine.name] = engine


def get_engine(name: str) -> Engine:
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


__all__ = ["ENGINES", "Engine", "IllegalAction", "Option", "clean_options", "get_engine", "may_act", "register"]


_load()
