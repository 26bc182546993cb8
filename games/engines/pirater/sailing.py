"""Pirater's sailing: where the ships are (`Position`), one die's move (P2–P4, P8–P10, P12,
P13, P15–P19, P23, P26, P28) and the dice rule (P11) that decides which moves a roll allows.

The search for legal moves runs on `Position`, a compact copy of where the ships are, so the
same code that applies a move (rules.py) also decides which moves P11 allows.
"""
from __future__ import annotations

from functools import lru_cache

from games.engines.base import edition_of
from games.engines.pirater.board import DIRECTION_NAMES, DIRECTIONS, STRAIGHT, Board
from games.engines.pirater.state import board_of

# P13, edition 2: the row and column change that heads for each side of the board.
SIDE_HEADING = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}

DIR_INDEX = {d: i for i, d in enumerate(DIRECTION_NAMES)}


# ---- a compact position ---------------------------------------------------------------------
class Position:
    """Where every ship is (node, -1 when lost), who carries each treasure (-1: on its island)
    and the wrecked squares (P23)."""

    __slots__ = ("at", "carry", "wrecks", "_occ")

    def __init__(self, at: list[int], carry: list[int], wrecks: frozenset):
        self.at = at
        self.carry = carry
        self.wrecks = wrecks
        self._occ = None

    def occupants(self) -> dict[int, list[int]]:
        """Ships on each occupied node, lowest id first."""
        if self._occ is None:
            occ: dict[int, list[int]] = {}
            for ship, node in enumerate(self.at):
                if node >= 0:
                    occ.setdefault(node, []).append(ship)
            self._occ = occ
        return self._occ

    def key(self):
        return tuple(self.at), tuple(self.carry), self.wrecks


class Context:
    """What stays fixed while one seat plays its dice."""

    __slots__ = ("board", "seat", "owner", "own", "dist", "homes", "strict", "flotilla", "split",
                 "shipwreck", "treasure_island", "edition", "homeward")

    def __init__(self, state: dict, seat: int):
        options = state["options"]
        self.board: Board = board_of(state)
        self.seat = seat
        self.owner = tuple(s["seat"] for s in state["ships"])
        self.own = tuple(s["id"] for s in state["ships"] if s["seat"] == seat)
        ports = state["seats"][seat]["ports"]
        self.dist = self.board.home_distance(tuple(ports))
        self.homes = frozenset(self.board.ports[p]["node"] for p in ports)
        self.strict = options["opposing_realms"]     # P26: a treasure ship always heads home
        self.flotilla = options["flotilla"]
        self.split = bool(state["split"])            # P28: the agreed roll came up this turn
        self.shipwreck = options["shipwreck"]
        self.treasure_island = tuple(t["island"] for t in state["treasures"])
        self.edition = edition_of(state)
        self.homeward = homeward(self.board, tuple(ports), self.strict) if self.edition >= 2 else None


@lru_cache(maxsize=256)
def homeward(board: Board, ports: tuple, strict: bool) -> frozenset:
    """P13, edition 2: the directions a treasure ship may take, judged from the side of the
    board where its port lies: towards that side or along it (diagonals count by the part that
    heads for the side), never back; P26: only towards it."""
    sides = {side for p in ports for side in board.ports[p]["sides"]}
    allowed = set()
    for d, (dr, dc) in DIRECTIONS.items():
        heading = [dr * hr + dc * hc for hr, hc in (SIDE_HEADING[side] for side in sides)]
        if heading and all(h > 0 if strict else h >= 0 for h in heading):
            allowed.add(d)
    return frozenset(allowed)


def node_at(board: Board, at) -> int:
    return -1 if at is None else board.node_of[(at[0], at[1])]


def position(state: dict) -> Position:
    """Ship ids are their places in state["ships"]."""
    board = board_of(state)
    return Position(
        [node_at(board, s["at"]) for s in state["ships"]],
        [-1 if t["ship"] is None else t["ship"] for t in state["treasures"]],
        frozenset(board.node_of[tuple(w)] for w in state["wrecks"]),
    )


class Moved:
    """The outcome of one die's move."""

    __slots__ = ("pos", "group", "start", "dest", "captured", "took", "loaded", "win", "loadable")

    def __init__(self, pos, group, start, dest, captured, took, loaded, win, loadable=False):
        self.pos, self.group, self.start, self.dest = pos, group, start, dest
        self.captured, self.took, self.loaded, self.win = captured, took, loaded, win
        self.loadable = loadable          # edition 2: it ends where it could load (P12)


def try_move(ctx: Context, pos: Position, ship: int, value: int, direction: str, split: bool,
             load: bool = False):
    """Sail `ship` (with its fleet, P28) `value` squares towards `direction`; in edition 2 it
    loads a treasure where it stops only if `load` (P12), in edition 1 always.

    Returns a Moved, or the phrase book's key ("error.…") for why the move is not possible; a
    key rather than an exception, because the search for legal moves tries every refused move.
    """
    if not 0 <= ship < len(pos.at) or ctx.owner[ship] != ctx.seat:
        return "error.not_your_ship"
    start = pos.at[ship]
    if start < 0:
        return "error.ship_lost"
    occ = pos.occupants()
    group = occ[start] if ctx.flotilla and not split else [ship]
    carrying = any(c >= 0 and c in group for c in pos.carry)
    board = ctx.board
    step, wind, strait, dist = board.step, board.is_wind, board.is_strait, ctx.dist
    di = DIR_INDEX[direction]
    if carrying and ctx.homeward is not None and direction not in ctx.homeward:
        return "error.treasure_away_from_home"                                      # P13, P26
    here, entered = start, False
    for i in range(value):
        nxt = step[here][di]
        if nxt < 0:
            if direction not in STRAIGHT:
                return "error.diagonal_outside_winds"                               # P2, P3
            return "error.blocked"                                                  # P2
        if nxt in pos.wrecks and not (ctx.edition >= 2 and i == value - 1 and nxt in occ
                                      and ctx.owner[occ[nxt][0]] != ctx.seat):
            return "error.wreck"           # P23; edition 2: a ship on a wreck can be taken
        if i < value - 1:
            if strait[nxt]:
                return "error.strait_ends_move"                                     # P4
            if nxt in occ:
                return "error.no_jumping"                                           # P10
        if wind[nxt]:
            entered = entered or not wind[here]
        elif entered:
            return "error.winds_end_move"                                           # P3
        if carrying and ctx.homeward is None and (
                dist[nxt] > dist[here] or (ctx.strict and dist[nxt] == dist[here])):
            return "error.treasure_away_from_home"                                  # P13, P26
        here = nxt
    dest = here
    there = occ.get(dest, ())
    captured: list[int] = []
    if there:
        if ctx.owner[there[0]] == ctx.seat:
            if not (ctx.flotilla and ctx.split):
                return "error.own_ship_there"                                       # P15, P28
        else:
            captured = list(there)                                                  # P15
    at = list(pos.at)
    for s in group:
        at[s] = dest
    for s in captured:
        at[s] = -1
    carry = list(pos.carry)
    took = [t for t, c in enumerate(carry) if c >= 0 and c in captured]
    for t in took:
        carry[t] = ship                                                             # P17
    wrecks = pos.wrecks | {dest} if captured and ctx.shipwreck else pos.wrecks      # P23
    loaded = None
    loadable = False
    if not any(c >= 0 and c in group for c in carry) and dest in board.anchorage_island:
        island = board.anchorage_island[dest]                                       # P12
        for t, c in enumerate(carry):
            if c < 0 and ctx.treasure_island[t] == island:
                loadable = True
                if ctx.edition == 1 or load:
                    carry[t] = ship
                    loaded = t
                break
    win = None
    if dest in ctx.homes and any(c >= 0 and c in group for c in carry):
        win = "treasure"                                                            # P18
    elif captured and all(at[s] < 0 for s in range(len(at)) if ctx.owner[s] != ctx.seat):
        win = "last_ships"                                                          # P19
    return Moved(Position(at, carry, wrecks), group, start, dest, captured, took, loaded, win,
                 loadable and ctx.edition >= 2)


def move_outcomes(state: dict, moves: list[dict]) -> list:
    """What each of the current seat's legal moves would do, without playing it: a Moved
    (captured P15, took P17, loaded P12, win P18/P19) for a page that marks them beforehand.
    Reads only what the view shows too."""
    ctx = Context(state, state["current"])
    pos = position(state)
    return [try_move(ctx, pos, a["ship"], a["die"], a["direction"], bool(a.get("split")), bool(a.get("load")))
            for a in moves]


def movers(ctx: Context, pos: Position) -> list[tuple[int, bool]]:
    """(ship, split) pairs that may move: every own ship, or in Flotilla each fleet by its
    lowest-numbered ship, and on the agreed roll also each ship of a fleet alone (P28)."""
    if not ctx.flotilla:
        return [(s, False) for s in ctx.own if pos.at[s] >= 0]
    occ = pos.occupants()
    out, seen = [], set()
    for s in ctx.own:
        node = pos.at[s]
        if node < 0 or node in seen:
            continue
        seen.add(node)
        fleet = occ[node]
        out.append((fleet[0], False))
        if ctx.split and len(fleet) > 1:
            out.extend((x, True) for x in fleet)
    return out


def _with(values: tuple, v: int) -> tuple:
    return tuple(sorted(values + (v,), reverse=True))


def _without(values: tuple, v: int) -> tuple:
    i = values.index(v)
    return values[:i] + values[i + 1:]


def successors(ctx: Context, pos: Position, values: tuple):
    """Every possible single move with one of the dice `values`, high dice first:
    (value, ship, direction, split, Moved); in edition 2 a move that may load the treasure
    comes twice, without loading and with (P12)."""
    for v in sorted(set(values), reverse=True):
        for ship, split in movers(ctx, pos):
            for d in DIRECTION_NAMES:
                moved = try_move(ctx, pos, ship, v, d, split)
                if type(moved) is not str:
                    yield v, ship, d, split, moved
                    if moved.loadable:
                        yield v, ship, d, split, try_move(ctx, pos, ship, v, d, split, True)


def score_of(ctx: Context, moved: Moved, v: int, values: tuple, memo: dict) -> tuple:
    """The best play of the whole roll `values` that starts with this move of die `v`."""
    if moved.win:
        return (len(values), values)
    sub = best_play(ctx, moved.pos, _without(values, v), memo)
    return (1 + sub[0], _with(sub[1], v))


def best_play(ctx: Context, pos: Position, values: tuple, memo: dict) -> tuple:
    """The best use of the dice `values` (sorted high to low) from here: (how many dice, which
    values high to low). P11: as many dice as possible, then the larger ones. A move that wins
    ends the game and counts as using every die."""
    if not values:
        return (0, ())
    key = (pos.key(), values)
    if key not in memo:
        full = (len(values), values)
        result = (0, ())
        for v, _, _, _, moved in successors(ctx, pos, values):
            result = max(result, score_of(ctx, moved, v, values, memo))
            if result == full:
                break
        memo[key] = result
    return memo[key]


def remaining(state: dict) -> tuple:
    return tuple(sorted((f for f, u in zip(state["dice"], state["used"]) if not u), reverse=True))


def legal_moves(state: dict) -> list[tuple[int, int, str, bool, int, bool]]:
    """Every (die value, ship, direction, split, destination node, load) the current seat may
    play now: the moves that keep the best play of P11 within reach."""
    values = remaining(state)
    ctx = Context(state, state["current"])
    memo: dict = {}
    scored = [(score_of(ctx, moved, v, values, memo),
               (v, ship, d, split, moved.dest, moved.loaded is not None and ctx.edition >= 2))
              for v, ship, d, split, moved in successors(ctx, position(state), values)]
    if not scored:
        return []
    top = max(score for score, _ in scored)
    return [move for score, move in scored if score == top]


def keeps_best_play(ctx: Context, pos: Position, moved: Moved, value: int, values: tuple) -> bool:
    """Is this move one of legal_moves? Checked without listing them all: a move that uses every
    die is as good as any, and only a shorter play needs the full search to compare with."""
    memo: dict = {}
    mine = score_of(ctx, moved, value, values, memo)
    return mine == (len(values), values) or mine == best_play(ctx, pos, values, memo)


def can_play(state: dict) -> bool:
    """Is any die of the current roll still usable? (Cheaper than listing the moves.)"""
    values = remaining(state)
    ctx = Context(state, state["current"])
    return next(successors(ctx, position(state), values), None) is not None
