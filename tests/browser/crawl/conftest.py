"""The crawl's own fixture: dice chosen by the test, so that a run replays exactly."""
import hashlib
import secrets

import pytest

from games.play import lobby


class _Dice:
    """Stands in for the `secrets` module in games.play.lobby (the server is a fork of this
    process, so it deals with it too): the next match's dice seed is read from a file the test
    writes, else drawn as usual."""

    def __init__(self, chosen):
        self.chosen = chosen

    def token_hex(self, nbytes=32):
        try:
            return self.chosen.read_text().strip() or secrets.token_hex(nbytes)
        except FileNotFoundError:
            return secrets.token_hex(nbytes)


@pytest.fixture
def dice(tmp_path, monkeypatch):
    """Call it with a run's name before the match is dealt: the dice follow from the name."""
    chosen = tmp_path / "dice-seed"
    monkeypatch.setattr(lobby, "secrets", _Dice(chosen))

    def choose(run):
        chosen.write_text(hashlib.sha256(f"crawl {run}".encode()).hexdigest())

    return choose
