"""A refused option is told in the match creator's language: Option.clean and clean_options
(shared by every engine) raise their IllegalAction from their own phrase book,
games/engines/options_words.json. The option's label is the engine's English label."""
import re

import pytest

from games.engines.base import OPTION_WORDS, IllegalAction, Option, clean_options
from games.engines.fuldrigger import ENGINE
from tests.engines.phrasebook_support import assert_translated, fields, refusal

OTHERS = ("da", "de", "sv")
ERRORS = sorted(key for key in OPTION_WORDS.keys() if key.startswith("error.option_"))

CONVOYS = Option("convoys", "Convoys", "bool", True)
ROUNDS = Option("rounds", "Rounds", "int", 0, min=0, max=200)
BOARD = Option("board", "Board", "choice", "small", choices=("small", "large"))


def test_every_option_error_is_in_every_language_with_the_same_fields():
    """Each "error.option_" phrase is in all four books, not empty, not left in English, and
    fills in the same {fields} (label, raw, min, max, allowed, unknown; a rules edition not
    known and the editions there are) with the same conversions; the book holds nothing else."""
    assert set(OPTION_WORDS.keys()) == set(ERRORS) and len(ERRORS) == 6
    for key in ERRORS:
        assert {name for name, _, _ in fields(OPTION_WORDS.books["en"][key])} <= {
            "label", "raw", "min", "max", "allowed", "unknown", "edition", "editions"}
    assert_translated(OPTION_WORDS, ERRORS)


REFUSALS = {
    "not yes or no": (
        lambda: CONVOYS.clean("perhaps"),
        "Convoys: expected yes or no, got 'perhaps'.",
        {"da": "Convoys: skal være ja eller nej, ikke 'perhaps'.",
         "de": "Convoys: muss Ja oder Nein sein, nicht 'perhaps'.",
         "sv": "Convoys: måste vara ja eller nej, inte 'perhaps'."}),
    "not a number": (
        lambda: ROUNDS.clean("many"),
        "Rounds: expected a whole number, got 'many'.",
        {"da": "Rounds: skal være et helt tal, ikke 'many'.",
         "de": "Rounds: muss eine ganze Zahl sein, nicht 'many'.",
         "sv": "Rounds: måste vara ett heltal, inte 'many'."}),
    "a yes for a number": (
        lambda: ROUNDS.clean(True),
        "Rounds: expected a whole number, got True.",
        {"da": "Rounds: skal være et helt tal, ikke True.",
         "de": "Rounds: muss eine ganze Zahl sein, nicht True.",
         "sv": "Rounds: måste vara ett heltal, inte True."}),
    "out of bounds": (
        lambda: ROUNDS.clean("500"),
        "Rounds: must be between 0 and 200.",
        {"da": "Rounds: skal være mellem 0 og 200.",
         "de": "Rounds: muss zwischen 0 und 200 liegen.",
         "sv": "Rounds: måste vara mellan 0 och 200."}),
    "not a choice": (
        lambda: BOARD.clean("huge"),
        "Board: must be one of small, large.",
        {"da": "Board: skal være en af følgende: small, large.",
         "de": "Board: muss eines der folgenden sein: small, large.",
         "sv": "Board: måste vara något av följande: small, large."}),
    "unknown options": (
        lambda: clean_options([CONVOYS, ROUNDS], {"speed": 3, "colour": "red"}),
        "Unknown option: colour, speed.",
        {"da": "Ukendt indstilling: colour, speed.",
         "de": "Unbekannte Einstellung: colour, speed.",
         "sv": "Okänd inställning: colour, speed."}),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_option_is_english_and_in_each_language(case):
    """str() is the English message as before; in_language gives each translation with the
    option's label and the refused value filled in."""
    act, english, translated = REFUSALS[case]
    refused = refusal(act)
    assert str(refused) == english
    assert refused.in_language("en") == english
    for lang in OTHERS:
        text = refused.in_language(lang)
        assert text == translated[lang]
        assert not re.search(r"[{}]", text)


def test_an_engines_own_options_are_refused_in_the_language():
    """Through an engine's check_options: the label stays the engine's English one (this book
    knows no engine's words), the rest is the language's."""
    refused = refusal(lambda: ENGINE.check_options({"start_cash": 5000}, 2))
    assert str(refused) == "Starting cash: must be between 50 and 1000."
    assert refused.in_language("de") == "Starting cash: muss zwischen 50 und 1000 liegen."


@pytest.mark.parametrize("lang", ["fr", None, "", "xx-YY"])
def test_an_unknown_language_gets_english(lang):
    """A language the book lacks gets the English message."""
    for act, english, _ in REFUSALS.values():
        assert refusal(act).in_language(lang) == english


def test_regional_codes_speak_their_language():
    """A Django language code with a region ("da-DK", "de-at") picks that language's words."""
    act, _, translated = REFUSALS["out of bounds"]
    assert refusal(act).in_language("da-DK") == translated["da"]
    assert refusal(act).in_language("de-at") == translated["de"]
