"""The shape of a Fuldrigger state, a fresh game, a fast copy and the queries every module needs.

The state is a plain JSON dict (see `new_game` for every key). Static data — the map, the
price lists, the card texts — lives in the world and in cards.json, never in the state.
"""
from __future__ import annotations

from games.engines import dice
from games.engines.base import IllegalAction, Option, clean_options
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.book import WORDS, option_words
from games.engines.fuldrigger.cards import CARD_IDS

MIN_PLAYERS, MAX_PLAYERS = 2, 4
# Rules editions (docs/rules/changelog.md): new games are dealt under EDITION, the one default
# (the engine's `edition` is this); a state keeps the edition it was dealt under.
EDITION = 3
EDITIONS = (1, 2, 3)


def _option(name: str, kind: str, default, **bounds) -> Option:
    # Labels and help texts live in the phrase book (words.json) with their translations.
    label, help_text = option_words(name)
    return Option(name, label, kind, default, help=help_text, **bounds)


OPTIONS = (
    _option("rounds", "int", 0, min=0, max=200),
    _option("isthmus", "bool", False),   # a variant in the original: off since edition 2
    _option("start_cash", "int", 100, min=50, max=1000),
)

SHIP_PRICE = 100          # F20
SHIP_RESALE = 75          # F21
FORTRESS_PRICE = 100      # F23
MAX_SHIPS = 6             # F22
MAX_FORTRESSES = 6        # F27
DUTY = 10                 # F24
OWNER_BONUS = 10          # F25
PRICE_DROP = 10           # F31
MIN_CARRIED = 10          # F30
TOLL = 10                 # F45
START_SHIPS = 3           # F6

# Ship names by seat, from Danish, Dutch, English and Hamburg merchantmen and Indiamen.
SHIP_NAMES = (
    ("Dronning Juliane Marie", "Kronprinsen", "Christianshavn", "Fredensborg", "Norske Løve",
     "Dannebroge", "Tranquebar", "Sophia Magdalena"),
    ("Batavia", "Amsterdam", "Duyfken", "Mauritius", "Zeewijk", "Hollandia", "Nieuw Hoorn",
     "Vergulde Draeck"),
    ("Earl of Abergavenny", "Red Dragon", "Hector", "Royal George", "Grosvenor", "Halsewell",
     "Warren Hastings", "Kent"),
    ("Wapen von Hamburg", "Leopoldus Primus", "Admiral Karpfanger", "Elbe", "Hammonia",
     "Die Hoffnung", "Vierlande", "Alster"),
)


def check_options(options: dict | None, players, edition: int = EDITION) -> dict:
    """The cleaned options for that many seats; edition 1 played the isthmus by default."""
    if isinstance(players, bool) or not isinstance(players, int) or not (
            MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise IllegalAction.said(WORDS, "error.players", min=MIN_PLAYERS, max=MAX_PLAYERS,
                                 players=players)
    cleaned = clean_options(list(OPTIONS), options)
    if edition == 1 and (options or {}).get("isthmus") in (None, ""):
        cleaned["isthmus"] = True
    return cleaned


def new_game(players: int, seed: str, options: dict | None, edition: int = EDITION) -> dict:
    """Each seat: start cash (F5) and three ships in its home city (F6); the deck shuffled
    (F43); the banker's first card waits (phase "card").

    Edition 1: seat i has homes[i] and seat 0 begins. Edition 2 (F7/F8): every seat rolls three
    dice (ties roll again), then in roll order each chooses a free home city (phase "homes");
    the ships are placed once all have chosen, and the first to choose begins."""
    options = check_options(options, players, edition)
    state = {
        "seed": seed,
        "draws": 0,
        "round": 1,
        "players": players,
        "options": dict(options),
        "phase": "card",             # "card": the system draws; "play": a seat acts; "over"
        "ended": None,               # None, "rounds" or "last_fleet"
        "turn": fresh_turn(0),
        "cash": [options["start_cash"]] * players,
        "out": [False] * players,
        "skip": [False] * players,   # lose the next turn (scurvy card)
        "homes": list(WORLD.homes[:players]),
        "ships": {},
        "next_ship": 1,
        "fortresses": {},            # port -> seat
        "known_reefs": [[] for _ in range(players)],
        "tokens": {good: data["tokens"] for good, data in WORLD.goods.items()},
        "crossing": [],              # cargo waiting at an isthmus (F44)
        "next_cargo": 1,
        "offers": [],
        "next_offer": 1,
        "deck": [],
        "discard": [],
        "last_card": None,
        "bounties": [],              # drawn "first to reach" cards not yet claimed
        "claimed": [],               # "first to reach" cards already paid out
        "effects": [],               # cards in force for the current round
        "history": [],               # fortune per seat at the end of each round
    }
    if edition >= 2:
        state["edition"] = edition
        order, events = dice.roll_order(state, list(range(players)), 3, "home_roll")
        state["homes"] = [None] * players
        state["choosing"] = order           # seats still to choose, in roll order
        state["first"] = order[0]           # F8: the first to choose begins
        state["start"] = events             # the opening rolls, shown in the log
        state["phase"] = "homes"
        state["turn"] = fresh_turn(order[0])
    else:
        place_fleets(state)
    state["deck"] = dice.shuffle(state, list(CARD_IDS))
    return state


def place_fleets(state: dict) -> None:
    """F6: three ships for every seat in its home city."""
    for seat in range(state["players"]):
        for _ in range(START_SHIPS):
            add_ship(state, seat, state["homes"][seat])


def fresh_turn(seat: int) -> dict:
    """What a turn remembers: the roll, the ships that moved or lie still, sales per port (F31)."""
    return {"seat": seat, "roll": None, "total": None, "moved": [], "still": [],
            "attacked": [], "sold": {}}


def add_ship(state: dict, seat: int, node: str) -> dict:
    number = state["next_ship"]
    state["next_ship"] = number + 1
    ship = {"id": number, "owner": seat, "name": _next_name(state, seat), "node": node,
            "cargo": None,
            "privateer": False, "calm": False}
    state["ships"][str(number)] = ship
    return ship


def _next_name(state: dict, seat: int) -> str:
    """The first of the seat's names no ship afloat carries; then numbered repeats."""
    names = SHIP_NAMES[seat % len(SHIP_NAMES)]
    taken = {s["name"] for s in state["ships"].values()}
    for suffix in ("", " II", " III", " IV", " V"):
        for name in names:
            if name + suffix not in taken:
                return name + suffix
    return f"{names[0]} {state['next_ship']}"


def clone(state: dict) -> dict:
    """A copy deep enough that `apply` may change anything in it; much faster than deepcopy.

    Lists that are only ever replaced, never changed in place (history rows, deck), are shared.
    """
    new = dict(state)
    new["options"] = dict(state["options"])
    turn = state["turn"]
    new["turn"] = {"seat": turn["seat"], "roll": turn["roll"], "total": turn["total"],
                   "moved": list(turn["moved"]), "still": list(turn["still"]),
                   "attacked": list(turn["attacked"]),
                   "sold": {port: dict(goods) for port, goods in turn["sold"].items()}}
    new["cash"] = list(state["cash"])
    new["out"] = list(state["out"])
    new["skip"] = list(state["skip"])
    new["ships"] = {key: _copy_ship(ship) for key, ship in state["ships"].items()}
    new["fortresses"] = dict(state["fortresses"])
    new["known_reefs"] = [list(k) for k in state["known_reefs"]]
    new["tokens"] = dict(state["tokens"])
    new["crossing"] = [dict(c) for c in state["crossing"]]
    new["offers"] = [_copy_offer(o) for o in state["offers"]]
    new["deck"] = list(state["deck"])
    new["discard"] = list(state["discard"])
    new["bounties"] = list(state["bounties"])
    new["claimed"] = list(state["claimed"])
    new["effects"] = [dict(e) for e in state["effects"]]
    new["history"] = list(state["history"])      # rows are never changed in place
    new["homes"] = list(state["homes"])
    if "choosing" in state:
        new["choosing"] = list(state["choosing"])
    return new


def _copy_ship(ship: dict) -> dict:
    new = dict(ship)
    if ship["cargo"] is not None:
        new["cargo"] = dict(ship["cargo"])
    return new


def _copy_offer(offer: dict) -> dict:
    new = dict(offer)
    for side in ("give", "take"):
        part = offer[side]
        new[side] = {"ducats": part["ducats"], "ships": list(part["ships"]),
                     "fortresses": list(part["fortresses"])}
    return new


# ---- queries -------------------------------------------------------------------------------

def ships_of(state: dict, seat: int) -> list[dict]:
    return [s for s in state["ships"].values() if s["owner"] == seat]


def ships_at(state: dict, node: str, seat: int | None = None) -> list[dict]:
    return [s for s in state["ships"].values()
            if s["node"] == node and (seat is None or s["owner"] == seat)]


def fortresses_of(state: dict, seat: int) -> list[str]:
    return sorted(p for p, owner in state["fortresses"].items() if owner == seat)


def cargo_value(state: dict, seat: int) -> int:
    """Price paid for the seat's goods on board and waiting at an isthmus (F2)."""
    aboard = sum(s["cargo"]["paid"] for s in state["ships"].values()
                 if s["owner"] == seat and s["cargo"] is not None)
    crossing = sum(c["paid"] for c in state["crossing"] if c["owner"] == seat)
    return aboard + crossing


def fortune(state: dict, seat: int) -> int:
    """F2: cash + 100 per ship + 100 per fortress + the price paid for goods on board."""
    return (state["cash"][seat] + SHIP_PRICE * len(ships_of(state, seat))
            + FORTRESS_PRICE * len(fortresses_of(state, seat)) + cargo_value(state, seat))


def fortunes(state: dict) -> list[int]:
    return [fortune(state, seat) for seat in range(state["players"])]


def active_seats(state: dict) -> list[int]:
    return [seat for seat in range(state["players"]) if not state["out"][seat]]


def effect_on(state: dict, kind: str, **match) -> list[dict]:
    """The card effects of `kind` in force now whose fields equal `match`."""
    return [e for e in state["effects"]
            if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())]


def lose_cargo(state: dict, ship: dict) -> dict | None:
    """Take a ship's cargo off (lost at sea or sold): its token goes back to the bank."""
    cargo = ship["cargo"]
    if cargo is not None:
        state["tokens"][cargo["good"]] += 1
        ship["cargo"] = None
    return cargo


def remove_ship(state: dict, ship: dict) -> None:
    """A ship sunk, wrecked or sold: gone with its cargo (the token returns to the bank)."""
    lose_cargo(state, ship)
    del state["ships"][str(ship["id"])]
