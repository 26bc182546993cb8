"""Games that keep tables of their own (Fuldrigger's fleets and fortresses) register a projector
here from their Django-side app; the service calls it in the same transaction as every change."""
from collections.abc import Callable

PROJECTORS: dict[str, Callable] = {}


def register(game: str, projector: Callable) -> None:
    PROJECTORS[game] = projector


def project(match, before: dict | None = None) -> None:
    """Write the game's tables for match.state. `before` is the state the tables already hold,
    when the caller knows it (the snapshot it locked): the projector then writes only the
    difference without reading the rows. Without it, the rows are read and compared."""
    projector = PROJECTORS.get(match.game)
    if projector is not None:
        projector(match, before)
