"""Pirater's rules: the turn, the actions and what they do — sailing (P2–P4, P8–P10, searched
in sailing.py), the dice rule (P11), the treasure (P12–P14), capture (P15–P17), the end
(P18–P19) and the variants (P20–P28).

A turn is `roll` (after an optional `declare_powder`, P24), then one `move` per die until the
dice are used up or no more can be used (P11); the turn then passes by itself.
"""
from __future__ import annotations

from collections import Counter

from games.engines import dice
from games.engines.base import IllegalAction, edition_of, quoted
from games.engines.pirater.board import DIRECTION_NAMES, DIRECTIONS, STRAIGHT, Board
from games.engines.pirater.book import WORDS
from games.engines.pirater.sailing import (
    DIR_INDEX, Context, can_play, keeps_best_play, legal_moves, node_at, position, remaining,
    try_move,
)
from games.engines.pirater.state import board_of, cell, place_ships, port_groups


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
def _own_ship_afloat(state: dict, seat: int, action: dict) -> int:
    """The action's "ship": one of this seat's, still afloat."""
    ship_id = _int_field(action, "ship")
    if not 0 <= ship_id < len(state["ships"]) or state["ships"][ship_id]["seat"] != seat:
        raise IllegalAction.said(WORDS, "error.not_your_ship")
    if state["ships"][ship_id]["at"] is None:
        raise IllegalAction.said(WORDS, "error.ship_lost")
    return ship_id


def do_declare_powder(state: dict, seat: int, action: dict, events: list) -> None:
    if not state["options"]["powder_ship"]:
        raise IllegalAction.said(WORDS, "error.no_powder_ships")
    if state["phase"] != "roll":
        raise IllegalAction.said(WORDS, "error.powder_before_roll")
    if state["seats"][seat]["powder_used"]:
        raise IllegalAction.said(WORDS, "error.powder_used")
    ship_id = _own_ship_afloat(state, seat, action)
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
    ship_id = _own_ship_afloat(state, seat, action)
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


def to_act(state: dict) -> list[int]:
    return [] if state["phase"] == "over" else [state["current"]]


def apply(state: dict, seat, action) -> tuple[dict, list[dict]]:
    if not isinstance(action, dict):
        raise IllegalAction.said(WORDS, "error.not_an_object")
    kind = action.get("type")
    if kind not in ("roll", "declare_powder", "move", "load", "choose_port"):
        raise IllegalAction.said(WORDS, "error.unknown_action", kind=quoted(kind))
    if state["phase"] == "over":
        raise IllegalAction.said(WORDS, "error.game_over")
    if seat is None:
        raise IllegalAction.said(WORDS, "error.no_system_actions")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat != state["current"]:
        raise IllegalAction.said(WORDS, "error.not_your_turn")
    if kind in ("load", "choose_port") and edition_of(state) < 2:
        raise IllegalAction.said(WORDS, "error.unknown_action", kind=quoted(kind))
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


def timeout_action(state: dict, seat: int) -> dict:
    """Roll, or the first legal move (while ports are chosen: the first free port)."""
    actions = legal_actions(state, seat)
    if not actions:
        raise IllegalAction.said(WORDS, "error.nothing_to_do")
    return actions[0]
