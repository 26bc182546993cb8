"""Rules edition 2 (docs/rules/changelog.md): the readings of the Danish original that changed
play. Each test names its rule; the matching edition-1 behaviour is kept for states dealt
before (states with no "edition" key), and those tests say so."""
import pytest

from games.engines.fuldrigger.cards import CARDS
from games.engines.fuldrigger.sailing import reachable
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, attack, cargo, choose_homes, dealt, first, foreign_port, game, of_type,
    put_ship, rolled, seeded, squares,
)

BOUNTIES = sorted(c for c, d in CARDS.items() if d["effect"] == "first_to_reach")


def test_new_game_records_the_current_edition():
    """Contract, rule editions: new_game writes the engine's edition; an earlier one may be
    asked for (a replay), and a state of edition 1 has no key at all."""
    assert ENGINE.edition == 3 and ENGINE.editions == (1, 2, 3)
    assert ENGINE.new_game(2, "e", {})["edition"] == 3
    assert ENGINE.new_game(2, "e", {}, edition=2)["edition"] == 2
    assert "edition" not in ENGINE.new_game(2, "e", {}, edition=1)
    for wrong in (0, 4, "2", True):
        with pytest.raises(IllegalAction, match="edition"):
            ENGINE.new_game(2, "e", {}, edition=wrong)


# ---- F7/F8: home cities chosen after a roll ------------------------------------------------

def totals_in_order(events):
    """The seats by their first opening roll, highest first (ties in roll order)."""
    firsts = {}
    for event in events:
        firsts.setdefault(event["seat"], sum(event["dice"]))
    return sorted(firsts, key=lambda seat: -firsts[seat])


@pytest.mark.rule("F7")
def test_home_cities_are_chosen_in_order_of_a_roll():
    """F7: every seat rolls (three dice, all in the events); in roll order, highest first,
    each chooses a free home city; ties roll again; no ship is placed before the choice."""
    for number in range(12):
        state = ENGINE.new_game(4, f"homes-{number}", {})
        assert state["phase"] == "homes" and state["homes"] == [None] * 4 and not state["ships"]
        rolls = state["start"]
        assert {e["seat"] for e in rolls} == {0, 1, 2, 3}
        assert all(e["type"] == "home_roll" and len(e["dice"]) == 3 for e in rolls)
        order = state["choosing"]
        assert sorted(order) == [0, 1, 2, 3]
        first_totals = {}
        for event in rolls:
            first_totals.setdefault(event["seat"], sum(event["dice"]))
        assert [first_totals[s] for s in order] == sorted(first_totals.values(), reverse=True)
        if len(set(first_totals.values())) == 4:
            assert len(rolls) == 4                        # no tie: nobody rolls again
        chosen = []
        while state["phase"] == "homes":
            seat = ENGINE.to_act(state)[0]
            assert seat == order[len(chosen)]
            free = [a["city"] for a in ENGINE.legal_actions(state, seat)]
            assert free == [h for h in WORLD.homes if h not in chosen]
            city = free[-1]
            state, events = ENGINE.apply(state, seat, {"type": "choose_home", "city": city})
            assert first(events, "choose_home")["city"] == city
            chosen.append(city)
        for seat in range(4):
            ships = [s for s in state["ships"].values() if s["owner"] == seat]
            assert len(ships) == 3 and {s["node"] for s in ships} == {state["homes"][seat]}


def test_a_tie_rolls_again_among_the_tied():
    """F7: seats that tie roll again among themselves for their places."""
    for number in range(200):
        state = ENGINE.new_game(4, f"tie-{number}", {})
        if len(state["start"]) > 4:
            break
    else:
        pytest.fail("no seed with a tie in 200")
    first_totals = {}
    for event in state["start"][:4]:
        first_totals[event["seat"]] = sum(event["dice"])
    again = {e["seat"] for e in state["start"][4:]}
    tied = {s for s in first_totals if list(first_totals.values()).count(first_totals[s]) > 1}
    assert again <= tied and again


@pytest.mark.rule("F7")
def test_a_taken_or_unknown_home_city_is_refused_and_a_timeout_takes_the_first_free():
    """F7: only a free home city of the board may be chosen; only by the seat whose pick it
    is; a seat whose pick times out gets the first free one; nothing else may happen first."""
    state = ENGINE.new_game(3, "refuse", {})
    seat, later = state["choosing"][0], state["choosing"][1]
    with pytest.raises(IllegalAction, match="not your turn|Not your turn|turn"):
        ENGINE.apply(state, later, {"type": "choose_home", "city": WORLD.homes[0]})
    for city in ("bombay", "atlantis", None, 7):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, {"type": "choose_home", "city": city})
    with pytest.raises(IllegalAction, match="chooses a home city"):
        ENGINE.apply(state, seat, {"type": "roll"})
    assert ENGINE.system_action(state) is None
    state, _ = ENGINE.apply(state, seat, {"type": "choose_home", "city": WORLD.homes[seat]})
    with pytest.raises(IllegalAction, match="already"):
        ENGINE.apply(state, later, {"type": "choose_home", "city": WORLD.homes[seat]})
    free = [h for h in WORLD.homes if h != WORLD.homes[seat]]
    assert ENGINE.timeout_action(state, later) == {"type": "choose_home", "city": free[0]}
    state = choose_homes(state)
    assert state["phase"] == "card"
    with pytest.raises(IllegalAction, match="chosen"):
        ENGINE.apply(state, 0, {"type": "choose_home", "city": WORLD.homes[0]})


@pytest.mark.rule("F8")
def test_the_first_to_choose_begins_and_play_passes_to_the_left():
    """F8: the player who chose a home city first begins (after the banker's card); play then
    passes to the left, and the round ends when it comes back to him. Today's engine always
    began with seat 0 (the match's creator)."""
    firsts = set()
    for number in range(30):
        state = dealt(3, f"first-{number}")
        begins = state["first"]
        firsts.add(begins)
        state, events = ENGINE.apply(state, None, {"type": "draw_card"})
        state["skip"] = [False] * 3
        turns = of_type(events, "turn")
        if not turns or turns[0]["seat"] != begins:      # a card (scurvy) may cost the turn
            continue
        assert state["turn"]["seat"] == begins
        seats = []
        while state["phase"] == "play":
            seat = state["turn"]["seat"]
            seats.append(seat)
            state, _ = ENGINE.apply(state, seat, {"type": "roll"})
            state, _ = ENGINE.apply(state, seat, {"type": "end_turn"})
        assert seats == [begins, (begins + 1) % 3, (begins + 2) % 3]
        assert state["round"] == 2
    assert firsts != {0}, "seat 0 should not always begin"


# ---- F39: only ports with no fortress shelter ships ---------------------------------------

@pytest.mark.rule("F39")
def test_ships_in_a_port_with_any_fortress_can_be_attacked():
    """F39 (corrected reading): ships in a port where the attacker's own or a third player's
    fortress stands can be attacked; only a port with no fortress shelters them."""
    state = rolled(game(3), 3)
    port, sea = foreign_port(state)
    target = put_ship(state, 1, port, cargo=cargo(next(iter(WORLD.goods))))
    a = put_ship(state, 0, sea, privateer=True)
    with pytest.raises(IllegalAction, match="cannot be attacked"):      # no fortress at all: a shelter
        ENGINE.apply(state, 0, attack(port, [a]))
    for owner in (0, 2):                                  # the attacker's own, a third player's
        state["fortresses"] = {port: owner}
        listed = [x for x in ENGINE.legal_actions(state, 0)
                  if x["type"] == "attack" and x["target"] == port and x["defender"] == 1]
        assert listed and listed[0]["ships"] == [a["id"]]
        new, events = seeded(state, 0, attack(port, [a]), lambda s, e: sum(
            first(e, "attack")["dice"]) > 9)
        assert first(events, "attack")["result"] == "captured"
        assert new["ships"][str(target["id"])]["owner"] == 0
        assert new["fortresses"] == {port: owner}             # only the defender's ship was at stake


@pytest.mark.rule("F39")
def test_after_his_fortress_falls_the_defenders_ships_there_stay_exposed():
    """F39: once the attacker has taken the defender's fortress, the defender's ships in that
    port are not sheltered (the fortress is the attacker's now)."""
    state = rolled(game(2), 3)
    port, sea = foreign_port(state)
    put_ship(state, 1, port)
    a = put_ship(state, 0, sea, privateer=True)
    state["fortresses"] = {port: 0}                       # as after the capture
    assert [x for x in ENGINE.legal_actions(state, 0) if x["type"] == "attack"]
    old = dict(state, edition=1)
    old.pop("edition")
    assert not [x for x in ENGINE.legal_actions(old, 0) if x["type"] == "attack"]
    with pytest.raises(IllegalAction, match="cannot be attacked"):
        ENGINE.apply(old, 0, attack(port, [a]))


# ---- F43: a reshuffle ends open rewards; a reward card turned again opens a new one --------

def at_card(state, card_id):
    state["phase"] = "card"
    state["deck"] = [card_id] + [c for c in state["deck"] if c != card_id]
    return state


@pytest.mark.rule("F43")
def test_a_reshuffle_ends_every_open_reward():
    """F43 (corrected reading): when the pile is used up and reshuffled, every open
    first-to-reach reward ends unclaimed."""
    state = game(2)
    state["bounties"] = list(BOUNTIES[:2])
    state["phase"], state["deck"] = "card", []
    new, events = ENGINE.apply(state, None, {"type": "draw_card"})
    assert first(events, "reshuffle")["ended"] == BOUNTIES[:2]
    assert not set(BOUNTIES[:2]) & set(new["bounties"])
    assert "open first-arrival rewards end" in ENGINE.describe(first(events, "reshuffle"), ["A", "B"])
    old = game(2, edition=1)
    old["bounties"] = list(BOUNTIES[:2])
    old["phase"], old["deck"] = "card", []
    new, _ = ENGINE.apply(old, None, {"type": "draw_card"})
    assert set(BOUNTIES[:2]) <= set(new["bounties"])      # edition 1 kept them open


@pytest.mark.rule("F43")
def test_a_reward_card_turned_again_opens_a_new_reward():
    """F43: a first-to-reach card claimed before the reshuffle, turned again, opens a new
    reward that the next ship to arrive is paid."""
    card_id = BOUNTIES[0]
    port = CARDS[card_id]["port"]
    state = game(2)
    state["claimed"] = [card_id]
    state, events = ENGINE.apply(at_card(state, card_id), None, {"type": "draw_card"})
    assert not first(events, "card").get("void") and card_id in state["bounties"]
    old = game(2, edition=1)
    old["claimed"] = [card_id]
    old, events = ENGINE.apply(at_card(old, card_id), None, {"type": "draw_card"})
    assert first(events, "card")["void"] and card_id not in old["bounties"]
    seas = [n for n in WORLD.neighbours(port) if not WORLD.is_port(n) and not WORLD.hazard(n)]
    state["phase"], state["skip"] = "play", [False, False]
    state["turn"] = dict(state["turn"], seat=0, moved=[], still=[])
    ship = put_ship(state, 0, seas[0])
    rolled(state, 3)
    cash = state["cash"][0]
    state, events = ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": [port]})
    assert first(events, "bounty")["amount"] == CARDS[card_id]["amount"]
    assert state["cash"][0] == cash + CARDS[card_id]["amount"]


# ---- F19: pirate waters where a fortress can protect ------------------------------------

@pytest.mark.rule("F19")
def test_a_fortress_near_pirate_waters_protects_its_owner():
    """F19: pirate waters lie where history had pirates and ports, so a fortress within two
    squares keeps its owner safe there; edition 1's waters (Salé, Algiers, the Bahamas,
    Madagascar, Malacca, Sunda, off Hispaniola) had no port near enough."""
    spared = 0
    for node in squares("pirates"):
        ports = sorted(p for p in WORLD.within(node, 2) if WORLD.is_port(p))
        entry = next((n for n in WORLD.neighbours(node)
                      if not WORLD.is_port(n) and WORLD.hazard(n) is None), None)
        if entry is None:
            continue
        state = rolled(game(2), 10)
        state["fortresses"] = {ports[0]: 0}
        ship = put_ship(state, 0, entry, cargo=cargo(next(iter(WORLD.goods))))
        _, events = ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"], "path": [node]})
        assert first(events, "pirates")["spared"] == "fortress"
        spared += 1
    assert spared >= 6


@pytest.mark.rule("F19")
def test_edition_1_meets_pirates_where_edition_1_put_them():
    """F19: a match dealt under edition 1 plays on with its own pirate waters."""
    new_square = "st_vincent"
    assert WORLD.hazard(new_square) == "pirates" and WORLD.hazard(new_square, 1) is None
    entry = next(n for n in WORLD.neighbours(new_square)
                 if not WORLD.is_port(n) and WORLD.hazard(n) is None)
    for edition, expect in ((1, False), (2, True)):
        state = rolled(game(2, edition=edition), 10)
        ship = put_ship(state, 0, entry)
        _, events = ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"],
                                            "path": [new_square]})
        assert bool(of_type(events, "pirates")) is expect


# ---- the isthmus variant and F11 -------------------------------------------------------

@pytest.mark.rule("F44")
def test_the_isthmus_crossings_are_a_variant_off_by_default():
    """F44–F47 are a variant in the original: off unless the match's creator turns them on;
    edition 1 had them on by default."""
    assert ENGINE.new_game(2, "i", {})["options"]["isthmus"] is False
    assert ENGINE.new_game(2, "i", {"isthmus": True})["options"]["isthmus"] is True
    assert ENGINE.new_game(2, "i", {}, edition=1)["options"]["isthmus"] is True


@pytest.mark.rule("F11")
def test_a_ship_may_leave_a_port_and_come_back_in_one_move():
    """F11 forbids sailing on through a port, not leaving one and coming back: a ship may sail
    out of its port and return to it in the same move (edition 1 refused it)."""
    state = rolled(game(2), 6)
    home = state["homes"][0]
    ship = next(s for s in state["ships"].values() if s["owner"] == 0)
    sea = next(n for n in WORLD.neighbours(home) if not WORLD.is_port(n)
               and WORLD.hazard(n) is None)
    action = {"type": "move", "ship": ship["id"], "path": [sea, home]}
    new, events = ENGINE.apply(state, 0, action)
    assert first(events, "move")["to"] == home and new["ships"][str(ship["id"])]["node"] == home
    assert any(a["type"] == "move" and a["ship"] == ship["id"] and a["path"][-1] == home
               for a in ENGINE.legal_actions(state, 0))
    assert home in reachable(home, 6, True) and home not in reachable(home, 6)
    old = rolled(game(2, edition=1), 6)
    with pytest.raises(IllegalAction):
        ENGINE.apply(old, 0, action)
    other = next(p for p in WORLD.ports if p != home and WORLD.distance(sea, p) == 1) \
        if any(WORLD.is_port(p) and p != home for p in WORLD.neighbours(sea)) else None
    if other is not None:                              # through another port: still refused
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, {"type": "move", "ship": ship["id"],
                                    "path": [sea, other, sea, home]})
