"""Catan with ships' standing orders: a settler's plan for turns played while away. Reads
only the seat's view and its legal actions (games/engines/standing.py)."""
from games.engines.catan_ships.book import WORDS
from games.engines.standing import field_problems, first_fitting, first_legal, whole_number

RESOURCES = ("brick", "lumber", "wool", "grain", "ore")
KINDS = {
    "roll": {},
    "discard": {"order": "order"},
    "robber_leader": {},
    "decline_trades": {},
    "accept_trades": {"give": "choice", "get": "choice"},
    "build_road": {"edge": "int"},
    "unload": {},
    "end_turn": {},
}


def choices(field: str, view, lang: str = "en") -> list[tuple]:
    """(value, words in `lang`) a field may take."""
    if field in ("order", "give", "get"):
        return [(r, WORDS.say(f"resource.{r}", lang)) for r in RESOURCES]
    return []


def problems(lines, view) -> list[tuple]:
    found = field_problems(KINDS, lines, choices, view)
    edges = len(view["board"]["edges"]) if view else 0
    for i, line in enumerate(lines if isinstance(lines, list) else []):
        if isinstance(line, dict) and line.get("kind") == "build_road" and not any(p[0] == i for p in found):
            if not 0 <= whole_number(line["edge"]) < edges:
                found.append((i, "no_such", {"field": "edge", "value": str(line["edge"])[:40]}))
    return sorted(found, key=lambda p: p[0])


def _me(view) -> dict:
    return next(p for p in view["players"] if p["seat"] == view["viewer"])


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
    """The robber (or, with ships, the pirate) against the leader among the others."""
    moves = [a for a in legal if a["type"] == "move_robber"]
    pirate = [a for a in legal if a["type"] == "move_pirate"]
    if pirate and not moves:
        others = [p for p in view["players"] if p["seat"] != view["viewer"]]
        leader = max(others, key=lambda p: (p["points"], -p["seat"]))["seat"] if others else None
        return next((a for a in pirate if a.get("steal_from") == leader), pirate[0])
    others = [p for p in view["players"] if p["seat"] != view["viewer"]]
    if not moves or not others:
        return None
    leader = max(others, key=lambda p: (p["points"], -p["seat"]))["seat"]
    numbers = {h["id"]: h.get("number") or 7 for h in view["board"]["hexes"]}
    # The leader's best hex: the one whose number comes up most often (6 and 8 first).
    aimed = [a for a in moves if a.get("steal_from") == leader]
    return min(aimed, key=lambda a: (abs(7 - numbers.get(a["hex"], 7)), a["hex"]), default=None)


def _action(line, view, legal):
    kind = line["kind"]
    if kind == "end_turn":  # with ships, the sailing comes first: ending it is the turn's next step
        return first_legal(legal, "end_turn") or first_legal(legal, "end_sailing")
    if kind in ("roll", "unload"):
        return first_legal(legal, kind)
    if kind == "discard":
        return _discard(line, view, legal)
    if kind == "robber_leader":
        return _robber(view, legal)
    if kind == "decline_trades":
        return first_legal(legal, "answer", lambda a: a["accept"] is False)
    if kind == "accept_trades":
        offers = {o["id"]: o for o in view["offers"]}

        def fits(action):
            offer = offers.get(action["offer"], {})
            return action["accept"] is True and set(offer.get("give", {})) == {line["give"]} \
                and set(offer.get("get", {})) == {line["get"]}
        return first_legal(legal, "answer", fits)
    if kind == "build_road":
        return first_legal(legal, "build_road", lambda a: a["edge"] == whole_number(line["edge"]))
    return None


def choose(lines, view, legal):
    return first_fitting(lines, view, legal, _action)
