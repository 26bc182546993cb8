"""Games that keep tables of their own (Fuldrigger's fleets and fortresses) register a projector
here from their Django-side app; the service calls it in the same transaction as every change."""
from collections.abc import Callable

PROJECTORS: dict[str, Callable] = {}


def register(game: str, projector: Callable) -> None:
    PROJECTORS[game] = projector


def project(match) -> None:
    projector = PROJECTORS.get(match.game)
    if projector is not None:
        projector(match)
