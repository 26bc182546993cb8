"""A refused action is told in the player's language: every IllegalAction the engine raises
comes from the phrase book (words.json), reads English as str() and en/da/de/sv through
in_language.

Two-player games: seat 0 sails from the north-west port (ships 0–2), seat 1 from the
south-east port (ships 3–5).
"""
import re
from pathlib import Path

import pytest

from games.engines.pirater.view import WORDS, option_words
from pirater_support import ENGINE, IllegalAction, game, move, only, play, rolled
from tests.engines.phrasebook_support import assert_translated, fields, refusal

OTHERS = ("da", "de", "sv")
ENGINE_DIR = Path(__file__).resolve().parents[3] / "games" / "engines" / "pirater"
ERRORS = sorted(key for key in WORDS.keys() if key.startswith("error."))


def test_every_error_is_in_every_language_with_the_same_fields():
    """Each "error." phrase is in all four books, not empty, and fills in the same {fields}."""
    assert len(ERRORS) >= 30
    assert_translated(WORDS, ERRORS)


def test_every_refusal_in_the_engine_comes_from_the_phrase_book():
    """No message is written into the code any more, and every key the code names is in the book."""
    named = set()
    for source in sorted(ENGINE_DIR.glob("*.py")):
        text = source.read_text(encoding="utf-8")
        assert not re.search(r"IllegalAction\(", text), source.name
        named |= set(re.findall(r'"(error\.[a-z_.]+)"', text))
    assert named and named <= set(ERRORS), sorted(named - set(ERRORS))


REFUSALS = {
    "out of turn": (
        lambda: play(game(), 1, {"type": "roll"}),
        "It is not your turn.",
        {"da": "Det er ikke din tur.", "de": "Du bist nicht am Zug.", "sv": "Det är inte din tur."}),
    "unknown action type": (
        lambda: play(game(), 0, {"type": "jump"}),
        "Unknown action type 'jump' (roll, declare_powder or move).",
        {"da": "Ukendt handlingstype 'jump' (roll, declare_powder eller move).",
         "de": "Unbekannter Aktionstyp 'jump' (roll, declare_powder oder move).",
         "sv": "Okänd handlingstyp 'jump' (roll, declare_powder eller move)."}),
    "P8 moving before the roll": (
        lambda: move(game(), 3, 0, "e"),
        "Roll the dice first.",
        {"da": "Slå med terningerne først.", "de": "Würfle zuerst.", "sv": "Kasta tärningarna först."}),
    "P8 a die that was not rolled": (
        lambda: move(rolled(game(), [3, 5]), 6, 0, "e"),
        "You have no unused die showing 6.",
        {"da": "Du har ingen ubrugt terning, der viser 6.",
         "de": "Du hast keinen unbenutzten Würfel, der 6 zeigt.",
         "sv": "Du har ingen oanvänd tärning som visar 6."}),
    "a ship given as text": (
        lambda: move(rolled(game(), [3, 5]), 3, "0", "e"),
        "ship must be a whole number.",
        {"da": "Skibet skal angives som et helt tal.", "de": "Das Schiff muss als ganze Zahl angegeben werden.",
         "sv": "Skeppet måste anges som ett heltal."}),
    "P2 P3 a diagonal on the open sea": (
        lambda: move(rolled(only(game(), {0: (3, 3), 3: (12, 20)}), [2, 6], seat=0), 2, 0, "ne"),
        "Ships move diagonally only inside the trade winds.",
        {"da": "Skibe sejler kun diagonalt inde i passatvindene.",
         "de": "Schiffe segeln nur innerhalb der Passatwinde diagonal.",
         "sv": "Skeppen får bara flytta diagonalt i passadvindarna."}),
    "P24 a powder ship without the variant": (
        lambda: play(game(), 0, {"type": "declare_powder", "ship": 0}),
        "This game is played without powder ships.",
        {"da": "Dette spil spilles uden krudtskibe.", "de": "Diese Partie wird ohne Pulverschiffe gespielt.",
         "sv": "Det här spelet spelas utan krutskepp."}),
    "P26 Opposing Realms for three": (
        lambda: ENGINE.check_options({"opposing_realms": True}, 3),
        "Opposing Realms is for exactly 2 players.",
        {"da": "Modsatte riger er for præcis 2 spillere.", "de": "Gegnerische Reiche ist für genau 2 Spieler.",
         "sv": "Motsatta riken är för exakt 2 spelare."}),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refused_action_reads_english_and_each_language(case):
    """str() is the English message word for word; in_language gives the translation, with
    every field filled in."""
    act, english, translated = REFUSALS[case]
    exc = refusal(act)
    assert str(exc) == english
    assert exc.in_language("en") == english
    for lang in OTHERS:
        text = exc.in_language(lang)
        assert text == translated[lang], (lang, text)
        assert text != english and "{" not in text and "}" not in text


@pytest.mark.parametrize("variant", ["opposing_realms", "headwind_realm"])
def test_a_variant_refusal_names_the_variant_in_the_readers_language(variant):
    """P26 P27 a two-player variant refused for the double board or three players is called by
    its name in each language (the glossary's, as on the options form)."""
    for act in (lambda: ENGINE.check_options({variant: True, "double_board": True}, 6),
                lambda: ENGINE.check_options({variant: True}, 3)):
        exc = refusal(act)
        assert str(exc).startswith(option_words(variant, "en")[0] + " is ")
        for lang in OTHERS:
            assert exc.in_language(lang).startswith(option_words(variant, lang)[0] + " "), lang


@pytest.mark.parametrize("lang", [None, "", "xx", "fr", "en-gb"])
def test_an_unknown_language_reads_english(lang):
    """A language the book lacks reads English; a regional code reads its language."""
    exc = refusal(lambda: play(game(), 1, {"type": "roll"}))
    assert exc.in_language(lang) == "It is not your turn."
    assert exc.in_language("sv-SE") == exc.in_language("sv") == "Det är inte din tur."
    assert exc.in_language("de-at") == exc.in_language("de")


def test_a_finished_game_refuses_in_every_language():
    """P18 P19 after the end nobody acts: the move and the timeout are both refused in words."""
    state = game()
    state["phase"] = "over"
    over = refusal(lambda: play(state, 0, {"type": "roll"}))
    idle = refusal(lambda: ENGINE.timeout_action(state, 0))
    assert (str(over), str(idle)) == ("The game is over.", "That seat has nothing to do now.")
    assert [over.in_language(lang) for lang in OTHERS] == ["Spillet er slut.", "Die Partie ist vorbei.",
                                                          "Spelet är slut."]
    assert all(idle.in_language(lang) != str(idle) for lang in OTHERS)
