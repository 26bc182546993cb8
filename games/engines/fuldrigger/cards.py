"""The 28 chance cards (F43) as data: cards.json beside this file, loaded once.

Each card has an `id`, a `title`, the `text` read out when it is turned, an `effect` naming what
chance.py does with it, and that effect's parameters (a port, a good, an amount …).
"""
import json
from pathlib import Path

EFFECTS = (
    "first_to_reach",   # port, amount: the first ship to enter the port after the draw is paid
    "price",            # port|None, good|None, amount: sale prices change for this round
    "storm",            # port, radius, sinks_upto: ships at sea near the port roll 2 dice
    "gale",             # every ship at sea is driven to a neighbouring sea square
    "pirate_raid",      # radius, loses_upto: laden merchants near pirate waters roll 2 dice
    "tax_ships",        # amount per ship
    "tax_cash",         # percent of cash
    "tax_fortresses",   # amount per fortress
    "tax_privateers",   # amount per privateer
    "windfall",         # amount to every player
    "dividend",         # amount per ship
    "interest",         # percent of cash, at most `cap`
    "scurvy",           # the richest player loses his next turn
    "marque",           # this round privateers are fitted out and laid off in any port
    "convoy",           # this round pirate waters are harmless
    "canal_closed",     # this round no cargo crosses an isthmus
    "embargo",          # port: no buying or selling there this round
    "fog",              # this round every roll counts half (rounded up)
    "fair_winds",       # amount: this round every roll counts that much more
    "dead_calm",        # radius: ships at sea near the calm square lie still next turn
)

with open(Path(__file__).resolve().parent / "cards.json", encoding="utf-8") as _f:
    CARDS: dict[str, dict] = {card["id"]: card for card in json.load(_f)["cards"]}

CARD_IDS: tuple[str, ...] = tuple(CARDS)


def card(card_id: str) -> dict:
    return CARDS[card_id]
