"""Catan's action types and their fields (rules digest C1–C20 and the base game; rules.py
HANDLERS applies them), in the shape games/engines/actions.py describes and checks."""
from games.engines.actions import NOTHING, WHOLE, fields

# A resource is named ("brick", "lumber", "wool", "grain", "ore"); a bundle counts them; null
# leaves a choice open (no one to rob, a ship that stays, a pirate left where it is).
RESOURCE = {"type": "string", "maxLength": 10}
BUNDLE = {"type": "object", "additionalProperties": WHOLE, "maxProperties": 5}
NULL = {"type": "null"}


def _or_null(schema: dict) -> dict:
    return {"anyOf": [schema, NULL]}


ACTIONS = {
    "place_settlement": fields(["vertex"], vertex=WHOLE),
    "place_road": fields(["edge"], edge=WHOLE),
    "roll": NOTHING,
    "discard": fields(["cards"], cards=BUNDLE),
    "move_robber": fields(["hex"], hex=WHOLE, steal_from=_or_null(WHOLE)),
    "move_pirate": fields([], edge=_or_null(WHOLE)),
    "sail": fields(["ship"], ship=WHOLE, edge=_or_null(WHOLE)),
    "overboard": fields(["ship"], ship=WHOLE, resource=_or_null(RESOURCE)),
    "settle": fields(["ship"], ship=WHOLE, vertex=_or_null(WHOLE)),
    "end_sailing": NOTHING,
    "build_road": fields(["edge"], edge=WHOLE),
    "build_settlement": fields(["vertex"], vertex=WHOLE),
    "build_city": fields(["vertex"], vertex=WHOLE),
    "build_ship": fields(["edge"], edge=WHOLE),
    "buy_development": NOTHING,
    "play_knight": fields(["hex"], hex=WHOLE, steal_from=_or_null(WHOLE)),
    "play_road_building": fields(["edges"], edges={"type": "array", "items": WHOLE, "maxItems": 2}),
    "play_year_of_plenty": fields(["resources"], resources={"type": "array", "items": RESOURCE, "maxItems": 2}),
    "play_monopoly": fields(["resource"], resource=RESOURCE),
    "bank_trade": fields(["give", "get"], give=RESOURCE, get=RESOURCE),
    "offer": fields(["give", "get"], give=BUNDLE, get=BUNDLE,
                    to=_or_null({"type": "array", "items": WHOLE, "maxItems": 6})),
    "answer": fields(["offer", "accept"], offer=WHOLE, accept={"type": "boolean"},
                     counter=_or_null({"type": "object", "additionalProperties": False, "maxProperties": 2,
                                       "properties": {"give": BUNDLE, "get": BUNDLE}})),
    "confirm": fields(["offer", "with"], offer=WHOLE, **{"with": WHOLE}),
    "withdraw": fields(["offer"], offer=WHOLE),
    "load": fields(["ship", "cargo"], ship=WHOLE, cargo=BUNDLE),
    "unload": fields(["ship"], ship=WHOLE),
    "ship_trade": fields(["ship", "give", "get"], ship=WHOLE, give=RESOURCE, get=RESOURCE),
    "end_turn": NOTHING,
    "pass": NOTHING,
}
