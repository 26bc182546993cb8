"""A refused action is told in the player's language: every IllegalAction the engine raises
comes from the phrase book (words.json), reads English as str() and en/da/de/sv through
in_language, and names ports, squares and goods as the language does.

Two-player games: seat 0 sails from Copenhagen (ships 1–3), seat 1 from Amsterdam (ships 4–6).
"""
import re
from pathlib import Path

import pytest

from games.engines.fuldrigger.book import WORDS, cargo_name, place_name
from games.engines.fuldrigger.sailing import check_path
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, cargo, game, put_ship, sea_entry, squares,
)
from tests.engines.phrasebook_support import assert_translated, fields, refusal

OTHERS = ("da", "de", "sv")
ENGINE_DIR = Path(__file__).resolve().parents[3] / "games" / "engines" / "fuldrigger"
ERRORS = sorted(key for key in WORDS.keys() if key.startswith("error."))


def test_every_error_is_in_every_language_with_the_same_fields():
    """Each "error." phrase is in all four books, not empty, not left in English, and fills in
    the same {fields} with the same conversions."""
    assert len(ERRORS) >= 90
    assert_translated(WORDS, ERRORS)


def test_every_refusal_in_the_engine_comes_from_the_phrase_book():
    """No message is written into the code any more; every key the code names is in the book,
    and every "error." phrase in the book is raised somewhere."""
    named = set()
    for source in sorted(ENGINE_DIR.glob("*.py")):
        text = source.read_text(encoding="utf-8")
        assert not re.search(r"IllegalAction\(", text), source.name
        named |= set(re.findall(r'"(error\.[a-z_]+)"', text))
    assert named == set(ERRORS), sorted(named ^ set(ERRORS))


def buy_ship_broke():
    state = game(2)
    state["cash"][0] = 0
    ENGINE.apply(state, 0, {"type": "buy_ship"})


def in_lisbon(action: dict, **ship_fields):
    """Seat 0 acts with a ship of his lying in Lisbon."""
    state = game(2)
    ship = put_ship(state, 0, "lisbon", **ship_fields)
    ENGINE.apply(state, 0, {**action, "ship": ship["id"]})


def accept_spent_offer():
    """Seat 0 offers seat 1 fifty ducats and has spent them when seat 1 accepts."""
    state, _ = ENGINE.apply(game(2), 0, {"type": "offer", "to": 1, "give": {"ducats": 50}})
    state["cash"][0] = 0
    ENGINE.apply(state, 1, {"type": "accept_offer", "offer": state["offers"][0]["id"]})


REFUSALS = {
    "out of turn": (
        lambda: ENGINE.apply(game(2), 1, {"type": "roll"}),
        "It is not your turn.",
        {"da": "Det er ikke din tur.", "de": "Du bist nicht am Zug.", "sv": "Det är inte din tur."}),
    "unknown action type": (
        lambda: ENGINE.apply(game(2), 0, {"type": "teleport"}),
        "Unknown action 'teleport'.",
        {"da": "Ukendt handling 'teleport'.", "de": "Unbekannte Aktion 'teleport'.",
         "sv": "Okänd handling 'teleport'."}),
    "too many players": (
        lambda: ENGINE.check_options({}, 5),
        "Fuldrigger is played by 2 to 4 players, not 5.",
        {"da": "Fuldrigger spilles af 2 til 4 spillere, ikke 5.",
         "de": "Fuldrigger wird von 2 bis 4 Spielern gespielt, nicht von 5.",
         "sv": "Fuldrigger spelas av 2 till 4 spelare, inte 5."}),
    "F22 a ship too dear": (
        buy_ship_broke,
        "A ship costs 100 ducats; you have 0.",
        {"da": "Et skib koster 100 dukater; du har 0.",
         "de": "Ein Schiff kostet 100 Dukaten; du hast 0.",
         "sv": "Ett skepp kostar 100 dukater; du har 0."}),
    "F23 a fortress where no ship lies": (
        lambda: ENGINE.apply(game(2), 0, {"type": "buy_fortress", "port": "lisbon"}),
        "A fortress is bought where one of your ships stands; none is in Lisbon.",
        {"da": "En fæstning købes, hvor et af dine skibe ligger; der ligger intet i Lissabon.",
         "de": "Eine Festung kauft man dort, wo eines deiner Schiffe liegt; "
               "in Lissabon liegt keines.",
         "sv": "En fästning köps där ett av dina skepp ligger; inget ligger i Lissabon."}),
    "F28 a good the port does not sell": (
        lambda: in_lisbon({"type": "buy_cargo", "good": "spices"}),
        "Spices cannot be bought in Lisbon.",
        {"da": "Krydderier kan ikke købes i Lissabon.",
         "de": "In Lissabon kann man Gewürze nicht kaufen.",
         "sv": "Kryddor kan inte köpas i Lissabon."}),
    "F30 sold too early": (
        lambda: in_lisbon({"type": "sell_cargo"}, cargo=cargo("sugar", carried=3)),
        "The sugar has been carried 3 squares; it must be carried 10 before it can be sold.",
        {"da": "Lasten af sukker er kun ført 3 felter; den skal føres 10, før den kan sælges.",
         "de": "Die Ladung Zucker wurde erst 3 Felder weit befördert; verkauft werden kann sie "
               "erst nach 10.",
         "sv": "Lasten av socker har bara förts 3 rutor; den måste föras 10 innan den kan säljas."}),
    "F41 an offer that can no longer be met": (
        accept_spent_offer,
        "Not enough cash for this offer any more.",
        {"da": "Pengene rækker ikke længere til dette tilbud.",
         "de": "Für dieses Angebot reicht das Geld nicht mehr.",
         "sv": "Pengarna räcker inte längre till det här erbjudandet."}),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refusal_is_english_and_in_each_language(case):
    """str() is the English message; in_language gives each translation, with its fields filled
    in and its names (Lisbon, spices, sugar) in that language."""
    act, english, translated = REFUSALS[case]
    refused = refusal(act)
    assert str(refused) == english
    assert refused.in_language("en") == english
    for lang in OTHERS:
        text = refused.in_language(lang)
        assert text == translated[lang]
        assert text != english and "{" not in text and "}" not in text


@pytest.mark.parametrize("lang", ["fr", None, "", "xx-YY"])
def test_an_unknown_language_gets_english(lang):
    """A language the book lacks gets the English message, fields filled in."""
    for act, english, _ in REFUSALS.values():
        assert refusal(act).in_language(lang) == english


def test_regional_codes_speak_their_language():
    """A Django language code with a region ("de-at", "sv-SE") picks that language's words."""
    act, _, translated = REFUSALS["F28 a good the port does not sell"]
    refused = refusal(act)
    assert refused.in_language("de-at") == translated["de"]
    assert refused.in_language("sv-SE") == translated["sv"]


def test_squares_are_named_as_the_language_names_them():
    """F14 a headwind ends a move there: the square is named with the language's sea area and
    hazard ("Ärmelkanal (Gegenwind)"), never the English one."""
    node = next(n for n in squares("headwind") if place_name(n, "de") != WORLD.name(n))
    start = sea_entry(node)
    beyond = next(n for n in WORLD.neighbours(node) if n != start and not WORLD.is_port(n))
    refused = refusal(lambda: check_path(start, [node, beyond], 4))
    assert str(refused) == f"The headwind at {WORLD.name(node)} ends the move there."
    for lang in OTHERS:
        text = refused.in_language(lang)
        assert place_name(node, lang) in text
        assert WORDS.say("hazard.headwind", lang) in text
    assert WORLD.name(node) not in refused.in_language("de")


@pytest.mark.parametrize("lang", OTHERS)
def test_every_good_is_named_in_the_language(lang):
    """F30 the cargo in a sentence is the language's word for it, for every good."""
    for good in WORLD.goods:
        refused = refusal(lambda: in_lisbon({"type": "sell_cargo"}, cargo=cargo(good, carried=0)))
        assert cargo_name(good, lang) in refused.in_language(lang)
        assert cargo_name(good) in str(refused)
