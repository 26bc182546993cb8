"""Pirater's standing orders: the captain's plan for turns played while away. Reads only the
seat's view and its legal actions (games/engines/standing.py)."""
from games.engines.pirater.board import get_board
from games.engines.pirater.book import WORDS
from games.engines.pirater.state import port_groups
from games.engines.standing import field_problems, first_fitting, first_legal

FIRST_FREE = "first"
KINDS = {
    "home_port": {"port": "choice"},
    "roll": {},
    "capture": {},
    "treasure_home": {},
    "toward_treasure": {},
    "any_move": {},
}


def values(field: str, view) -> list:
    """The values a field may take (choices without their words)."""
    if field == "port":
        return [FIRST_FREE] + [str(p["id"]) for p in (view["ports"] if view else [])]
    return []


def choices(field: str, view, lang: str = "en") -> list[tuple]:
    """(value, words in `lang`) a field may take: for the home port, the first free one or
    any of the board's ports."""
    if field == "port":
        ports = view["ports"] if view else []
        return [(FIRST_FREE, WORDS.say("order.first_free_port", lang))] + \
            [(str(p["id"]), port_words(p["name"], lang)) for p in ports]
    return []


def port_words(name: str, lang: str) -> str:
    """A port's name ("north-west", "upper north-west") in `lang`."""
    half, _, corner = name.rpartition(" ")
    try:
        words = WORDS.say(f"port.{corner}", lang)
    except KeyError:
        return name
    return WORDS.say(f"port.{half}", lang, corner=words) if half in ("upper", "lower") else words


def problems(lines, view) -> list[tuple]:
    return field_problems(KINDS, lines, values, view)


def _node(board, cell) -> int | None:
    return board.node_of.get(tuple(cell))


def _moves(legal) -> list:
    return [a for a in legal if a.get("type") == "move" and a.get("to") is not None]


def _ships(view) -> dict:
    return {s["id"]: s for s in view["ships"] if s.get("lost") is None}


def _closer(board, legal, view, targets, only) -> dict | None:
    """The move that brings one of `only` ships nearest to one of `targets`, if it gains."""
    if not targets:
        return None
    ships = _ships(view)

    def far(cell) -> int:
        node = _node(board, cell)
        return min(board.distances_from(node)[t] for t in targets) if node is not None else 10 ** 6
    best, gain = None, None
    for action in _moves(legal):
        ship = ships.get(action.get("ship"))
        if ship is None or not only(ship):
            continue
        score = (far(action["to"]), far(ship["at"]) - far(action["to"]))
        if score[1] > 0 and (best is None or score < gain):
            best, gain = action, score
    return best


def _home_port(line, view, legal):
    """The port named if it is still free (with the ports of its side, where a player chooses
    a side, P26-P27), else the first free one."""
    offered = [a for a in legal if a.get("type") == "choose_port"]
    if line["port"] != FIRST_FREE:
        wanted = int(line["port"])
        group = next((g for g in port_groups(get_board(view["board"]), view["options"]) if wanted in g), [])
        named = next((a for a in offered if a["port"] in group), None)
        if named is not None:
            return named
    return next(iter(offered), None)


def _action(line, view, legal):
    kind, seat = line["kind"], view["viewer"]
    if kind == "home_port":
        return _home_port(line, view, legal)
    if kind == "roll":
        return first_legal(legal, "roll")
    board = get_board(view["board"])
    if kind == "capture":
        enemies = {tuple(s["at"]) for s in _ships(view).values() if s["seat"] != seat}
        return next((a for a in _moves(legal) if tuple(a["to"]) in enemies), None)
    if kind == "treasure_home":
        ports = tuple(next((s["ports"] for s in view["seats"] if s["seat"] == seat), ()))
        homes = [board.ports[p]["node"] for p in ports]
        return _closer(board, legal, view, homes, lambda s: s["seat"] == seat and s["treasure"])
    if kind == "toward_treasure":
        islands = {t["island"] for t in view["treasures"] if t.get("ship") is None}
        targets = [n for n, island in board.anchorage_island.items() if island in islands]
        # A treasure another player carries is won by capturing its ship: chase that ship.
        ships = _ships(view)
        targets += [_node(board, ships[t["ship"]]["at"]) for t in view["treasures"]
                    if t.get("ship") in ships and ships[t["ship"]]["seat"] != seat]
        targets = [t for t in targets if t is not None]
        return _closer(board, legal, view, targets, lambda s: s["seat"] == seat and not s["treasure"])
    if kind == "any_move":
        return next(iter(_moves(legal)), None)
    return None


def choose(lines, view, legal):
    return first_fitting(lines, view, legal, _action)
