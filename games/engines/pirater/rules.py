"""Pirater's rules: sailing (P2–P4, P8–P10), the dice rule (P11), the treasure (P12–P14),
capture (P15–P17), the end (P18–P19) and the variants (P20–P28).

A turn is `roll` (after an optional `declare_powder`, P24), then one `move` per die until the
dice are used up or no more can be used (P11); the turn then passes by itself.

The search for legal moves runs on `Position`, a compact copy of where the ships are, so the
same code that applies a move also decides which moves P11 allows.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from games.engines import dice
from games.engines.base import IllegalAction, edition_of
from games.engines.pirater.book import WORDS
from games.engines.pirater.board import DIRECTION_NAMES, DIRECTIONS, STRAIGHT, Board
from games.engines.pirater.state import board_of, cell, place_ships, port_groups

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


# ---- the working copy ------------------------------------------------------------------------
def working_copy(state: dict) -> dict:
    """A copy whose changing parts are new objects, so apply never touches its input."""
    new = dict(state)
    new["options"] = dict(state["options"])
    new["seats"] = [dict(s, ports=list(s["ports"])) for s in state["seats"]]
    new["ships"] = [dict(s, at=None if s["at"] is None else list(s["at"])) for s in state["ships"]]
    new["treasures"] = [dict(t) for t in state["treasures"]]
    new["wrecks"] = [list(w) for w in state["wrecks"]]
    new["eliminated"] = [list(group) for group in state["eliminated"]]
    new["dice"] = list(state["dice"])
    new["used"] = list(state["used"])
    if "choosing" in state:
        new["choosing"] = list(state["choosing"])
    return new


def alive_ships(state: dict, seat: int) -> list[dict]:
    return [s for s in state["ships"] if s["seat"] == seat and s["at"] is not None]


def lose_ship(state: dict, ship_id: int, reason: str, events: list) -> None:
    """A ship leaves the game other than by capture; a treasure on it goes back to its island
    (P21, P24 reading)."""
    ship = state["ships"][ship_id]
    ship["at"] = None
    ship["lost"] = reason
    for t in state["treasures"]:
        if t["ship"] == ship_id:
            t["ship"] = None
            events.append({"type": "treasure_returned", "treasure": t["id"], "island": t["island"]})


def knock_out(state: dict, events: list) -> None:
    """P16: a player without ships is out. Players knocked out by one action share an entry
    of `eliminated`, so they share their rank."""
    gone = []
    for seat in state["seats"]:
        if not seat["out"] and not alive_ships(state, seat["seat"]):
            seat["out"] = True
            gone.append(seat["seat"])
            events.append({"type": "player_out", "seat": seat["seat"]})
    if gone:
        state["eliminated"].append(gone)


def settle_survivors(state: dict, events: list) -> None:
    """P16, then P19: the last player with ships wins (nobody, if the last ships sank together)."""
    knock_out(state, events)
    afloat = [s["seat"] for s in state["seats"] if not s["out"]]
    if len(afloat) == 1:
        finish(state, afloat[0], "last_ships", events)
    elif not afloat:
        finish(state, None, None, events)


def finish(state: dict, seat, how, events: list) -> None:
    state["phase"] = "over"
    state["winner"] = seat
    state["win"] = how
    state["dice"], state["used"] = [], []
    if seat is None:
        events.append({"type": "game_over", "winner": None})
    else:
        events.append({"type": "win", "seat": seat, "how": how})


def end_turn(state: dict, events: list) -> None:
    """Hand the dice on: to the same player for a One-Two extra roll (P25), else clockwise to
    the next player still in the game (P7, P16)."""
    seat = state["current"]
    state["dice"], state["used"] = [], []
    state["split"] = False
    state["powder"] = None
    if state["extra"] and not state["seats"][seat]["out"]:
        state["extra"] = False
        state["phase"] = "roll"
        events.append({"type": "extra_roll", "seat": seat})
        return
    state["extra"] = False
    players = state["players"]
    wrapped = False
    nxt = seat
    for k in range(1, players + 1):
        nxt = (seat + k) % players
        if nxt == state["first"]:
            wrapped = True
        if not state["seats"][nxt]["out"]:
            break
    if wrapped:
        state["round"] += 1
    state["current"] = nxt
    state["phase"] = "roll"
    state["turns"] += 1
    events.append({"type": "turn", "seat": nxt, "round": state["round"]})


def after_die(state: dict, events: list) -> None:
    """End the turn once no die can be used any more (P11: unusable dice are lost)."""
    if state["phase"] != "move":
        return
    if not can_play(state):
        left = list(remaining(state))
        if left:
            events.append({"type": "dice_lost", "seat": state["current"], "dice": left})
        end_turn(state, events)


def split_roll(faces: list[int], rule: str) -> bool:
    """P28: the roll agreed at the start on which fleets split and stack."""
    counts = Counter(faces)
    if rule == "doubles":
        return max(counts.values()) >= 2
    if rule == "double_six":
        return counts[6] >= 2
    if rule == "any_six":
        return 6 in counts
    if rule == "sum_seven":
        return any(faces[i] + faces[j] == 7 for i in range(len(faces)) for j in range(i + 1, len(faces)))
    raise ValueError(rule)


def blast_area(board: Board, node: int, radius: int) -> list[int]:
    """P24: the powder ship's square and `radius` squares each way in the four straight
    directions, counted as a ship would sail (land stops the blast)."""
    area = [node]
    for d in STRAIGHT:
        here = node
        for _ in range(radius):
            here = board.step[here][DIR_INDEX[d]]
            if here < 0:
                break
            if here not in area:
                area.append(here)
    return area


def explode(state: dict, radius: int, events: list) -> None:
    board = board_of(state)
    ship_id = state["powder"]
    ship = state["ships"][ship_id]
    area = blast_area(board, node_at(board, ship["at"]), radius)
    hit = set(area)
    destroyed = [s for s in state["ships"] if s["at"] is not None and node_at(board, s["at"]) in hit]
    events.append({
        "type": "explosion", "seat": ship["seat"], "ship": ship_id, "radius": radius,
        "area": [cell(board, n) for n in area],
        "destroyed": [{"ship": s["id"], "seat": s["seat"]} for s in destroyed],
    })
    sub: list = []
    for s in destroyed:
        lose_ship(state, s["id"], "powder", sub)
    events.extend(sub)


def brings_hurricane(faces) -> bool:
    """P21: three (or more) equal dice in a roll."""
    return max(Counter(faces).values()) >= 3


def hurricane_victim(state: dict, seat: int) -> dict | None:
    """P21: the ship a hurricane sinks, the seat's ship afloat nearest to his home port (the
    lowest id of those as near); None with none afloat. Reads only what the view shows too."""
    afloat = alive_ships(state, seat)
    if not afloat:
        return None
    board = board_of(state)
    dist = board.home_distance(tuple(state["seats"][seat]["ports"]))
    return min(afloat, key=lambda s: (dist[node_at(board, s["at"])], s["id"]))


def hurricane(state: dict, seat: int, events: list) -> None:
    """P21: three equal dice sink the player's ship nearest to his home port."""
    victim = hurricane_victim(state, seat)
    if victim is None:
        return
    events.append({"type": "hurricane", "seat": seat, "ship": victim["id"], "at": list(victim["at"]),
                   "dice": list(state["dice"])})
    lose_ship(state, victim["id"], "hurricane", events)


# ---- the actions -----------------------------------------------------------------------------
def do_declare_powder(state: dict, seat: int, action: dict, events: list) -> None:
    if not state["options"]["powder_ship"]:
        raise IllegalAction.said(WORDS, "error.no_powder_ships")
    if state["phase"] != "roll":
        raise IllegalAction.said(WORDS, "error.powder_before_roll")
    if state["seats"][seat]["powder_used"]:
        raise IllegalAction.said(WORDS, "error.powder_used")
    ship_id = _int_field(action, "ship")
    if not 0 <= ship_id < len(state["ships"]) or state["ships"][ship_id]["seat"] != seat:
        raise IllegalAction.said(WORDS, "error.not_your_ship")
    if state["ships"][ship_id]["at"] is None:
        raise IllegalAction.said(WORDS, "error.ship_lost")
    confirm = action.get("confirm", False)
    if not isinstance(confirm, bool):
        raise IllegalAction.said(WORDS, "error.confirm_not_bool")
    if edition_of(state) >= 2 and powder_risks_fleet(state, ship_id) and not confirm:
        raise IllegalAction.said(WORDS, "error.powder_confirm")                   # P24
    state["powder"] = ship_id
    state["seats"][seat]["powder_used"] = True
    events.append({"type": "powder_declared", "seat": seat, "ship": ship_id})


def powder_risks_fleet(state: dict, ship_id: int) -> bool:
    """P24, edition 2: could this powder ship's blast, at its largest (a lowest die of six),
    sink every ship its owner has left? Then declaring it needs "confirm": true."""
    board = board_of(state)
    ship = state["ships"][ship_id]
    area = set(blast_area(board, node_at(board, ship["at"]), 6))
    return all(node_at(board, s["at"]) in area for s in alive_ships(state, ship["seat"]))


def loadable_treasure(state: dict, ship_id: int) -> int | None:
    """P12, edition 2: the treasure a ship standing on an island anchorage may load there (its
    fleet carrying none), or None."""
    board = board_of(state)
    ship = state["ships"][ship_id]
    if ship["at"] is None:
        return None
    node = node_at(board, ship["at"])
    island = board.anchorage_island.get(node)
    if island is None:
        return None
    fleet = {s["id"] for s in state["ships"] if s["at"] is not None
             and node_at(board, s["at"]) == node and s["seat"] == ship["seat"]}
    if any(t["ship"] in fleet for t in state["treasures"]):
        return None
    return next((t["id"] for t in state["treasures"] if t["ship"] is None and t["island"] == island),
                None)


def do_load(state: dict, seat: int, action: dict, events: list) -> None:
    """P12, edition 2: a ship on an island anchorage loads the treasure there without using a
    die (a Curse Island ship that starts there, or one that chose not to load on arrival)."""
    if edition_of(state) < 2:
        raise IllegalAction.said(WORDS, "error.unknown_action", kind=repr("load"))
    if state["phase"] not in ("roll", "move"):
        raise IllegalAction.said(WORDS, "error.choose_port_first")
    ship_id = _int_field(action, "ship")
    if not 0 <= ship_id < len(state["ships"]) or state["ships"][ship_id]["seat"] != seat:
        raise IllegalAction.said(WORDS, "error.not_your_ship")
    if state["ships"][ship_id]["at"] is None:
        raise IllegalAction.said(WORDS, "error.ship_lost")
    treasure = loadable_treasure(state, ship_id)
    if treasure is None:
        raise IllegalAction.said(WORDS, "error.nothing_to_load")
    state["treasures"][treasure]["ship"] = ship_id
    events.append({"type": "treasure_loaded", "seat": seat, "ship": ship_id, "treasure": treasure})
    after_die(state, events)


def do_choose_port(state: dict, seat: int, action: dict, events: list) -> None:
    """P5/P7, edition 2: in roll order each player chooses a free home port (in Opposing or
    Headwind Realm the ports of one side); when all have chosen the ships are placed and the
    highest roller begins."""
    if state["phase"] != "ports":
        raise IllegalAction.said(WORDS, "error.ports_chosen")
    port = _int_field(action, "port")
    board = board_of(state)
    taken = {p for s in state["seats"] for p in s["ports"]}
    group = next((g for g in port_groups(board, state["options"]) if port in g), None)
    if group is None:
        raise IllegalAction.said(WORDS, "error.no_such_port", port=port)
    if taken & set(group):
        raise IllegalAction.said(WORDS, "error.port_taken", port=board.ports[port]["name"])
    state["seats"][seat]["ports"] = list(group)
    state["choosing"] = state["choosing"][1:]
    events.append({"type": "port_chosen", "seat": seat, "ports": list(group)})
    if state["choosing"]:
        state["current"] = state["choosing"][0]
        return
    place_ships(state)
    state["phase"] = "roll"
    state["current"] = state["first"]
    events.append({"type": "turn", "seat": state["first"], "round": state["round"]})


def free_port_groups(state: dict) -> list[list[int]]:
    taken = {p for s in state["seats"] for p in s["ports"]}
    return [g for g in port_groups(board_of(state), state["options"]) if not taken & set(g)]


def do_roll(state: dict, seat: int, events: list) -> None:
    if state["phase"] != "roll":
        raise IllegalAction.said(WORDS, "error.already_rolled")
    options = state["options"]
    faces = dice.roll(state, state["dice_per_roll"])
    state["dice"] = faces
    state["used"] = [False] * len(faces)
    events.append({"type": "roll", "seat": seat, "dice": list(faces)})
    if state["powder"] is not None:
        explode(state, min(faces), events)                       # P24: the lower die
        state["powder"] = None
    if options["hurricane"] and brings_hurricane(faces):
        hurricane(state, seat, events)                             # P21
    settle_survivors(state, events)
    if state["phase"] == "over":
        return
    if state["seats"][seat]["out"]:
        end_turn(state, events)
        return
    if options["one_two"] and 1 in faces and 2 in faces:
        state["extra"] = True                                      # P25
        events.append({"type": "one_two", "seat": seat})
    if options["flotilla"] and split_roll(faces, options["flotilla_split"]):
        state["split"] = True                                      # P28
        events.append({"type": "split_roll", "seat": seat})
    state["phase"] = "move"
    after_die(state, events)


def do_move(state: dict, seat: int, action: dict, events: list) -> None:
    if state["phase"] != "move":
        raise IllegalAction.said(WORDS, "error.roll_first")
    value = _int_field(action, "die")
    ship_id = _int_field(action, "ship")
    direction = action.get("direction")
    if not isinstance(direction, str) or direction not in DIRECTIONS:
        raise IllegalAction.said(WORDS, "error.direction", directions=", ".join(DIRECTION_NAMES))
    split = action.get("split", False)
    if not isinstance(split, bool):
        raise IllegalAction.said(WORDS, "error.split_not_bool")
    load = action.get("load", False)
    if not isinstance(load, bool):
        raise IllegalAction.said(WORDS, "error.load_not_bool")
    if value not in remaining(state):
        raise IllegalAction.said(WORDS, "error.no_such_die", value=value)
    ctx = Context(state, seat)
    pos = position(state)
    if not 0 <= ship_id < len(pos.at) or ctx.owner[ship_id] != seat:
        raise IllegalAction.said(WORDS, "error.not_your_ship")
    if pos.at[ship_id] < 0:
        raise IllegalAction.said(WORDS, "error.ship_lost")
    if ctx.flotilla:
        fleet = pos.occupants()[pos.at[ship_id]]
        if split and not ctx.split:
            raise IllegalAction.said(WORDS, "error.split_off_roll")
        if len(fleet) == 1:
            split = False
        if not split:
            ship_id = fleet[0]
    elif split:
        raise IllegalAction.said(WORDS, "error.split_not_flotilla")
    moved = try_move(ctx, pos, ship_id, value, direction, split, load)
    if type(moved) is str:
        raise IllegalAction.said(WORDS, moved)
    if load and moved.loaded is None:
        raise IllegalAction.said(WORDS, "error.nothing_to_load")
    if not keeps_best_play(ctx, pos, moved, value, remaining(state)):
        raise IllegalAction.said(WORDS, "error.dice_rule")
    board = ctx.board
    state["used"][next(i for i, (f, u) in enumerate(zip(state["dice"], state["used"]))
                       if f == value and not u)] = True
    ships = state["ships"]
    to = cell(board, moved.dest)
    for s in moved.group:
        ships[s]["at"] = list(to)
    for s in moved.captured:
        ships[s]["at"] = None
        ships[s]["lost"] = "captured"
    events.append({
        "type": "move", "seat": seat, "ship": ship_id, "ships": list(moved.group), "die": value,
        "direction": direction, "from": cell(board, moved.start), "to": to,
        "start": board.square_name(moved.start), "end": board.square_name(moved.dest),
        "captured": [{"ship": s, "seat": ctx.owner[s]} for s in moved.captured],
    })
    for t in moved.took:
        state["treasures"][t]["ship"] = ship_id
        events.append({"type": "treasure_taken", "seat": seat, "ship": ship_id, "treasure": t,
                       "from_seat": ctx.owner[moved.captured[0]]})
    if moved.captured and ctx.shipwreck and to not in state["wrecks"]:
        state["wrecks"].append(list(to))
        events.append({"type": "wreck", "at": list(to)})
    if moved.loaded is not None:
        state["treasures"][moved.loaded]["ship"] = ship_id
        events.append({"type": "treasure_loaded", "seat": seat, "ship": ship_id,
                       "treasure": moved.loaded})
    if moved.win == "treasure":
        knock_out(state, events)
        finish(state, seat, "treasure", events)
        return
    settle_survivors(state, events)
    after_die(state, events)


def _int_field(action: dict, name: str) -> int:
    value = action.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction.said(WORDS, f"error.{name}_not_whole")
    return value


def apply(state: dict, seat, action) -> tuple[dict, list[dict]]:
    if not isinstance(action, dict):
        raise IllegalAction.said(WORDS, "error.not_an_object")
    kind = action.get("type")
    if kind not in ("roll", "declare_powder", "move", "load", "choose_port"):
        raise IllegalAction.said(WORDS, "error.unknown_action", kind=repr(kind))
    if state["phase"] == "over":
        raise IllegalAction.said(WORDS, "error.game_over")
    if seat is None:
        raise IllegalAction.said(WORDS, "error.no_system_actions")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat != state["current"]:
        raise IllegalAction.said(WORDS, "error.not_your_turn")
    if kind in ("load", "choose_port") and edition_of(state) < 2:
        raise IllegalAction.said(WORDS, "error.unknown_action", kind=repr(kind))
    if state["phase"] == "ports" and kind != "choose_port":
        raise IllegalAction.said(WORDS, "error.choose_port_first")
    new = working_copy(state)
    events: list[dict] = []
    if kind == "choose_port":
        do_choose_port(new, seat, action, events)
    elif kind == "load":
        do_load(new, seat, action, events)
    elif kind == "roll":
        do_roll(new, seat, events)
    elif kind == "declare_powder":
        do_declare_powder(new, seat, action, events)
    else:
        do_move(new, seat, action, events)
    return new, events


def legal_actions(state: dict, seat) -> list[dict]:
    if state["phase"] == "over" or seat != state["current"] or isinstance(seat, bool):
        return []
    if state["phase"] == "ports":
        return [{"type": "choose_port", "port": g[0]} for g in free_port_groups(state)]
    loads = []
    if edition_of(state) >= 2:
        loads = [{"type": "load", "ship": s["id"]} for s in alive_ships(state, seat)
                 if loadable_treasure(state, s["id"]) is not None]
    if state["phase"] == "roll":
        actions = [{"type": "roll"}]
        if (state["options"]["powder_ship"] and state["powder"] is None
                and not state["seats"][seat]["powder_used"]):
            for s in alive_ships(state, seat):
                declare = {"type": "declare_powder", "ship": s["id"]}
                if edition_of(state) >= 2 and powder_risks_fleet(state, s["id"]):
                    declare["confirm"] = True                    # P24: the player must say so
                actions.append(declare)
        return actions + loads
    board = board_of(state)
    out = []
    for value, ship, direction, split, dest, load in legal_moves(state):
        action = {"type": "move", "die": value, "ship": ship, "direction": direction,
                  "to": cell(board, dest)}
        if split:
            action["split"] = True
        if load:
            action["load"] = True
        out.append(action)
    return out + loads
