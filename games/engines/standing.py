"""What the three games' standing orders share (each game's vocabulary is in its orders.py).

A line is a dict: {"kind": ..., <its fields>}. A game's module declares KINDS (kind -> its
fields, each field "int", "text", "choice", "order" or "edge": a place on the board, a whole
number the page lets the player pick on the board), `values(field, view)` for a choice field
and `choices(field, view, lang)`, the same values with their words in `lang`,
`problems(lines, view)` -> [(line index, problem, details)] and
`choose(lines, view, legal) -> (line index, action) | None`, which only ever picks one of the
legal actions it is given: an order can never play what a player could not."""


def whole_number(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        return int(value.strip())
    return None


def kind_of(line, kinds: dict) -> str | None:
    """The line's kind if it is one of `kinds`, else None: a line is a client's JSON, whose
    "kind" may be a list or an object (never a key of `kinds`; asked as one, it would raise)."""
    kind = line.get("kind") if isinstance(line, dict) else None
    return kind if isinstance(kind, str) and kind in kinds else None


def field_problems(kinds: dict, lines: list, values, view) -> list[tuple]:
    """The problems every game checks alike: an unknown kind, a missing field, a number that is
    not one, a choice that is not offered."""
    out = []
    if not isinstance(lines, list):
        return [(0, "not_a_list", {})]
    for i, line in enumerate(lines):
        if kind_of(line, kinds) is None:
            out.append((i, "unknown_kind", {"kind": str(line.get("kind") if isinstance(line, dict) else line)[:40]}))
            continue
        for name, kind in kinds[line["kind"]].items():
            value = line.get(name)
            if value is None or value == "":
                out.append((i, "missing", {"field": name}))
            elif kind in ("int", "edge"):
                number = whole_number(value)
                if number is None or not 0 <= number <= 100000:
                    out.append((i, "not_a_number", {"field": name, "value": str(value)[:40]}))
            elif kind == "choice":
                offered = {str(v) for v in values(name, view)}
                if str(value) not in offered:
                    out.append((i, "no_such", {"field": name, "value": str(value)[:40]}))
            elif kind == "order":
                offered = {str(v) for v in values(name, view)}
                if not isinstance(value, list) or not value or any(str(v) not in offered for v in value):
                    out.append((i, "no_such", {"field": name, "value": str(value)[:40]}))
    return out


def first_legal(legal: list, kind: str, test=lambda a: True):
    return next((a for a in legal if a.get("type") == kind and test(a)), None)


def first_fitting(lines: list, view: dict, legal: list, action_of) -> tuple[int, dict] | None:
    """The standing orders read from the top: the first line whose action (`action_of(line,
    view, legal)`, None when it does not fit now) is legal, with its index; None if none fits."""
    for i, line in enumerate(lines):
        action = action_of(line, view, legal)
        if action is not None:
            return i, action
    return None
