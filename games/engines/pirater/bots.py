"""Two players for playouts, tests and empty seats.

`random_action` mostly plays the single move that best serves the treasure race, sometimes any
legal move, so that random games still end; golden games and benchmarks depend on its exact
choices. `best_action` plans the whole roll and weighs the danger to its ships (see below).
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

from games.engines.pirater.board import DIRECTION_NAMES, get_board
from games.engines.pirater.rules import blast_area, legal_actions
from games.engines.pirater.sailing import (
    Context, Position, position, remaining, score_of, successors, try_move,
)


def _target_distance(board, pos, ctx, node: int) -> int:
    """How far a ship without the treasure is from what it should chase: the island
    anchorages while a treasure lies there, else the nearest enemy treasure ship."""
    targets = [pos.at[c] for c in pos.carry if c >= 0 and ctx.owner[c] != ctx.seat]
    if any(c < 0 for c in pos.carry):
        targets += list(board.anchorage_island)
    if not targets:
        return 0
    return min(board.distances_from(t)[node] for t in targets)


def score_move(state: dict, seat: int, action: dict) -> float:
    if action["type"] == "load":
        return 150.0                       # P12 (edition 2): loading where a ship stands
    ctx = Context(state, seat)
    pos = position(state)
    moved = try_move(ctx, pos, action["ship"], action["die"], action["direction"],
                     action.get("split", False), action.get("load", False))
    if type(moved) is str:
        return -1.0
    if moved.win:
        return 1000.0
    board = ctx.board
    score = 200.0 * len(moved.took) + 100.0 * (moved.loaded is not None) + 30.0 * len(moved.captured)
    if any(c in moved.group for c in moved.pos.carry if c >= 0):
        score += 10.0 * (ctx.dist[moved.start] - ctx.dist[moved.dest])
    else:
        score += 3.0 * (_target_distance(board, pos, ctx, moved.start)
                        - _target_distance(board, moved.pos, ctx, moved.dest))
    return score


def random_action(state: dict, seat: int, rnd: random.Random) -> dict:
    """One of legal_actions(state, seat), usually the best-looking one."""
    actions = legal_actions(state, seat)
    if not actions:
        raise ValueError("this seat has nothing to do")
    if actions[0]["type"] == "choose_port":                    # P5 (edition 2)
        return rnd.choice(actions)
    loads = [a for a in actions if a["type"] == "load"]
    if loads and actions[0]["type"] == "roll":
        return loads[0]
    if actions[0]["type"] == "roll":
        powder = [a for a in actions if a["type"] == "declare_powder"]
        if powder and rnd.random() < 0.03:
            return rnd.choice(powder)
        return actions[0]
    if rnd.random() < 0.15:
        return rnd.choice(actions)
    scored = [(score_move(state, seat, a), rnd.random(), i) for i, a in enumerate(actions)]
    return actions[max(scored)[2]]


# ---- the racing bot ------------------------------------------------------------------------
#
# best_action looks at every way to play the dice left this turn (P8–P11, with the engine's own
# search for which moves keep the most and the highest dice in play; with three or four dice
# it looks one move ahead), scores the position each one leaves and plays the first move of
# the best. The score, with the opponents to move next, weighs:
# - a treasure we hold: the expected turns to bring it home (value iteration over the dice,
#   ships ignored, P13's homeward moves only) and the chance an opponent lands on its ship in
#   his next turn (his single dice and one ship's two dice, along clear lines, P8–P10, P15);
# - a treasure an opponent holds: his expected turns home, his chance to bring it home next
#   turn (our ships in his lines block him, P10), and our chance to take it where it is
#   likely to stop;
# - a treasure on the island: the expected turns of each side's nearest ship to an anchorage
#   and the chance to load it in the next turn;
# - the ships afloat on each side and the chance of losing ours (P16, P19).

TREASURE = 1000.0          # holding a treasure
TURN = 110.0               # a turn more to bring it home
SHIP = 150.0               # a ship afloat (P16, P19: the last ships decide a game too)
RACE = 150.0               # a turn nearer an island anchorage while the treasure lies there
SPREAD = 25.0              # a turn nearer the island for each ship without the treasure
HUNT = 25.0                # a square nearer an enemy treasure ship (three more from behind)
LOAD = 400.0               # the chance that an opponent loads the treasure in his next turn
LOAD_US = 400.0            # the chance that we load it in our next turn
HOME = 150.0               # the chance to bring our treasure home in our next turn
LOSS = 2000.0              # the chance that an opponent brings his home in his next turn
COVER = 300.0              # in line with the anchorages where an opponent may load
CATCH = 1500.0             # the chance to take an enemy treasure ship where it stops next
FACES = range(1, 7)
INF = float("inf")


def best_action(state: dict, seat: int, rnd: random.Random) -> dict:
    """The legal action that leaves the best position after the dice left this turn (see
    above). Deterministic: ties go to the first action listed; `rnd` is not used."""
    actions = legal_actions(state, seat)
    if not actions:
        raise ValueError("this seat has nothing to do")
    if actions[0]["type"] == "choose_port":                    # P5 (edition 2): any will do
        return actions[0]
    loads = [a for a in actions if a["type"] == "load"]        # P12 (edition 2): load it
    if loads:
        return loads[0]
    if actions[0]["type"] == "roll":
        return _powder_or_roll(state, seat, actions)
    ctx = Context(state, seat)
    pos = position(state)
    values = remaining(state)
    foes = _foes(state, seat)
    best, best_score = actions[0], -INF
    memo: dict = {}          # the engine's P11 search
    cache: dict = {}         # scores of positions already seen this decision
    for action in actions:
        moved = try_move(ctx, pos, action["ship"], action["die"], action["direction"],
                         action.get("split", False), action.get("load", False))
        if type(moved) is str:
            continue
        if moved.win:
            return action
        rest = _without(values, action["die"])
        score = _plan_score(state, ctx, foes, moved.pos, rest, memo, cache, depth=1)
        if score > best_score + 1e-9:
            best, best_score = action, score
    return best


def _powder_or_roll(state: dict, seat: int, actions: list[dict]) -> dict:
    """P24: declare a powder ship when the blast, whatever its radius, is worth more than the
    ships it costs (an opponent's treasure ship in reach goes back to the island)."""
    powder = [a for a in actions if a["type"] == "declare_powder"]
    if not powder:
        return actions[0]
    ctx = Context(state, seat)
    pos = position(state)
    board = ctx.board
    dice = state["dice_per_roll"]
    carriers = {c: t for t, c in enumerate(pos.carry) if c >= 0}
    best, best_gain = actions[0], 150.0
    for action in powder:
        node = pos.at[action["ship"]]
        gain = 0.0
        for radius in FACES:
            chance = ((7 - radius) / 6) ** dice - ((6 - radius) / 6) ** dice
            hit = set(blast_area(board, node, radius))
            value = 0.0
            for ship, at in enumerate(pos.at):
                if at < 0 or at not in hit:
                    continue
                sign = 1.0 if ctx.owner[ship] != seat else -1.0
                value += sign * (SHIP + (TREASURE if ship in carriers else 0.0))
            gain += chance * value
        if gain > best_gain:
            best, best_gain = action, gain
    return best


def _plan_score(state, ctx, foes, pos, values, memo, cache, depth) -> float:
    """The best score reachable from `pos` with the dice `values` still to play (P11: only
    the moves that keep the most dice, then the highest, in play). With two dice both moves
    are looked at; with three or four, the position after one move is scored (the next call
    looks further)."""
    key = (pos.key(), values)
    if key in cache:
        return cache[key]
    deep = len(values) + depth <= 2
    moves = _legal(ctx, pos, values, memo) if values and deep else []
    if not moves:
        score = _score(state, ctx, foes, pos, cache)
    else:
        score = -INF
        for v, moved in moves:
            if moved.win:
                score = INF
                break
            score = max(score, _plan_score(state, ctx, foes, moved.pos, _without(values, v),
                                           memo, cache, depth + 1))
    cache[key] = score
    return score


def _legal(ctx, pos, values, memo) -> list:
    """The moves P11 allows from `pos` with the dice `values`: (die, Moved)."""
    scored = [(score_of(ctx, moved, v, values, memo), v, moved)
              for v, _, _, _, moved in successors(ctx, pos, values)]
    if not scored:
        return []
    top = max(s for s, _, _ in scored)
    return [(v, moved) for s, v, moved in scored if s == top]


def _without(values: tuple, v: int) -> tuple:
    i = values.index(v)
    return values[:i] + values[i + 1:]


def _foes(state: dict, seat: int) -> list[Context]:
    return [Context(state, s["seat"]) for s in state["seats"] if s["seat"] != seat and not s["out"]]


def _score(state: dict, ctx: Context, foes: list[Context], pos: Position, cache: dict) -> float:
    """How good `pos` is for ctx.seat with the opponents to move (see the notes above).
    `cache` also keeps, for this decision, the opponents' chances to load, which depend on
    where their ships are and hardly on ours."""
    board = ctx.board
    lines = _lines(board.name)
    dice = state["dice_per_roll"]
    mine = [s for s in ctx.own if pos.at[s] >= 0]
    if not mine:
        return -INF
    theirs = [s for foe in foes for s in foe.own if pos.at[s] >= 0]
    if not theirs:
        return INF
    score = SHIP * (len(mine) - len(theirs) / max(1, len(foes)))
    carriers = {c for c in pos.carry if c >= 0}
    for treasure, carrier in enumerate(pos.carry):
        if carrier < 0:
            island = ctx.treasure_island[treasure]
            anchorages = _anchorages(board.name, island)
            near = _turns_to(board.name, anchorages)
            loose = [s for s in mine if s not in carriers]
            ours = min((near[pos.at[s]] for s in loose), default=6.0)
            others = min(near[pos.at[s]] for s in theirs)
            score += RACE * (min(others, 6.0) - min(ours, 6.0))
            # The other ships follow: near the island they are ready to race or to hunt.
            score -= SPREAD * sum(min(near[pos.at[s]], 6.0) for s in loose)
            first = 1.0
            for foe in foes:
                racers = [s for s in foe.own if s not in carriers]
                key = ("load", treasure, tuple(pos.at[s] for s in racers))
                if key not in cache:
                    cache[key] = _reach(lines, pos, anchorages, foe, dice, racers)
                first *= 1.0 - cache[key]
            score -= LOAD * (1.0 - first)
            score += LOAD_US * first * _reach(lines, pos, anchorages, ctx, dice, loose)
            # Ships in line with the anchorages can take the treasure from whoever loads it.
            score += COVER * (1.0 - first) * _cover(lines, loose, pos, frozenset(anchorages))
            continue
        node = pos.at[carrier]
        if ctx.owner[carrier] == ctx.seat:
            danger = _danger(lines, pos, node, foes, dice)
            home = _reach(lines, pos, ctx.homes, ctx, dice, [carrier])
            worth = TREASURE - TURN * _home_turns(ctx)[node] + HOME * home * (1.0 - danger)
            score += worth - danger * (worth + TREASURE)
        else:
            foe = next(f for f in foes if f.seat == ctx.owner[carrier])
            home = _reach(lines, pos, foe.homes, foe, dice, [carrier])
            score -= TREASURE - TURN * _home_turns(foe)[node] + LOSS * home
            around = board.distances_from(node)
            hunters = [s for s in mine if s not in carriers]
            if hunters:
                # Waiting on its way home beats chasing it from behind.
                gaps = sorted(around[pos.at[s]] + (3 if foe.dist[pos.at[s]] > foe.dist[node]
                                                   else 0) for s in hunters)
                score -= HUNT * (gaps[0] + 0.3 * sum(gaps[1:]))
                # Our chance to take it where it is likely to stop next.
                homes = tuple(sorted(foe.homes))
                catch = 0.0
                for square, chance in _landings(board.name, homes, _home_ports(foe), foe.strict,
                                                node):
                    if square not in foe.homes:
                        catch += chance * _reach(lines, pos, (square,), ctx, dice, hunters)
                score += CATCH * catch
    last = len(mine) == 1           # P19: losing the last ship loses the game
    for ship in mine:
        if ship not in carriers:
            score -= (LOSS if last else SHIP) * _danger(lines, pos, pos.at[ship], foes, dice)
    return score


def _danger(lines, pos: Position, target: int, foes: list[Context], dice: int) -> float:
    """The chance that one of the opponents captures the ship on `target` before our turn."""
    safe = 1.0
    for foe in foes:
        safe *= 1.0 - _reach(lines, pos, (target,), foe, dice)
    return 1.0 - safe


def _reach(lines, pos: Position, targets, side: Context, dice: int, only=None) -> float:
    """The chance that `side` ends a move on one of `targets` in its next turn (with only the
    ships in `only`, if given)."""
    occ = pos.occupants()
    carriers = {c for c in pos.carry if c >= 0}
    ships = [s for s in (side.own if only is None else only) if pos.at[s] >= 0]
    if not ships:
        return 0.0
    movers = [(pos.at[s], s in carriers) for s in ships]
    single, double = _pairs(lines, occ, pos.wrecks, targets, movers, set(side.own), side.dist,
                            side.strict)
    return _chance(frozenset(single), frozenset(double), dice)


def _heads_home(dist, strict: bool, start, passed, end) -> bool:
    """P13: every square of a treasure ship's move is no farther from home than the one before
    (strictly nearer under P26)."""
    here = start
    for x in passed + (end,):
        if dist[x] > dist[here] or (strict and dist[x] == dist[here]):
            return False
        here = x
    return True


def _pairs(lines, occ: dict, wrecks, targets, movers, side: set, dist=None, strict=False):
    """The dice that let one of `movers` ((node, carrying) pairs of one side) end a move on one
    of `targets` in a turn: single values (one die) and ordered pairs (one ship, two dice).
    Ships block (P10), wrecks block (P23), a side's own ship can't be landed on (P15), a
    carrying ship only heads home by `dist` (P13, strictly under P26)."""
    single, double = set(), set()

    def clear(passed, mover_at):
        return all((x not in occ or x == mover_at) and x not in wrecks for x in passed)

    def homeward(start, passed, end):
        return _heads_home(dist, strict, start, passed, end)

    fwd = lines.forward
    for target in targets:
        if target in wrecks or (target in occ and occ[target][0] in side):
            continue
        into = lines.into[target]
        for node, carrying in movers:
            for value, passed in into.get(node, ()):
                if clear(passed, node) and (not carrying or homeward(node, passed, target)):
                    single.add(value)
        for node, carrying in movers:
            out = fwd[node]
            for middle in into.keys() & out.keys():
                if middle in wrecks or (middle in occ and middle != node):
                    continue
                for first, passed1 in out[middle]:
                    if first in single or not clear(passed1, node) or (
                            carrying and not homeward(node, passed1, middle)):
                        continue
                    for second, passed2 in into[middle]:
                        if second not in single and clear(passed2, node) and (
                                not carrying or homeward(middle, passed2, target)):
                            double.add((first, second))
    return single, double


@lru_cache(maxsize=8192)
def _chance(single: frozenset, double: frozenset, dice: int) -> float:
    """The chance that a roll of `dice` dice shows a value in `single`, or two of them, in
    either order of play, make a pair in `double`."""
    if not single and not double:
        return 0.0
    others = [f for f in FACES if f not in single]
    misses = 0
    for faces in combinations_with_replacement(others, dice):
        counts = Counter(faces)
        if any((a, b) in double for a in counts for b in counts if a != b or counts[a] > 1):
            continue
        ways = factorial(dice)
        for c in counts.values():
            ways //= factorial(c)
        misses += ways
    return 1.0 - misses / 6 ** dice


def _cover(lines, ships, pos: Position, squares: frozenset) -> float:
    """The share of `squares` that one of `ships` could reach with a single die."""
    if not squares:
        return 0.0
    covered = set()
    for s in ships:
        covered |= lines.forward[pos.at[s]].keys() & squares
    return len(covered) / len(squares)


class _Lines:
    """Every single-die move on a board, ships ignored (P2–P4: straight, diagonal only in the
    trade winds, a move that enters them ends inside, a strait ends a move):
    into[dest][start] and forward[start][dest] list (die value, squares passed on the way)."""

    def __init__(self, board):
        step, wind, strait = board.step, board.is_wind, board.is_strait
        self.into: list[dict] = [{} for _ in range(board.size)]
        self.forward: list[dict] = [{} for _ in range(board.size)]
        for start in range(board.size):
            for di in range(len(DIRECTION_NAMES)):
                here, entered, passed = start, False, []
                for value in FACES:
                    nxt = step[here][di]
                    if nxt < 0:
                        break
                    if wind[nxt]:
                        entered = entered or not wind[here]
                    elif entered:
                        break
                    entry = (value, tuple(passed))
                    self.into[nxt].setdefault(start, []).append(entry)
                    self.forward[start].setdefault(nxt, []).append(entry)
                    if strait[nxt]:
                        break
                    passed.append(nxt)
                    here = nxt


@lru_cache(maxsize=None)
def _lines(board_name: str) -> _Lines:
    return _Lines(get_board(board_name))


@lru_cache(maxsize=None)
def _anchorages(board_name: str, island: int) -> tuple[int, ...]:
    board = get_board(board_name)
    return tuple(sorted(n for n, i in board.anchorage_island.items() if i == island))


@lru_cache(maxsize=None)
def _moves(board_name: str, ports: tuple | None, strict: bool) -> tuple:
    """moves[n][v]: the squares die v can take a ship on n to, ships ignored; with `ports`,
    a treasure ship's moves home to them (P13, P26)."""
    board = get_board(board_name)
    lines = _lines(board_name)
    dist = board.home_distance(ports) if ports is not None else None

    moves = []
    for n in range(board.size):
        per = [[] for _ in range(7)]
        for m, entries in lines.forward[n].items():
            for value, passed in entries:
                if dist is None or _heads_home(dist, strict, n, passed, m):
                    per[value].append(m)
        moves.append(tuple(tuple(p) for p in per))
    return tuple(moves)


@lru_cache(maxsize=None)
def _turns_to(board_name: str, targets: tuple, ports: tuple | None = None,
              strict: bool = False) -> tuple[float, ...]:
    """Expected turns for one ship to end a move on one of `targets` from every square, with
    two dice a turn it may use or leave to other ships (ships and wrecks ignored). With
    `ports`, the ship carries a treasure home to them: no step may take it further away (P13;
    strictly nearer under P26). Value iteration over the 36 rolls, nearest squares first."""
    board = get_board(board_name)
    moves = _moves(board_name, ports, strict)
    size = board.size
    goal = set(targets)
    turns = [0.0 if n in goal else 99.0 for n in range(size)]
    near = [min(col) for col in zip(*(board.distances_from(t) for t in targets))]
    order = sorted((n for n in range(size) if n not in goal), key=lambda n: (near[n], n))
    pairs = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    for _ in range(20):
        # after[m][b]: the best of stopping on m or sailing on from it with die b.
        after = []
        for m in range(size):
            here = turns[m]
            after.append([min(here, min((turns[x] for x in moves[m][v]), default=INF))
                          for v in range(7)])
        change = 0.0
        for n in order:
            best = [[INF] * 7]                    # best[a][b]: die a first, then maybe b
            for a in FACES:
                landing = [after[m] for m in moves[n][a]]
                best.append(list(map(min, *landing)) if len(landing) > 1
                            else landing[0] if landing else [INF] * 7)
            options = sorted(min(best[a][b], best[b][a]) for a, b in pairs)
            # E = 1 + sum over the 36 rolls of min(E, best option)/36: solve for E.
            value, total = turns[n], 0.0
            for k, option in enumerate(options, 1):
                if option == INF:
                    break
                total += option
                guess = (36.0 + total) / k
                if k == 36 or guess <= options[k]:
                    value = guess
                    break
            change = max(change, abs(value - turns[n]))
            turns[n] = value
        if change < 0.05:
            break
    return tuple(turns)


def _home_ports(ctx: Context) -> tuple:
    return tuple(sorted(p["id"] for p in ctx.board.ports if p["node"] in ctx.homes))


def _home_turns(ctx: Context) -> tuple[float, ...]:
    return _turns_to(ctx.board.name, tuple(sorted(ctx.homes)), _home_ports(ctx), ctx.strict)


@lru_cache(maxsize=4096)
def _landings(board_name: str, homes: tuple, ports: tuple, strict: bool, node: int) -> tuple:
    """Where a treasure ship on `node` ends its next turn if, for each roll, it sails to the
    square with the fewest expected turns home (ships ignored): ((square, chance), ...)."""
    moves = _moves(board_name, ports, strict)
    turns = _turns_to(board_name, homes, ports, strict)
    where: dict[int, float] = {}
    for a in FACES:
        for b in FACES:
            best, best_turns = node, turns[node]
            for first, second in ((a, b), (b, a)):
                for m in moves[node][first]:
                    for x in (m,) + moves[m][second]:
                        if turns[x] < best_turns:
                            best, best_turns = x, turns[x]
            where[best] = where.get(best, 0.0) + 1 / 36
    return tuple(sorted(where.items()))
