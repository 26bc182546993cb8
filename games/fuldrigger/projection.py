"""Writes a match's ships and fortresses from its state. The services call `project_match`
inside the transaction of every change, right after saving the new state, so the rows never
disagree with the snapshot. Cheap on purpose: the services pass the state they locked, whose
rows the tables hold, so only the difference is written without reading a row (a roll costs
nothing, a move one UPDATE); without it the rows are read and compared."""
from games.fuldrigger.models import Fortress, Ship

def ship_rows(state: dict, users: dict) -> dict[int, dict]:
    """What the Ship rows of a state should hold, by engine ship id."""
    rows = {}
    for ship in state["ships"].values():
        cargo = ship["cargo"]
        rows[ship["id"]] = {
            "owner_seat": ship["owner"], "owner_id": users.get(ship["owner"]), "name": ship["name"],
            "node": ship["node"], "cargo": cargo["good"] if cargo else "",
            "cargo_paid": cargo["paid"] if cargo else None, "privateer": bool(ship["privateer"]),
        }
    return rows


def fortress_rows(state: dict, users: dict) -> dict[str, dict]:
    return {port: {"owner_seat": seat, "owner_id": users.get(seat)}
            for port, seat in state["fortresses"].items()}


def project_match(match, before: dict | None = None) -> None:
    state = match.state
    if not state:
        return
    if before and before.get("ships") == state["ships"] and before.get("fortresses") == state["fortresses"]:
        return  # a roll, an offer, a card that moved nothing: the rows already say it all
    users = {s.number: s.user_id for s in match.seats.all() if s.number is not None}
    if before:
        _write_changes(Ship, match, "engine_id", ship_rows(before, users), ship_rows(state, users))
        _write_changes(Fortress, match, "port", fortress_rows(before, users), fortress_rows(state, users))
    else:
        _sync(Ship, match, "engine_id", ship_rows(state, users))
        _sync(Fortress, match, "port", fortress_rows(state, users))


def _write_changes(model, match, key: str, old: dict, new: dict) -> None:
    """Write the difference between two states' rows, trusting that the table holds `old`."""
    gone = [value for value in old if value not in new]
    if gone:
        model.objects.filter(match_id=match.pk, **{f"{key}__in": gone}).delete()
    created = [model(match_id=match.pk, **{key: value}, **data) for value, data in new.items() if value not in old]
    if created:
        model.objects.bulk_create(created)
    for value, data in new.items():
        previous = old.get(value)
        if previous is not None and previous != data:
            changed = {name: v for name, v in data.items() if previous.get(name) != v}
            model.objects.filter(match_id=match.pk, **{key: value}).update(**changed)


def _sync(model, match, key: str, wanted: dict) -> None:
    """Make the match's rows of `model` equal `wanted` ({key value: field values})."""
    existing = {getattr(row, key): row for row in model.objects.filter(match_id=match.pk)}
    create, update, changed = [], [], set()
    for value, data in wanted.items():
        row = existing.pop(value, None)
        if row is None:
            create.append(model(match_id=match.pk, **{key: value}, **data))
            continue
        dirty = [name for name, new in data.items() if getattr(row, name) != new]
        if dirty:
            for name in dirty:
                setattr(row, name, data[name])
            changed.update(dirty)
            update.append(row)
    if existing:  # sunk, wrecked, sold, razed
        model.objects.filter(pk__in=[row.pk for row in existing.values()]).delete()
    if create:
        model.objects.bulk_create(create)
    if update:
        model.objects.bulk_update(update, sorted(name.removesuffix("_id") for name in changed))
