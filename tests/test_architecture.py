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
