"""Dice drawn from a game's own state, so every roll can be replayed from the seed.

Each draw hashes the secret seed with a counter kept in the state: the same seed and log give
the same dice on any machine and any Python version (unlike `random`, whose algorithms may
change between releases). Callers pass the working copy of the state that `apply` returns;
these functions advance its counter in place.
"""
import hashlib


def draw(state: dict, n: int) -> int:
    """A fair-enough integer in [0, n): 256 bits of hash make modulo bias negligible."""
    if n <= 0:
        raise ValueError("draw needs a positive range")
    counter = state.get("draws", 0)
    digest = hashlib.sha256(f"{state['seed']}:{counter}".encode()).digest()
    state["draws"] = counter + 1
    return int.from_bytes(digest, "big") % n


def roll(state: dict, count: int, sides: int = 6) -> list[int]:
    return [draw(state, sides) + 1 for _ in range(count)]


def shuffle(state: dict, items: list) -> list:
    """Fisher–Yates with draws from the state; returns a new list."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = draw(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def roll_order(state: dict, seats: list[int], count: int, event: str) -> tuple[list[int], list[dict]]:
    """Who goes first (Fuldrigger's F7, Pirater's P5/P7): each seat rolls `count` dice, the
    seats ordered highest first, those who tie rolling again among themselves for their places.
    Every roll is an event of type `event`."""
    events: list[dict] = []
    totals = {}
    for seat in seats:
        faces = roll(state, count)
        totals[seat] = sum(faces)
        events.append({"type": event, "seat": seat, "dice": faces})
    order: list[int] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [seat for seat in seats if totals[seat] == total]
        if len(tied) > 1:
            tied, more = roll_order(state, tied, count, event)
            events.extend(more)
        order.extend(tied)
    return order, events


def seed_hash(seed: str) -> str:
    """The public commitment to a match's secret seed."""
    return hashlib.sha256(seed.encode()).hexdigest()


# For the fair-dice check: what a draw is, and the two ways the games read a die from one.
# These only describe `draw`, `roll` and Catan's `roll_two`; nothing here is used to play.

def draw_number(seed: str, counter: int) -> int:
    """Draw number `counter` before it is reduced to a range: SHA-256("seed:counter") read as a
    big-endian number (`draw` returns it modulo its range)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{counter}".encode()).digest(), "big")


def one_die(number: int) -> list[int]:
    """The die `roll` makes of one draw: the number modulo 6, plus 1."""
    return [number % 6 + 1]


def two_dice_of_36(number: int) -> list[int]:
    """The pair one draw of 36 makes (Catan's turn roll): the number modulo 36, then divided by 6:
    the quotient plus 1 is the first die, the remainder plus 1 the second (24 → 5 and 1)."""
    first, second = divmod(number % 36, 6)
    return [first + 1, second + 1]
