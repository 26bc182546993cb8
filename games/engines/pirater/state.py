"""Pirater's options and a fresh game: who sails from which port, where the ships start (P5,
P20, P26–P28), where the treasure lies (P6, P22) and who begins (P7).

The state is a plain JSON dict; ships stand on squares given as [row, col] (a ship in a strait
stands on the strait's top half, which is the same square as its bottom half, P4).
"""
from __future__ import annotations

from games.engines import dice
from games.engines.base import IllegalAction, Option, clean_options, edition_of
from games.engines.pirater.board import Board, get_board
from games.engines.pirater.book import WORDS

VARIANTS = ("curse_island", "hurricane", "double_board", "shipwreck", "powder_ship", "one_two",
            "opposing_realms", "headwind_realm", "flotilla")
TWO_PLAYER = ("opposing_realms", "headwind_realm")
SPLIT_ROLLS = ("doubles", "double_six", "any_six", "sum_seven")
TREASURE_PLACEMENTS = ("one_each", "both_on_one", "one_only")
# Rules editions (docs/rules/changelog.md): new games are dealt under EDITION, the one default
# (the engine's `edition` is this); a state keeps the edition it was dealt under.
EDITION = 2
EDITIONS = (1, 2)

# The variants' rules, in order: P20, P21, P22 (board and treasures), P23, P24, P25, P26, P27, P28
# (fleet and its split roll). The help a player reads names no rule.
OPTIONS = (
    Option("curse_island", "Curse Island", "bool", False,
           "Each player starts with one ship in port and two at Treasure Island's anchorages."),
    Option("hurricane", "Hurricane", "bool", False,
           "Roll a third die; three equal dice sink your ship nearest your home port."),
    Option("double_board", "Double board", "bool", False,
           "Two boards joined along a long side for 5 to 8 players, four dice a turn."),
    Option("double_treasure", "Double board: treasures", "choice", "one_each",
           "One treasure on each island, both treasures on the upper island, or only one.",
           choices=TREASURE_PLACEMENTS),
    Option("shipwreck", "Shipwreck", "bool", False,
           "Captured ships stay as wrecks; nobody may enter their squares again."),
    Option("powder_ship", "Powder ship", "bool", False,
           "Once a game, before rolling, blow up one of your ships and all ships near it."),
    Option("one_two", "One-Two", "bool", False,
           "A roll of 1 and 2 moves as usual and then rolls again."),
    Option("opposing_realms", "Opposing Realms", "bool", False,
           "For 2 players: six ships and the two ports of one long side each."),
    Option("headwind_realm", "Headwind Realm", "bool", False,
           "For 2 players: six ships and the two ports of one short side each."),
    Option("flotilla", "Flotilla", "bool", False,
           "Each player's ships start stacked as one fleet on the home anchorage."),
    Option("flotilla_split", "Flotilla: split roll", "choice", "doubles",
           "The roll on which fleets may split up and ships may stack again.",
           choices=SPLIT_ROLLS),
)


def check_options(options: dict | None, players, edition: int = EDITION) -> dict:
    """The cleaned options for that many seats, or IllegalAction saying what can't be played.
    Edition 2 (P22 as the digest now reads): the double board always has both treasures."""
    cleaned = clean_options(list(OPTIONS), options)
    if edition >= 2 and cleaned["double_board"] and cleaned["double_treasure"] == "one_only":
        raise IllegalAction.said(WORDS, "error.both_treasures")
    if isinstance(players, bool) or not isinstance(players, int):
        raise IllegalAction.said(WORDS, "error.players_not_whole")
    two = [name for name in TWO_PLAYER if cleaned[name]]
    if len(two) > 1:
        raise IllegalAction.said(WORDS, "error.realms_together")
    if two and cleaned["double_board"]:
        # One key per variant, so each language names the variant in its own words.
        raise IllegalAction.said(WORDS, f"error.{two[0]}.double_board")
    if two and players != 2:
        raise IllegalAction.said(WORDS, f"error.{two[0]}.two_players")
    if cleaned["double_board"]:
        if not 5 <= players <= 8:
            raise IllegalAction.said(WORDS, "error.double_board_players")
        if cleaned["hurricane"]:
            raise IllegalAction.said(WORDS, "error.hurricane_double_board")
    elif not 2 <= players <= 4:
        raise IllegalAction.said(WORDS, "error.player_count")
    if cleaned["flotilla"] and cleaned["curse_island"]:
        raise IllegalAction.said(WORDS, "error.flotilla_curse_island")
    return cleaned


def dice_count(options: dict) -> int:
    """P8: two dice; P21 adds a third; P22 rolls four at once."""
    if options["double_board"]:
        return 4
    return 3 if options["hurricane"] else 2


def board_of(state: dict) -> Board:
    return get_board(state["board"])


def assign_ports(board: Board, players: int, options: dict) -> list[list[int]]:
    """Each seat's home ports, clockwise by seat (P5, P26, P27).

    Basic game: seats take ports spread evenly clockwise round the board (two players sail from
    opposite corners). Opposing Realms: the two ports of one long side each (top, bottom).
    Headwind Realm: the two ports of one short side each (left, right).
    """
    ports = board.ports
    if options["opposing_realms"]:
        return [[p["id"] for p in ports if side in p["sides"]] for side in ("top", "bottom")]
    if options["headwind_realm"]:
        return [[p["id"] for p in ports if side in p["sides"]] for side in ("left", "right")]
    count = len(ports)
    return [[i * count // players] for i in range(players)]


def start_squares(board: Board, port: dict, options: dict) -> list[int]:
    """The nodes of the three ships of one port at the start."""
    if options["flotilla"]:
        return [port["node"]] * 3                      # P28: one stack on the home anchorage
    if options["curse_island"]:
        return [port["start"][0], *port["curse"]]       # P20: one in port, two at the island
    return list(port["start"])                          # P5: the squares nearest the anchorage


def treasure_islands(board: Board, options: dict) -> list[int]:
    """P6: the treasure on Treasure Island; P22: the double board's placement setting."""
    if board.islands == 1:
        return [0]
    placement = options["double_treasure"]
    if placement == "one_each":
        return list(range(board.islands))
    if placement == "both_on_one":
        return [0, 0]
    return [0]


def cell(board: Board, node: int) -> list[int]:
    r, c = board.cells[node][0]
    return [r, c]


def opening_rolls(state: dict, players: int) -> tuple[int, list[dict]]:
    """P7: everyone rolls both dice; the highest begins; a tie among the highest rolls again."""
    events: list[dict] = []
    rolling = list(range(players))
    while True:
        totals = {}
        for seat in rolling:
            faces = dice.roll(state, 2)
            totals[seat] = sum(faces)
            events.append({"type": "start_roll", "seat": seat, "dice": faces})
        top = max(totals.values())
        rolling = [seat for seat in rolling if totals[seat] == top]
        if len(rolling) == 1:
            events.append({"type": "first_player", "seat": rolling[0]})
            return rolling[0], events


def board_name(options: dict, edition: int) -> str:
    """Edition 1 sails the first board (ports in the corners, two 2x5 trade-wind blocks);
    edition 2 the board with ports along the sides and diagonal trade winds (P3, P13)."""
    name = "double" if options["double_board"] else "single"
    return name if edition == 1 else f"{name}{edition}"


def port_groups(board: Board, options: dict) -> list[list[int]]:
    """What a player may choose as home (edition 2, P5): one port, or in Opposing Realms the
    two ports of one long side (P26), in Headwind Realm the ports of one short side (P27)."""
    ports = board.ports
    if options["opposing_realms"]:
        return [[p["id"] for p in ports if side in p["sides"]] for side in ("top", "bottom")]
    if options["headwind_realm"]:
        return [[p["id"] for p in ports if side in p["sides"]] for side in ("left", "right")]
    return [[p["id"]] for p in ports]


def place_ships(state: dict) -> None:
    """P5: every seat's ships on the squares nearest its ports' anchorages (P20, P28 as set).
    Edition 2's Curse Island anchorages are dealt to the ports in the order they were chosen,
    each taking the two free anchorages nearest to it."""
    board = board_of(state)
    options = state["options"]
    curse: dict[int, list[int]] = {}
    if edition_of(state) >= 2 and options["curse_island"]:
        free = sorted(board.anchorage_island)
        for seat in state["order"]:
            for port_id in state["seats"][seat]["ports"]:
                anchorage = board.ports[port_id]["anchorage"]
                free.sort(key=lambda n: ((board.cells[n][0][0] - anchorage[0]) ** 2
                                         + (board.cells[n][0][1] - anchorage[1]) ** 2, n))
                curse[port_id], free = free[:2], free[2:]
    ships = []
    for seat in state["seats"]:
        for port_id in seat["ports"]:
            port = board.ports[port_id]
            if port_id in curse:
                port = dict(port, curse=tuple(curse[port_id]))
            for node in start_squares(board, port, options):
                ships.append({"id": len(ships), "seat": seat["seat"], "at": cell(board, node),
                              "lost": None})
    state["ships"] = ships


def new_game(players: int, seed: str, options: dict | None, edition: int = EDITION) -> dict:
    options = check_options(options, players, edition)
    if not isinstance(seed, str) or not seed:
        raise IllegalAction.said(WORDS, "error.no_seed")
    board = get_board(board_name(options, edition))
    homes = assign_ports(board, players, options) if edition == 1 else [[] for _ in range(players)]
    ships = []
    for seat, port_ids in enumerate(homes):
        for port_id in port_ids:
            for node in start_squares(board, board.ports[port_id], options):
                ships.append({"id": len(ships), "seat": seat, "at": cell(board, node), "lost": None})
    state = {
        "game": "pirater",
        "seed": seed,
        "draws": 0,
        "round": 1,
        "players": players,
        "options": options,
        "board": board.name,
        "dice_per_roll": dice_count(options),
        "seats": [{"seat": seat, "ports": port_ids, "out": False, "powder_used": False}
                  for seat, port_ids in enumerate(homes)],
        "ships": ships,
        "treasures": [{"id": i, "island": island, "ship": None}
                      for i, island in enumerate(treasure_islands(board, options))],
        "wrecks": [],
        "eliminated": [],
        "first": 0,
        "current": 0,
        "phase": "roll",
        "dice": [],
        "used": [],
        "split": False,
        "extra": False,
        "powder": None,
        "winner": None,
        "win": None,
        "turns": 1,
        "start": [],
    }
    if edition >= 2:
        # P5/P7: the roll decides who begins and the order in which ports are chosen; the
        # ships are placed once every seat has its port (phase "ports").
        state["edition"] = edition
        order, events = dice.roll_order(state, list(range(players)), 2, "start_roll")
        events.append({"type": "first_player", "seat": order[0]})
        state["order"] = order
        state["choosing"] = list(order)
        state["phase"] = "ports"
        state["first"] = state["current"] = order[0]
        state["start"] = events
        return state
    first, events = opening_rolls(state, players)
    state["first"] = state["current"] = first
    state["start"] = events
    return state
