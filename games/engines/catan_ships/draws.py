"""How Catan with ships makes its dice from the match's draws, for the fair-dice check (the
replay and verify pages lay it out; tests replay real games against it). Describes
games/engines/dice.py's use in roll.py and ships.py (roll_two, the collision and pirate dice, a
card taken at random), board.py and state.py (shuffles); plays no part in the game."""
from games.engines.dice import one_die, two_dice_of_36
from games.engines.words import language

# The turn's roll is one draw of 36 split in two; every other die is a draw of its own.
READINGS = [{"name": "pair", "sides": 36, "faces": two_dice_of_36}, {"name": "die", "sides": 6, "faces": one_die}]

WORDS = {
    "en": {"intro": "The turn's roll is one draw for both dice: the number modulo 36, divided by 6; "
                    "the quotient plus 1 is the first die and the remainder plus 1 the second "
                    "(a remainder of 24 gives 5 and 1). Any other die (a collision, a pirate attack) is "
                    "one draw of its own, modulo 6, plus 1. A card taken at random from n cards is "
                    "the draw modulo n; the board and the deck are shuffled with draws.",
           "pair": "The turn's roll: modulo 36, then ÷ 6",
           "die": "Any other die: modulo 6, plus 1"},
    "da": {"intro": "Turens kast er ét træk for begge terninger: tallet modulo 36, divideret med 6; "
                    "kvotienten plus 1 er den første terning og resten plus 1 den anden (en rest på 24 giver "
                    "5 og 1). Alle andre terninger (en kollision, et piratangreb) er hver sit "
                    "træk, modulo 6, plus 1. Et tilfældigt kort blandt n kort er trækket modulo n; "
                    "brættet og bunken blandes med træk.",
           "pair": "Turens kast: modulo 36, derefter ÷ 6",
           "die": "Enhver anden terning: modulo 6, plus 1"},
    "de": {"intro": "Der Wurf eines Zuges ist eine Ziehung für beide Würfel: die Zahl modulo 36, "
                    "geteilt durch 6; der Quotient plus 1 ist der erste Würfel, der Rest plus 1 der "
                    "zweite (ein Rest von 24 ergibt 5 und 1). Jeder andere Würfel (ein Zusammenstoß, "
                    "ein Piratenangriff) ist eine eigene Ziehung, modulo 6, plus 1. Eine zufällige "
                    "Karte aus n Karten ist die Ziehung modulo n; Brett und Stapel werden mit "
                    "Ziehungen gemischt.",
           "pair": "Der Wurf des Zuges: modulo 36, dann ÷ 6",
           "die": "Jeder andere Würfel: modulo 6, plus 1"},
    "sv": {"intro": "Turens slag är en dragning för båda tärningarna: talet modulo 36, delat med 6; "
                    "kvoten plus 1 är den första tärningen och resten plus 1 den andra (en rest på 24 ger 5 "
                    "och 1). Varje annan tärning (en kollision, en piratattack) är en egen "
                    "dragning, modulo 6, plus 1. Ett slumpvis kort av n kort är dragningen modulo n; "
                    "brädet och leken blandas med dragningar.",
           "pair": "Turens slag: modulo 36, sedan ÷ 6",
           "die": "Varje annan tärning: modulo 6, plus 1"},
}


def words(key: str, lang: str | None = "en") -> str:
    return WORDS[language(lang)][key]
