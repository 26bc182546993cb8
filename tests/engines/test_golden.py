"""Golden games: complete recorded games replayed on every run. A change that would alter the
outcome of a campaign already running on a site fails here (record again only on purpose, with
a new rules edition). Each game replays under the edition it was recorded in: a file from before
editions were recorded is edition 1, as its state has no "edition" key."""
import json
from pathlib import Path

import pytest

from games.engines import get_engine

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.json"))


def test_there_are_golden_games_for_every_game():
    games = {json.loads(path.read_text())["game"] for path in GOLDEN}
    assert {"fuldrigger", "pirater", "catan_ships"} <= games


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_replays_to_its_recorded_end(path):
    record = json.loads(path.read_text())
    engine = get_engine(record["game"])
    edition = record.get("edition", record["final_state"].get("edition", 1))
    state = engine.new_game(record["players"], record["seed"], record["options"], edition=edition)
    for seat, action in record["actions"]:
        state, _ = engine.apply(state, seat, action)
        state = json.loads(json.dumps(state))  # as the server stores it between moves
    assert engine.is_over(state)
    assert state == record["final_state"]


def test_every_edition_of_every_game_has_a_golden_game():
    """Contract, rule editions: the earlier edition's golden games stay and the current one
    has its own, so both keep replaying."""
    have = {(json.loads(path.read_text())["game"],
             json.loads(path.read_text())["final_state"].get("edition", 1)) for path in GOLDEN}
    for name in ("fuldrigger", "pirater", "catan_ships"):
        for edition in get_engine(name).editions:
            assert (name, edition) in have, (name, edition)
