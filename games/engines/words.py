"""Phrase books: an engine's words in every language the site speaks.

Engines are pure and know nothing of Django's translations, so each keeps a JSON book beside it:
``{"en": {"key": "text with {fields}", ...}, "da": {...}, "de": {...}, "sv": {...}}``.
English is complete; another language falls back to English for a key it lacks, so a new phrase
never shows as a blank (a test checks every book is complete anyway).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

LANGUAGES = ("en", "da", "de", "sv")


def language(lang: str | None) -> str:
    """The book's language for a Django language code ("da", "de-at", "sv-SE"); English otherwise."""
    code = (lang or "en").lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else "en"


# In the Danish, German and Swedish books "{who}s" is a name's genitive: "Annas skib". A name that
# ends in s, x or z takes no second s: "Jonas' skib" in Danish and German, "Jonas skepp" in Swedish.
_GENITIVE = re.compile(r"\{(\w+)\}s(?![\w])")
_SIBILANTS = ("s", "x", "z")


def genitive(name: str, lang: str | None = "en") -> str:
    """`name`'s genitive in `lang`: "Anna's" / "Annas", and for a name ending in s, x or z
    "Jonas's" in English, "Jonas'" in Danish and German, "Jonas" in Swedish."""
    lang = language(lang)
    if lang == "en":
        return f"{name}'s"
    if name[-1:].lower() in _SIBILANTS:
        return name if lang == "sv" else f"{name}'"
    return f"{name}s"


def genitives(text: str, lang: str | None, fields: dict) -> str:
    """`text` with each "{field}s" of a name field written as that name's genitive (outside
    English, where the books write "{who}'s" themselves); the other fields are left to format."""
    if "}s" not in text or language(lang) == "en":
        return text

    def owner(found):
        value = fields.get(found.group(1))
        if not isinstance(value, str):
            return found.group(0)
        return genitive(value, lang).replace("{", "{{").replace("}", "}}")
    return _GENITIVE.sub(owner, text)


class Phrasebook:
    def __init__(self, path: Path):
        with open(path, encoding="utf-8") as handle:
            self.books: dict[str, dict[str, str]] = json.load(handle)
        missing = [lang for lang in LANGUAGES if lang not in self.books]
        if missing:
            raise ValueError(f"{path.name} has no {', '.join(missing)} section")

    @classmethod
    def beside(cls, module_file: str) -> "Phrasebook":
        """The book in words.json next to `module_file`: where every engine keeps its own."""
        return cls(Path(module_file).with_name("words.json"))

    def has(self, key: str) -> bool:
        return key in self.books["en"]

    def say(self, key: str, lang: str | None = "en", **fields) -> str:
        """The phrase ``key`` in ``lang`` with its fields filled in."""
        book = self.books[language(lang)]
        text = book.get(key)
        if text is None:
            text = self.books["en"][key]
        if not fields:
            return text
        text = genitives(text, lang, fields)
        return text.format(**fields)

    def keys(self) -> set[str]:
        return set(self.books["en"])
