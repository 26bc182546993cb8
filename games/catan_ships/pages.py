"""What Catan with ships' match page shows, worked out from what the viewer may see.

Everything here reads `view` (the engine's view for this viewer, never the raw state), the
viewer's legal actions and the seats' names and colours; the templates only lay it out.

The board is one SVG in board units (hex radius 1, pointy-top, as the engine's view gives it).
Legal actions that target a place on the board (a vertex, an edge or a hex) become *spots*:
real buttons laid over the SVG at that place, so a click, a tap, a keyboard or a page without
script all post the same action. A place with several actions (a coast edge for a road or a
ship, a robber hex with a choice of victims) opens a small list of them instead.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache

from django.utils.text import get_text_list
from django.utils.translation import gettext as _, pgettext, pgettext_lazy

from games.engines.catan_ships.building import COST
from games.engines.catan_ships.board import RESOURCES, TERRAIN_RESOURCE, drawn_geometry, pips
from games.reads.panels import seat_colour, seat_name, worded_later

RESOURCE_WORDS = {
    "brick": pgettext_lazy("catan resource", "Brick"), "lumber": pgettext_lazy("catan resource", "Lumber"),
    "wool": pgettext_lazy("catan resource", "Wool"), "grain": pgettext_lazy("catan resource", "Grain"),
    "ore": pgettext_lazy("catan resource", "Ore"),
}
TERRAIN_WORDS = {
    "hills": pgettext_lazy("catan terrain", "Hills"), "forest": pgettext_lazy("catan terrain", "Forest"),
    "pasture": pgettext_lazy("catan terrain", "Pasture"), "fields": pgettext_lazy("catan terrain", "Fields"),
    "mountains": pgettext_lazy("catan terrain", "Mountains"), "desert": pgettext_lazy("catan terrain", "Desert"),
    "water": pgettext_lazy("catan terrain", "Water"),
}
CARD_WORDS = {
    "knight": pgettext_lazy("catan card", "Knight"), "victory_point": pgettext_lazy("catan card", "Victory point"),
    "road_building": pgettext_lazy("catan card", "Road building"),
    "year_of_plenty": pgettext_lazy("catan card", "Year of plenty"), "monopoly": pgettext_lazy("catan card", "Monopoly"),
}
PHASE_WORDS = {
    "setup": pgettext_lazy("catan phase", "initial placement"), "roll": pgettext_lazy("catan phase", "roll"),
    "discard": pgettext_lazy("catan phase", "discarding"), "robber": pgettext_lazy("catan phase", "the robber moves"),
    "sail": pgettext_lazy("catan phase", "ships sail"), "main": pgettext_lazy("catan phase", "trading and building"),
    "special_build": pgettext_lazy("catan phase", "special building"),
    "pirate": pgettext_lazy("catan phase", "the pirate moves"), "over": pgettext_lazy("catan phase", "game over"),
}
LOG_WORDS = {
    "built": pgettext_lazy("catan logbook", "built"), "loaded": pgettext_lazy("catan logbook", "loaded"),
    "unloaded": pgettext_lazy("catan logbook", "unloaded"), "gathered": pgettext_lazy("catan logbook", "gathered"),
    "traded": pgettext_lazy("catan logbook", "traded"), "sunk": pgettext_lazy("catan logbook", "sunk"),
    "lost_cargo": pgettext_lazy("catan logbook", "lost cargo"), "settled": pgettext_lazy("catan logbook", "settled"),
}
# What a spot's button says, by action type; "{place}" is where (words from the hexes around it).
SPOT_WORDS = {
    "place_settlement": pgettext_lazy("catan spot", "Place a settlement: {place}"),
    "place_road": pgettext_lazy("catan spot", "Place a road: {place}"),
    "build_settlement": pgettext_lazy("catan spot", "Build a settlement: {place}"),
    "build_city": pgettext_lazy("catan spot", "Build a city: {place}"),
    "build_road": pgettext_lazy("catan spot", "Build a road: {place}"),
    "build_ship": pgettext_lazy("catan spot", "Build a ship: {place}"),
    "move_robber": pgettext_lazy("catan spot", "Move the robber: {place}"),
    "play_knight": pgettext_lazy("catan spot", "Knight: move the robber: {place}"),
    "move_pirate": pgettext_lazy("catan spot", "Move the pirate: {place}"),
    "sail": pgettext_lazy("catan spot", "Sail ship {ship}: {place}"),
    "settle": pgettext_lazy("catan spot", "Settle from ship {ship}: {place}"),
}
SHORT_WORDS = {  # the spot's own label inside its list: the place is already said
    "place_settlement": pgettext_lazy("catan spot", "Settlement"), "build_settlement": pgettext_lazy("catan spot", "Settlement"),
    "place_road": pgettext_lazy("catan spot", "Road"), "build_road": pgettext_lazy("catan spot", "Road"),
    "build_city": pgettext_lazy("catan spot", "City"), "build_ship": pgettext_lazy("catan spot", "Ship"),
    "move_robber": pgettext_lazy("catan spot", "Robber"), "play_knight": pgettext_lazy("catan spot", "Knight"),
    "move_pirate": pgettext_lazy("catan spot", "Pirate"), "sail": pgettext_lazy("catan spot", "Ship {ship}"),
    "settle": pgettext_lazy("catan spot", "Settle from ship {ship}"),
}
# Actions the panel offers as plain buttons, with their words.
BUTTON_WORDS = {
    "roll": pgettext_lazy("catan action", "Roll the dice"),
    "buy_development": pgettext_lazy("catan action", "Buy a development card"),
    "end_turn": pgettext_lazy("catan action", "End the turn"),
    "end_sailing": pgettext_lazy("catan action", "Done sailing"),
    "pass": pgettext_lazy("catan action", "Pass"),
}
# What the lit places are for, by phase (the panel's hint while any are lit).
HINT_WORDS = {
    "setup": pgettext_lazy("catan hint", "Place a settlement on a lit corner, then a road on a lit edge beside it."),
    "robber": pgettext_lazy("catan hint", "Move the robber to a lit hex; where several players could be robbed, choose whom."),
    "pirate": pgettext_lazy("catan hint", "Move the pirate to a lit edge, or leave it where it is."),
    "sail": pgettext_lazy("catan hint", "The wind of %(number)s: sail your ship to a lit edge, or let it stay."),
}
PIECES = (  # the panel's reminder of what each piece costs (the engine's building.COST)
    ("road", pgettext_lazy("catan piece", "Road")),
    ("settlement", pgettext_lazy("catan piece", "Settlement")),
    ("city", pgettext_lazy("catan piece", "City")),
    ("development", pgettext_lazy("catan piece", "Development card")),
    ("ship", pgettext_lazy("catan piece", "Ship")),
)
HEX_R = 1.0
TOKEN_R, HARBOUR_R = .3, .2     # a hex's number token and a harbour's marker (board_layers.html)
HARBOUR_OUT = .32               # how far beyond its edge a harbour's marker stands
SQRT3 = math.sqrt(3)


def _say(text, **fields) -> str:
    return str(text).format(**fields)


def resource_word(r) -> str:
    return str(RESOURCE_WORDS.get(r, r)) if r else pgettext("catan", "nothing")


def goods_words(goods: dict | None) -> str:
    parts = [f"{n} {resource_word(r)}" for r, n in (goods or {}).items() if n]
    return ", ".join(parts) if parts else pgettext("catan", "nothing")


def action_attr(action: dict) -> str:
    """An action as compact JSON for a form button's value."""
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def _r(v: float) -> float:
    return round(v, 3)


# Every render draws every hex: their centres lie on one lattice, so each outline is worked out
# once per process.
@lru_cache(maxsize=4096)
def _corners(x: float, y: float, scale: float) -> str:
    pts = []
    for k in range(6):
        a = math.radians(60 * k - 90)
        pts.append(f"{_r(x + scale * HEX_R * math.cos(a))},{_r(y + scale * HEX_R * math.sin(a))}")
    return " ".join(pts)


class Board:
    """The view's board with what the page needs around it: hex outlines, which hexes meet at a
    vertex or an edge (the engine's geometry; for words and for the harbours' sea side), the
    drawing's frame."""

    def __init__(self, board: dict):
        self.geometry = drawn_geometry(board)
        self.hexes = board["hexes"]
        self.vertices = {v["id"]: v for v in board["vertices"]}
        self.edges = {e["id"]: e for e in board["edges"]}
        self.harbours = board.get("harbours", [])
        self.hex_by_id = {h["id"]: h for h in self.hexes}
        xs = [h["x"] for h in self.hexes] or [0]
        ys = [h["y"] for h in self.hexes] or [0]
        pad = .3  # the outer ring is water already; room for a ship or the pirate on its rim
        self.x0, self.y0 = min(xs) - SQRT3 / 2 - pad, min(ys) - 1 - pad
        self.w = max(xs) - min(xs) + SQRT3 + 2 * pad
        self.h = max(ys) - min(ys) + 2 + 2 * pad
        self._hex_words: dict | None = None  # by hex id, in the language active when first asked
        self._land_corners: dict | None = None

    @property
    def viewbox(self) -> str:
        return f"{_r(self.x0)} {_r(self.y0)} {_r(self.w)} {_r(self.h)}"

    def percent(self, x: float, y: float) -> tuple[float, float]:
        return _r((x - self.x0) / self.w * 100), _r((y - self.y0) / self.h * 100)

    def hexes_at_vertex(self, v: int) -> list[dict]:
        return [self.hex_by_id[h] for h in self.geometry.vertex_hexes[v]]

    def hexes_at_edge(self, e: int) -> list[dict]:
        return [self.hex_by_id[h] for h in self.geometry.edge_hexes[e]]

    @staticmethod
    def corners(h: dict, scale: float = 1.0) -> str:
        return _corners(h["x"], h["y"], scale)

    @staticmethod
    def _plain_words(h: dict) -> str:
        words = str(TERRAIN_WORDS.get(h["terrain"], h["terrain"]))
        return f"{words} {h['number']}" if h.get("number") else words

    def hex_words(self, h: dict) -> str:
        """A hex by its terrain and number; where two hexes of the board read alike (two
        "Hills 3", two "Water 6"), each with where it lies on the board ("Hills 3 in the
        north-west"), so no two places of a list of choices read the same. Every hex's words
        are found at once, the first time one is asked for (a board is drawn with all of them)."""
        if self._hex_words is None:
            self._hex_words = self._all_hex_words()
        return self._hex_words[h["id"]]

    def _all_hex_words(self) -> dict:
        groups: dict[str, list] = {}
        for other in self.hexes:
            groups.setdefault(self._plain_words(other), []).append(other)
        cx = sum(t["x"] for t in self.hexes) / len(self.hexes) if self.hexes else 0
        cy = sum(t["y"] for t in self.hexes) / len(self.hexes) if self.hexes else 0
        out = {}
        for words, twins in groups.items():
            if len(twins) == 1:
                out[twins[0]["id"]] = words
                continue
            where = {t["id"]: corner_word(t["x"] - cx, t["y"] - cy) for t in twins}
            for h in twins:
                side = where[h["id"]]
                if list(where.values()).count(side) > 1:  # the same way from the centre: count them
                    same = sorted((t for t in twins if where[t["id"]] == side), key=lambda t: (t["y"], t["x"]))
                    out[h["id"]] = pgettext("catan hex", "%(hex)s in the %(side)s (%(n)s)") % {
                        "hex": words, "side": side, "n": [t["id"] for t in same].index(h["id"]) + 1}
                else:
                    out[h["id"]] = pgettext("catan hex", "%(hex)s in the %(side)s") % {"hex": words, "side": side}
        return out

    def place_words(self, kind: str, ident) -> str:
        if kind == "hex":
            h = self.hex_by_id.get(ident)
            return self.hex_words(h) if h else str(ident)
        around = self.hexes_at_vertex(ident) if kind == "vertex" else self.hexes_at_edge(ident)
        land = [h for h in around if h["terrain"] != "water"]
        if len(land) <= 1 and around:
            # On the coast or out at sea, the places around one hex would all read alike
            # ("edge by Water 5" twice): say which side of that hex.
            h = land[0] if land else min(around, key=lambda h: (not h.get("number"), h["id"]))
            p = self.edges[ident] if kind == "edge" else self.vertices[ident]
            dx, dy = p["x"] - h["x"], p["y"] - h["y"]
            if kind == "edge":
                return pgettext("catan place", "%(side)s edge of %(hex)s") % {"side": side_word(dx, dy),
                                                                             "hex": self.hex_words(h)}
            return pgettext("catan place", "%(side)s corner of %(hex)s") % {"side": corner_word(dx, dy),
                                                                           "hex": self.hex_words(h)}
        land = land or around
        words = " / ".join(self.hex_words(h) for h in sorted(land, key=lambda h: (h["terrain"] == "water", h["id"])))
        if kind == "edge":
            return pgettext("catan place", "edge by %(hexes)s") % {"hexes": words}
        if self.corners_among(land) > 1:
            # Two land hexes with water at both ends of the edge they share meet at two corners:
            # say which end, from the middle of the two ("north corner of Hills 3 / Forest 5").
            p = self.vertices[ident]
            mx, my = sum(h["x"] for h in land) / len(land), sum(h["y"] for h in land) / len(land)
            return pgettext("catan place", "%(side)s corner of %(hex)s") % {
                "side": corner_word(p["x"] - mx, p["y"] - my), "hex": words}
        return pgettext("catan place", "corner of %(hexes)s") % {"hexes": words}

    def corners_among(self, land: list[dict]) -> int:
        """How many corners of the board have exactly these land hexes around them."""
        if self._land_corners is None:
            counts: dict = {}
            for v in self.vertices:
                key = frozenset(h["id"] for h in self.hexes_at_vertex(v) if h["terrain"] != "water")
                counts[key] = counts.get(key, 0) + 1
            self._land_corners = counts
        return self._land_corners.get(frozenset(h["id"] for h in land), 0)

    def where(self, kind: str, ident) -> tuple[float, float] | None:
        table = {"vertex": self.vertices, "edge": self.edges, "hex": self.hex_by_id}[kind]
        p = table.get(ident)
        return (p["x"], p["y"]) if p else None

    def harbour_drawing(self, harbour: dict) -> dict | None:
        edge = self.edges.get(harbour["edge"])
        if edge is None:
            return None
        a, b = self.vertices[edge["a"]], self.vertices[edge["b"]]
        mx, my = edge["x"], edge["y"]
        land = [h for h in self.hexes_at_edge(edge["id"]) if h["terrain"] != "water"]
        if land:  # push the marker away from the land, to the sea side
            dx, dy = mx - land[0]["x"], my - land[0]["y"]
        else:
            dx, dy = mx, my
        d = math.hypot(dx, dy) or 1
        # Out towards the sea, but short of the water hex's number token: its centre lies
        # sqrt(3)/2 (.866) beyond the edge, the token's radius is TOKEN_R and the marker's
        # HARBOUR_R, so at HARBOUR_OUT (.32) the two keep .046 apart (at .45 a "2:1" covered a
        # "12"). Drawn above the pieces, the marker leaves its rate readable over a ship.
        ox, oy = mx + dx / d * HARBOUR_OUT, my + dy / d * HARBOUR_OUT
        kind = harbour["kind"]
        return {"x": _r(ox), "y": _r(oy), "kind": kind, "rate": "3:1" if kind == "3:1" else "2:1",
                "resource": None if kind == "3:1" else kind,
                "words": _("3:1 harbour") if kind == "3:1" else _("2:1 harbour: %(resource)s") % {"resource": resource_word(kind)},
                "lines": [(_r(a["x"]), _r(a["y"])), (_r(b["x"]), _r(b["y"]))]}


SIDE_WORDS = (  # a pointy-top hex's six sides, clockwise from the east (y grows southwards)
    pgettext_lazy("catan side", "east"), pgettext_lazy("catan side", "south-east"),
    pgettext_lazy("catan side", "south-west"), pgettext_lazy("catan side", "west"),
    pgettext_lazy("catan side", "north-west"), pgettext_lazy("catan side", "north-east"),
)


def side_word(dx: float, dy: float) -> str:
    return str(SIDE_WORDS[round(math.degrees(math.atan2(dy, dx)) / 60) % 6])


CORNER_WORDS = (  # its six corners, clockwise from the north
    pgettext_lazy("catan side", "north"), pgettext_lazy("catan side", "north-east"),
    pgettext_lazy("catan side", "south-east"), pgettext_lazy("catan side", "south"),
    pgettext_lazy("catan side", "south-west"), pgettext_lazy("catan side", "north-west"),
)


def corner_word(dx: float, dy: float) -> str:
    return str(CORNER_WORDS[round((math.degrees(math.atan2(dy, dx)) + 90) / 60) % 6])


TARGETS = (("vertex", "vertex"), ("edge", "edge"), ("hex", "hex"))


def _target(action: dict):
    for key, kind in TARGETS:
        if action.get(key) is not None and not isinstance(action.get(key), (list, dict, bool)):
            return kind, action[key]
    return None


def spots(board: Board, legal: list[dict], names) -> tuple[list[dict], list[dict]]:
    """Legal actions at a place on the board, grouped by place; and the rest."""
    places: dict[tuple, dict] = {}
    rest = []
    for a in legal:
        target = _target(a)
        # A knight's hexes are lit on the board too, shown (by catan_ships.js) only while the
        # panel's "Play a knight" is open, so the build spots stay clear the rest of the time.
        if target is None or a.get("type") not in SPOT_WORDS or board.where(*target) is None:
            rest.append(a)
            continue
        x, y = board.where(*target)
        left, top = board.percent(x, y)
        key = (target, a["type"] == "play_knight")
        spot = places.setdefault(key, {"kind": target[0], "id": target[1], "left": left, "top": top,
                                          "place": board.place_words(*target), "actions": [], "types": set()})
        spot["types"].add(a["type"])
        short = _say(SHORT_WORDS[a["type"]], ship=a.get("ship", ""))
        if "steal_from" in a:
            short += " · " + (pgettext("catan", "steal from %(name)s") % {"name": seat_name(names, a["steal_from"])}
                              if a["steal_from"] is not None else pgettext("catan", "steal from nobody"))
        label = _say(SPOT_WORDS[a["type"]], place=spot["place"], ship=a.get("ship", ""))
        if "steal_from" in a:
            label += " · " + short.split(" · ", 1)[1]
        spot["actions"].append({"action": a, "json": action_attr(a), "short": short, "label": label})
    out = []
    for spot in places.values():
        spot["cls"] = " ".join(sorted(t.replace("_", "-") for t in spot.pop("types")))
        spot["single"] = spot["actions"][0] if len(spot["actions"]) == 1 else None
        out.append(spot)
    out.sort(key=lambda s: (s["top"], s["left"]))  # reading order, for the keyboard
    return out, rest


def pieces(board: Board, view: dict, colours, names) -> dict:
    roads = []
    for r in view.get("roads", []):
        e = board.edges.get(r["edge"])
        if e is None:
            continue
        a, b = board.vertices[e["a"]], board.vertices[e["b"]]
        # drawn a little short of both corners so the buildings stay visible
        x1, y1 = a["x"] + (b["x"] - a["x"]) * .18, a["y"] + (b["y"] - a["y"]) * .18
        x2, y2 = b["x"] + (a["x"] - b["x"]) * .18, b["y"] + (a["y"] - b["y"]) * .18
        roads.append({"x1": _r(x1), "y1": _r(y1), "x2": _r(x2), "y2": _r(y2), "colour": seat_colour(colours, r["seat"]),
                      "words": _("Road of %(name)s") % {"name": seat_name(names, r["seat"])}})
    buildings = []
    for b in view.get("buildings", []):
        p = board.vertices.get(b["vertex"])
        if p is None:
            continue
        kind_words = pgettext("catan piece", "City") if b["kind"] == "city" else pgettext("catan piece", "Settlement")
        buildings.append({"x": _r(p["x"]), "y": _r(p["y"]), "kind": b["kind"], "colour": seat_colour(colours, b["seat"]),
                          "words": f"{kind_words}: {seat_name(names, b['seat'])}"})
    ships = []
    for s in view.get("ships", []):
        e = board.edges.get(s["edge"])
        if e is None:
            continue
        a, b = board.vertices[e["a"]], board.vertices[e["b"]]
        angle = math.degrees(math.atan2(b["y"] - a["y"], b["x"] - a["x"]))
        if angle > 90:
            angle -= 180
        elif angle < -90:
            angle += 180
        cargo = []
        for r in RESOURCES:
            cargo += [r] * int((s.get("cargo") or {}).get(r, 0))
        ships.append({"x": _r(e["x"]), "y": _r(e["y"]), "angle": round(angle, 1), "number": s["number"],
                      "colour": seat_colour(colours, s["seat"]),
                      "cargo": [{"resource": r, "dx": _r(-.24 + .16 * i)} for i, r in enumerate(cargo[:4])],
                      "words": _("Ship %(number)s of %(name)s, cargo: %(cargo)s") % {
                          "number": s["number"], "name": seat_name(names, s["seat"]), "cargo": goods_words(s.get("cargo"))}})
    robber = board.hex_by_id.get(view.get("robber"))
    pirate = board.edges.get(view.get("pirate")) if view.get("pirate") is not None else None
    return {"roads": roads, "buildings": buildings, "ships": ships,
            "robber": {"x": _r(robber["x"] - .5), "y": _r(robber["y"] + .05)} if robber else None,
            "pirate": {"x": _r(pirate["x"]), "y": _r(pirate["y"])} if pirate else None}


def _hexes(board: Board, robber=None) -> list[dict]:
    out = []
    for h in board.hexes:
        n = h.get("number")
        out.append({"id": h["id"], "points": board.corners(h, .985), "terrain": h["terrain"],
                    "x": _r(h["x"]), "y": _r(h["y"]), "number": n, "hot": n in (6, 8),
                    "pips": pips(n), "words": board.hex_words(h),
                    "robbed": robber is not None and h["id"] == robber})
    return out


def _forms(view: dict, legal: list[dict], me: dict | None, names, seat, board: Board) -> dict:
    """The panel's forms, from the legal actions that are not spots on the board."""
    by_type: dict[str, list[dict]] = {}
    for a in legal:
        by_type.setdefault(a.get("type"), []).append(a)
    buttons = [{"json": action_attr(by_type[t][0]), "words": BUTTON_WORDS[t], "type": t}
               for t in ("roll", "end_sailing", "buy_development", "pass", "end_turn") if t in by_type]
    handled = set(t for t in BUTTON_WORDS if t in by_type)
    forms = {"buttons": buttons}
    hand = (me or {}).get("hand") or {}
    if "bank_trade" in by_type:
        handled.add("bank_trade")
        gives = sorted({a["give"] for a in by_type["bank_trade"]}, key=RESOURCES.index)
        gets = sorted({a["get"] for a in by_type["bank_trade"]}, key=RESOURCES.index)
        # The "get" list starts on something other than the first "give": trading a resource
        # for itself is never what a player means.
        first_get = next((r for r in gets if r != gives[0]), gets[0])
        rate = (me or {}).get("rates") or {}
        forms["bank"] = {"give": [{"value": r, "words": goods_words({r: rate.get(r, 4)})} for r in gives],
                         "get": [{"value": r, "words": resource_word(r), "selected": r == first_get} for r in gets]}
    if "offer" in by_type:
        handled.add("offer")
        forms["offer"] = {"resources": [{"value": r, "words": resource_word(r), "have": hand.get(r, 0)} for r in RESOURCES],
                          "others": [{"seat": p["seat"], "name": seat_name(names, p["seat"])}
                                     for p in view["players"] if p["seat"] != seat]}
    if "discard" in by_type:
        handled.add("discard")
        forms["discard"] = {"count": (view.get("discarding") or {}).get(str(seat), (view.get("discarding") or {}).get(seat)),
                            "resources": [{"value": r, "words": resource_word(r), "have": hand.get(r, 0)}
                                          for r in RESOURCES if hand.get(r, 0)]}
    if "play_year_of_plenty" in by_type:
        handled.add("play_year_of_plenty")
        forms["plenty"] = [{"value": r, "words": resource_word(r)} for r in RESOURCES]
    if "play_monopoly" in by_type:
        handled.add("play_monopoly")
        forms["monopoly"] = [{"value": r, "words": resource_word(r)} for r in RESOURCES]
    # Ship and offer actions, and any board action without a place (stay, decline, leave the
    # pirate), become labelled buttons in their own lists.
    ship_buttons, offer_buttons, other, knights, road_building, counters = [], {}, [], [], [], {}
    for a in legal:
        t = a.get("type")
        if t in handled:
            continue
        words = action_words(a, names, board)
        if t == "play_knight":
            knights.append({"json": action_attr(a), "words": words})
        elif t == "play_road_building":
            road_building.append({"json": action_attr(a), "words": words})
        elif t in ("answer", "confirm", "withdraw"):
            offer_buttons.setdefault(a.get("offer"), []).append({"json": action_attr(a), "words": words})
            if t == "answer" and not a.get("accept"):  # a counter-offer declines with terms of one's own
                counters[a["offer"]] = action_attr({"type": "answer", "offer": a["offer"], "accept": False})
        elif t in ("load", "unload", "ship_trade", "overboard", "sail", "settle", "end_sailing"):
            ship_buttons.append({"json": action_attr(a), "words": words})
        else:
            other.append({"json": action_attr(a), "words": words})
    forms.update(ship_buttons=ship_buttons, offer_buttons=offer_buttons, other=other, knights=knights,
                 road_building=road_building, counters=counters,
                 resources=[{"value": r, "words": resource_word(r), "have": hand.get(r, 0)} for r in RESOURCES])
    return forms


def action_words(a: dict, names, board: Board | None = None) -> str:
    """Any action in words: the panel's buttons and the fallback for types this page does not
    know (they stay playable, in the engine's own terms)."""
    t = a.get("type")
    if t in BUTTON_WORDS:
        return str(BUTTON_WORDS[t])
    if t == "sail" and a.get("edge") is None:
        return pgettext("catan action", "Ship %(number)s stays") % {"number": a.get("ship")}
    if t == "settle" and a.get("vertex") is None:
        return pgettext("catan action", "Ship %(number)s does not settle") % {"number": a.get("ship")}
    if t == "move_pirate" and a.get("edge") is None:
        return pgettext("catan action", "Leave the pirate where it is")
    if t == "overboard":
        if a.get("resource") is None:
            return pgettext("catan action", "Ship %(number)s keeps its cargo") % {"number": a.get("ship")}
        return pgettext("catan action", "Ship %(number)s throws %(resource)s overboard") % {
            "number": a.get("ship"), "resource": resource_word(a["resource"])}
    if t == "load":
        return pgettext("catan action", "Load ship %(number)s: %(cargo)s") % {
            "number": a.get("ship"), "cargo": goods_words(a.get("cargo"))}
    if t == "unload":
        return pgettext("catan action", "Unload ship %(number)s") % {"number": a.get("ship")}
    if t == "ship_trade":
        return pgettext("catan action", "Ship %(number)s trades %(give)s for %(get)s") % {
            "number": a.get("ship"), "give": resource_word(a.get("give")), "get": resource_word(a.get("get"))}
    if t == "answer":
        return pgettext("catan action", "Accept") if a.get("accept") else pgettext("catan action", "Decline")
    if t == "confirm":
        return pgettext("catan action", "Trade with %(name)s") % {"name": seat_name(names, a.get("with"))}
    if t == "withdraw":
        return pgettext("catan action", "Withdraw")
    if t == "play_road_building":
        edges = a.get("edges") or []
        places = "; ".join(board.place_words("edge", e) if board else str(e) for e in edges)
        return pgettext("catan action", "Roads: %(places)s") % {"places": places}
    if t == "play_knight":
        place = board.place_words("hex", a.get("hex")) if board else str(a.get("hex"))
        if a.get("steal_from") is None:
            return pgettext("catan action", "%(place)s, steal from nobody") % {"place": place}
        return pgettext("catan action", "%(place)s, steal from %(name)s") % {
            "place": place, "name": seat_name(names, a["steal_from"])}
    if t in SPOT_WORDS:
        return str(SHORT_WORDS[t]).format(ship=a.get("ship", ""))
    return str(a.get("label") or t)


def lead(standings, names) -> dict | None:
    """Who leads a match that ended without a winner (a deadline, a round limit): every seat
    ranked first, so a tie names all who share the lead rather than the first of them."""
    first = [row for row in (standings or []) if row.get("rank") == 1]
    if not first:
        return None
    return {"names": get_text_list([seat_name(names, row["seat"]) for row in first],
                                   pgettext("a list's last joining word", "and")),
            "points": first[0]["score"], "shared": len(first) > 1}


def board_drawing(view: dict, colours, names, board: "Board | None" = None) -> dict:
    """What every viewer sees of the board (hexes, harbours, pieces, robber, pirate): drawn once
    per version and language for all of them (templates/.../board_shared.html)."""
    board = board or Board(view["board"])
    return {"hexes": _hexes(board, view.get("robber")),
            "harbours": [d for d in (board.harbour_drawing(h) for h in board.harbours) if d],
            "token_r": TOKEN_R, "harbour_r": HARBOUR_R, **pieces(board, view, colours, names)}


def shared_board(view: dict | None, colours, names, match=None) -> dict | None:
    """The context of partials/board_shared.html: the board as every viewer sees it (drawn once
    per version and language by games/live/publisher.py, through games/reads/panels.py)."""
    return {"c": board_drawing(view, colours, names)} if view and "board" in view else None


def live(*, view: dict | None, seat, legal: list, my_turn: bool, names, colours, match=None, query=None, log=(),
         draw_shared=True) -> dict | None:
    """Everything the live part draws and offers (the presenter's shape is every game's:
    games_tags.game_live); without `draw_shared`, the part of the board every viewer shares is
    left to the drawing made once for all (board_drawing)."""
    if not view or "board" not in view:
        return None
    legal = list(legal or [])
    board = Board(view["board"])
    me = next((p for p in view["players"] if p["seat"] == seat and "hand" in p), None)
    on_board, rest = spots(board, legal, names)
    current = view.get("current")
    acting = [s for s in (view.get("to_act") or []) if s is not None]
    # The turn line names whoever the engine waits for: in the sail phase or a discard that is
    # not always the turn's player.
    shown = current if current in acting or not acting else (seat if seat in acting else acting[0])
    players = []
    for p in view["players"]:
        s = p["seat"]
        players.append(dict(p, name=seat_name(names, s), colour=seat_colour(colours, s),
                            now=s == current and view["phase"] != "over",
                            acting=s in (view.get("to_act") or []), you=s == seat,
                            # What a viewer's row of this player depends on (the rest is public):
                            # partials/player_rows.html draws each once per change ({% once %}).
                            drawn=(s, s == seat, p.get("hidden_points"))))
    offers = []
    for o in view.get("offers", []):
        answers = o.get("answers") or {}
        offers.append({"id": o["id"], "from": seat_name(names, o["from"]), "colour": seat_colour(colours, o["from"]),
                       "to": ", ".join(seat_name(names, t) for t in o["to"]) if o.get("to") else pgettext("catan", "everyone"),
                       "give": goods_words(o.get("give")), "get": goods_words(o.get("get")),
                       "answers": [{"name": seat_name(names, int(k)), "accept": v == "accept"} for k, v in answers.items()]})
    # What every viewer is shown alike (the logbook, the legend, the costs, the bank) is worded
    # only where it is drawn: once per change, in {% once %} blocks (games_tags.once).
    logbook = worded_later(lambda: [
        {"round": e.get("round"), "name": seat_name(names, e.get("seat")), "colour": seat_colour(colours, e.get("seat")),
         "number": e.get("number"), "what": LOG_WORDS.get(e.get("what"), e.get("what")),
         "cargo": goods_words(e.get("cargo")) if e.get("cargo") else ""}
        for e in reversed(view.get("logbook") or [])][:12])
    winner = view.get("winner")
    hand = [{"resource": r, "words": resource_word(r), "count": (me["hand"] or {}).get(r, 0)} for r in RESOURCES] if me else []
    cards = [{"kind": c["kind"], "words": CARD_WORDS.get(c["kind"], c["kind"]), "new": c.get("new")}
             for c in (me or {}).get("dev_cards", [])]
    discarding = [{"name": seat_name(names, int(k)), "count": n} for k, n in (view.get("discarding") or {}).items()]
    hint = None
    if my_turn and seat != current and view["phase"] == "main":
        hint = pgettext("catan hint", "An offer waits for your answer.")
    # A knight's hexes are lit only once "Play a knight" is open: they ask for no hint.
    lit = [s for s in on_board if "play-knight" not in s["cls"]]
    if my_turn and lit:
        words = HINT_WORDS.get(view["phase"])
        if words is not None:
            hint = str(words) % {"number": sum(view["dice"]) if view.get("dice") else ""} if "%(" in str(words) else str(words)
        else:
            hint = pgettext("catan", "Choose a lit place on the board.")
    costs = worded_later(lambda: [{"words": w, "resources": [{"resource": x, "words": resource_word(x)}
                                                              for x in RESOURCES for _ in range(COST[key].get(x, 0))]}
                                      for key, w in PIECES if key != "ship" or view.get("ships_variant")])
    drawn = board_drawing(view, colours, names, board) if draw_shared else pieces(board, view, colours, names)
    ships = drawn["ships"]
    return {
        "viewbox": board.viewbox, "ratio": _r(board.w / board.h), "units": _r(board.w),
        "terrains": worded_later(lambda: [
            {"terrain": t, "words": TERRAIN_WORDS[t], "resource": resource_word(TERRAIN_RESOURCE[t]) if TERRAIN_RESOURCE[t] else ""}
            for t in TERRAIN_WORDS if any(h["terrain"] == t for h in board.hexes)]),
        **drawn,
        # Outside his turn a player may still have a move (unloading a docked ship at once):
        # what the legal actions offer is shown whenever there are any.
        "spots": on_board if my_turn or legal else [],
        "lit": bool(lit) if my_turn or legal else False,
        "forms": _forms(view, rest, me, names, seat, board) if my_turn or legal else {},
        "phase": view["phase"], "phase_words": PHASE_WORDS.get(view["phase"], view["phase"]),
        "dice": view.get("dice"), "dice_total": sum(view["dice"]) if view.get("dice") else None,
        "current_name": seat_name(names, shown) if shown is not None else None,
        "you_current": seat is not None and seat == shown,
        "current_colour": seat_colour(colours, shown),
        "knights_on_board": any("play-knight" in s["cls"] for s in on_board) if my_turn else False,
        "fleet": [{"words": s["words"], "colour": s["colour"]} for s in ships],
        "players": players, "me": me, "hand": hand, "cards": cards, "offers": offers,
        "logbook": logbook, "goal": view.get("goal"), "ships_variant": view.get("ships_variant"),
        "discarding": discarding, "hint": hint, "costs": costs if me else [], "bank": worded_later(lambda: [
            {"words": resource_word(r), "resource": r, "count": (view.get("bank") or {}).get(r, 0)} for r in RESOURCES]),
        "development_left": view.get("development_left"),
        "winner": {"name": seat_name(names, winner), "colour": seat_colour(colours, winner)} if winner is not None else None,
    }


def order_places(view: dict, kind: str) -> list[dict]:
    """The places of the board a standing order's field of this kind may name, for the Orders
    panel's pick on the board (templates/games/partials/orders.html, static/js/orders.js): for
    an "edge", every edge a road may take (on land or the coast), with its words and where it
    lies on the board in percent, as the lit spots are placed."""
    if kind != "edge":
        return []
    board = Board(view["board"])
    out = []
    for edge in _road_edges(view):
        left, top = board.percent(edge["x"], edge["y"])
        out.append({"value": edge["id"], "words": board.place_words("edge", edge["id"]), "left": left, "top": top})
    return sorted(out, key=lambda p: (p["words"], p["value"]))


def order_place_values(view: dict, kind: str) -> list:
    """The values of order_places alone, without their words (which cost a millisecond a
    board): what the Orders panel's digest compares on every change (games/reads/panels.py)."""
    return [edge["id"] for edge in _road_edges(view)] if kind == "edge" else []


def _road_edges(view: dict):
    return (edge for edge in view["board"]["edges"] if edge.get("kind") != "sea")
