"""Fuldrigger's standing orders: what a merchant may leave to be done while away. Reads only
the seat's view and its legal actions (games/engines/standing.py). Prices are what the seat
pays or is left with, duty included, as the engine's own trade functions count them."""
from games.engines.base import edition_of
from games.engines.fuldrigger import trade
from games.engines.fuldrigger.book import WORDS
from games.engines.fuldrigger.board import WORLD
from games.engines.standing import field_problems, first_fitting, first_legal, whole_number

KINDS = {
    "roll": {},
    "sail": {"ship": "choice", "port": "choice"},
    "sell": {"good": "choice", "at_least": "int"},
    "buy": {"good": "choice", "at_most": "int"},
    "end_turn": {},
    "decline_offers": {},
    "accept_offers": {"at_least": "int"},
}
# Squares whose hazard rolls dice (F15-F19); a reef the seat has charted is safe (F18).
DANGERS = ("storm", "ice", "calm", "pirates")
GOODS = sorted({good for port in WORLD.prices.values() for good in port})
PORTS = sorted(node for node in WORLD.nodes if WORLD.is_port(node))


def values(field: str, view) -> list:
    """The values a field may take, given what the seat sees (choices without their words)."""
    if field == "ship":
        return [ship["id"] for ship in _own_ships(view)] if view else []
    return {"port": PORTS, "good": GOODS}.get(field, [])


def choices(field: str, view, lang: str = "en") -> list[tuple]:
    """(value, words in `lang`) a field may take, given what the seat sees."""
    if field == "ship":
        return [(ship["id"], ship["name"]) for ship in _own_ships(view)] if view else []
    if field == "port":
        return [(port, _said(f"port.{port}", lang, WORLD.name(port))) for port in PORTS]
    if field == "good":
        return [(good, _said(f"good.{good}", lang, good)) for good in GOODS]
    return []


def _said(key: str, lang: str, otherwise: str) -> str:
    """A name in the phrase book's language; a port the book does not name keeps the map's name."""
    try:
        return WORDS.say(key, lang)
    except KeyError:
        return otherwise


def _own_ships(view) -> list:
    return [s for s in view["ships"].values() if s["owner"] == view["viewer"]]


def problems(lines, view) -> list[tuple]:
    return field_problems(KINDS, lines, values, view)


def _safe(view, path) -> bool:
    known = set(view["known_reefs"][view["viewer"]])
    for node in path:
        hazard = WORLD.hazard(node, edition_of(view))
        if hazard in DANGERS or (hazard == "reef" and WORLD.reef_letter(node) not in known):
            return False
    return True


def _action(line, view, legal):
    kind, seat = line["kind"], view["viewer"]
    if kind in ("roll", "end_turn"):
        return first_legal(legal, kind)
    if kind == "decline_offers":
        return first_legal(legal, "decline_offer")
    if kind == "accept_offers":
        floor = whole_number(line["at_least"])
        offers = {o["id"]: o for o in view["offers"]}

        def pays(action):
            offer = offers.get(action["offer"], {})
            asked = offer.get("take") or {}
            # Paid at least that, for nothing of the seat's in return.
            return ((offer.get("give") or {}).get("ducats", 0) >= floor
                    and not any(asked.get(k) for k in ("ducats", "ships", "fortresses")))
        return first_legal(legal, "accept_offer", pays)
    if kind == "sail":
        ship, port = view["ships"].get(str(line["ship"])), line["port"]
        if ship is None or ship["node"] == port:
            return None
        here = WORLD.distance(ship["node"], port)
        moves = [a for a in legal if a["type"] == "move" and a["ship"] == ship["id"] and a["path"]
                 and _safe(view, a["path"]) and WORLD.distance(a["path"][-1], port) < here]
        # The shortest way there: nearest the port, then the fewest squares sailed.
        return min(moves, key=lambda a: (WORLD.distance(a["path"][-1], port), len(a["path"])), default=None)
    if kind == "sell":
        floor = whole_number(line["at_least"])

        def worth_it(action):
            ship = view["ships"].get(str(action["ship"]))
            if ship is None or not ship["cargo"] or ship["cargo"]["good"] != line["good"]:
                return False
            # What the seat is left with: the price less any duty at another's fortress (F24).
            takings = trade.sale_takings(view, seat, ship["node"], line["good"])
            return takings is not None and takings >= floor
        return first_legal(legal, "sell_cargo", worth_it)
    if kind == "buy":
        ceiling = whole_number(line["at_most"])

        def cheap(action):
            ship = view["ships"].get(str(action["ship"]))
            # What the seat pays: the price and any duty at another's fortress (F24).
            cost = trade.buy_cost(view, seat, ship["node"], action["good"]) if ship else None
            return action["good"] == line["good"] and cost is not None and cost <= ceiling
        return first_legal(legal, "buy_cargo", cheap)
    return None


def choose(lines, view, legal):
    return first_fitting(lines, view, legal, _action)
