"""The phrase book (words.json): every sentence, good, card, option and name in English, Danish,
German and Swedish, and describe telling real events in each of them."""
import json
import random
from pathlib import Path

import pytest

from games.engines.fuldrigger import view
from games.engines.fuldrigger.bots import random_action
from games.engines.fuldrigger.view import (
    WORDS, area_name, card_words, describe, good_name, option_words, place_name,
)
from tests.engines.fuldrigger.fuldrigger_support import ENGINE, WORLD
from tests.engines.phrasebook_support import fields

TRANSLATIONS = ("da", "de", "sv")
NAMES = ["Anna", "Bo", "Carl", "Dora"]
CARDS = json.loads((Path(view.__file__).parent / "cards.json").read_text(encoding="utf-8"))["cards"]
# Names of ports and sea areas are only in a translation where that language says them otherwise.
OWN_NAMES = {f"port.{port}" for port in WORLD.ports} | {
    f"area.{data['area']}" for data in WORLD.nodes.values() if data.get("area")}


@pytest.fixture(scope="module")
def events():
    """Events of random legal games, as test_fuldrigger_contract plays them."""
    seen = []
    for seed in ("words-1", "words-2", "words-3"):
        rnd = random.Random(seed)
        state = ENGINE.new_game(4, seed, {"rounds": 12})
        while not ENGINE.is_over(state):
            system = ENGINE.system_action(state)
            seat = None if system else rnd.choice(ENGINE.to_act(state))
            state, new = ENGINE.apply(state, seat, system or random_action(state, seat, rnd))
            seen.extend(new)
    return seen


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_english_phrase_is_translated(lang):
    """Every key of the English book is in the Danish, German and Swedish books, none empty;
    a translation's other keys are port or sea-area names the world knows."""
    book = WORDS.books[lang]
    assert not WORDS.keys() - set(book)
    assert all(isinstance(text, str) and text.strip() for text in book.values())
    assert not set(book) - WORDS.keys() - OWN_NAMES


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translations_fill_the_same_fields(lang):
    """Each translation uses exactly the fields of its English phrase; names use none."""
    book = WORDS.books[lang]
    for key, english in WORDS.books["en"].items():
        assert fields(book[key]) == fields(english), key
    assert all(not fields(book[key]) for key in set(book) & OWN_NAMES)


# Words a language spells as English does; any other phrase left in English is untranslated.
ALIKE = {
    "da": {"place_hazard", "hazard.storm", "weather.storm", "card.embargo_cadiz.title"},
    "de": {"place_hazard", "good.rum", "card.embargo_cadiz.title"},
    "sv": {"place_hazard", "hazard.storm", "weather.storm", "good.silver", "cargo.silver",
           "card.embargo_cadiz.title"},
}


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_no_phrase_is_left_in_english(lang):
    """A translation differs from its English phrase, save the few words spelled alike."""
    book = WORDS.books[lang]
    assert {key for key, english in WORDS.books["en"].items() if book[key] == english} == ALIKE[lang]


def test_english_book_agrees_with_the_world_and_the_cards():
    """English names come out as the world, the price lists and cards.json have them."""
    for good, data in WORLD.goods.items():
        assert good_name(good) == data["name"]
    for node in WORLD.nodes:
        assert place_name(node) == WORLD.name(node)
        assert area_name(node) == (WORLD.nodes[node].get("area") or WORLD.name(node))
    for card in CARDS:
        assert card_words(card["id"]) == (card["title"], card["text"])


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_describe_speaks_each_language(events, lang):
    """Every event of real games is told in the language, not in English (names aside)."""
    ships = {e[key] for e in events for key in ("name", "lost_name", "prize_name") if key in e}
    kinds = set()

    def without_names(text):
        for name in sorted(ships | set(NAMES), key=len, reverse=True):
            text = text.replace(name, "")
        return text

    for event in events:
        text = describe(event, NAMES, lang)
        english = describe(event, NAMES)
        assert text and "{" not in text
        assert without_names(text) != without_names(english), text
        kinds.add(event["type"])
    assert {"roll", "move", "card", "turn", "buy_cargo", "sell_cargo", "attack",
            "fit_privateer"} <= kinds


def test_danish_privateer_sentences_say_kaperskib(events):
    """The Danish log calls a privateer what the original rules do: kaperskib."""
    privateering = [e for e in events if e["type"] in ("fit_privateer", "lay_off_privateer")
                    or (e["type"] == "pirates" and e.get("spared") == "privateer")]
    assert privateering
    for event in privateering:
        assert "kaperskib" in describe(event, NAMES, "da")


def test_names_in_each_language():
    """Ports, sea areas and goods take the language's own name; one spelled alike falls back
    to English."""
    cape = next(n for n, d in WORLD.nodes.items()
                if d.get("area") == "Cape of Good Hope" and d.get("hazard") == "storm")
    assert area_name(cape, "da") == "Kap Det Gode Håb"
    assert area_name(cape, "de") == "Kap der Guten Hoffnung"
    assert area_name(cape, "sv") == "Godahoppsudden"
    assert place_name(cape, "de") == "Kap der Guten Hoffnung (Sturm)"
    assert place_name("lisbon", "da") == "Lissabon"
    assert place_name("hamburg", "de") == WORLD.name("hamburg")
    for lang in TRANSLATIONS:
        assert good_name("iron", lang) != "Iron goods"
        assert all(good_name(good, lang)[0].isupper() for good in WORLD.goods)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_plurals_have_their_own_phrases(events, lang):
    """One square and one fortress are told in the singular, more in the plural."""
    move = next(e for e in events if e["type"] == "move")
    one = describe({**move, "path": move["path"][:1]}, NAMES, lang)
    two = describe({**move, "path": (move["path"] * 2)[:2]}, NAMES, lang)
    assert one.replace(" 1 ", " 2 ") != two
    assert WORDS.say("offer_fortresses_one", lang, ports="X") != \
        WORDS.say("offer_fortresses_many", lang, ports="X")


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_card_has_its_words(lang):
    """Each of the cards in cards.json has a title and a text in the language, and the card
    event is told with them; an unknown card keeps the words it came with."""
    assert len(CARDS) == 28
    for card in CARDS:
        title, text = card_words(card["id"], lang)
        assert title.strip() and text.strip() and text != card["text"]
        event = {"type": "card", "card": card["id"], "title": card["title"], "text": card["text"]}
        told = describe(event, NAMES, lang)
        assert title in told and text in told
    stray = {"type": "card", "card": "no_such_card", "title": "Odd", "text": "Something odd."}
    assert "Odd: Something odd." in describe(stray, NAMES, lang)
    with pytest.raises(KeyError):
        card_words("no_such_card", lang)


def test_options_in_german():
    """options("de") has German labels and help, and the same names, kinds, defaults and
    bounds as the English."""
    english, german = ENGINE.options(), ENGINE.options("de")
    assert [o["name"] for o in german] == [o["name"] for o in english]
    for en, de in zip(english, german):
        assert {k: v for k, v in de.items() if k not in ("label", "help")} == \
            {k: v for k, v in en.items() if k not in ("label", "help")}
        assert (de["label"], de["help"]) == option_words(de["name"], "de")
        assert de["label"] != en["label"] and de["help"] != en["help"]


@pytest.mark.parametrize("lang", ["fr", None, "", "xx-YY"])
def test_unknown_language_speaks_english(events, lang):
    """A language the book lacks gets English everywhere."""
    for event in events[:400]:
        assert describe(event, NAMES, lang) == describe(event, NAMES)
    assert ENGINE.options(lang) == ENGINE.options()
    assert card_words(CARDS[0]["id"], lang) == card_words(CARDS[0]["id"])
    assert good_name("iron", lang) == "Iron goods"
    assert place_name("lisbon", lang) == WORLD.name("lisbon")


def test_regional_codes_speak_their_language(events):
    """A Django language code with a region ("de-at", "sv-SE") picks that language's book."""
    event = next(e for e in events if e["type"] == "move")
    assert describe(event, NAMES, "de-at") == describe(event, NAMES, "de")
    assert describe(event, NAMES, "sv-SE") == describe(event, NAMES, "sv")
    assert ENGINE.describe(event, NAMES, "da") == describe(event, NAMES, "da")
