"""What the Catan tests share: a game past its setup, hand-made positions and random players."""
import copy
import random

from games.engines import dice
from games.engines.catan_ships import ENGINE
from games.engines.catan_ships.board import RESOURCES, geometry
from games.engines.catan_ships.bots import random_action
from games.engines.catan_ships.roll import roll_two

__all__ = ["ENGINE", "RESOURCES", "geometry", "fresh", "empty_board", "hand", "give", "place",
           "road", "path", "play", "random_game", "act", "ships_board", "coast_spot", "rolling",
           "add_ship", "docked_ship", "gathering", "pirate_state"]


def fresh(players=4, ships=False, seed="test", edition=None):
    """A new game of the current rules edition, or of the one named."""
    return ENGINE.new_game(players, seed, {"ships": ships}, edition=edition)


def empty_board(players=4, ships=False, seed="test", edition=None):
    """A game in its main phase with nothing built yet and empty hands (seat 0 to move)."""
    s = copy.deepcopy(fresh(players, ships, seed, edition))
    s.update(phase="main", current=0, turn=5, round=2, setup_step=2 * players, rolled=True, dice=[3, 4])
    return s


def hand(**cards):
    out = {r: 0 for r in RESOURCES}
    out.update(cards)
    return out


def give(state, seat, **cards):
    state["bank"] = dict(state["bank"])
    state["hands"] = [dict(h) for h in state["hands"]]
    for r, n in cards.items():
        state["hands"][seat][r] += n
        state["bank"][r] -= n
    return state


def place(state, seat, vertex, city=False):
    state["owner"] = list(state["owner"])
    state["city"] = list(state["city"])
    state["pieces"] = [list(p) for p in state["pieces"]]
    state["owner"][vertex] = seat
    state["city"][vertex] = int(city)
    state["pieces"][seat][2 if city else 1] += 1
    return state


def road(state, seat, *edges):
    state["roads"] = list(state["roads"])
    state["pieces"] = [list(p) for p in state["pieces"]]
    for e in edges:
        state["roads"][e] = seat
        state["pieces"][seat][0] += 1
    return state


def path(geo, vertex, length, avoid=()):
    """`length` road edges in a line from `vertex` (first choice each step), as (edges, vertices)."""
    edges, vertices = [], [vertex]
    v = vertex
    for _ in range(length):
        e = next(e for e in geo.vertex_edges[v]
                 if geo.road_edge[e] and e not in edges and e not in avoid
                 and geo.other_end(e, v) not in vertices)
        edges.append(e)
        v = geo.other_end(e, v)
        vertices.append(v)
    return edges, vertices


def act(state, seat, action):
    return ENGINE.apply(state, seat, action)


def play(state, seat_actions):
    events = []
    for seat, action in seat_actions:
        state, ev = ENGINE.apply(state, seat, action)
        events += ev
    return state, events


def random_game(players, ships, seed, limit=60000, check=None, edition=None):
    """A whole game between random players (who build when they can); returns (state, steps)."""
    rnd = random.Random(seed)
    state = fresh(players, ships, seed, edition)
    steps = 0
    while not ENGINE.is_over(state):
        steps += 1
        assert steps < limit, "a random game must end"
        seat = ENGINE.to_act(state)[0]
        action = random_action(state, seat, rnd)
        if check:
            check(state, seat, action)
        state, _ = ENGINE.apply(state, seat, action)
    return state, steps


def ships_board(players=4, seed="ships", edition=None):
    """A ships game in its main phase, nothing built, empty hands (seat 0 to move)."""
    return empty_board(players, True, seed, edition)


def coast_spot(geo, skip=0):
    """(vertex, coast edge at it, its land hex, its water hex), the skip-th such in id order."""
    found = 0
    for v in range(geo.vertex_count):
        if not geo.vertex_on_land[v]:
            continue
        for e in geo.vertex_edges[v]:
            if geo.edge_kind[e] == "coast":
                if found == skip:
                    return v, e, geo.edge_land_hexes[e][0], geo.edge_water_hexes[e][0]
                found += 1
    raise AssertionError("no coast")


def rolling(s, total):
    """The state with its dice counter set so that the next roll makes `total`."""
    for draws in range(2000):
        probe = {"seed": s["seed"], "draws": draws}
        if sum(roll_two(probe)) == total:
            return dict(s, draws=draws, phase="roll", rolled=False, dice=None)
    raise AssertionError("no such roll")


def add_ship(s, seat, edge, cargo=None, number=None):
    s["ships"] = list(s["ships"])
    number = number or 1 + sum(1 for x in s["ships"] if x["seat"] == seat)
    s["ships"].append({"seat": seat, "number": number, "edge": edge, "cargo": dict(cargo or {})})
    if cargo:
        s["bank"] = dict(s["bank"])
        for r, n in cargo.items():
            s["bank"][r] -= n
    return s


def docked_ship(cargo=None, seat=0, edition=None):
    """Seat's ship 1 on a coast edge at its own settlement: (state, geo, vertex, edge, land hex,
    water hex)."""
    s = ships_board(edition=edition)
    geo = geometry(s["board"])
    v, e, h, w = coast_spot(geo)
    place(s, seat, v)
    add_ship(s, seat, e, cargo)
    return s, geo, v, e, h, w


def gathering(cargo=None, seat=0, edition=None):
    """A ship on a coast edge of a numbered land hex, not at any building; (state, ship edge, hex)."""
    s = ships_board(edition=edition)
    geo = geometry(s["board"])
    e = next(e for e in range(geo.edge_count) if geo.edge_kind[e] == "coast"
             and geo.resource[geo.edge_land_hexes[e][0]] and geo.edge_land_hexes[e][0] != s["robber"])
    add_ship(s, seat, e, cargo)
    return s, geo, e, geo.edge_land_hexes[e][0]


def pirate_state(total_wanted, cargo, edition=None):
    """Seat 1's ship on an edge next to the pirate, the dice set so the attack rolls the total."""
    s = ships_board(edition=edition)
    geo = geometry(s["board"])
    target = next(f for f in geo.edge_adjacent[s["pirate"]] if geo.ship_edge[f])
    add_ship(s, 1, target, cargo)
    s = dict(s, phase="pirate")
    for draws in range(3000):
        probe = {"seed": s["seed"], "draws": draws}
        if sum(dice.roll(probe, 2)) == total_wanted:
            return dict(s, draws=draws), target
    raise AssertionError
