"""Fuldrigger's action types and their fields (rules digest F1–F47; rules.py HANDLERS applies
them), in the shape games/engines/actions.py describes and checks."""
from games.engines.actions import NAME, NAMES, NOTHING, WHOLE, WHOLES, fields

SIDE = {"type": "object", "additionalProperties": False, "maxProperties": 3,
        "properties": {"ducats": WHOLE, "ships": WHOLES, "fortresses": NAMES}}
ACTIONS = {
    "choose_home": fields(["city"], city=NAME),   # edition 2's opening (F7)
    "roll": NOTHING,
    "end_turn": NOTHING,
    "move": fields(["ship", "path"], ship=WHOLE, path=NAMES),
    "buy_cargo": fields(["ship", "good"], ship=WHOLE, good=NAME),
    "sell_cargo": fields(["ship"], ship=WHOLE),
    "buy_ship": NOTHING,
    "sell_ship": fields(["ship"], ship=WHOLE),
    "buy_fortress": fields(["port"], port=NAME),
    "fit_privateer": fields(["ship"], ship=WHOLE),
    "lay_off_privateer": fields(["ship"], ship=WHOLE),
    "attack": fields(["target", "ships"], target=NAME, defender=WHOLE, ships=WHOLES,
                     paths={"type": "object", "additionalProperties": NAMES, "maxProperties": 60},
                     prize={"anyOf": [WHOLE, {"type": "string", "enum": ["fortress"]}]}),
    "isthmus_unload": fields(["ship"], ship=WHOLE),
    "isthmus_load": fields(["ship", "cargo"], ship=WHOLE, cargo=WHOLE),
    "offer": fields(["to"], to=WHOLE, give=SIDE, take=SIDE),
    "accept_offer": fields(["offer"], offer=WHOLE),
    "decline_offer": fields(["offer"], offer=WHOLE),
    "withdraw_offer": fields(["offer"], offer=WHOLE),
}
