"""The phrase book (words.json): events, refusals and the option in English, Danish, German and
Swedish; the German words follow the original (Siedlung, Schiff, Räuber, Pirat, ...)."""
import random

from catan_support import ENGINE, act, empty_board, give
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


def test_production_says_who_got_what_in_every_language():
    """The log of a roll names each player's takings (issue 24: it said only which hexes produced)."""
    event = {"type": "produced", "number": 8, "gains": {"2": {"ore": 1}, "0": {"grain": 2, "wool": 1}}}
    assert ENGINE.describe(event, NAMES, "en") == "The hexes numbered 8 produced: Anna 2 grain, 1 wool; Cia 1 ore"
    for lang, word in (("da", "Korn"), ("de", "Getreide"), ("sv", "säd")):
        text = ENGINE.describe(event, NAMES, lang)
        assert text.index("Anna") < text.index("Cia") and word.lower() in text.lower(), (lang, text)


def test_a_theft_is_told_once_to_its_thief_and_victim_and_once_to_the_others():
    """The thief and the victim read which card went (the private "stole"); the public "stole a
    card" is for the others alone."""
    public = {"type": "stole_card", "seat": 1, "victim": 2}
    assert ENGINE.told_otherwise(public, 1) and ENGINE.told_otherwise(public, 2)
    assert not ENGINE.told_otherwise(public, 0) and not ENGINE.told_otherwise(public, None)
    assert not ENGINE.told_otherwise({"type": "stole", "seat": 1, "victim": 2, "resource": "ore",
                                      "private": [1, 2]}, 1)


def test_a_development_card_purchase_is_told_once_to_its_buyer():
    """The buyer reads which card he bought (the private "bought_card") and not the public
    "bought a development card" of the same purchase too; the others read the public line."""
    s = empty_board(3)
    give(s, 0, wool=1, grain=1, ore=1)
    s, events = act(s, 0, {"type": "buy_development"})
    shown = {seat: [e["type"] for e in events if (seat in e.get("private", [seat]))
                    and not ENGINE.told_otherwise(e, seat)] for seat in (0, 1, None)}
    assert shown[0].count("bought_card") == 1 and "bought_development" not in shown[0]
    assert shown[1] == ["bought_development"] and shown[None] == ["bought_development"]


def test_with_ships_off_the_game_is_called_catan():
    """The base game (ships: false) is not labelled "Catan with ships" (issue 24)."""
    assert ENGINE.title_of({"ships": False}) == "Catan"
    assert ENGINE.title_of({"ships": True}) == ENGINE.title_of({}) == "Catan with ships"


def test_an_answer_to_an_offer_says_yes_or_no():
    """Trading with players (the base game's, no C rule; issue 33): "jonas answered an offer" said
    neither yes nor no."""
    yes = {"type": "answer", "seat": 1, "offer": 3, "accept": True}
    no = dict(yes, accept=False)
    assert ENGINE.describe(yes, NAMES) == "Bo accepted an offer"
    assert ENGINE.describe(no, NAMES) == "Bo declined an offer"
    assert ENGINE.describe(yes, NAMES, "de") == "Bo nahm ein Angebot an"
    assert ENGINE.describe(no, NAMES, "sv") == "Bo tackade nej till ett erbjudande"
    assert ENGINE.describe(no, NAMES, "da") == "Bo sagde nej til et tilbud"
