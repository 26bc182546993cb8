"""Trade war (F32–F40): privateers, attacks and prizes."""
from __future__ import annotations

from fractions import Fraction

from games.engines import dice
from games.engines.base import IllegalAction, edition_of
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.book import WORDS, Name
from games.engines.fuldrigger.sailing import check_path, reachable, returns, sail
from games.engines.fuldrigger.state import (
    MAX_FORTRESSES, MAX_SHIPS, effect_on, fortresses_of, remove_ship, ships_at, ships_of,
)
from games.engines.fuldrigger.trade import in_port, own_ship, ship_id

# F37: attackers -> (attacker loses a privateer when the roll is below, target captured above)
LOSE_BELOW = {1: 6, 2: 5, 3: 4, 4: 3}      # 4+: only a roll of 2 loses
CAPTURE_ABOVE = {1: 9, 2: 8, 3: 7, 4: 6}


def outcome(attackers: int, roll: int) -> str:
    """F37: "lost" (the attacker loses a privateer), "captured" or "draw"."""
    column = min(attackers, 4)
    if roll < LOSE_BELOW[column]:
        return "lost"
    if roll > CAPTURE_ABOVE[column]:
        return "captured"
    return "draw"


def attack_odds(attackers: int) -> dict[str, Fraction]:
    """F37 before the roll: the chances of "captured", "draw" and "lost" for this many
    attackers (at least one), over the 36 ways two dice fall."""
    ways = {"captured": 0, "draw": 0, "lost": 0}
    for first in range(1, 7):
        for second in range(1, 7):
            ways[outcome(max(1, attackers), first + second)] += 1
    return {result: Fraction(count, 36) for result, count in ways.items()}


def privateer_base(state: dict, seat: int, port: str) -> bool:
    """F32/F34: the home city or a city with the player's fortress (any port under a letter
    of marque card)."""
    return (port == state["homes"][seat] or state["fortresses"].get(port) == seat
            or bool(effect_on(state, "marque")))


def do_fit_privateer(state: dict, seat: int, action: dict, events: list) -> None:
    ship = own_ship(state, seat, action)
    port = in_port(ship)
    if ship["privateer"]:
        raise IllegalAction.said(WORDS, "error.privateer_already", name=ship["name"])
    if not privateer_base(state, seat, port):
        raise IllegalAction.said(WORDS, "error.fit_where")
    if ship["cargo"] is not None:
        raise IllegalAction.said(WORDS, "error.privateer_sell_first")
    ship["privateer"] = True
    events.append({"type": "fit_privateer", "seat": seat, "ship": ship["id"],
                   "name": ship["name"], "port": port})


def do_lay_off_privateer(state: dict, seat: int, action: dict, events: list) -> None:
    ship = own_ship(state, seat, action)
    port = in_port(ship)
    if not ship["privateer"]:
        raise IllegalAction.said(WORDS, "error.not_privateer", name=ship["name"])
    if not privateer_base(state, seat, port):
        raise IllegalAction.said(WORDS, "error.lay_off_where")
    ship["privateer"] = False
    events.append({"type": "lay_off_privateer", "seat": seat, "ship": ship["id"],
                   "name": ship["name"], "port": port})


def defence(state: dict, node: str, defender: int) -> tuple[list[dict], bool]:
    """The defender's ships a fight at `node` involves and whether his fortress is there.
    F39, edition 2: only a port with no fortress at all shelters ships; where any fortress
    stands (his, the attacker's, a third player's) his ships there can be attacked.
    Edition 1 read it as "only together with his own fortress"."""
    ships = ships_at(state, node, defender)
    if WORLD.is_port(node):
        owner = state["fortresses"].get(node)
        if edition_of(state) >= 2:
            return (ships, owner == defender) if owner is not None else ([], False)
        if owner != defender:
            return [], False
        return ships, True
    return ships, False


def can_join(state: dict, seat: int, ship: dict, target: str) -> tuple[str, ...] | None:
    """() if the privateer already lies at the target, a path if it can sail there with this
    turn's roll, None if it cannot take part."""
    turn = state["turn"]
    if (not ship["privateer"] or ship["owner"] != seat or ship["id"] in turn["still"]
            or ship["id"] in turn["attacked"]):
        return None
    if ship["node"] == target:
        return ()
    if ship["id"] in turn["moved"] or turn["total"] is None:
        return None
    return reachable(ship["node"], turn["total"], returns(state)).get(target)


def do_attack(state: dict, seat: int, action: dict, events: list) -> None:
    turn = state["turn"]
    if turn["total"] is None:
        raise IllegalAction.said(WORDS, "error.attack_roll_first")
    target = action.get("target")
    if not isinstance(target, str) or target not in WORLD.nodes:
        raise IllegalAction.said(WORDS, "error.target")
    defender = _defender(state, seat, target, action.get("defender"))
    ships, fortress = defence(state, target, defender)
    if WORLD.is_port(target) and not (fortress or (edition_of(state) >= 2
                                                   and target in state["fortresses"])):
        raise IllegalAction.said(WORDS, "error.port_shelters" if edition_of(state) == 1
                                 else "error.port_shelters_unfortified")
    needed = len(ships) + (1 if fortress else 0)
    if needed == 0:
        raise IllegalAction.said(WORDS, "error.nothing_to_attack")
    numbers = action.get("ships")
    if not isinstance(numbers, list) or not numbers:
        raise IllegalAction.said(WORDS, "error.attackers_list")
    attackers = []
    for index in range(len(numbers)):
        ship = own_ship(state, seat, {"ship": numbers[index]})
        if ship in attackers:
            raise IllegalAction.said(WORDS, "error.listed_twice", name=ship["name"])
        attackers.append(ship)
    if len(attackers) < needed:
        raise IllegalAction.said(WORDS, "error.too_few_attackers", needed=needed)
    paths = action.get("paths") or {}
    if not isinstance(paths, dict):
        raise IllegalAction.said(WORDS, "error.paths_map")
    routes = {}
    for ship in attackers:
        if not ship["privateer"]:
            raise IllegalAction.said(WORDS, "error.only_privateers_attack", name=ship["name"])
        route = can_join(state, seat, ship, target)
        if route is None:
            raise IllegalAction.said(WORDS, "error.cannot_reach", name=ship["name"],
                                     target=Name("place", target))
        given = paths.get(str(ship["id"]))
        if given is not None and route != ():
            route = tuple(check_path(ship["node"], given, turn["total"], returns(state)))
            if route[-1] != target:
                raise IllegalAction.said(WORDS, "error.path_misses_target",
                                         name=ship["name"])
        routes[ship["id"]] = route
    prize = _prize(action.get("prize"), ships, fortress)

    # The privateers sail to the fight; hazards on the way act as on any move.
    present = []
    for ship in attackers:
        route = routes[ship["id"]]
        turn["moved"].append(ship["id"])
        turn["attacked"].append(ship["id"])
        if route and sail(state, ship, list(route), events) is not None:
            continue
        present.append(ship)
    base = {"type": "attack", "seat": seat, "defender": defender, "target": target,
            "ships": [s["id"] for s in present], "needed": needed}
    if len(present) < needed:
        events.append({**base, "result": "called_off"})
        return
    faces = dice.roll(state, 2)
    result = outcome(len(present), sum(faces))
    event = {**base, "dice": faces, "result": result}
    if result == "lost":
        lost = present[0]
        remove_ship(state, lost)
        event.update(lost=lost["id"], lost_name=lost["name"])
    elif result == "captured":
        event.update(_capture(state, seat, defender, target, ships, fortress, prize))
    events.append(event)


def _defender(state: dict, seat: int, target: str, raw) -> int:
    if raw is None:
        found = sorted({s["owner"] for s in ships_at(state, target) if s["owner"] != seat}
                       | ({state["fortresses"][target]} if target in state["fortresses"]
                          and state["fortresses"][target] != seat else set()))
        if len(found) != 1:
            raise IllegalAction.said(WORDS, "error.whom")
        return found[0]
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < state["players"]:
        raise IllegalAction.said(WORDS, "error.defender")
    if raw == seat:
        raise IllegalAction.said(WORDS, "error.attack_yourself")
    return raw          # a player who is out keeps his fortresses, and they can be taken


def _prize(raw, ships: list[dict], fortress: bool):
    """F38: with a fortress and ships, the attacker picks the prize ("fortress" or a ship
    number); by default the fortress, else the defender's ship with the dearest cargo."""
    if raw is None:
        if fortress:
            return "fortress"
        return max(ships, key=lambda s: ((s["cargo"] or {}).get("paid", -1), -s["id"]))["id"]
    if raw == "fortress":
        if not fortress:
            raise IllegalAction.said(WORDS, "error.no_fortress_prize")
        return "fortress"
    number = ship_id({"prize": raw}, "prize")
    if number not in {s["id"] for s in ships}:
        raise IllegalAction.said(WORDS, "error.not_defender", number=number)
    return number


def _capture(state, seat, defender, target, ships, fortress, prize) -> dict:
    """F40: the prize changes colour; a merchant keeps its cargo. A captor at six ships sinks
    the prize; at six fortresses he razes it."""
    if prize == "fortress":
        if len(fortresses_of(state, seat)) >= MAX_FORTRESSES:
            del state["fortresses"][target]
            return {"prize": "fortress", "razed": True}
        state["fortresses"][target] = seat
        return {"prize": "fortress", "razed": False}
    ship = state["ships"][str(prize)]
    detail = {"prize": ship["id"], "prize_name": ship["name"],
              "cargo": ship["cargo"]["good"] if ship["cargo"] else None}
    if len(ships_of(state, seat)) >= MAX_SHIPS:
        remove_ship(state, ship)
        detail["sunk"] = True
        return detail
    ship["owner"] = seat
    ship["calm"] = False
    state["turn"]["moved"].append(ship["id"])      # a prize crew does not sail this turn
    detail["sunk"] = False
    return detail


def attack_options(state: dict, seat: int) -> list[dict]:
    """Representative attacks for legal_actions: for each opponent's attackable square, all
    privateers that can join (and, where F38 gives a choice, one action per prize)."""
    if state["turn"]["total"] is None:
        return []
    mine = [s for s in ships_of(state, seat) if s["privateer"]]
    if not mine:
        return []
    targets = set()
    for ship in state["ships"].values():
        if ship["owner"] != seat:
            targets.add((ship["node"], ship["owner"]))
    for port, owner in state["fortresses"].items():
        if owner != seat:
            targets.add((port, owner))
    actions = []
    for node, defender in sorted(targets):
        ships, fortress = defence(state, node, defender)
        needed = len(ships) + (1 if fortress else 0)
        if needed == 0:
            continue
        joining = [s for s in mine if can_join(state, seat, s, node) is not None]
        if len(joining) < needed:
            continue
        action = {"type": "attack", "target": node, "defender": defender,
                  "ships": [s["id"] for s in joining]}
        actions.append(action)
        if fortress and ships:
            actions.append({**action, "prize": ships[0]["id"]})
    return actions
