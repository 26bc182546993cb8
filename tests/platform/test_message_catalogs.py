"""The translations are what `make messages` makes of the code: every word the code and the
templates give Django's gettext is in the Danish, German and Swedish catalogs and translated, and
the catalogs hold nothing the code no longer asks for.

`make messages` (makemessages --no-obsolete) once dropped words still shown: xgettext reads no
lookup inside an f-string, no alias it does not know (`_lazy`), no constant looked up later
(`_(TOKEN_HELP)`); a maintainer who ran it lost their translations. Here it runs on a copy of
the catalogs and must change no entry."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _makemessages_arguments() -> list[str]:
    """makemessages' arguments as the Makefile's `messages` target gives them (MAKEMESSAGES_ARGS,
    its lines joined as make joins them)."""
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    found = re.search(r"^MAKEMESSAGES_ARGS\s*:?=(.*)$", makefile, re.MULTILINE)
    assert found, "the Makefile has no MAKEMESSAGES_ARGS"
    return shlex.split(found.group(1))


ARGUMENTS = _makemessages_arguments()
LANGUAGES = tuple(value for flag, value in zip(ARGUMENTS, ARGUMENTS[1:]) if flag == "-l")
IGNORED = [argument.removeprefix("--ignore=") for argument in ARGUMENTS if argument.startswith("--ignore=")]


def _entries(path: Path) -> dict:
    return {(e.msgctxt, e.msgid): e for e in polib.pofile(str(path)) if not e.obsolete}


@pytest.fixture(scope="module")
def remade(tmp_path_factory):
    """The catalogs as `make messages` would leave them, made in a copy of the sources (it
    writes into the locale folder of the tree it reads)."""
    if shutil.which("msgmerge") is None or shutil.which("xgettext") is None:
        pytest.fail("GNU gettext (xgettext, msgmerge) is needed to check the catalogs: apt-get install gettext")
    copy = tmp_path_factory.mktemp("sources")
    # Left out of the copy: the folders makemessages is told to ignore ('tests/*'), and what it
    # never reads (docs holds no .py, .html or .txt).
    skipped = [pattern.removesuffix("/*") for pattern in IGNORED if pattern.endswith("/*")]
    shutil.copytree(ROOT, copy, dirs_exist_ok=True, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", *skipped, "docs", "*.mo", "*.sqlite3*", "__pycache__",
                                                  "*.egg-info"))
    command = [sys.executable, "manage.py", "makemessages", *ARGUMENTS]
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
