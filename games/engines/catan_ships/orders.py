"""Catan with ships' standing orders: a settler's plan for turns played while away. Reads
only the seat's view and its legal actions (games/engines/standing.py). Each order plays what
its words say and nothing else (issue 33): tests/orders/test_words.py checks every one of them
on random positions."""
from games.engines.catan_ships.board import drawn_geometry
from games.engines.catan_ships.book import WORDS
from games.engines.standing import field_problems, first_fitting, first_legal, whole_number

RESOURCES = ("brick", "lumber", "wool", "grain", "ore")
KINDS = {
    "roll": {},
    "discard": {"order": "order"},
    "robber_leader": {},
    "pirate_leader": {},
    "decline_trades": {},
    "accept_trades": {"give": "choice", "get": "choice"},
    "build_road": {"edge": "edge"},  # picked on the board (games/catan_ships/pages.order_places)
    "unload": {},
    "end_sailing": {},
    "end_turn": {},
}


def values(field: str, view) -> list:
    """The values a field may take (choices without their words)."""
    return list(RESOURCES) if field in ("order", "give", "get") else []


def choices(field: str, view, lang: str = "en") -> list[tuple]:
    """(value, words in `lang`) a field may take."""
    if field in ("order", "give", "get"):
        return [(r, WORDS.say(f"resource.{r}", lang)) for r in RESOURCES]
    return []


def problems(lines, view) -> list[tuple]:
    found = field_problems(KINDS, lines, values, view)
    # A road goes on land or on the coast, never out at sea.
    roads = {e["id"] for e in view["board"]["edges"] if e.get("kind") != "sea"} if view else set()
    for i, line in enumerate(lines if isinstance(lines, list) else []):
        if isinstance(line, dict) and line.get("kind") == "build_road" and not any(p[0] == i for p in found):
            if whole_number(line["edge"]) not in roads:
                found.append((i, "no_such", {"field": "edge", "value": str(line["edge"])[:40]}))
    return sorted(found, key=lambda p: p[0])


def _me(view) -> dict:
    return next(p for p in view["players"] if p["seat"] == view["viewer"])


def leader(view) -> int | None:
    """The other player with most points (on a tie, the first in seat order)."""
    others = [p for p in view["players"] if p["seat"] != view["viewer"]]
    return max(others, key=lambda p: (p["points"], -p["seat"]))["seat"] if others else None


def leader_hexes(view, seat) -> set[int]:
    """The hexes at which `seat` has a settlement or a city."""
    geo = drawn_geometry(view["board"])
    corners = {b["vertex"] for b in view["buildings"] if b["seat"] == seat}
    return {h for h, vs in enumerate(geo.hex_vertices) if corners & set(vs)}


def _discard(line, view, legal):
    if not any(a["type"] == "discard" for a in legal):
        return None
    owed = view["discarding"].get(str(view["viewer"]), 0)
    hand, cards = dict(_me(view)["hand"]), {}
    # The resources named first go first; the rest, biggest pile first, if the list runs out.
    rest = sorted((r for r in RESOURCES if r not in line["order"]), key=lambda r: -hand[r])
    for resource in list(line["order"]) + rest:
        take = min(hand.get(resource, 0), owed - sum(cards.values()))
        if take > 0:
            cards[resource] = take
    return {"type": "discard", "cards": cards} if sum(cards.values()) == owed else None


def _robber(view, legal):
    """The robber (never the pirate: that is an order of its own) on the leader's best hex: a
    hex at one of their buildings whose number comes up most often (6 and 8 first), stealing
    from them when they hold a card."""
    target = leader(view)
    moves = [a for a in legal if a["type"] == "move_robber"]
    if target is None or not moves:
        return None
    theirs = leader_hexes(view, target)
    numbers = {h["id"]: h.get("number") or 7 for h in view["board"]["hexes"]}
    aimed = [a for a in moves if a["hex"] in theirs]
    if any(a.get("steal_from") == target for a in aimed):
        aimed = [a for a in aimed if a.get("steal_from") == target]
    return min(aimed, key=lambda a: (abs(7 - numbers.get(a["hex"], 7)), a["hex"], str(a.get("steal_from"))),
               default=None)


def _pirate(view, legal):
    """The pirate onto a ship of the leader's within its reach, never where a ship of the
    seat's own lies; otherwise it stays where it is."""
    moves = [a for a in legal if a["type"] == "move_pirate"]
    if not moves:
        return None
    target, me = leader(view), view["viewer"]
    at = {}
    for ship in view["ships"]:
        at.setdefault(ship["edge"], set()).add(ship["seat"])
    aimed = [a for a in moves if a["edge"] is not None and target in at.get(a["edge"], ())
             and me not in at.get(a["edge"], ())]
    return min(aimed, key=lambda a: a["edge"], default=None) or \
        next((a for a in moves if a["edge"] is None), None)


def one_for_one(offer: dict, they_give: str, i_give: str) -> bool:
    """An offer of exactly one card of `they_give` for exactly one of `i_give`."""
    return offer.get("give") == {they_give: 1} and offer.get("get") == {i_give: 1}


def _action(line, view, legal):
    kind = line["kind"]
    if kind == "end_turn":
        # The whole turn: in the seat's own turn the sailing step is part of it, so ending the
        # turn there leaves the ships where they are first; in another's turn it plays nothing.
        own_sailing = view["phase"] == "sail" and view["current"] == view["viewer"]
        return first_legal(legal, "end_turn") or (first_legal(legal, "end_sailing") if own_sailing else None)
    if kind == "end_sailing":
        return first_legal(legal, "end_sailing")
    if kind in ("roll", "unload"):
        return first_legal(legal, kind)
    if kind == "discard":
        return _discard(line, view, legal)
    if kind == "robber_leader":
        return _robber(view, legal)
    if kind == "pirate_leader":
        return _pirate(view, legal)
    if kind == "decline_trades":
        return first_legal(legal, "answer", lambda a: a["accept"] is False)
    if kind == "accept_trades":
        offers = {o["id"]: o for o in view["offers"]}
        return first_legal(legal, "answer", lambda a: a["accept"] is True
                           and one_for_one(offers.get(a["offer"], {}), line["give"], line["get"]))
    if kind == "build_road":
        return first_legal(legal, "build_road", lambda a: a["edge"] == whole_number(line["edge"]))
    return None


def choose(lines, view, legal):
    return first_fitting(lines, view, legal, _action)
