"""Pirater's action types and their fields (rules digest P1–P28; rules.py apply applies them),
in the shape games/engines/actions.py describes and checks."""
from games.engines.actions import NAME, NOTHING, WHOLE, fields

ACTIONS = {
    "choose_port": fields(["port"], port=WHOLE),   # edition 2's opening (P5/P7)
    "roll": NOTHING,
    "declare_powder": fields(["ship"], ship=WHOLE, confirm={"type": "boolean"}),   # P24
    "load": fields(["ship"], ship=WHOLE),   # P12, edition 2: at an anchorage the ship stands on
    "move": fields(["die", "ship", "direction"], die=WHOLE, ship=WHOLE, direction=NAME,
                   split={"type": "boolean"}, load={"type": "boolean"},
                   to={"type": "array", "items": WHOLE, "minItems": 2, "maxItems": 2, "readOnly": True}),
}
