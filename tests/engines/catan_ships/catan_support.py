"""What the Catan tests share: a game past its setup, hand-made positions and random players."""
import copy
import random

from games.engines.catan_ships import ENGINE
from games.engines.catan_ships.board import RESOURCES, geometry
from games.engines.catan_ships.bots import random_action

__all__ = ["ENGINE", "RESOURCES", "geometry", "fresh", "empty_board", "hand", "give", "place",
           "road", "path", "play", "random_game", "act"]


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
