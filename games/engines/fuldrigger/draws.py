"""How Fuldrigger makes its dice from the match's draws, for the fair-dice check (the replay and
verify pages lay it out). Describes games/engines/dice.py's use in rules.py, sailing.py, war.py,
chance.py and state.py; plays no part in the game."""
from games.engines.dice import one_die
from games.engines.words import language

READINGS = [{"name": "die", "sides": 6, "faces": one_die}]

WORDS = {
    "en": {"intro": "Every die Fuldrigger rolls is one draw, one after another: the three dice of a "
                    "turn's sailing, the two of a battle or a chance card, the opening rolls. The "
                    "chance cards are shuffled with draws too (Fisher–Yates: for the card at place i, "
                    "the draw modulo i + 1 picks the card it swaps with).",
           "die": "One die: the number modulo 6, plus 1"},
    "da": {"intro": "Hver terning i Fuldrigger er ét træk, det ene efter det andet: turens tre "
                    "sejlterninger, to i et slag eller på et chancekort, åbningskastene. Chancekortene "
                    "blandes også med træk (Fisher–Yates: for kortet på plads i vælger trækket modulo "
                    "i + 1 det kort, det bytter plads med).",
           "die": "Én terning: tallet modulo 6, plus 1"},
    "de": {"intro": "Jeder Würfel in Fuldrigger ist eine Ziehung, einer nach dem anderen: die drei "
                    "Segelwürfel eines Zuges, zwei in einer Schlacht oder auf einer Chancekarte, die "
                    "Eröffnungswürfe. Auch die Chancekarten werden mit Ziehungen gemischt "
                    "(Fisher–Yates: für die Karte an Platz i wählt die Ziehung modulo i + 1 die Karte, "
                    "mit der sie tauscht).",
           "die": "Ein Würfel: die Zahl modulo 6, plus 1"},
    "sv": {"intro": "Varje tärning i Fuldrigger är en dragning, den ena efter den andra: turens tre "
                    "segeltärningar, två i ett slag eller på ett chanskort, öppningsslagen. Även "
                    "chanskorten blandas med dragningar (Fisher–Yates: för kortet på plats i väljer "
                    "dragningen modulo i + 1 kortet det byter plats med).",
           "die": "En tärning: talet modulo 6, plus 1"},
}


def words(key: str, lang: str | None = "en") -> str:
    return WORDS[language(lang)][key]
