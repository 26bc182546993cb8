"""What a seat or spectator sees, the standings, the options and events in words.

Hidden: every hand and every development card but the viewer's own (others see counts), the
development deck's order, and (as in every game's view, base.DICE_MACHINERY) the seed and the
dice counter: the view lists what it shows, so neither is copied in.
"""
from __future__ import annotations

from games.engines.base import edition_of
from games.engines.catan_ships import rules, scoring, ships, trade
from games.engines.catan_ships.board import RESOURCES, geometry
from games.engines.catan_ships.book import WORDS
from games.engines.catan_ships.state import CITIES, OPTIONS, ROADS, SETTLEMENTS, SHIPS
from games.engines.words import genitives, language


def view(state: dict, seat=None) -> dict:
    geo = geometry(state["board"])
    players = []
    for p in range(state["players"]):
        built = state["pieces"][p]
        entry = {
            "seat": p, "points": scoring.public_points(state, p),
            "cards": sum(state["hands"][p].values()),
            "development": sum(1 for kind, _ in state["dev"][p]),
            "knights": state["knights"][p], "road_length": state["road_length"][p],
            "longest_road": state["longest"] == p, "largest_army": state["army"] == p,
            "ship_points": scoring.ship_points(state, p),
            "pieces_left": {"roads": ROADS - built[0], "settlements": SETTLEMENTS - built[1],
                            "cities": CITIES - built[2],
                            "ships": SHIPS - sum(1 for s in state["ships"] if s["seat"] == p)},
        }
        if state["phase"] == "over":
            entry["hidden_points"] = scoring.hidden_points(state, p)
        if seat == p:
            entry["hand"] = dict(state["hands"][p])
            entry["dev_cards"] = [{"kind": kind, "new": turn >= state["turn"]} for kind, turn in state["dev"][p]]
            entry["hidden_points"] = scoring.hidden_points(state, p)
            # The viewer's bank rate for each resource (4; 3 at a 3:1 harbour, 2 at one of
            # that resource), as a bank trade would take it.
            entry["rates"] = trade.rates(state, p, geo)
        players.append(entry)
    buildings = [{"vertex": v, "seat": o, "kind": "city" if state["city"][v] else "settlement"}
                 for v, o in enumerate(state["owner"]) if o >= 0]
    roads = [{"edge": e, "seat": o} for e, o in enumerate(state["roads"]) if o >= 0]
    return {
        "game": "catan_ships", "edition": edition_of(state), "ships_variant": state["ships_variant"],
        "goal": state["goal"], "phase": state["phase"], "current": state["current"],
        "round": state["round"], "to_act": rules.to_act(state), "viewer": seat,
        "dice": list(state["dice"]) if state["dice"] else None,
        "board": geo.drawing(),
        "robber": state["robber"], "pirate": state["pirate"],
        "buildings": buildings, "roads": roads,
        "ships": [{"seat": s["seat"], "number": s["number"], "edge": s["edge"], "cargo": dict(s["cargo"])}
                  for s in state["ships"]],
        "logbook": [dict(entry) for entry in state["logbook"]],
        "players": players,
        "bank": dict(state["bank"]), "development_left": len(state["deck"]),
        "offers": [{"id": o["id"], "from": o["from"], "to": o["to"], "give": dict(o["give"]),
                    "get": dict(o["get"]), "answers": dict(o["answers"])} for o in state["offers"]],
        "discarding": dict(state["discarding"]),
        "sailing": ships.sailing_view(state),
        "setup_vertex": state["setup_vertex"],
        "winner": state["winner"],
    }


def standings(state: dict) -> list[dict]:
    """Best first: the winner, then by points (hidden victory points count only once the game is
    over), then by seat."""
    over = state["phase"] == "over"
    rows = []
    for p in range(state["players"]):
        score = scoring.public_points(state, p) + (scoring.hidden_points(state, p) if over else 0)
        detail = {"winner": state["winner"] == p, "longest_road": state["longest"] == p,
                  "largest_army": state["army"] == p}
        if state["ships_variant"]:     # the base game has no ships to score (C20)
            detail["ship_points"] = scoring.ship_points(state, p)
        rows.append({"seat": p, "score": score, "detail": detail})
    rows.sort(key=lambda r: (not r["detail"]["winner"], -r["score"], r["seat"]))
    previous, rank = None, 0
    for i, row in enumerate(rows):
        key = (row["detail"]["winner"], row["score"])
        if key != previous:
            rank, previous = i + 1, key
        row["rank"] = rank
    return rows


def options(lang: str = "en") -> list[dict]:
    out = []
    for option in OPTIONS:
        out.append(dict(option.as_dict(), label=WORDS.say(f"option.{option.name}", lang),
                        help=WORDS.say(f"option.{option.name}.help", lang)))
    return out


def _name(names: list[str], seat, lang: str) -> str:
    if seat is None:
        return WORDS.say("name.nobody", lang)
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return WORDS.say("name.player", lang, seat=seat)


def _goods(goods: dict | None, lang: str) -> str:
    if not goods:
        return WORDS.say("goods.nothing", lang)
    return ", ".join(f"{n} {WORDS.say('resource.' + r, lang)}" for r, n in goods.items() if n)


def describe(event: dict, names: list[str], lang: str = "en") -> str:
    """One event in words, in `lang` ("en", "da", "de", "sv"; anything else reads English)."""
    kind = event.get("type")
    key = f"event.{kind}"
    if kind == "answer" and isinstance(event.get("accept"), bool):   # yes or no, as the answer was
        key += ".yes" if event["accept"] else ".no"
    if not isinstance(kind, str) or not WORDS.has(key):
        return WORDS.say("event.unknown", lang)
    fields = {"who": _name(names, event.get("seat"), lang)}
    if "dice" in event:
        fields["dice"] = " + ".join(str(d) for d in event["dice"])
        fields["total"] = sum(event["dice"])
    for name in ("from", "with", "victim"):
        if name in event:
            fields[name] = _name(names, event[name], lang)
    for name in ("goods", "give", "get", "cargo", "lost"):
        if name in event:
            fields[name] = _goods(event[name], lang)
    if "resource" in event:
        fields["resource"] = WORDS.say(f"resource.{event['resource']}", lang) if event["resource"] else \
            WORDS.say("goods.nothing", lang)
    if "card" in event:
        fields["card"] = WORDS.say(f"card.{event['card']}", lang)
    for name in ("number", "count", "points", "length", "round"):
        if name in event:
            fields[name] = event[name]
    if isinstance(event.get("gains"), dict):
        # Production is public: who got what, seat by seat.
        fields["gains"] = "; ".join(f"{_name(names, int(seat), lang)} {_goods(goods, lang)}"
                                    for seat, goods in sorted(event["gains"].items(), key=lambda kv: int(kv[0]))
                                    if str(seat).isdecimal() and isinstance(goods, dict))
    book = WORDS.books[language(lang)]
    text = book.get(key) or WORDS.books["en"][key]
    return genitives(text, lang, fields).format_map(_Blank(fields))


def told_otherwise(event: dict, seat) -> bool:
    """The public "stole a card" of a theft, for its thief and its victim: they read the private
    "stole ore from" of the same theft; the public "bought a development card", for its buyer:
    he reads the private "bought a knight" of the same purchase."""
    if seat is None:
        return False
    kind = event.get("type")
    if kind == "stole_card":
        return seat in (event.get("seat"), event.get("victim"))
    return kind == "bought_development" and seat == event.get("seat")


class _Blank(dict):
    """Fields an event lacks read as nothing rather than failing the whole line."""

    def __missing__(self, name):
        return ""


__all__ = ["describe", "options", "standings", "told_otherwise", "view", "RESOURCES"]
