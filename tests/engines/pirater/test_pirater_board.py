"""The board as data: Treasure Island, trade winds, straits, ports (P1–P4, P22)."""
import json
from collections import Counter

import pytest

from games.engines.pirater.board import DIAGONALS, DIRECTION_NAMES, HERE, get_board

SINGLE = get_board("single")
DOUBLE = get_board("double")


def kinds(board):
    return Counter(board.kind.values())


def test_layout_file_is_rectangular_and_uses_its_legend():
    """P1 the grid is stored as a text layout in board.json."""
    data = json.loads((HERE / "board.json").read_text())
    widths = {len(row) for row in data["rows"]}
    assert widths == {SINGLE.width}
    assert set("".join(data["rows"])) <= set(data["legend"])


def test_treasure_island_lies_in_the_middle_with_anchorages_round_it():
    """P1 Treasure Island in the middle, anchorages around it."""
    island = [cell for cell, k in SINGLE.kind.items() if k == "island"]
    rows = [r for r, _ in island]
    cols = [c for _, c in island]
    assert (min(rows) + max(rows)) / 2 == (SINGLE.height - 1) / 2
    assert (min(cols) + max(cols)) / 2 == (SINGLE.width - 1) / 2
    anchorages = [n for n, k in enumerate(SINGLE.node_kind) if k == "anchorage"]
    assert len(anchorages) == 8
    for n in anchorages:
        r, c = SINGLE.cells[n][0]
        assert any(SINGLE.kind.get((r + dr, c + dc)) == "island"
                   for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    # every sea square touching the island orthogonally is an anchorage
    for r, c in island:
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            k = SINGLE.kind.get((r + dr, c + dc))
            assert k in ("island", "anchorage")


def test_each_port_has_a_town_and_an_anchorage_beside_it():
    """P1 each player has a home port with an anchorage; four ports on the basic board."""
    assert len(SINGLE.ports) == 4
    for port in SINGLE.ports:
        (r, c), (ar, ac) = port["town"], port["anchorage"]
        assert SINGLE.kind[(r, c)] == "port" and SINGLE.kind[(ar, ac)] == "home"
        assert abs(r - ar) + abs(c - ac) == 1


def test_open_sea_moves_straight_only_and_land_blocks():
    """P2 open sea: four straight directions, never diagonal, never onto land."""
    for n, kind in enumerate(SINGLE.node_kind):
        if SINGLE.is_wind[n]:
            continue
        for d, target in zip(DIRECTION_NAMES, SINGLE.step[n]):
            if d in DIAGONALS:
                assert target == -1, (SINGLE.cells[n], d)
            elif target >= 0:
                assert SINGLE.node_kind[target] != "land"
    # a sea square beside the coast has no step onto the land
    coast = SINGLE.node_of[(3, 1)]
    assert SINGLE.step[coast][DIRECTION_NAMES.index("w")] == -1
    beside_island = SINGLE.node_of[(6, 9)]
    assert SINGLE.step[beside_island][DIRECTION_NAMES.index("e")] == -1


def test_twenty_trade_wind_squares_ten_on_each_side_of_the_island():
    """P3 20 trade-wind squares in the middle, on both sides of the island."""
    winds = [cell for cell, k in SINGLE.kind.items() if k == "trade_wind"]
    assert len(winds) == 20
    island_cols = [c for (r, c), k in SINGLE.kind.items() if k == "island"]
    left = [c for _, c in winds if c < min(island_cols)]
    right = [c for _, c in winds if c > max(island_cols)]
    assert len(left) == len(right) == 10


def test_diagonal_steps_only_between_trade_wind_squares():
    """P3 diagonal moves only inside the trade winds."""
    diagonal_steps = 0
    for n in range(SINGLE.size):
        for d, target in zip(DIRECTION_NAMES, SINGLE.step[n]):
            if d in DIAGONALS and target >= 0:
                diagonal_steps += 1
                assert SINGLE.is_wind[n] and SINGLE.is_wind[target]
    assert diagonal_steps > 0


def test_straits_are_half_squares_on_the_long_sides_joined_in_pairs():
    """P4 straits: half squares on the outer long sides, each joined to the one opposite."""
    straits = [cell for cell, k in SINGLE.kind.items() if k == "strait"]
    top = sorted(c for r, c in straits if r == 0)
    bottom = sorted(c for r, c in straits if r == SINGLE.height - 1)
    assert len(straits) == len(top) + len(bottom)
    assert top == bottom and len(top) >= 2
    assert SINGLE.width > SINGLE.height  # the straits lie on the long sides
    for c in top:
        assert SINGLE.node_of[(0, c)] == SINGLE.node_of[(SINGLE.height - 1, c)]
    cells = [x for x in SINGLE.cell_list() if x["kind"] == "strait"]
    assert all(x["half"] and x["pair"] == [SINGLE.height - 1 - x["row"], x["col"]] for x in cells)


def test_a_strait_is_left_straight_inwards_from_either_half():
    """P4 from a strait a ship sails south out of the top half or north out of the bottom half."""
    c = next(c for (r, c), k in SINGLE.kind.items() if k == "strait" and r == 0)
    strait = SINGLE.node_of[(0, c)]
    exits = {d: SINGLE.cells[t][0] for d, t in zip(DIRECTION_NAMES, SINGLE.step[strait]) if t >= 0}
    assert exits == {"s": (1, c), "n": (SINGLE.height - 2, c)}


def mirror(board, cell, axis):
    r, c = cell
    return (board.height - 1 - r, c) if axis == "rows" else (r, board.width - 1 - c)


@pytest.mark.parametrize("axis", ["rows", "cols"])
def test_board_is_symmetric_so_every_port_is_alike(axis):
    """P1 P5 the ports are placed alike: the layout mirrors top to bottom and left to right."""
    for cell, kind in SINGLE.kind.items():
        assert SINGLE.kind[mirror(SINGLE, cell, axis)] == kind
    anchorages = {p["anchorage"] for p in SINGLE.ports}
    assert {mirror(SINGLE, a, axis) for a in anchorages} == anchorages


def test_every_port_is_equally_far_from_the_treasure_and_can_reach_it():
    """P1 P12 every port can reach the island's anchorages, all at the same distance."""
    anchorages = list(SINGLE.anchorage_island)
    distances = []
    for port in SINGLE.ports:
        dist = SINGLE.distances_from(port["node"])
        assert all(dist[a] < SINGLE.size for a in anchorages)
        distances.append(min(dist[a] for a in anchorages))
    assert len(set(distances)) == 1


def test_every_sea_square_is_connected():
    """P2 no sea square is cut off."""
    for board in (SINGLE, DOUBLE):
        dist = board.distances_from(board.ports[0]["node"])
        assert max(dist) < board.size


def test_start_squares_are_the_three_nearest_the_anchorage():
    """P5 three ships on the squares nearest the port's anchorage."""
    for port in SINGLE.ports:
        ar, ac = port["anchorage"]
        assert len(set(port["start"])) == 3
        for n in port["start"]:
            r, c = SINGLE.cells[n][0]
            assert max(abs(r - ar), abs(c - ac)) == 1
            assert SINGLE.node_kind[n] == "sea"


def test_each_port_owns_two_island_anchorages_for_curse_island():
    """P20 the eight anchorages split two per port, the two nearest that port."""
    owned = [n for p in SINGLE.ports for n in p["curse"]]
    assert sorted(owned) == sorted(SINGLE.anchorage_island)
    assert all(len(p["curse"]) == 2 for p in SINGLE.ports)


def test_double_board_joins_two_boards_along_a_long_side():
    """P22 two boards along a long side; the joined strait row becomes a passage."""
    k = kinds(DOUBLE)
    assert k["trade_wind"] == 40 and DOUBLE.islands == 2 and len(DOUBLE.ports) == 8
    assert DOUBLE.width == SINGLE.width
    assert DOUBLE.height == 2 * SINGLE.height - 1
    seam = SINGLE.height - 1
    passages = [c for (r, c), kind in DOUBLE.kind.items() if kind == "passage"]
    straits = sorted(c for (r, c), kind in SINGLE.kind.items() if kind == "strait" and r == 0)
    assert sorted(passages) == straits
    assert all(DOUBLE.kind[(seam, c)] == "passage" for c in straits)
    # the outer straits are joined to each other, across both boards
    for c in straits:
        assert DOUBLE.node_of[(0, c)] == DOUBLE.node_of[(DOUBLE.height - 1, c)]
    # each island has its eight anchorages, each port two of its own island's
    assert Counter(DOUBLE.anchorage_island.values()) == {0: 8, 1: 8}
    for port in DOUBLE.ports:
        islands = {DOUBLE.anchorage_island[n] for n in port["curse"]}
        assert islands == {0 if port["anchorage"][0] < seam else 1}


def test_double_board_ports_run_clockwise():
    """P7 P22 the eight ports are listed clockwise round the joined board."""
    import math
    cr, cc = (DOUBLE.height - 1) / 2, (DOUBLE.width - 1) / 2
    angles = [math.atan2(p["anchorage"][1] - cc, -(p["anchorage"][0] - cr)) % (2 * math.pi)
              for p in DOUBLE.ports]
    # clockwise on screen (north first, then east): the angle from north keeps growing
    start = angles[0]
    unwrapped = [(a - start) % (2 * math.pi) for a in angles]
    assert unwrapped == sorted(unwrapped)


def test_cell_list_describes_every_square_for_drawing():
    """P1 the page draws the board from (row, col, kind) squares; ports carry their id."""
    cells = SINGLE.cell_list()
    assert len(cells) == SINGLE.width * SINGLE.height
    assert {c["kind"] for c in cells} == {"land", "strait", "sea", "trade_wind", "island",
                                         "anchorage", "port", "home"}
    ports = [c for c in cells if c["kind"] in ("port", "home")]
    assert sorted(c["port"] for c in ports) == [0, 0, 1, 1, 2, 2, 3, 3]
    json.dumps(cells)
