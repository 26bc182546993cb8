"""docs/contract.md, "One shape for every game package": every game package has the same
modules with the same names in them, and its ENGINE routes the contract through them."""
import importlib
import inspect
import pathlib

import pytest

from games.engines import base
from games.engines.words import Phrasebook

ENGINE_DIR = pathlib.Path(base.__file__).parent
GAMES = sorted(path.parent.name for path in ENGINE_DIR.glob("*/__init__.py"))
MEMBERS = [name for name in dir(base.Engine) if not name.startswith("_")] + [
    name for name in base.Engine.__annotations__]


def _module(game: str, name: str):
    return importlib.import_module(f"games.engines.{game}.{name}")


def test_the_three_games_are_packages_here():
    assert GAMES == ["catan_ships", "fuldrigger", "pirater"]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_package_has_the_same_modules_and_names(game):
    assert all(isinstance(option, base.Option) for option in _module(game, "state").OPTIONS)
    assert isinstance(_module(game, "book").WORDS, Phrasebook)
    assert _module(game, "actions").ACTIONS
    for name in ("to_act", "legal_actions", "apply", "timeout_action"):
        assert callable(getattr(_module(game, "rules"), name)), name
    for name in ("options", "view", "standings", "describe"):
        assert callable(getattr(_module(game, "view"), name)), name
    for name in ("check_options", "new_game"):
        parameters = list(inspect.signature(getattr(_module(game, "state"), name)).parameters)
        assert parameters[-1] == "edition", name


@pytest.mark.parametrize("game", GAMES)
def test_one_default_edition_in_one_place(game):
    """Contract, rule editions: a game's state module holds its current edition (EDITION) and
    its editions; the engine reads them there, and `new_game` and `check_options` called
    without an edition deal under that same edition (Fuldrigger and Pirater once defaulted
    to edition 1 there while their engines dealt edition 2)."""
    state = _module(game, "state")
    engine = importlib.import_module(f"games.engines.{game}").ENGINE
    assert (engine.edition, engine.editions) == (state.EDITION, state.EDITIONS)
    for name in ("check_options", "new_game"):
        default = inspect.signature(getattr(state, name)).parameters["edition"].default
        assert default == state.EDITION, name
    players = engine.min_players
    dealt = state.new_game(players, "one-default", state.check_options({}, players))
    assert base.edition_of(dealt) == engine.edition
    assert dealt == engine.new_game(players, "one-default", engine.check_options({}, players))


@pytest.mark.parametrize("game", GAMES)
def test_its_engine_is_routed_and_keeps_every_member_of_the_contract(game):
    engine = importlib.import_module(f"games.engines.{game}").ENGINE
    assert isinstance(engine, base.RoutedEngine)
    missing = [name for name in MEMBERS if not hasattr(engine, name)]
    assert missing == []
    assert engine.version == str(engine.edition) and engine.edition in engine.editions
    assert engine.action_fields is _module(game, "actions").ACTIONS
