"""The fields of each action type, per game: what the API's schema describes (so a tool can
discover every game's moves), what a submitted action is checked against, and what the log
keeps of it (the action as the engine understood it, never a key it ignored).

A game declares its actions in its own package, as ACTIONS in games/engines/<game>/actions.py,
which its engine offers as `action_fields` (games.engines.base.RoutedEngine does so). Each
action type maps to a small JSON Schema of the action without its "type": "properties" and
"required". A property marked "readOnly" is one the engine
works out itself (Pirater's `to`): a client may send it, but it must agree with the engine.
A game that declares nothing still works: its actions are checked by the engine alone and the
log keeps only the keys its legal actions use.

Pure data and pure functions: nothing here imports Django.
"""
import json

# Types and sizes only: what a value means (a die that was not rolled, a port too far) is the
# engine's to judge, in its own words.
WHOLE = {"type": "integer", "minimum": -1_000_000, "maximum": 1_000_000}
NAME = {"type": "string", "maxLength": 40}
NAMES = {"type": "array", "items": NAME, "maxItems": 60}
WHOLES = {"type": "array", "items": WHOLE, "maxItems": 60}
NOTHING: dict = {"properties": {}, "required": []}


def fields(required=(), **properties) -> dict:
    return {"properties": properties, "required": list(required)}


def declared(engine) -> dict | None:
    """{action type: schema} for the engine's game, or None if it declares nothing."""
    return getattr(engine, "action_fields", None)


def action_schema(kind: str, schema: dict) -> dict:
    """The whole action of one type as a JSON Schema (its "type" a constant)."""
    return {"type": "object", "additionalProperties": False,
            "properties": {"type": {"type": "string", "enum": [kind]}, **schema["properties"]},
            "required": ["type", *schema["required"]]}


# --- Checking a value against the small JSON Schema subset used above -----------------
# One small check per JSON type; each names the first thing wrong, at its place in the action.

def _whole(schema: dict, value, where: str) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{where} must be a whole number"
    if value < schema.get("minimum", value) or value > schema.get("maximum", value):
        return f"{where} must be from {schema['minimum']} to {schema['maximum']}"
    return None


def _null(schema: dict, value, where: str) -> str | None:
    return None if value is None else f"{where} must be null"


def _true_or_false(schema: dict, value, where: str) -> str | None:
    return None if isinstance(value, bool) else f"{where} must be true or false"


def _string(schema: dict, value, where: str) -> str | None:
    if not isinstance(value, str):
        return f"{where} must be a string"
    if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
        return f"{where} must be {schema.get('minLength', 0)} to {schema['maxLength']} characters"
    return None


def _list(schema: dict, value, where: str) -> str | None:
    if not isinstance(value, list):
        return f"{where} must be a list"
    if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
        return f"{where} has the wrong number of items"
    found = (problem(schema["items"], item, f"{where}[{index}]") for index, item in enumerate(value))
    return next((f for f in found if f), None)


def _object(schema: dict, value, where: str) -> str | None:
    if not isinstance(value, dict):
        return f"{where} must be an object"
    if len(value) > schema.get("maxProperties", len(value)):
        return f"{where} has too many keys"
    properties, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
    for key, item in value.items():
        if key in properties:
            found = problem(properties[key], item, f"{where}.{key}")
        elif extra is False:
            found = f"{where} has no field {key!r}"
        else:
            found = problem(extra, item, f"{where}.{key}") if isinstance(extra, dict) else None
        if found:
            return found
    return None


CHECKS = {"integer": _whole, "null": _null, "boolean": _true_or_false, "string": _string,
          "array": _list, "object": _object}


def problem(schema: dict, value, where: str) -> str | None:
    """Why the value does not fit the schema, in English, or None."""
    if "anyOf" in schema:
        found = [problem(option, value, where) for option in schema["anyOf"]]
        return None if None in found else found[0]
    check = CHECKS.get(schema.get("type"))
    found = check(schema, value, where) if check else None
    if found is None and "enum" in schema and value not in schema["enum"]:
        return f"{where} must be one of {', '.join(map(str, schema['enum']))}"
    return found


def action_problem(engine, action: dict) -> str | None:
    """For a game that declares its actions: why this action is not one of them, or None.
    (An unknown type is the engine's to refuse, in its own words.)"""
    table = declared(engine)
    if not table or not isinstance(action, dict) or action.get("type") not in table:
        return None
    return problem(action_schema(action["type"], table[action["type"]]), action, "action")


def understood(engine, action: dict, legal) -> dict:
    """The action as the engine is to understand it, which is what the log keeps. For a type
    with declared fields: only those fields, and where some are derived (Pirater's `to`) the
    legal action it matches, in the engine's own words. For a game that declares nothing: the
    legal action it matches on the keys its legal actions use; an open-ended action that
    matches none is kept as sent. `legal` is called for the legal actions only when needed
    (they cost an engine call)."""
    kind = action["type"]
    table = declared(engine)
    if table and kind in table:
        props = table[kind]["properties"]
        derived = {k for k, p in props.items() if p.get("readOnly")}
        given = {k: v for k, v in action.items() if k in props and k not in derived}
        if not derived:
            return {"type": kind, **given}
        same = [a for a in legal() if a.get("type") == kind]
    else:
        derived = set()
        same = [a for a in legal() if a.get("type") == kind]
        keys = {k for a in same for k in a} - {"type"}
        given = {k: v for k, v in action.items() if k in keys}
    for candidate in same:
        rest = {k: v for k, v in candidate.items() if k != "type" and k not in derived}
        # A field left out is the same as its falsy default (Pirater's split: false).
        if (all(_same(rest[k], v) if k in rest else v is False for k, v in given.items())
                and all(k in given for k in rest)):
            return dict(candidate)
    if table and kind in table:
        return {"type": kind, **given}
    return dict(action)


def _same(a, b) -> bool:
    # 1 and true are equal in Python, not in JSON.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def derived_mismatch(engine, action: dict, kept: dict) -> str | None:
    """A derived field the client sent that the engine's own action contradicts."""
    table = declared(engine) or {}
    props = table.get(action.get("type"), {}).get("properties", {})
    for key, prop in props.items():
        if prop.get("readOnly") and key in action and key in kept and not _same(action[key], kept[key]):
            return f"action.{key} is {kept[key]!r} for this move, not {action[key]!r}"
    return None
