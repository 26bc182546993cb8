"""Trade war (F32–F42) and offers."""
from fractions import Fraction

import pytest

from games.engines.fuldrigger.war import attack_odds, outcome
from tests.engines.fuldrigger.fuldrigger_support import (
    ENGINE, WORLD, IllegalAction, attack, cargo, first, foreign_port, game, put_ship, rolled, seeded, ship_ids,
)

GOOD = next(iter(WORLD.goods))


def quiet_sea():
    """A hazard-free sea square with a hazard-free sea neighbour (a place to fight)."""
    for node in sorted(WORLD.nodes):
        if WORLD.is_port(node) or WORLD.hazard(node) or node == WORLD.calm_square:
            continue
        for near in WORLD.neighbours(node):
            if not WORLD.is_port(near) and not WORLD.hazard(near):
                return node, near
    raise AssertionError("the fixed map (world.json) has no hazard-free sea square beside another")


def fight_roll(events):
    return sum(first(events, "attack")["dice"])


def test_fit_out_privateer_at_home_or_own_fortress():
    """F32 a ship is fitted out as a privateer in the home city or a fortress city only."""
    state = game(2)
    number = ship_ids(state, 0)[0]
    new, _ = ENGINE.apply(state, 0, {"type": "fit_privateer", "ship": number})
    assert new["ships"][str(number)]["privateer"]
    port, _ = foreign_port(state)
    ship = put_ship(state, 0, port)
    with pytest.raises(IllegalAction, match="Privateers are fitted out"):
        ENGINE.apply(state, 0, {"type": "fit_privateer", "ship": ship["id"]})
    state["fortresses"][port] = 0
    new, _ = ENGINE.apply(state, 0, {"type": "fit_privateer", "ship": ship["id"]})
    assert new["ships"][str(ship["id"])]["privateer"]


def test_privateer_flag_is_public():
    """F33 privateer status is public: every viewer, spectators too, sees it."""
    state = game(2)
    number = ship_ids(state, 0)[0]
    state, _ = ENGINE.apply(state, 0, {"type": "fit_privateer", "ship": number})
    for viewer in (None, 0, 1):
        assert ENGINE.view(state, viewer)["ships"][str(number)]["privateer"] is True


def test_lay_off_privateer_at_home_or_fortress():
    """F34 a privateer becomes a merchant again in the home city or a fortress city."""
    state = game(2)
    port, _ = foreign_port(state)
    ship = put_ship(state, 0, port, privateer=True)
    with pytest.raises(IllegalAction, match="becomes a merchant again"):
        ENGINE.apply(state, 0, {"type": "lay_off_privateer", "ship": ship["id"]})
    state["fortresses"][port] = 0
    new, _ = ENGINE.apply(state, 0, {"type": "lay_off_privateer", "ship": ship["id"]})
    assert not new["ships"][str(ship["id"])]["privateer"]


def test_privateer_carries_no_cargo():
    """F35 a laden ship cannot be fitted out; a privateer cannot load."""
    state = game(2)
    home = state["homes"][0]
    ship = put_ship(state, 0, home, cargo=cargo(GOOD))
    with pytest.raises(IllegalAction, match="cannot carry cargo"):
        ENGINE.apply(state, 0, {"type": "fit_privateer", "ship": ship["id"]})
    ship["cargo"] = None
    ship["privateer"] = True
    goods = [g for g, e in WORLD.prices.get(home, {}).items() if e["buy"] is not None]
    for good in goods[:1]:
        with pytest.raises(IllegalAction, match="cannot carry cargo"):
            ENGINE.apply(state, 0, {"type": "buy_cargo", "ship": ship["id"], "good": good})


def test_attackers_must_reach_target_and_match_numbers():
    """F36 privateers that can reach the target's square with this turn's roll sail there;
    at least as many attack as there are ships and fortresses on the square."""
    node, near = quiet_sea()
    state = rolled(game(2), 3)
    a = put_ship(state, 0, near, privateer=True)
    put_ship(state, 1, node)
    put_ship(state, 1, node)
    with pytest.raises(IllegalAction, match="at least 2"):
        ENGINE.apply(state, 0, attack(node, [a]))
    b = put_ship(state, 0, near, privateer=True)
    new, events = ENGINE.apply(state, 0, attack(node, [a, b]))
    assert new["ships"].get(str(a["id"]), {"node": node})["node"] == node
    assert first(events, "attack")["result"] in ("lost", "captured", "draw")
    assert a["id"] in new["turn"]["moved"]
    # A privateer too far away, or a merchant, cannot attack.
    far = next(n for n in WORLD.nodes if not WORLD.is_port(n) and WORLD.distance(n, node) > 20)
    c = put_ship(state, 0, far, privateer=True)
    with pytest.raises(IllegalAction, match="cannot reach"):
        ENGINE.apply(state, 0, attack(node, [a, c]))
    merchant = put_ship(state, 0, near)
    with pytest.raises(IllegalAction, match="no privateer"):
        ENGINE.apply(state, 0, attack(node, [a, merchant]))
    with pytest.raises(IllegalAction, match="Roll"):
        unrolled = game(2)
        put_ship(unrolled, 1, node)
        ENGINE.apply(unrolled, 0, attack(node, [put_ship(unrolled, 0, near, privateer=True)]))


@pytest.mark.parametrize("attackers,lose,capture", [(1, 5, 10), (2, 4, 9), (3, 3, 8), (4, 2, 7),
                                                    (5, 2, 7)])
def test_outcome_table(attackers, lose, capture):
    """F37 the attack table: the highest losing roll and the lowest capturing roll."""
    assert outcome(attackers, lose) == "lost"
    assert outcome(attackers, lose + 1) == "draw"
    assert outcome(attackers, capture - 1) == "draw"
    assert outcome(attackers, capture) == "captured"
    assert outcome(attackers, 12) == "captured" and outcome(attackers, 2) == "lost"


@pytest.mark.parametrize("attackers,captured,lost", [(1, 6, 10), (2, 10, 6), (3, 15, 3), (4, 21, 1),
                                                     (6, 21, 1)])
def test_attack_odds_count_the_ways_two_dice_fall(attackers, captured, lost):
    """F37 the odds shown before an attack, in ways of 36: one privateer captures on 10–12 and is
    lost on 2–5; four or more capture on 7–12 and lose only on a 2."""
    odds = attack_odds(attackers)
    assert odds == {"captured": Fraction(captured, 36), "draw": Fraction(36 - captured - lost, 36),
                    "lost": Fraction(lost, 36)}
    assert sum(odds.values()) == 1


def test_attack_outcomes_played_out():
    """F37 one attacker: under 6 he loses his privateer, over 9 he takes the ship, else draw."""
    node, near = quiet_sea()
    state = rolled(game(2), 3)
    a = put_ship(state, 0, near, privateer=True)
    target = put_ship(state, 1, node, cargo=cargo(GOOD, paid=44))
    new, events = seeded(state, 0, attack(node, [a]), lambda s, e: fight_roll(e) < 6)
    assert str(a["id"]) not in new["ships"] and new["ships"][str(target["id"])]["owner"] == 1
    new, events = seeded(state, 0, attack(node, [a]), lambda s, e: 6 <= fight_roll(e) <= 9)
    assert first(events, "attack")["result"] == "draw"
    assert new["ships"][str(a["id"])]["node"] == node
    assert new["ships"][str(target["id"])]["owner"] == 1
    new, events = seeded(state, 0, attack(node, [a]), lambda s, e: fight_roll(e) > 9)
    prize = new["ships"][str(target["id"])]
    assert prize["owner"] == 0
    assert prize["cargo"]["good"] == GOOD and prize["cargo"]["paid"] == 44     # F40
    with pytest.raises(IllegalAction, match="moved this turn"):
        ENGINE.apply(new, 0, {"type": "move", "ship": target["id"], "path": [near]})


def test_prize_choice_fortress_or_ship():
    """F38 taking a fortress where the defender also has ships, the attacker chooses the prize."""
    state = rolled(game(2), 3)
    port, sea = foreign_port(state)
    state["fortresses"][port] = 1
    defender = put_ship(state, 1, port)
    mine = [put_ship(state, 0, sea, privateer=True) for _ in range(2)]
    with pytest.raises(IllegalAction, match="at least 2"):
        ENGINE.apply(state, 0, attack(port, mine[:1]))
    new, events = seeded(state, 0, attack(port, mine, prize="fortress"),
                         lambda s, e: fight_roll(e) > 8)
    assert new["fortresses"][port] == 0 and new["ships"][str(defender["id"])]["owner"] == 1
    new, events = seeded(state, 0, attack(port, mine, prize=defender["id"]),
                         lambda s, e: fight_roll(e) > 8)
    assert new["fortresses"][port] == 1 and new["ships"][str(defender["id"])]["owner"] == 0
    legal = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "attack"
             and a["target"] == port]
    assert {a.get("prize") for a in legal} == {None, defender["id"]}


def test_ships_in_port_without_fortress_are_safe_in_edition_1():
    """F39, edition 1's reading: ships in a port without their owner's fortress can't be
    attacked (not even where the attacker's own fortress stands)."""
    state = rolled(game(2, edition=1), 3)
    port, sea = foreign_port(state)
    put_ship(state, 1, port)
    a = put_ship(state, 0, sea, privateer=True)
    with pytest.raises(IllegalAction, match="cannot be attacked"):
        ENGINE.apply(state, 0, attack(port, [a]))
    state["fortresses"][port] = 0                  # the attacker's own fortress: still safe
    with pytest.raises(IllegalAction, match="cannot be attacked"):
        ENGINE.apply(state, 0, attack(port, [a]))
    assert not [x for x in ENGINE.legal_actions(state, 0) if x["type"] == "attack"]


def test_captor_at_six_ships_sinks_the_prize():
    """F40 a captured ship changes colour; a captor who has six ships sinks it instead."""
    node, near = quiet_sea()
    state = rolled(game(2), 3)
    a = put_ship(state, 0, near, privateer=True)
    for _ in range(2):
        put_ship(state, 0, state["homes"][0])
    assert len(ship_ids(state, 0)) == 6
    target = put_ship(state, 1, node, cargo=cargo(GOOD))
    tokens = state["tokens"][GOOD]
    new, events = seeded(state, 0, attack(node, [a]), lambda s, e: fight_roll(e) > 9)
    assert str(target["id"]) not in new["ships"] and first(events, "attack")["sunk"]
    assert new["tokens"][GOOD] == tokens + 1


def test_fortress_taken_changes_colour():
    """F40 a captured fortress changes to the captor's colour."""
    state = rolled(game(2), 3)
    port, sea = foreign_port(state)
    state["fortresses"][port] = 1
    a = put_ship(state, 0, sea, privateer=True)
    new, _ = seeded(state, 0, attack(port, [a]), lambda s, e: fight_roll(e) > 9)
    assert new["fortresses"][port] == 0


def test_peace_transfers_money_ships_and_fortresses():
    """F41 a peace may transfer money, ships or fortresses: an offer accepted."""
    state = game(2)
    port = WORLD.ports[-1]
    state["fortresses"][port] = 0
    mine = ship_ids(state, 0)[0]
    theirs = ship_ids(state, 1)[0]
    offer = {"type": "offer", "to": 1, "give": {"ducats": 30, "ships": [mine], "fortresses": [port]},
             "take": {"ships": [theirs], "ducats": 5}}
    state, events = ENGINE.apply(state, 0, offer)
    number = first(events, "offer")["offer"]
    assert ENGINE.to_act(state) == [0, 1]
    assert {"type": "accept_offer", "offer": number} in ENGINE.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="only answer"):
        ENGINE.apply(state, 1, {"type": "roll"})
    new, _ = ENGINE.apply(state, 1, {"type": "accept_offer", "offer": number})
    assert new["ships"][str(mine)]["owner"] == 1 and new["ships"][str(theirs)]["owner"] == 0
    assert new["fortresses"][port] == 1 and new["cash"] == [75, 125]
    assert new["offers"] == [] and ENGINE.to_act(new) == [0]
    declined, _ = ENGINE.apply(state, 1, {"type": "decline_offer", "offer": number})
    assert declined["offers"] == [] and declined["cash"] == [100, 100]
    withdrawn, _ = ENGINE.apply(state, 0, {"type": "withdraw_offer", "offer": number})
    assert withdrawn["offers"] == []
    # An offer that can no longer be met is refused on acceptance.
    state["cash"][0] = 10
    with pytest.raises(IllegalAction, match="cash"):
        ENGINE.apply(state, 1, {"type": "accept_offer", "offer": number})


def test_anyone_may_join_a_trade_war():
    """F42 any player may attack any other, also one already at war with a third."""
    node, near = quiet_sea()
    state = rolled(game(3, seat=2), 3)
    put_ship(state, 1, node)
    joiner = put_ship(state, 2, near, privateer=True)
    put_ship(state, 0, node)
    new, events = ENGINE.apply(state, 2, attack(node, [joiner], defender=1))
    assert first(events, "attack")["defender"] == 1
    new, events = ENGINE.apply(state, 2, attack(node, [joiner], defender=0))
    assert first(events, "attack")["defender"] == 0
    with pytest.raises(IllegalAction, match="defender"):
        ENGINE.apply(state, 2, {"type": "attack", "target": node, "ships": [joiner["id"]]})


def test_privateer_attacks_once_per_turn():
    """F36 reading: each privateer takes part in one attack a turn."""
    node, near = quiet_sea()
    state = rolled(game(2), 3)
    a = put_ship(state, 0, near, privateer=True)
    put_ship(state, 1, node)
    new, _ = seeded(state, 0, attack(node, [a]), lambda s, e: 6 <= fight_roll(e) <= 9)
    with pytest.raises(IllegalAction, match="cannot reach"):
        ENGINE.apply(new, 0, attack(node, [a]))


def test_attack_sails_through_hazards_and_may_be_called_off():
    """F36 reading: attackers sail to the fight like any move; if a storm on the way leaves
    too few, the attack is called off."""
    storms = [n for n in WORLD.nodes if WORLD.hazard(n) == "storm"]
    for storm in storms:
        beyond = [n for n in WORLD.neighbours(storm) if not WORLD.is_port(n) and not WORLD.hazard(n)]
        before = [n for n in WORLD.neighbours(storm) if not WORLD.is_port(n)
                  and not WORLD.hazard(n) and n not in beyond[:1]]
        if beyond and before:
            break
    else:
        raise AssertionError("the fixed map (world.json) has no storm between two quiet sea squares")
    target, start = beyond[0], before[0]
    state = rolled(game(2), 2)
    a = put_ship(state, 0, start, privateer=True)
    put_ship(state, 1, target)
    action = attack(target, [a], paths={str(a["id"]): [storm, target]})
    new, events = seeded(state, 0, action, lambda s, e: e[1]["type"] == "storm" and e[1]["sunk"])
    assert first(events, "attack")["result"] == "called_off" and "dice" not in first(events, "attack")
    new, events = seeded(state, 0, action, lambda s, e: e[1]["type"] == "storm" and not e[1]["sunk"])
    assert "dice" in first(events, "attack")


def test_single_defender_may_be_left_out_and_out_players_fortress_can_be_taken():
    """F36/F3 reading: with one opponent on the square the defender is implied; a player who
    is out keeps his fortresses, and they can still be taken."""
    state = rolled(game(3), 3)
    port, sea = foreign_port(state)
    state["fortresses"][port] = 2
    state["out"][2] = True
    for key in [k for k, s in state["ships"].items() if s["owner"] == 2]:
        del state["ships"][key]
    a = put_ship(state, 0, sea, privateer=True)
    assert any(x["type"] == "attack" and x["target"] == port for x in ENGINE.legal_actions(state, 0))
    new, events = seeded(state, 0, {"type": "attack", "target": port, "ships": [a["id"]]},
                         lambda s, e: fight_roll(e) > 9)
    assert first(events, "attack")["defender"] == 2 and new["fortresses"][port] == 0
