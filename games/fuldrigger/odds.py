"""The odds of an attack (F37), shown before the player rolls: one roll of two dice decides,
on the column for the number of privateers that attack (four or more use the last)."""
from fractions import Fraction

# F37: attackers -> the attacker loses a privateer on a roll below this ...
LOSE_BELOW = {1: 6, 2: 5, 3: 4, 4: 3}
# ... and captures the target on a roll above this; anything between is a draw.
CAPTURE_ABOVE = {1: 9, 2: 8, 3: 7, 4: 6}

# Ways to roll each total with two dice, out of 36.
TWO_DICE = {total: 6 - abs(total - 7) for total in range(2, 13)}


def attack_odds(attackers: int) -> dict[str, Fraction]:
    """Chances of "captured", "draw" and "lost" for this many attackers."""
    column = max(1, min(int(attackers), 4))
    ways = {"captured": 0, "draw": 0, "lost": 0}
    for total, count in TWO_DICE.items():
        if total < LOSE_BELOW[column]:
            ways["lost"] += count
        elif total > CAPTURE_ABOVE[column]:
            ways["captured"] += count
        else:
            ways["draw"] += count
    return {result: Fraction(count, 36) for result, count in ways.items()}


def percent(chance: Fraction) -> int:
    return round(chance * 100)
