"""What a seat or a spectator may see, the standings, and events told in words."""
from __future__ import annotations

from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.cards import card
from games.engines.fuldrigger.rules import to_act
from games.engines.fuldrigger.state import (
    cargo_value, clone, fortresses_of, fortunes, ships_of,
)

HIDDEN = ("seed", "deck")


def view(state: dict, seat: int | None) -> dict:
    """The state without its secrets: the seed, the order of the deck (only the number of
    cards left and the last card turned show) and offers between other players."""
    seen = clone(state)
    for key in HIDDEN:
        seen.pop(key, None)
    seen["deck_left"] = len(state["deck"])
    seen["last_card"] = card(state["last_card"]) if state["last_card"] else None
    seen["offers"] = [o for o in seen["offers"] if seat is not None and seat in (o["from"], o["to"])]
    seen["viewer"] = seat
    seen["to_act"] = to_act(state)
    seen["fortunes"] = fortunes(state)
    turn = state["turn"]
    seen["can_move"] = [] if turn["total"] is None else sorted(
        s["id"] for s in ships_of(state, turn["seat"])
        if s["id"] not in turn["moved"] and s["id"] not in turn["still"])
    return seen


def standings(state: dict) -> list[dict]:
    """Best first by fortune (F1, F2); when the game ended because one fleet was left (F3),
    that player is first whatever his fortune."""
    wealth = fortunes(state)
    survivor_first = state.get("ended") == "last_fleet"

    def key(seat):
        return ((not state["out"][seat]) if survivor_first else True, wealth[seat])

    order = sorted(range(state["players"]), key=key, reverse=True)
    table = []
    for position, seat in enumerate(order):
        if position and key(order[position - 1]) == key(seat):
            rank = table[-1]["rank"]
        else:
            rank = position + 1
        table.append({"seat": seat, "rank": rank, "score": wealth[seat],
                      "detail": {"cash": state["cash"][seat],
                                 "ships": len(ships_of(state, seat)),
                                 "fortresses": len(fortresses_of(state, seat)),
                                 "cargo": cargo_value(state, seat)}})
    return table


# ---- words ---------------------------------------------------------------------------------

def _good(good: str | None) -> str:
    if good is None:
        return "cargo"
    return WORLD.goods[good]["name"].lower() if good in WORLD.goods else good


def _place(node: str) -> str:
    return WORLD.name(node) if node in WORLD.nodes else node


def _area(node: str) -> str:
    """A hazard square's sea area without the hazard's name, e.g. "Cape of Good Hope"."""
    if node not in WORLD.nodes:
        return node
    return WORLD.nodes[node].get("area") or WORLD.name(node)


def _who(names: list[str], seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"Player {seat + 1}" if isinstance(seat, int) else "The bank"


def _ship(event: dict) -> str:
    return f"the {event.get('name', 'ship')}"


def _offer_side(part: dict) -> str:
    bits = []
    if part.get("ducats"):
        bits.append(f"{part['ducats']} ducats")
    if part.get("ships"):
        bits.append("ship" + ("s " if len(part["ships"]) > 1 else " ")
                    + ", ".join(f"#{n}" for n in part["ships"]))
    if part.get("fortresses"):
        bits.append("the fortress" + ("es" if len(part["fortresses"]) > 1 else "") + " in "
                    + ", ".join(_place(p) for p in part["fortresses"]))
    return " and ".join(bits) or "nothing"


def describe(event: dict, names: list[str]) -> str:
    kind = event.get("type")
    who = _who(names, event.get("seat"))
    ship = _ship(event)
    dice_text = "+".join(str(d) for d in event.get("dice", []))
    rolled = sum(event.get("dice", []))
    if kind == "roll":
        extra = f" (counts {event['total']})" if event["total"] != sum(event["dice"]) else ""
        return f"{who} rolled {dice_text} = {sum(event['dice'])}{extra}."
    if kind == "move":
        path = event.get("path", [])
        steps = f"{len(path)} square{'s' if len(path) != 1 else ''}"
        return (f"{who}'s {event['name']} sailed {steps} from {_place(event['from'])} "
                f"to {_place(event['to'])}.")
    if kind == "tailwind":
        return f"Tailwind, {_area(event['node'])}: {ship} gains three squares."
    if kind == "headwind":
        return f"Headwind, {_area(event['node'])}: {ship} loses three squares."
    if kind in ("storm", "ice", "card_storm"):
        label = {"storm": "Storm", "ice": "Icebergs", "card_storm": "Heavy weather"}[kind]
        if event["sunk"]:
            cargo = f" with her {_good(event['cargo'])}" if event.get("cargo") else ""
            return f"{label}, {_area(event['node'])}: {who} rolled {rolled} — {ship} sinks{cargo}."
        return f"{label}, {_area(event['node'])}: {who} rolled {rolled} — {ship} rides it out."
    if kind == "calm":
        if event["becalmed"]:
            return (f"Calm, {_area(event['node'])}: {who} rolled {rolled} — {ship} drifts to "
                    f"{_area(event['to'])} and lies still next turn.")
        return f"Calm, {_area(event['node'])}: {who} rolled {rolled} — {ship} catches a breeze."
    if kind == "reef":
        if event["wrecked"]:
            return (f"Reef {event['letter']}, {_area(event['node'])}: {who} rolled {rolled} — "
                    f"{ship} is wrecked.")
        return (f"Reef {event['letter']}, {_area(event['node'])}: {who} rolled {rolled} — "
                f"{ship} gets through, and {who} now knows reef {event['letter']}.")
    if kind == "pirates":
        place = _area(event["node"])
        if event.get("spared"):
            why = {"privateer": "a privateer", "fortress": "under the guns of a fortress",
                   "convoy": "in convoy"}[event["spared"]]
            return f"Pirate waters, {place}: {ship} passes unharmed, {why}."
        result = event["result"]
        if result == "ship_lost":
            return f"Pirates, {place}: {who} rolled {rolled} — {ship} is taken and lost."
        if result == "cargo_lost":
            return (f"Pirates, {place}: {who} rolled {rolled} — {ship} loses her "
                    f"{_good(event['cargo'])}.")
        return f"Pirates, {place}: {who} rolled {rolled} — {ship} escapes."
    if kind == "bounty":
        return (f"{who}'s {event['name']} is first to reach {_place(event['port'])}: "
                f"{event['amount']} ducats.")
    if kind == "buy_cargo":
        duty = f" and {event['duty']} duty to {_who(names, event['duty_to'])}" if event["duty"] else ""
        return (f"{who} loaded {_good(event['good'])} on {ship} in {_place(event['port'])} "
                f"for {event['price']} ducats{duty}.")
    if kind == "sell_cargo":
        duty = f", paying {event['duty']} duty to {_who(names, event['duty_to'])}" if event["duty"] else ""
        return (f"{who} sold {ship}'s {_good(event['good'])} in {_place(event['port'])} "
                f"for {event['price']} ducats{duty}.")
    if kind == "buy_ship":
        return f"{who} bought a ship, {ship}, in {_place(event['port'])}."
    if kind == "sell_ship":
        return f"{who} sold {ship} to the bank in {_place(event['port'])} for {event['price']} ducats."
    if kind == "buy_fortress":
        return f"{who} built a fortress in {_place(event['port'])}."
    if kind == "fit_privateer":
        return f"{who} fitted out {ship} as a privateer in {_place(event['port'])}."
    if kind == "lay_off_privateer":
        return f"{who} laid off the privateer {event['name']}; she trades again."
    if kind == "attack":
        target = _place(event["target"])
        them = _who(names, event["defender"])
        if event["result"] == "called_off":
            return f"{who}'s attack on {them} at {target} is called off: too few ships arrived."
        head = f"{who} attacked {them} at {target} with {len(event['ships'])}: rolled {rolled}"
        if event["result"] == "lost":
            return f"{head} — beaten off, the {event['lost_name']} is sunk."
        if event["result"] == "draw":
            return f"{head} — no decision."
        if event.get("prize") == "fortress":
            if event.get("razed"):
                return f"{head} — the fortress falls and is razed."
            return f"{head} — the fortress is taken."
        if event.get("sunk"):
            return f"{head} — the {event['prize_name']} is taken and sunk."
        return f"{head} — the {event['prize_name']} is taken as a prize."
    if kind == "isthmus_unload":
        toll = f", paying {event['toll']} toll" if event["toll"] else " toll-free"
        return (f"{who} sent {ship}'s {_good(event['good'])} overland from "
                f"{_place(event['port'])} to {_place(event['to'])}{toll}.")
    if kind == "isthmus_load":
        return f"{who} loaded {_good(event['good'])} from the isthmus on {ship} in {_place(event['port'])}."
    if kind == "offer":
        return f"{who} made an offer to {_who(names, event['to'])}."
    if kind == "accept_offer":
        return (f"{who} accepted {_who(names, event['from'])}'s offer: "
                f"{_offer_side(event['give'])} for {_offer_side(event['take'])}.")
    if kind == "decline_offer":
        return f"{who} declined {_who(names, event['from'])}'s offer."
    if kind == "withdraw_offer":
        return f"{who} withdrew an offer to {_who(names, event['to'])}."
    if kind == "end_turn":
        return f"{who} ended the turn."
    if kind == "turn":
        return f"{who}'s turn."
    if kind == "turn_lost":
        return f"{who} loses this turn."
    if kind == "round":
        return f"Round {event['round']} begins."
    if kind == "card":
        void = " (already claimed: no effect)" if event.get("void") else ""
        return f"Chance card — {event['title']}: {event['text']}{void}"
    if kind == "reshuffle":
        return "The chance cards are shuffled anew."
    if kind == "drift":
        return f"{who}'s {event['name']} is driven from {_place(event['from'])} to {_place(event['to'])}."
    if kind == "card_raid":
        if event["lost"]:
            return f"Pirates raid: {who} rolled {rolled} — {ship} loses her {_good(event['cargo'])}."
        return f"Pirates raid: {who} rolled {rolled} — {ship} keeps her {_good(event['cargo'])}."
    if kind == "card_pay":
        return f"{who} pays {event['amount']} ducats."
    if kind == "card_receive":
        return f"{who} receives {event['amount']} ducats."
    if kind == "scurvy":
        return f"Scurvy: {who} will lose the next turn."
    if kind == "becalmed":
        return f"{who}'s {event['name']} lies becalmed at {_place(event['node'])}."
    if kind == "out":
        return f"{who} has no ships and no money for one: out of the game."
    if kind == "game_over":
        return "The game is over."
    return kind.replace("_", " ").capitalize() + "." if isinstance(kind, str) else "Something happened."


__all__ = ["describe", "standings", "view"]
