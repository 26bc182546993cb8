"""Development cards: buying one; a card waits a turn and one is played a turn (B-dev-wait);
the knight, road building, year of plenty and monopoly, played by the active player only
(B-dev-cards), any of them before the roll from edition 2 (B-dev-before-roll); and the largest
army the knights win (B-largest-army)."""
from __future__ import annotations

from games.engines.catan_ships.board import RESOURCES
from games.engines.catan_ships.building import COST, put_road, road_ok, road_spots
from games.engines.catan_ships.roll import move_robber_to, robber_choices
from games.engines.catan_ships.scoring import ARMY_MIN
from games.engines.catan_ships.state import ROADS, Work, can_afford, checked_resource, refuse


def _can_play_dev(state, seat, kind) -> bool:
    if state["played_dev"]:
        return False
    turn = state["turn"]
    return any(k == kind and t < turn for k, t in state["dev"][seat])


def knight_actions(state, geo, seat) -> list[dict]:
    if not _can_play_dev(state, seat, "knight"):
        return []
    return [{"type": "play_knight", "hex": h, "steal_from": v} for h, v in robber_choices(state, geo, seat)]


def card_actions(state, geo, seat) -> list[dict]:
    """The development cards the seat may play now: one a turn, none bought this turn."""
    out = []
    if not state["played_dev"] and state["dev"][seat]:
        turn = state["turn"]
        playable = {k for k, t in state["dev"][seat] if t < turn}
        if "knight" in playable:
            out += knight_actions(state, geo, seat)
        if "road_building" in playable:
            out += [{"type": "play_road_building", "edges": pair} for pair in _road_pairs(state, geo, seat)]
        if "year_of_plenty" in playable:
            bank = state["bank"]
            for i, a in enumerate(RESOURCES):
                for b in RESOURCES[i:]:
                    if bank[a] >= 1 + (a == b) and bank[b] >= 1:
                        out.append({"type": "play_year_of_plenty", "resources": [a, b]})
        if "monopoly" in playable:
            out += [{"type": "play_monopoly", "resource": r} for r in RESOURCES]
    return out


def _road_pairs(state, geo, seat) -> list[list[int]]:
    """A few ways to place the road building card's two roads (one if only one fits)."""
    left = ROADS - state["pieces"][seat][0]
    if left <= 0:
        return []
    firsts = road_spots(state, geo, seat)[:3]
    out = []
    for e in firsts:
        if left == 1:
            out.append([e])
            continue
        roads = list(state["roads"])
        roads[e] = seat
        trial = dict(state, roads=roads)
        seconds = [f for f in road_spots(trial, geo, seat) if f != e][:2]
        out += [[e, f] for f in seconds] or [[e]]
    return out


# --- buying and playing ----------------------------------------------------------------------

def do_buy_development(w: Work, seat, action, events) -> None:
    s = w.s
    if not s["deck"]:
        raise refuse("error.deck_empty")
    if not can_afford(s["hands"][seat], COST["development"]):
        raise refuse("error.cannot_afford")
    w.pay(seat, COST["development"])
    card = w.list("deck").pop()
    dev = w.list("dev")
    dev[seat] = dev[seat] + [[card, s["turn"]]]
    events.append({"type": "bought_card", "seat": seat, "card": card, "private": [seat]})
    events.append({"type": "bought_development", "seat": seat})


def _use_dev(w: Work, seat, kind) -> None:
    s = w.s
    if s["played_dev"]:
        raise refuse("error.one_card_a_turn")
    cards = s["dev"][seat]
    for i, (k, t) in enumerate(cards):
        if k == kind and t < s["turn"]:
            dev = w.list("dev")
            dev[seat] = cards[:i] + cards[i + 1:]
            s["played_dev"] = True
            return
    if any(k == kind for k, _ in cards):
        raise refuse("error.card_too_new")
    raise refuse(f"error.no_card.{kind}")


def do_play_knight(w: Work, seat, action, events) -> None:
    s = w.s
    if seat != s["current"]:
        raise refuse("error.not_your_turn")
    _use_dev(w, seat, "knight")
    events.append({"type": "played_card", "seat": seat, "card": "knight"})
    move_robber_to(w, seat, action, events)
    knights = w.list("knights")
    knights[seat] += 1
    holder = s["army"]
    if knights[seat] >= ARMY_MIN and holder != seat and (holder is None or knights[seat] > knights[holder]):
        s["army"] = seat
        events.append({"type": "largest_army", "seat": seat, "count": knights[seat]})


def do_play_road_building(w: Work, seat, action, events) -> None:
    s, geo = w.s, w.geo
    edges = action.get("edges")
    if not isinstance(edges, list) or not 1 <= len(edges) <= 2:
        raise refuse("error.bad_field", field="edges")
    left = ROADS - s["pieces"][seat][0]
    if len(edges) == 1 and left >= 2:
        # one road only where no second one fits
        roads = list(s["roads"])
        e = edges[0]
        if isinstance(e, int) and 0 <= e < geo.edge_count:
            roads[e] = seat
            if [f for f in road_spots(dict(s, roads=roads), geo, seat) if f != e]:
                raise refuse("error.two_roads")
    if len(edges) > left:
        raise refuse("error.no_roads_left")
    trial = dict(s, roads=list(s["roads"]))
    for e in edges:
        if isinstance(e, bool) or not isinstance(e, int) or not road_ok(trial, geo, seat, e):
            raise refuse("error.road_spot")
        trial["roads"][e] = seat
    _use_dev(w, seat, "road_building")
    events.append({"type": "played_card", "seat": seat, "card": "road_building"})
    for e in edges:
        put_road(w, seat, e, events)


def do_play_year_of_plenty(w: Work, seat, action, events) -> None:
    s = w.s
    picks = action.get("resources")
    if not isinstance(picks, list) or len(picks) != 2:
        raise refuse("error.bad_field", field="resources")
    goods = {}
    for r in picks:
        goods[checked_resource(r)] = goods.get(r, 0) + 1
    if not can_afford(s["bank"], goods):
        raise refuse("error.bank_short")
    _use_dev(w, seat, "year_of_plenty")
    w.take(seat, goods)
    events.append({"type": "played_card", "seat": seat, "card": "year_of_plenty", "goods": goods})


def do_play_monopoly(w: Work, seat, action, events) -> None:
    s = w.s
    r = checked_resource(action.get("resource"))
    _use_dev(w, seat, "monopoly")
    taken = 0
    for p in range(s["players"]):
        if p != seat and s["hands"][p][r]:
            n = s["hands"][p][r]
            w.hand(p)[r] = 0
            taken += n
    w.hand(seat)[r] += taken
    events.append({"type": "played_card", "seat": seat, "card": "monopoly", "resource": r, "count": taken})
