"""The translations are what `make messages` makes of the code: every word the code and the
templates give Django's gettext is in the Danish, German and Swedish catalogs and translated, and
the catalogs hold nothing the code no longer asks for.

`make messages` (makemessages --no-obsolete) once dropped words still shown: xgettext reads no
lookup inside an f-string, no alias it does not know (`_lazy`), no constant looked up later
(`_(TOKEN_HELP)`); a maintainer who ran it lost their translations. Here it runs on a copy of
the catalogs and must change no entry."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("da", "de", "sv")
# As the Makefile's `messages` target runs it.
IGNORE = (".venv/*", "tests/*", "bench/*", "staticfiles/*")


def _entries(path: Path) -> dict:
    return {(e.msgctxt, e.msgid): e for e in polib.pofile(str(path)) if not e.obsolete}


@pytest.fixture(scope="module")
def remade(tmp_path_factory):
    """The catalogs as `make messages` would leave them, made in a copy of the sources (it
    writes into the locale folder of the tree it reads)."""
    if shutil.which("msgmerge") is None or shutil.which("xgettext") is None:
        pytest.fail("GNU gettext (xgettext, msgmerge) is needed to check the catalogs: apt-get install gettext")
    copy = tmp_path_factory.mktemp("sources")
    shutil.copytree(ROOT, copy, dirs_exist_ok=True, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", ".venv", "tests", "bench", "docs", "staticfiles", "*.mo",
                                                  "*.sqlite3*", "__pycache__", "*.egg-info"))
    command = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--add-location=file",
               *[f"-l{language}" for language in LANGUAGES], *[f"--ignore={pattern}" for pattern in IGNORE]]
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(copy)})
    assert done.returncode == 0, done.stderr[-2000:]
    return copy / "locale"


@pytest.mark.parametrize("language", LANGUAGES)
def test_make_messages_keeps_every_translation_and_finds_nothing_new(remade, language):
    kept = _entries(ROOT / "locale" / language / "LC_MESSAGES" / "django.po")
    made = _entries(remade / language / "LC_MESSAGES" / "django.po")
    # Words the code asks for that the catalog lacks or has not translated.
    untranslated = sorted(key[1][:60] for key, e in made.items() if not e.translated() or "fuzzy" in e.flags)
    assert untranslated == [], f"{language}: translate these (make messages): {untranslated[:20]}"
    # Words the catalog holds that make messages would drop: no longer asked for (remove them),
    # or asked for where xgettext cannot read them (an f-string, an unknown alias).
    dropped = sorted(key[1][:60] for key in kept if key not in made)
    assert dropped == [], f"{language}: make messages would drop {dropped[:20]}"
