"""The phrase book (words.json) and the names it gives goods and places, in every language.

Apart from view.py because the rules modules raise their refusals in the book's words too
(`IllegalAction.said(WORDS, "error.…")`), and view.py imports the rules.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.engines.fuldrigger.board import WORLD
from games.engines.words import Phrasebook, language


@dataclass(frozen=True)
class Name:
    """A good or a square in a sentence's fields, kept by its id.

    A refusal is told again in the player's language with the fields it was raised with
    (`IllegalAction.in_language`), so a name filled in as English text would stay English there.
    kind is "good" (as a price list says it: "Iron goods"), "cargo" (as a sentence says it:
    "iron goods") or "place" (a port, or a square with its hazard).
    """

    kind: str
    id: str

    def said(self, lang: str | None) -> str:
        if self.kind == "place":
            return place_name(self.id, lang)
        if self.kind == "good":
            return good_name(self.id, lang)
        return cargo_name(self.id, lang)


class Book(Phrasebook):
    """A Phrasebook whose fields may also be `Name`s, said in the language of the sentence."""

    def say(self, key: str, lang: str | None = "en", **fields) -> str:
        # Most sentences carry no Name: fill them in without rebuilding their fields (every
        # log line and label of a render comes through here).
        for value in fields.values():
            if isinstance(value, Name):
                fields = {field: value.said(lang) if isinstance(value, Name) else value
                          for field, value in fields.items()}
                break
        return super().say(key, lang, **fields)


# Every sentence, name and label is in words.json, English and its translations side by side;
# a language without a phrase falls back to English. Ports and sea areas are in the book only
# where a language names them otherwise: English keeps its names in world.json.
WORDS = Book.beside(__file__)


def _own_name(key: str, lang: str | None, english: str) -> str:
    return WORDS.books[language(lang)].get(key, english)


def option_words(name: str, lang: str | None = "en") -> tuple[str, str]:
    """An option's label and help text."""
    return WORDS.say(f"option.{name}.label", lang), WORDS.say(f"option.{name}.help", lang)


def good_name(good: str, lang: str | None = "en") -> str:
    """A good's name as a price list shows it ("Iron goods")."""
    return WORDS.say(f"good.{good}", lang) if good in WORLD.goods else good


def cargo_name(good: str | None, lang: str | None = "en") -> str:
    """A good as a sentence says it ("iron goods" in English, "Eisenwaren" in German)."""
    if good is None:
        return WORDS.say("cargo", lang)
    return WORDS.say(f"cargo.{good}", lang) if good in WORLD.goods else good


def place_name(node: str, lang: str | None = "en") -> str:
    """A port's name, or a square's sea area with its hazard, e.g. "Cape of Good Hope (storm)"."""
    if node not in WORLD.nodes:
        return node
    data = WORLD.nodes[node]
    if data["kind"] == "port":
        return _own_name(f"port.{node}", lang, data["name"])
    area = _own_name(f"area.{data['area']}", lang, data["area"]) if data.get("area") else node
    hazard = data.get("hazard")
    if hazard == "reef":
        return WORDS.say("place_reef", lang, area=area, letter=data["reef"])
    if hazard:
        return WORDS.say("place_hazard", lang, area=area, hazard=WORDS.say(f"hazard.{hazard}", lang))
    if node == WORLD.calm_square:
        return WORDS.say("place_calm_square", lang, area=area)
    return area


def area_name(node: str, lang: str | None = "en") -> str:
    """A hazard square's sea area without the hazard's name, e.g. "Cape of Good Hope"."""
    if node not in WORLD.nodes:
        return node
    area = WORLD.nodes[node].get("area")
    return _own_name(f"area.{area}", lang, area) if area else place_name(node, lang)
