"""Phrase books: an engine's words in every language the site speaks.

Engines are pure and know nothing of Django's translations, so each keeps a JSON book beside it:
``{"en": {"key": "text with {fields}", ...}, "da": {...}, "de": {...}, "sv": {...}}``.
English is complete; another language falls back to English for a key it lacks, so a new phrase
never shows as a blank (a test checks every book is complete anyway).
"""
from __future__ import annotations

import json
from pathlib import Path

LANGUAGES = ("en", "da", "de", "sv")


def language(lang: str | None) -> str:
    """The book's language for a Django language code ("da", "de-at", "sv-SE"); English otherwise."""
    code = (lang or "en").lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else "en"


class Phrasebook:
    def __init__(self, path: Path):
        with open(path, encoding="utf-8") as handle:
            self.books: dict[str, dict[str, str]] = json.load(handle)
        missing = [lang for lang in LANGUAGES if lang not in self.books]
        if missing:
            raise ValueError(f"{path.name} has no {', '.join(missing)} section")

    def has(self, key: str) -> bool:
        return key in self.books["en"]

    def say(self, key: str, lang: str | None = "en", **fields) -> str:
        """The phrase ``key`` in ``lang`` with its fields filled in."""
        book = self.books[language(lang)]
        text = book.get(key)
        if text is None:
            text = self.books["en"][key]
        return text.format(**fields) if fields else text

    def keys(self) -> set[str]:
        return set(self.books["en"])
