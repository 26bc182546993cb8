"""Options and a fresh game: the board (standard or generated, C2-C4), the bank, the
development deck and the setup order.

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
# on trade offers, ships under the bank's shortage rule.
EDITION = 2
EDITIONS = (1, 2)
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
