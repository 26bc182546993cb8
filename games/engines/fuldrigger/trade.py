"""Trade (F20–F31) and the isthmus crossings (F44–F47): cargo, ships, fortresses, tolls.

Each `do_*` function checks its action against a working copy of the state, raising
IllegalAction with the reason, then changes the copy and appends its events. What a purchase or
a sale in port is refused for is found once, by a `*_refusal` function that the move, the legal
actions (rules.py) and the pages (games/fuldrigger/pages.py) all ask, so the three cannot disagree.
"""
from __future__ import annotations

from games.engines.base import IllegalAction
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.book import WORDS, Name
from games.engines.fuldrigger.state import (
    DUTY, FORTRESS_PRICE, MAX_FORTRESSES, MAX_SHIPS, MIN_CARRIED, OWNER_BONUS, PRICE_DROP,
    SHIP_PRICE, SHIP_RESALE, TOLL, add_ship, effect_on, fortresses_of, lose_cargo, remove_ship,
    ships_of,
)


# ---- reading fields ------------------------------------------------------------------------

def ship_id(action: dict, key: str = "ship") -> int:
    raw = action.get(key)
    if isinstance(raw, bool) or raw is None:
        raise IllegalAction.said(WORDS, "error.which_ship", field=key)
    if isinstance(raw, str) and raw.strip().isdecimal():
        raw = int(raw)
    if not isinstance(raw, int):
        raise IllegalAction.said(WORDS, "error.ship_number", field=key, raw=raw)
    return raw


def own_ship(state: dict, seat: int, action: dict, key: str = "ship") -> dict:
    number = ship_id(action, key)
    ship = state["ships"].get(str(number))
    if ship is None or ship["owner"] != seat:
        raise IllegalAction.said(WORDS, "error.no_ship", number=number)
    return ship


def text_field(action: dict, key: str) -> str:
    raw = action.get(key)
    if not isinstance(raw, str) or not raw:
        raise IllegalAction.said(WORDS, "error.name_needed", field=key)
    return raw


def in_port(ship: dict) -> str:
    if not WORLD.is_port(ship["node"]):
        raise IllegalAction.said(WORDS, "error.at_sea", name=ship["name"])
    return ship["node"]


# ---- prices --------------------------------------------------------------------------------

def duty_owner(state: dict, seat: int, port: str) -> int | None:
    """F24: the other player who owns the port's fortress, to whom duty is due."""
    owner = state["fortresses"].get(port)
    return owner if owner is not None and owner != seat else None


def buy_price(state: dict, port: str, good: str) -> int | None:
    entry = WORLD.prices.get(port, {}).get(good)
    return None if entry is None else entry["buy"]


def buy_cost(state: dict, seat: int, port: str, good: str) -> int | None:
    """What one load costs this seat here, all told: the port's price and, at another's
    fortress, the duty (F24)."""
    price = buy_price(state, port, good)
    if price is None:
        return None
    return price + (DUTY if duty_owner(state, seat, port) is not None else 0)


def sale_takings(state: dict, seat: int, port: str, good: str) -> int | None:
    """What selling one load here leaves this seat with: the price, less the duty at another's
    fortress (F24)."""
    price = sale_price(state, seat, port, good)
    if price is None:
        return None
    return price - (DUTY if duty_owner(state, seat, port) is not None else 0)


def sale_price(state: dict, seat: int, port: str, good: str) -> int | None:
    """What the port pays this seat for one load now (sale_terms)."""
    terms = sale_terms(state, seat, port, good)
    return None if terms is None else terms["price"]


def sale_terms(state: dict, seat: int, port: str, good: str) -> dict | None:
    """What the port pays this seat for one load now, and why: the list price and each part that
    moves it — this round's cards ("card"), the fall for loads the seat already sold here in
    its turn (F31, "sold"), the fortress owner's bonus (F25, "fortress"); never < 0. The pages
    word the parts; the sale (do_sell_cargo) takes the price."""
    entry = WORLD.prices.get(port, {}).get(good)
    if entry is None or entry["sell"] is None:
        return None
    parts = [{"why": "card", "card": effect["card"], "amount": effect["amount"]}
             for effect in effect_on(state, "price")
             if effect["port"] in (None, port) and effect["good"] in (None, good)]
    sold = state["turn"]["sold"].get(port, {}).get(good, 0) if state["turn"]["seat"] == seat else 0
    if sold:
        parts.append({"why": "sold", "sold": sold, "amount": -PRICE_DROP * sold})
    if state["fortresses"].get(port) == seat:
        parts.append({"why": "fortress", "amount": OWNER_BONUS})
    return {"list": entry["sell"], "price": max(0, entry["sell"] + sum(p["amount"] for p in parts)), "parts": parts}


def embargoed(state: dict, port: str) -> bool:
    return bool(effect_on(state, "embargo", port=port))


# ---- cargo ---------------------------------------------------------------------------------

def cargo_refusal(state: dict, seat: int, ship: dict, good: str) -> tuple[str, dict] | None:
    """Why the seat's `ship`, in port, may not load `good` there now (F28, F29, F35, F24, the
    bank's tokens, this round's embargo): the key of the engine's words and its fields, or None
    when it may. The move (do_buy_cargo), the legal actions and the pages all ask this."""
    port = ship["node"]
    if ship["privateer"]:
        return "error.privateer_no_cargo", {}
    if ship["cargo"] is not None:
        return "error.has_cargo", {"name": ship["name"]}
    if embargoed(state, port):
        return "error.embargo", {"port": Name("place", port)}
    if good not in WORLD.goods:
        return "error.no_good", {"good": good}
    if buy_price(state, port, good) is None:
        return "error.not_sold_here", {"good": Name("good", good), "port": Name("place", port)}
    if state["tokens"][good] <= 0:
        return "error.no_loads", {"good": Name("good", good)}
    cost = buy_cost(state, seat, port, good)
    if state["cash"][seat] < cost:
        return "error.cargo_cost", {"good": Name("good", good), "cost": cost, "cash": state["cash"][seat]}
    return None


def refuse(refusal: tuple[str, dict] | None) -> None:
    """Raise what a `*_refusal` found, in the engine's words; nothing when it found nothing."""
    if refusal is not None:
        key, fields = refusal
        raise IllegalAction.said(WORDS, key, **fields)


def do_buy_cargo(state: dict, seat: int, action: dict, events: list) -> None:
    ship = own_ship(state, seat, action)
    good = text_field(action, "good")
    port = in_port(ship)
    refuse(cargo_refusal(state, seat, ship, good))
    price = buy_price(state, port, good)
    owner = duty_owner(state, seat, port)
    cost = buy_cost(state, seat, port, good)
    state["cash"][seat] -= cost
    if owner is not None:
        state["cash"][owner] += DUTY
    state["tokens"][good] -= 1
    ship["cargo"] = {"good": good, "paid": price, "carried": 0, "from": port}
    events.append({"type": "buy_cargo", "seat": seat, "ship": ship["id"], "name": ship["name"],
                   "port": port, "good": good, "price": price,
                   "duty": DUTY if owner is not None else 0, "duty_to": owner})


def sale_refusal(state: dict, seat: int, ship: dict) -> tuple[str, dict] | None:
    """Why the seat's `ship`, in port, may not sell her cargo there now (F28, F30, F24: the duty
    paid from the takings and cash; this round's embargo), as cargo_refusal says it; None when
    she may."""
    port, cargo = ship["node"], ship["cargo"]
    if cargo is None:
        return "error.no_cargo", {"name": ship["name"]}
    if embargoed(state, port):
        return "error.embargo", {"port": Name("place", port)}
    if cargo["carried"] < MIN_CARRIED:
        return "error.not_carried_far", {"cargo": Name("cargo", cargo["good"]), "carried": cargo["carried"],
                                         "needed": MIN_CARRIED}
    price = sale_price(state, seat, port, cargo["good"])
    if price is None:
        return "error.not_bought_here", {"port": Name("place", port), "cargo": Name("cargo", cargo["good"])}
    if state["cash"][seat] + price < (DUTY if duty_owner(state, seat, port) is not None else 0):
        return "error.duty_unpaid", {}
    return None


def do_sell_cargo(state: dict, seat: int, action: dict, events: list) -> None:
    ship = own_ship(state, seat, action)
    port = in_port(ship)
    refuse(sale_refusal(state, seat, ship))
    cargo = ship["cargo"]
    price = sale_price(state, seat, port, cargo["good"])
    owner = duty_owner(state, seat, port)
    duty = DUTY if owner is not None else 0
    state["cash"][seat] += price - duty
    if owner is not None:
        state["cash"][owner] += duty
    sold = state["turn"]["sold"].setdefault(port, {})
    sold[cargo["good"]] = sold.get(cargo["good"], 0) + 1
    lose_cargo(state, ship)
    events.append({"type": "sell_cargo", "seat": seat, "ship": ship["id"], "name": ship["name"],
                   "port": port, "good": cargo["good"], "price": price, "paid": cargo["paid"],
                   "duty": duty, "duty_to": owner})


# ---- ships and fortresses ------------------------------------------------------------------

def ship_refusal(state: dict, seat: int) -> tuple[str, dict] | None:
    """Why the seat may not buy a ship now (F22: six at most; F20: 100 ducats), as cargo_refusal
    says it; None when it may."""
    if len(ships_of(state, seat)) >= MAX_SHIPS:
        return "error.max_ships", {"count": MAX_SHIPS}
    if state["cash"][seat] < SHIP_PRICE:
        return "error.ship_cost", {"price": SHIP_PRICE, "cash": state["cash"][seat]}
    return None


def do_buy_ship(state: dict, seat: int, action: dict, events: list) -> None:
    refuse(ship_refusal(state, seat))
    state["cash"][seat] -= SHIP_PRICE
    ship = add_ship(state, seat, state["homes"][seat])
    events.append({"type": "buy_ship", "seat": seat, "ship": ship["id"], "name": ship["name"],
                   "port": ship["node"], "price": SHIP_PRICE})


def do_sell_ship(state: dict, seat: int, action: dict, events: list) -> None:
    ship = own_ship(state, seat, action)
    port = in_port(ship)
    cargo = ship["cargo"]["good"] if ship["cargo"] else None
    remove_ship(state, ship)
    state["cash"][seat] += SHIP_RESALE
    events.append({"type": "sell_ship", "seat": seat, "ship": ship["id"], "name": ship["name"],
                   "port": port, "price": SHIP_RESALE, "cargo": cargo})


def fortress_refusal(state: dict, seat: int, port: str) -> tuple[str, dict] | None:
    """Why the seat may not build a fortress in `port` now (F23: where one of its ships stands,
    one to a city, 100 ducats; F27: six at most), as cargo_refusal says it; None when it may."""
    if port not in WORLD.nodes or not WORLD.is_port(port):
        return "error.no_port", {"port": port}
    if not any(s["node"] == port for s in ships_of(state, seat)):
        return "error.fortress_no_ship", {"port": Name("place", port)}
    if port in state["fortresses"]:
        return "error.fortress_exists", {"port": Name("place", port)}
    if len(fortresses_of(state, seat)) >= MAX_FORTRESSES:
        return "error.max_fortresses", {"count": MAX_FORTRESSES}
    if state["cash"][seat] < FORTRESS_PRICE:
        return "error.fortress_cost", {"price": FORTRESS_PRICE, "cash": state["cash"][seat]}
    return None


def do_buy_fortress(state: dict, seat: int, action: dict, events: list) -> None:
    port = text_field(action, "port")
    refuse(fortress_refusal(state, seat, port))
    state["cash"][seat] -= FORTRESS_PRICE
    state["fortresses"][port] = seat
    events.append({"type": "buy_fortress", "seat": seat, "port": port, "price": FORTRESS_PRICE})


# ---- isthmus (F44–F47) ---------------------------------------------------------------------

def crossing_of(port: str) -> dict | None:
    for crossing in WORLD.isthmus:
        if port in crossing["ports"]:
            return crossing
    return None


def toll_terms(state: dict, seat: int, port: str) -> tuple[int, list[int]]:
    """(toll this seat pays, who receives it — empty: the bank) for a cargo crossing at port.

    F46: at Panama the Porto Bello fortress's owner (the crossing's first port) crosses free
    and collects. F47: at Suez the owner of both fortresses does; two different owners both
    cross free and share the others' tolls."""
    crossing = crossing_of(port)
    owners = [state["fortresses"].get(p) for p in crossing["ports"]]
    if crossing["name"] == "Suez":
        if owners[0] is not None and owners[0] == owners[1]:
            collectors = [owners[0]]
        elif owners[0] is not None and owners[1] is not None:
            collectors = sorted(owners)
        else:
            collectors = []
    else:
        collectors = [owners[0]] if owners[0] is not None else []
    if seat in collectors:
        return 0, []
    return TOLL, collectors


def _isthmus_open(state: dict) -> None:
    if not state["options"].get("isthmus"):
        raise IllegalAction.said(WORDS, "error.no_isthmus_variant")
    if effect_on(state, "canal_closed"):
        raise IllegalAction.said(WORDS, "error.isthmus_closed")


def do_isthmus_unload(state: dict, seat: int, action: dict, events: list) -> None:
    _isthmus_open(state)
    ship = own_ship(state, seat, action)
    port = in_port(ship)
    partner = WORLD.isthmus_partner(port)
    if partner is None:
        raise IllegalAction.said(WORDS, "error.no_crossing", port=Name("place", port))
    if ship["cargo"] is None:
        raise IllegalAction.said(WORDS, "error.nothing_to_send", name=ship["name"])
    toll, collectors = toll_terms(state, seat, port)
    if state["cash"][seat] < toll:
        raise IllegalAction.said(WORDS, "error.toll_cost", toll=toll, cash=state["cash"][seat])
    state["cash"][seat] -= toll
    shares = _split(toll, collectors)
    for collector, share in shares:
        state["cash"][collector] += share
    cargo = ship["cargo"]
    ship["cargo"] = None
    number = state["next_cargo"]
    state["next_cargo"] = number + 1
    state["crossing"].append({"id": number, "owner": seat, "good": cargo["good"],
                              "paid": cargo["paid"], "carried": cargo["carried"],
                              "from": port, "at": partner, "round": state["round"]})
    events.append({"type": "isthmus_unload", "seat": seat, "ship": ship["id"],
                   "name": ship["name"], "port": port, "to": partner, "good": cargo["good"],
                   "cargo": number, "toll": toll, "toll_to": [c for c, _ in shares]})


def _split(toll: int, collectors: list[int]) -> list[tuple[int, int]]:
    if not collectors or toll == 0:
        return []
    share, extra = divmod(toll, len(collectors))
    return [(c, share + (1 if i < extra else 0)) for i, c in enumerate(collectors)]


def do_isthmus_load(state: dict, seat: int, action: dict, events: list) -> None:
    _isthmus_open(state)
    ship = own_ship(state, seat, action)
    port = in_port(ship)
    raw = action.get("cargo")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise IllegalAction.said(WORDS, "error.crossing_cargo_number")
    entry = next((c for c in state["crossing"] if c["id"] == raw), None)
    if entry is None or entry["owner"] != seat:
        raise IllegalAction.said(WORDS, "error.no_crossing_cargo", number=raw)
    if entry["at"] != port:
        raise IllegalAction.said(WORDS, "error.cargo_elsewhere", port=Name("place", entry["at"]))
    if ship["privateer"]:
        raise IllegalAction.said(WORDS, "error.privateer_no_cargo")
    if ship["cargo"] is not None:
        raise IllegalAction.said(WORDS, "error.has_cargo", name=ship["name"])
    state["crossing"].remove(entry)
    # The crossing is overland: it adds no squares to the distance carried (see the rules doc).
    ship["cargo"] = {"good": entry["good"], "paid": entry["paid"], "carried": entry["carried"],
                     "from": entry["from"]}
    events.append({"type": "isthmus_load", "seat": seat, "ship": ship["id"],
                   "name": ship["name"], "port": port, "good": entry["good"],
                   "cargo": entry["id"]})
