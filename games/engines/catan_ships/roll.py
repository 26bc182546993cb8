"""The roll and what follows it: the turn's two dice from one draw, production on the number
rolled (B-production) under the bank's shortage rule, ships counted (B-shortage, C12), then the
sailing phase (ships.py); on a 7 the discards (B-seven), the robber and its theft (B-robber),
which the knight also plays, and the pirate's move (C17-C18)."""
from __future__ import annotations

from games.engines import dice
from games.engines.base import edition_of
from games.engines.catan_ships.board import RESOURCES
from games.engines.catan_ships.ships import (
    MAX_CARGO, can_gather, damage_ship, settle_vertices, ship_index, start_sailing,
)
from games.engines.catan_ships.state import Work, can_afford, checked_goods, checked_int, refuse


def do_roll(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    faces = roll_two(s)
    total = faces[0] + faces[1]
    s["dice"] = faces
    s["rolled"] = True
    events.append({"type": "roll", "seat": seat, "dice": faces})
    if total == 7:
        discarding = {}
        for p in range(s["players"]):
            n = sum(s["hands"][p].values())
            if n > 7:
                discarding[str(p)] = n // 2
        s["discarding"] = discarding
        if discarding:
            s["phase"] = "discard"
            events.append({"type": "must_discard", "seat": seat, "discarding": dict(discarding)})
        else:
            s["phase"] = "robber"
        return
    overboard, settle = produce(w, total, events)
    start_sailing(w, total, overboard, settle, events)


def roll_two(state: dict) -> list[int]:
    """The turn's two dice from one draw (36 equally likely pairs); advances the counter."""
    first, second = divmod(dice.draw(state, 36), 6)
    return [first + 1, second + 1]


def produce(w: Work, total: int, events: list) -> tuple[dict, dict]:
    """Every settlement and city on a hex with that number takes its goods, and (C12) every ship
    that may gather there. Bank shortage: if the bank can't pay everyone a resource, nobody gets
    it, unless only one player is owed it (he gets what is left)."""
    s, geo = w.s, w.geo
    robber, owner, city = s["robber"], s["owner"], s["city"]
    owed: dict = {}          # resource -> {seat: cards to hand}
    ship_owed: dict = {}     # resource -> [ship index]
    full_owed: dict = {}     # resource -> [index of a full ship that could take it]
    overboard, settle = {}, {}
    for h in geo.land_by_number.get(total, ()):
        if h == robber:
            continue
        r = geo.resource[h]
        for v in geo.hex_vertices[h]:
            o = owner[v]
            if o >= 0:
                per = owed.setdefault(r, {})
                per[o] = per.get(o, 0) + 1 + city[v]
    if s["ships_variant"] and s["ships"]:
        for i, ship in enumerate(s["ships"]):
            for h in geo.edge_land_hexes[ship["edge"]]:
                if geo.number[h] != total or h == robber or not can_gather(s, geo, ship, h):
                    continue
                r = geo.resource[h]
                key = f"{ship['seat']}-{ship['number']}"
                spots = settle_vertices(s, geo, ship, h)
                if spots:
                    settle[key] = spots
                if sum(ship["cargo"].values()) < MAX_CARGO:
                    ship_owed.setdefault(r, []).append(i)
                else:
                    overboard[key] = r
                    full_owed.setdefault(r, []).append(i)
    shortage = edition_of(s) >= 2
    gains = {}
    for r in RESOURCES:
        if r not in owed and r not in ship_owed and r not in full_owed:
            continue  # nobody is owed it (most resources on most rolls)
        hands = owed.get(r, {})
        ships = ship_owed.get(r, [])
        # Edition 2: a full ship is owed the resource too (it may throw cargo for it), so the
        # shortage rule counts it and, where nobody gets the resource, it gets no choice.
        full = full_owed.get(r, []) if shortage else []
        want = sum(hands.values()) + len(ships) + len(full)
        if not want:
            continue
        seats = set(hands) | {s["ships"][i]["seat"] for i in ships + full}
        left = s["bank"][r]
        paid = want <= left or len(seats) == 1
        if not paid:
            events.append({"type": "shortage", "resource": r})
        else:
            for p, n in sorted(hands.items()):
                n = min(n, left)
                if n:
                    w.take(p, {r: n})
                    left -= n
                    gains.setdefault(str(p), {})[r] = gains.setdefault(str(p), {}).get(r, 0) + n
            for i in ships:
                if left <= 0:
                    break
                ship = w.ship(i)
                ship["cargo"][r] = ship["cargo"].get(r, 0) + 1
                w.dict("bank")[r] -= 1
                left -= 1
                w.log(ship["seat"], ship["number"], "gathered", {r: 1})
        if full and (not paid or left <= 0):
            # Nobody got it, or one seat owed more than the bank had took what was left: a full
            # ship has nothing to throw cargo for; and from edition 3 (C14, as under the
            # robber) the hex gave it no fourth resource, so it cannot settle either.
            for i in full:
                key = f"{s['ships'][i]['seat']}-{s['ships'][i]['number']}"
                overboard.pop(key)
                if edition_of(s) >= 3:
                    settle.pop(key, None)
    if gains:
        events.append({"type": "produced", "number": total, "gains": gains})
    return overboard, settle


# --- a 7: discards, the robber, the pirate ---------------------------------------------------

def discard_bundles(hand: dict, n: int) -> list[dict]:
    """A few representative ways to discard n cards: from the biggest piles, keeping building
    goods (ore and wool first), keeping city goods (brick and lumber first)."""
    bundles = []
    for order in (None, ("ore", "wool", "grain", "brick", "lumber"), ("brick", "lumber", "wool", "grain", "ore")):
        left = dict(hand)
        out = {}
        for _ in range(n):
            if order is None:
                r = max(RESOURCES, key=lambda x: (left[x], -RESOURCES.index(x)))
            else:
                r = next(x for x in order if left[x] > 0)
            left[r] -= 1
            out[r] = out.get(r, 0) + 1
        if out not in bundles:
            bundles.append(out)
    return bundles


def do_discard(w: Work, seat, action, events) -> None:
    s = w.s
    need = s["discarding"].get(str(seat))
    if need is None:
        raise refuse("error.no_discard")
    cards = checked_goods(action.get("cards"))
    hand = s["hands"][seat]
    if sum(cards.values()) != need:
        raise refuse("error.discard_count", count=need)
    if not can_afford(hand, cards):
        raise refuse("error.not_enough")
    w.pay(seat, cards)
    discarding = w.dict("discarding")
    del discarding[str(seat)]
    events.append({"type": "discarded", "seat": seat, "goods": cards, "count": need})
    if not discarding:
        s["phase"] = "robber"


def robber_choices(state, geo, seat, only=None) -> list[tuple]:
    """(hex, victim) pairs for moving the robber: each land hex but its own, with each opponent
    who has a building there and cards in hand, or None where there is nobody to rob."""
    out = []
    owner, hands = state["owner"], state["hands"]
    robber = state["robber"]
    for h in (geo.land_hexes if only is None else (only,)):
        if h == robber:
            continue
        victims = set()
        for v in geo.hex_vertices[h]:
            o = owner[v]
            if o >= 0 and o != seat and o not in victims:
                hand = hands[o]
                if hand["brick"] or hand["lumber"] or hand["wool"] or hand["grain"] or hand["ore"]:
                    victims.add(o)
        if victims:
            out += [(h, v) for v in sorted(victims)]
        else:
            out.append((h, None))
    return out


def move_robber_to(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    h = checked_int(action, "hex", geo.hex_count)
    if not geo.land[h] or h == s["robber"]:
        raise refuse("error.robber_spot")
    victim = action.get("steal_from")
    choices = [v for _, v in robber_choices(s, geo, seat, only=h)]
    if victim not in choices:
        raise refuse("error.steal_from")
    s["robber"] = h
    events.append({"type": "robber", "seat": seat, "hex": h})
    if victim is not None:
        hand = s["hands"][victim]
        pile = [r for r in RESOURCES for _ in range(hand[r])]
        r = pile[dice.draw(s, len(pile))]
        w.hand(victim)[r] -= 1
        w.hand(seat)[r] += 1
        events.append({"type": "stole", "seat": seat, "victim": victim, "resource": r, "private": [seat, victim]})
        events.append({"type": "stole_card", "seat": seat, "victim": victim})


def do_move_robber(w: Work, seat, action, events) -> None:
    move_robber_to(w, seat, action, events)
    w.s["phase"] = "pirate" if w.s["ships_variant"] else "main"


def do_move_pirate(w: Work, seat, action, events) -> None:
    """C17-C18: one edge along water, or stay; every ship met rolls two dice."""
    s, geo = w.s, w.geo
    e = action.get("edge")
    if e is not None:
        if e not in geo.edge_adjacent[s["pirate"]] or not geo.ship_edge[e]:
            raise refuse("error.pirate_spot")
        s["pirate"] = e
        events.append({"type": "pirate", "seat": seat, "edge": e})
        met = [(x["seat"], x["number"]) for x in s["ships"] if x["edge"] == e]
        for owner, number in met:
            index = ship_index(s, owner, number)
            faces = dice.roll(s, 2)
            total = sum(faces)
            outcome = None if total <= 4 else "all" if total <= 10 else "sunk"
            event = {"type": "pirate_attack", "seat": owner, "number": number, "dice": faces, "by": seat}
            events.append(event)
            damage_ship(w, index, outcome, event, commission_to=seat)
            if outcome is None:
                event["outcome"] = "escaped"
    s["phase"] = "main"
