"""The phrase book (words.json): events, refusals and the option in English, Danish, German and
Swedish; the German words follow the original (Siedlung, Schiff, Räuber, Pirat, ...)."""
import random

from catan_support import ENGINE, empty_board
from games.engines.catan_ships.book import WORDS
from games.engines.catan_ships.bots import random_action
from tests.engines.phrasebook_support import assert_translated, refusal

NAMES = ["Anna", "Bo", "Cia", "Dan", "Eve", "Fia"]


def real_events():
    events = []
    for players, ships in ((3, True), (4, False), (5, True), (6, False)):
        rnd = random.Random(players)
        state = ENGINE.new_game(players, f"words-{players}", {"ships": ships})
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            state, new = ENGINE.apply(state, seat, random_action(state, seat, rnd))
            events += new
    return events


def test_every_phrase_is_translated_with_the_same_fields():
    assert_translated(WORDS, WORDS.keys())


def test_every_event_of_real_games_reads_in_every_language():
    events = real_events()
    kinds = {e["type"] for e in events}
    assert {"roll", "built_road", "built_ship", "sailed", "win", "stole", "produced"} <= kinds
    unknown = WORDS.say("event.unknown", "en")
    for event in events:
        for lang in ("en", "da", "de", "sv"):
            text = ENGINE.describe(event, NAMES, lang)
            assert text and "{" not in text and text != WORDS.say("event.unknown", lang), (event, lang)
    assert ENGINE.describe({"type": "no such"}, NAMES) == unknown


def test_german_words_follow_the_original():
    de = WORDS.books["de"]
    for key, word in (("resource.lumber", "Holz"), ("resource.brick", "Lehm"), ("resource.wool", "Wolle"),
                      ("resource.grain", "Getreide"), ("resource.ore", "Erz"), ("card.knight", "Ritter")):
        assert de[key] == word
    text = " ".join(de.values())
    for word in ("Siedlung", "Stadt", "Straße", "Schiff", "Räuber", "Pirat", "Entwicklungskarte", "Hafen"):
        assert word in text, word


def test_refusals_speak_the_players_language():
    state = empty_board()
    error = refusal(lambda: ENGINE.apply(state, 0, {"type": "build_city", "vertex": 0}))
    assert error.in_language("de") != error.in_language("en")
    assert "Stadt" in error.in_language("de") or "Rohstoffe" in error.in_language("de")
    error = refusal(lambda: ENGINE.apply(state, 1, {"type": "end_turn"}))
    assert error.in_language("sv") == WORDS.say("error.not_your_turn", "sv")


def test_options_in_four_languages():
    labels = {lang: ENGINE.options(lang)[0]["label"] for lang in ("en", "da", "de", "sv")}
    assert labels == {"en": "Ships", "da": "Skibe", "de": "Schiffe", "sv": "Skepp"}
    assert ENGINE.options()[0]["default"] is True
