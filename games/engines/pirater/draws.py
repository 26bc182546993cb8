"""How Pirater makes its dice from the match's draws, for the fair-dice check (the replay and
verify pages lay it out; tests replay real games against it). Describes games/engines/dice.py's
use in rules.py and state.py; plays no part in the game."""
from games.engines.dice import one_die
from games.engines.words import language

# Each reading: a way a die is made of one draw. Pirater has one: every die is its own draw.
READINGS = [{"name": "die", "sides": 6, "faces": one_die}]

WORDS = {
    "en": {"intro": "Every die Pirater rolls is one draw: the opening rolls, the two dice of a turn "
                    "(three with Hurricane, four on the double board), one after another.",
           "die": "One die: the number modulo 6, plus 1"},
    "da": {"intro": "Hver terning i Pirater er ét træk: åbningskastene og turens to terninger (tre med "
                    "Orkan, fire på dobbeltbrættet), den ene efter den anden.",
           "die": "Én terning: tallet modulo 6, plus 1"},
    "de": {"intro": "Jeder Würfel in Pirater ist eine Ziehung: die Eröffnungswürfe und die zwei Würfel "
                    "eines Zuges (drei mit Orkan, vier auf dem Doppelbrett), einer nach dem anderen.",
           "die": "Ein Würfel: die Zahl modulo 6, plus 1"},
    "sv": {"intro": "Varje tärning i Pirater är en dragning: öppningsslagen och turens två tärningar "
                    "(tre med Orkan, fyra på dubbelbrädet), den ena efter den andra.",
           "die": "En tärning: talet modulo 6, plus 1"},
}


def words(key: str, lang: str | None = "en") -> str:
    return WORDS[language(lang)][key]
