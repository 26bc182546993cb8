"""Options and a fresh game: the board (standard or generated, C2-C4), the bank, the
development deck and the setup order (B-extension); then what every area of the rules shares:
`Work`, the state one apply changes, the facts of a state they all ask, and an action's fields.

The state is a plain JSON dict. Per-corner and per-edge facts are lists indexed by the ids of
the board's geometry (board.py), which the state names by its board key and never copies:
`owner[v]` (-1 or a seat), `city[v]` (0/1), `roads[e]` (-1 or a seat).
"""
from __future__ import annotations

from games.engines import dice
from games.engines.base import IllegalAction, Option, clean_options
from games.engines.catan_ships.board import RESOURCES, geometry, pirate_start, ships_board, standard_board
from games.engines.catan_ships.book import WORDS

# Rules editions (docs/rules/changelog.md). Edition 2 follows the German original and the
# official base game where edition 1 did not: unloading at once (C8), the extension's special
# building phase, drawn number tokens and harbours (C4), any card before the roll, no felt bound
# on trade offers, ships under the bank's shortage rule. Edition 3: a ship settles (C14) only
# when its hex pays the fourth resource, so neither the robber nor the bank's shortage allows it.
EDITION = 3
EDITIONS = (1, 2, 3)
OPTIONS = (
    # C1-C20: the ships edition (the help a player reads names no rule).
    Option("ships", "Ships", "bool", True,
           "Ships on a board with twice as much water as land, to 12 points. "
           "Off: the standard base game to 10 points."),
)
ROADS, SETTLEMENTS, CITIES, SHIPS = 15, 5, 4, 3
DEV_DECK = {
    "small": {"knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2},
    "large": {"knight": 20, "victory_point": 5, "road_building": 3, "year_of_plenty": 3, "monopoly": 3},
}


def check_options(options: dict | None, players, edition: int = EDITION) -> dict:
    """The cleaned options for that many seats (every edition has the same)."""
    cleaned = clean_options(list(OPTIONS), options)
    if isinstance(players, bool) or not isinstance(players, int):
        raise IllegalAction.said(WORDS, "error.players_not_whole")
    if not 3 <= players <= 6:
        raise IllegalAction.said(WORDS, "error.player_count")
    return cleaned


def new_game(players: int, seed: str, options: dict | None, edition: int = EDITION) -> dict:
    options = check_options(options, players, edition)
    ships = options["ships"]
    large = players > 4
    state = {"seed": str(seed), "draws": 0}
    key = ships_board(state, players, edition) if ships else standard_board(state, players)
    geo = geometry(key)
    deck = []
    for kind, count in DEV_DECK["large" if large else "small"].items():
        deck += [kind] * count
    deck = dice.shuffle(state, deck)
    desert = [h for h in geo.land_hexes if geo.terrain[h] == "desert"]
    order = list(range(players)) + list(reversed(range(players)))
    state.update({
        "game": "catan_ships", "edition": edition, "players": players, "options": options,
        "ships_variant": ships, "goal": 12 if ships else 10, "board": key,
        "phase": "setup", "current": 0, "round": 1, "turn": 0,
        "setup_order": order, "setup_step": 0, "setup_vertex": None,
        "dice": None, "rolled": False,
        # Reading: the generated board has no desert, so the robber starts off the board.
        "robber": desert[0] if desert else None,
        "pirate": pirate_start(geo) if ships else None,
        "owner": [-1] * geo.vertex_count, "city": [0] * geo.vertex_count,
        "roads": [-1] * geo.edge_count,
        "ships": [], "logbook": [],
        "hands": [{r: 0 for r in RESOURCES} for _ in range(players)],
        "dev": [[] for _ in range(players)], "deck": deck, "played_dev": False,
        "knights": [0] * players, "road_length": [0] * players,
        "longest": None, "army": None,
        "pieces": [[0, 0, 0] for _ in range(players)],   # roads, settlements, cities built
        "bank": {r: 24 if large else 19 for r in RESOURCES},
        "offers": [], "offers_made": 0, "next_offer": 1,
        "discarding": {}, "sailing": None, "special": [],
        "winner": None,
    })
    return state


# --- changing a state ------------------------------------------------------------------------

def refuse(key: str, **fields) -> IllegalAction:
    return IllegalAction.said(WORDS, key, **fields)


class Work:
    """The state being changed by one apply: each list or dict is copied once, on first write."""

    __slots__ = ("s", "done", "geo")

    def __init__(self, state: dict):
        self.s = dict(state)
        self.done: set = set()
        self.geo = geometry(state["board"])

    def list(self, key: str) -> list:
        if key not in self.done:
            self.s[key] = list(self.s[key])
            self.done.add(key)
        return self.s[key]

    def dict(self, key: str) -> dict:
        if key not in self.done:
            self.s[key] = dict(self.s[key])
            self.done.add(key)
        return self.s[key]

    def hand(self, seat: int) -> dict:
        return self._seats_own("hands", seat, dict)

    def pieces(self, seat: int) -> list:
        return self._seats_own("pieces", seat, list)

    def _seats_own(self, key: str, seat: int, copy):
        """A seat's entry of the per-seat list `key`, copied once."""
        entries = self.list(key)
        if (key, seat) not in self.done:
            entries[seat] = copy(entries[seat])
            self.done.add((key, seat))
        return entries[seat]

    def ship(self, index: int) -> dict:
        """The ship now at `index`, copied once. Remembered by the ship (seat and number), not
        by its index: a ship sunk earlier in the same move shifts the later ones down."""
        ships = self.list("ships")
        k = ("ship", ships[index]["seat"], ships[index]["number"])
        if k not in self.done:
            ships[index] = dict(ships[index], cargo=dict(ships[index]["cargo"]))
            self.done.add(k)
        return ships[index]

    def pay(self, seat: int, cost: dict) -> None:
        hand, bank = self.hand(seat), self.dict("bank")
        for r, n in cost.items():
            hand[r] -= n
            bank[r] += n

    def take(self, seat: int, goods: dict) -> None:
        hand, bank = self.hand(seat), self.dict("bank")
        for r, n in goods.items():
            hand[r] += n
            bank[r] -= n

    def log(self, seat: int, number: int, what: str, cargo: dict | None = None) -> None:
        self.list("logbook").append({"round": self.s["round"], "seat": seat, "number": number,
                                     "what": what, "cargo": dict(cargo or {})})


# --- facts about a state ---------------------------------------------------------------------

def can_afford(hand: dict, cost: dict) -> bool:
    for r, n in cost.items():
        if hand[r] < n:
            return False
    return True


def at_own_shore(state, geo, e: int, seat: int, roads: bool) -> bool:
    if geo.edge_kind[e] != "coast":
        return False
    if roads and state["roads"][e] == seat:
        return True
    a, b = geo.edge_vertices[e]
    return state["owner"][a] == seat or state["owner"][b] == seat


def free_for_settlement(state, geo, v: int) -> bool:
    owner = state["owner"]
    if owner[v] >= 0 or not geo.vertex_on_land[v]:
        return False
    for u in geo.vertex_adjacent[v]:
        if owner[u] >= 0:
            return False
    return True


# --- an action's fields ----------------------------------------------------------------------

def checked_int(action: dict, key: str, limit: int) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise refuse("error.bad_field", field=key)
    return value


def checked_resource(value) -> str:
    if value not in RESOURCES:
        raise refuse("error.bad_resource", resource=value)
    return value


def checked_goods(value) -> dict:
    if not isinstance(value, dict) or not value:
        raise refuse("error.bad_goods")
    out = {}
    for r, n in value.items():
        checked_resource(r)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise refuse("error.bad_goods")
        if n:
            out[r] = n
    if not out:
        raise refuse("error.bad_goods")
    return out
