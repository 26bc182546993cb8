"""The architecture's "never" rules, as import-linter contracts (pyproject.toml, [tool.importlinter])."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_import_linter_contract_is_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    contracts = (ROOT / "pyproject.toml").read_text().count("[[tool.importlinter.contracts]]")
    assert f"{contracts} kept, 0 broken" in done.stdout, done.stdout[-2000:]


def test_the_platforms_templates_never_link_to_community_or_notifications():
    """Import-linter reads Python only: a `{% url %}` in games' templates naming a listening
    app's page would tie the platform to it all the same (settings.GAME_CARD_LINKS is the way
    in for such links)."""
    import re

    from community.urls import urlpatterns as community
    from notifications.urls import urlpatterns as notifications

    theirs = {pattern.name for pattern in community + notifications}
    named = {(template.relative_to(ROOT).as_posix(), name)
             for template in (ROOT / "templates" / "games").rglob("*.html")
             for name in re.findall(r"""{%\s*url\s+['"]([\w:-]+)['"]""", template.read_text())}
    assert named, "no {% url %} found in templates/games: the pattern above is wrong"
    assert not {(path, name) for path, name in named if name in theirs}


GAMES_WITH_PAGES = ["catan_ships", "fuldrigger", "pirater"]


def test_every_games_presenter_has_the_one_shape():
    """Issue 32, item 6: the games' pages present, in one shape. Each game's `pages.live` takes
    the same keyword arguments (games_tags.game_live calls them all alike), and a game whose
    pages draw a part once for every viewer (`shared_board`) takes the same ones for it."""
    import importlib
    import inspect

    def shape(function):
        return [(p.name, p.kind) for p in inspect.signature(function).parameters.values()]

    lives = {game: shape(importlib.import_module(f"games.{game}.pages").live) for game in GAMES_WITH_PAGES}
    assert len({tuple(s) for s in lives.values()}) == 1, lives
    assert all(kind == inspect.Parameter.KEYWORD_ONLY for _name, kind in lives["fuldrigger"]), lives
    boards = {game: shape(module.shared_board) for game in GAMES_WITH_PAGES
              if hasattr(module := importlib.import_module(f"games.{game}.pages"), "shared_board")}
    assert len(boards) >= 2 and len({tuple(s) for s in boards.values()}) == 1, boards


def test_every_games_live_part_asks_the_presenter_the_same_way():
    """No game's live part calls a presenter of its own with arguments of its own."""
    import re

    for game in GAMES_WITH_PAGES:
        text = (ROOT / "templates" / "games" / game / "partials" / "live.html").read_text()
        assert re.search(r"{%\s*game_live as \w+\s*%}", text), game


def test_the_games_presenters_never_read_the_database():
    """A presenter works from what it is given (the view, legal actions, the recent log rows):
    no model, selector or queryset in the games' pages."""
    for game in GAMES_WITH_PAGES:
        source = (ROOT / "games" / game / "pages.py").read_text()
        for forbidden in ("games.reads.selectors", "match.log", ".objects.", "games.models import Match"):
            assert forbidden not in source, (game, forbidden)
