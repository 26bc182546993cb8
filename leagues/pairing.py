"""Swiss pairing for multiplayer tables, pure: no Django, no clock, no randomness.

A round seats players at tables of the game's size. Tables are filled from the top of the
standings down (score, then the written tiebreaks), so a table holds players of near scores; a
player already met is passed over for the next one down where possible; a repair pass then
swaps players between tables to undo the repeats greed could not avoid. When the numbers do not
divide, the event's fill decides: smaller tables (if the game allows), a bot seat, or byes —
byes go to those who have had the fewest, then the lowest in the standings. Within a table the
seats go to whoever has sat in them least (the first seat moves first in every game here).

Written by hand: pairing libraries (e.g. bbpPairings, swissdutch) pair two players a board; no
maintained one seats three to six at a table."""
from dataclasses import dataclass, field

BYES, BOTS, SMALLER = "byes", "bots", "smaller"


@dataclass
class Player:
    key: int
    score: float = 0.0
    rating: float = 0.0
    met: dict = field(default_factory=dict)      # key -> times met
    seats: dict = field(default_factory=dict)    # seat number -> times sat there
    byes: int = 0


@dataclass
class Pairing:
    tables: list          # each a list of player keys in seat order, None for a bot seat
    byes: list            # keys sitting out the round


def order(players) -> list:
    """Best first: score, then rating, then key (a fixed order for equals)."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.key))


def table_sizes(n: int, size: int, smallest: int, fill: str) -> tuple[list, int, int]:
    """(sizes of the human part of each table, bot seats, byes) for n players."""
    if n <= 0:
        return [], 0, 0
    tables, rest = divmod(n, size)
    if rest == 0:
        return [size] * tables, 0, 0
    if fill == SMALLER and smallest <= size - 1:
        count = tables + 1
        short = count * size - n          # tables one seat short
        if short <= count and size - 1 >= smallest:
            return [size] * (count - short) + [size - 1] * short, 0, 0
    if fill == BOTS:
        count = tables + 1
        bots = count * size - n
        sizes = [size] * count
        for i in range(bots):             # one bot a table, from the bottom up
            sizes[count - 1 - (i % count)] -= 1
        return sizes, bots, 0
    return [size] * tables, 0, rest


def pair(players, *, size: int, smallest: int | None = None, fill: str = BYES) -> Pairing:
    ranked = order(players)
    sizes, _bots, bye_count = table_sizes(len(ranked), size, smallest or size, fill)
    byes = []
    if bye_count:
        # Fair byes: the fewest byes first, then the lowest placed.
        by_need = sorted(ranked, key=lambda p: (p.byes, -ranked.index(p)))
        byes = [p.key for p in by_need[:bye_count]]
        ranked = [p for p in ranked if p.key not in set(byes)]
    groups = _greedy(ranked, sizes)
    _repair(groups)
    tables = []
    for group, human in zip(groups, sizes):
        seated = _seat(group)
        tables.append(seated + [None] * (size - human) if fill == BOTS else seated)
    return Pairing(tables=[[p if p is None else p.key for p in t] for t in tables], byes=byes)


def _repeats(p, group) -> int:
    return sum(p.met.get(q.key, 0) for q in group)


WINDOW = 12   # how far down the standings a table looks for a player not met yet, per seat


def _greedy(ranked, sizes) -> list:
    """Tables from the top down: the best unseated player heads a table, and each further seat
    goes to the nearest one below who has met the fewest of those seated (looking WINDOW places
    per seat further down before accepting a repeat)."""
    left = list(ranked)
    groups = []
    for human in sizes:
        group = [left.pop(0)]
        while len(group) < human:
            reach = min(len(left), WINDOW * human)
            best, best_cost = 0, None
            for i in range(reach):
                cost = (_repeats(left[i], group), i)
                if best_cost is None or cost < best_cost:
                    best, best_cost = i, cost
                    if cost[0] == 0:
                        break
            if best_cost[0] and reach < len(left):  # nobody fresh nearby: look through everyone left
                for i in range(reach, len(left)):
                    if _repeats(left[i], group) == 0:
                        best = i
                        break
            group.append(left.pop(best))
        groups.append(group)
    return groups


def _conflicts(group) -> int:
    return sum(a.met.get(b.key, 0) for i, a in enumerate(group) for b in group[i + 1:])


REACH = 40  # tables either side a repair looks at: score groups stay close, and 1,000 players stay fast


def _repair(groups) -> None:
    """Swap a player of a table with repeats for one of another table when that lowers the two
    tables' repeats, the nearest tables in the standings first (score groups stay close)."""
    for _ in range(3):
        changed = False
        for gi, group in enumerate(groups):
            if not _conflicts(group):
                continue
            for pi, p in enumerate(list(group)):
                if not _repeats(p, [q for q in group if q is not p]):
                    continue
                for gj in sorted(range(len(groups)), key=lambda j: abs(j - gi))[:REACH]:
                    if gj == gi:
                        continue
                    other = groups[gj]
                    before = _conflicts(group) + _conflicts(other)
                    done = False
                    for qi, q in enumerate(other):
                        group[pi], other[qi] = q, p
                        if _conflicts(group) + _conflicts(other) < before:
                            done = changed = True
                            break
                        group[pi], other[qi] = p, q
                    if done:
                        break
        if not changed:
            return


def _seat(group) -> list:
    """Seat by seat from the first: whoever has sat there least, then the better placed."""
    left = list(group)
    seated = []
    for number in range(len(group)):
        p = min(left, key=lambda p: (p.seats.get(number, 0), left.index(p)))
        left.remove(p)
        seated.append(p)
    return seated


def league_round(players, *, size: int, number: int, rounds_left: int = 2, tries: int = 400, beam: int = 12) -> Pairing:
    """A round of a league division: scores do not matter, everyone should meet everyone about
    equally often over the season (a balanced schedule at multiplayer tables). Candidate tables
    come from many orders of the players (a fixed seed a round, so a round pairs the same if
    asked twice); the chosen one begins the most even season found (the least sum of squared
    meeting counts after the last round, by a beam search through the rounds left), since
    choosing round by round alone strands a pair that never meets. A division is small (a
    dozen players), so this is cheap.
    Numbers that do not divide sit out in turn, as Swiss byes do."""
    import random

    rnd = random.Random(number)
    ranked = sorted(players, key=lambda p: p.key)
    everyone = [p.key for p in ranked]
    sizes, _bots, bye_count = table_sizes(len(ranked), size, size, BYES)
    # Who sits out is part of the schedule: those with fewer byes than the rest must, and which
    # of those with the fewest so far is the even season's choice (chosen apart from the tables,
    # a bye could strand a pair: five players at tables of two met twice and never).
    if bye_count:
        threshold = sorted(p.byes for p in ranked)[bye_count - 1]
        must = [p.key for p in ranked if p.byes < threshold]
        may = [p.key for p in ranked if p.byes == threshold]
    else:
        must, may = [], []

    def candidates(sit_from, need, fixed) -> list:
        found, pool = {}, list(sit_from)
        for _ in range(tries):
            rnd.shuffle(pool)
            out = set(fixed) | set(pool[:need])
            keys = [k for k in everyone if k not in out]
            rnd.shuffle(keys)
            groups, at = [], 0
            for human in sizes:
                groups.append(tuple(sorted(keys[at:at + human])))
                at += human
            found.setdefault((tuple(sorted(out)), tuple(sorted(groups))), None)
        return list(found)

    splits = candidates(may, bye_count - len(must), must)
    # Later rounds' byes are anyone's here: the lookahead only weighs who can still meet whom.
    later = candidates(everyone, bye_count, []) if bye_count and rounds_left > 1 else splits
    met = {(a.key, b): n for a in ranked for b, n in a.met.items()}

    def after(counts, split):
        counts = dict(counts)
        for g in split[1]:
            for i, a in enumerate(g):
                for b in g[i + 1:]:
                    counts[(a, b)] = counts.get((a, b), 0) + 1
        return counts

    pairs = [(a, b) for i, a in enumerate(everyone) for b in everyone[i + 1:]]
    base = {(a, b): met.get((a, b), 0) for a, b in pairs}

    def cost(counts):
        # Even meetings (the sum of squares), and above all nobody left never meeting someone.
        return sum(n * n + (len(pairs) if n == 0 else 0) for n in counts.values())

    # A beam through the season's remaining rounds: the `beam` most even schedules so far are
    # each extended by every candidate split, and this round's split of the most even season wins.
    paths = [(cost(base), base, None)]
    for depth in range(max(1, rounds_left)):
        grown = []
        for _, counts, first in paths:
            for split in (splits if depth == 0 else later):
                c = after(counts, split)
                grown.append((cost(c), c, first if first is not None else split))
        grown.sort(key=lambda t: t[0])
        paths = grown[:beam]
    byes, best = paths[0][2] if splits else ((), ())
    by_key = {p.key: p for p in ranked}
    return Pairing(tables=[[p.key for p in _seat([by_key[k] for k in g])] for g in best], byes=list(byes))
