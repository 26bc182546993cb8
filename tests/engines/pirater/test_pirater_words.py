"""Pirater's phrase book (words.json): the log, the variants and their settings in English,
Danish, German and Swedish, Swedish being the game's own language (the original rules' words)."""
import random
import re
from pathlib import Path

import pytest

from games.engines.pirater.bots import random_action
from games.engines.pirater.state import OPTIONS
from games.engines.pirater.view import WORDS, choice_words, option_words
from pirater_support import ENGINE
from tests.engines.phrasebook_support import fields

OTHERS = ("da", "de", "sv")
GLOSSARY = Path(__file__).resolve().parents[3] / "docs" / "translations.md"
NAMES = ["Anna", "Bo", "Cia", "Dan", "Eve", "Fia", "Gus", "Hal"]
GAMES = [
    ({}, 2), ({}, 4), ({"hurricane": True, "one_two": True}, 3),
    ({"double_board": True, "shipwreck": True}, 5),
    ({"powder_ship": True, "curse_island": True}, 4),
    ({"flotilla": True, "flotilla_split": "any_six", "powder_ship": True}, 3),
    ({"opposing_realms": True, "hurricane": True}, 2), ({"headwind_realm": True}, 2),
]


def real_events() -> list[dict]:
    """Events of random legal games of every variant, the opening rolls included."""
    events = []
    for options, players in GAMES:
        state = ENGINE.new_game(players, f"words-{players}-{sorted(options)}", options)
        events += state["start"]
        rnd = random.Random(players)
        for _ in range(400):
            if ENGINE.is_over(state):
                break
            seat = ENGINE.to_act(state)[0]
            state, more = ENGINE.apply(state, seat, random_action(state, seat, rnd))
            events += more
    return events


def glossary_rows() -> dict[str, dict[str, str]]:
    """docs/translations.md's Pirater table: English term to its word in each language."""
    text = GLOSSARY.read_text(encoding="utf-8")
    table = text.split("### Pirater", 1)[1].split("###", 1)[0]
    lines = [line for line in table.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    columns = {"English": "en", "Svenska": "sv", "Dansk": "da", "Deutsch": "de"}
    rows = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        row = {columns[name]: cell for name, cell in zip(header, cells)}
        rows[row["en"]] = row
    return rows


@pytest.mark.parametrize("lang", OTHERS)
def test_every_english_phrase_is_in_every_language(lang):
    """The book is complete: no phrase falls back to English, none is empty."""
    book = WORDS.books[lang]
    assert set(book) == WORDS.keys()
    assert all(book[key].strip() for key in book)


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_fill_in_the_same_fields_as_english(lang):
    """Each phrase names the same {fields} as its English, so describe can fill every one."""
    for key, english in WORDS.books["en"].items():
        assert fields(WORDS.books[lang][key]) == fields(english), key


def test_real_events_read_in_every_language():
    """Every event of real games reads as a full sentence in each language, not as English."""
    events = real_events()
    kinds = {e["type"] for e in events}
    assert {"start_roll", "first_player", "roll", "move", "turn", "treasure_loaded"} <= kinds
    for event in events:
        english = ENGINE.describe(event, NAMES)
        for lang in OTHERS:
            text = ENGINE.describe(event, NAMES, lang)
            assert text and text != english, (lang, event)
            assert "{" not in text and "}" not in text and "'s" not in text, (lang, text)


@pytest.mark.parametrize("lang, sailed, one_square", [
    ("da", "Annas skib sejlede 5 felter mod nord og kaprede Bos skib", "1 felt mod nord"),
    ("de", "Annas Schiff segelte 5 Felder nach Norden und kaperte Bos Schiff", "1 Feld nach Norden"),
    ("sv", "Annas skepp seglade 5 rutor norrut och kapade Bos skepp", "1 ruta norrut"),
])
def test_possessives_and_plurals_live_in_the_phrases(lang, sailed, one_square):
    """P15 a capture in words: the owner's form and the plural of squares come from the book."""
    event = {"type": "move", "seat": 0, "ship": 0, "ships": [0], "die": 5, "direction": "n",
             "captured": [{"ship": 4, "seat": 1}]}
    assert ENGINE.describe(event, NAMES, lang) == sailed
    assert ENGINE.describe(dict(event, die=1, captured=[]), NAMES, lang).endswith(one_square)


def test_variant_names_are_the_glossary_words():
    """P20–P28 each variant is called in every language what docs/translations.md says (the
    Swedish names are those of the original rules)."""
    rows = glossary_rows()
    labels = {option_words(o.name)[0]: o.name for o in OPTIONS}
    named = [term for term in rows if term in labels]
    assert len(named) == 9
    for term in named:
        for lang in ("sv", "da", "de"):
            assert option_words(labels[term], lang)[0] == rows[term][lang], (term, lang)


def test_swedish_trade_winds_are_passadvindar():
    """P3 the trade winds keep the original rules' word in Swedish, and each language its own."""
    trade_winds = glossary_rows()["trade winds"]
    for lang in OTHERS:
        stem = re.match(r"passa[dt][vw]ind", trade_winds[lang].lower()).group(0)
        text = " ".join(WORDS.books[lang].values()).lower()
        assert stem in text, lang
        assert not re.search(r"passa[dt][vw]ind", text.replace(stem, "")), lang
    realms = option_words("opposing_realms", "sv")[1]
    assert "passadvindarna" in realms


def test_options_in_swedish_keep_names_kinds_and_defaults():
    """The match options read in Swedish; only the words change, never what is chosen."""
    english, swedish = ENGINE.options(), ENGINE.options("sv")
    assert [o["name"] for o in swedish] == [o["name"] for o in english]
    for en, sv in zip(english, swedish):
        words = ("label", "help", "choice_labels")
        assert {k: v for k, v in sv.items() if k not in words} == {k: v for k, v in en.items() if k not in words}
        if sv["kind"] == "choice":
            assert sv["choice_labels"] == {c: choice_words(c, "sv") for c in sv["choices"]}
        assert (sv["label"], sv["help"]) == option_words(sv["name"], "sv")
        # The original Swedish rules call one variant FLOTILLA, as English does.
        assert sv["label"] != en["label"] or sv["name"] == "flotilla"
        assert sv["help"] != en["help"]
    assert {o["name"]: o["label"] for o in swedish}["curse_island"] == "Förbannelsens ö"


def test_english_options_are_the_engines_own_words():
    """The book's English labels and help are those the engine states and checks options with."""
    for option in OPTIONS:
        assert option_words(option.name) == (option.label, option.help)
    assert [{k: v for k, v in o.items() if k != "choice_labels"} for o in ENGINE.options()] == \
        [o.as_dict() for o in OPTIONS]


def test_every_choice_has_words_in_every_language():
    """P22, P28 the settings' choices read as words, never as "one_each"."""
    for option in OPTIONS:
        for value in option.choices:
            assert WORDS.has(f"choice.{value}")
            assert choice_words(value) == value.replace("_", " ")
            for lang in OTHERS:
                assert "_" not in choice_words(value, lang) and choice_words(value, lang) != choice_words(value)


@pytest.mark.parametrize("lang", [None, "", "xx", "fr", "en-gb", "zh-hans"])
def test_an_unknown_language_reads_english(lang):
    """A language the book lacks reads English; regional codes read their language."""
    event = {"type": "win", "seat": 1, "how": "treasure"}
    assert ENGINE.describe(event, NAMES, lang) == "Bo brought the treasure home and wins"
    assert ENGINE.options(lang) == ENGINE.options()
    assert ENGINE.describe(event, NAMES, "sv-SE") == ENGINE.describe(event, NAMES, "sv")
    assert ENGINE.describe(event, NAMES, "de-at") == ENGINE.describe(event, NAMES, "de")


def test_names_for_missing_seats_are_translated():
    """Nobody and an unnamed seat read in the page's language too."""
    assert ENGINE.describe({"type": "extra_roll", "seat": None}, NAMES) == "Nobody rolls again"
    assert ENGINE.describe({"type": "extra_roll", "seat": 9}, NAMES) == "Player 9 rolls again"
    assert ENGINE.describe({"type": "extra_roll", "seat": None}, NAMES, "sv") == "Ingen kastar igen"
    assert ENGINE.describe({"type": "extra_roll", "seat": 9}, NAMES, "de") == "Spieler 9 würfelt noch einmal"
