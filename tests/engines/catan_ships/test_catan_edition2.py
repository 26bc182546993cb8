"""Rules edition 2 (docs/rules/changelog.md): what a reading of the German original and of the
official base game changed (issue 25). Each test names its rule; where edition 1 keeps its
behaviour for matches dealt under it, the test says so."""
import copy
import random
from collections import Counter

import pytest

from catan_support import (ENGINE, RESOURCES, act, add_ship, coast_spot, docked_ship, empty_board, fresh,
                           gathering, geometry, give, hand, place, rolling, ships_board)
from games.engines import IllegalAction, dice
from games.engines.catan_ships import trade
from games.engines.catan_ships.board import STANDARD_HARBOURS, TOKEN_CYCLE
from games.engines.catan_ships.bots import random_action


def test_new_games_are_edition_3_and_edition_1_still_deals():
    """Contract, rule editions: new_game records the current edition; edition 1 (a replay of a
    match begun under it) keeps its board; an unknown edition is refused."""
    assert ENGINE.edition == 3 and ENGINE.editions == (1, 2, 3)
    assert fresh(3, True)["edition"] == 3
    assert fresh(3, True, edition=2)["edition"] == 2
    old = fresh(3, True, edition=1)
    assert old["edition"] == 1 and old["board"] != fresh(3, True)["board"]
    assert fresh(4, False, edition=1)["board"] == fresh(4, False)["board"]   # the standard board stays
    with pytest.raises(IllegalAction, match="edition"):
        ENGINE.new_game(3, "x", {}, edition=4)


# ---- C8: unloading at once, in any player's turn ---------------------------------------------

def docked_for_seat_1(cargo=None, edition=None):
    """Seat 1's ship docked at its own settlement with cargo, in seat 0's main phase."""
    s, geo, v, e, h, w = docked_ship(cargo or {"ore": 2, "wool": 1}, seat=1, edition=edition)
    return s


@pytest.mark.rule("C8")
def test_c8_the_owner_unloads_at_once_in_another_players_turn():
    """C8: "die Schiffe entweder sofort zu entladen oder erst, wenn er an der Reihe ist": a ship
    docked at its owner's settlement is unloaded at once, whoever's turn it is. The move is
    optional: the seat is not one to_act names (clocks, bots and timeouts follow to_act)."""
    s = docked_for_seat_1()
    assert ENGINE.to_act(s) == [0] and ENGINE.may_act(s) == [0, 1]
    assert ENGINE.legal_actions(s, 1) == [{"type": "unload", "ship": 1}]
    assert ENGINE.legal_actions(s, 2) == [] and 2 not in ENGINE.may_act(s)
    after, events = act(s, 1, {"type": "unload", "ship": 1})
    assert after["hands"][1] == hand(ore=2, wool=1) and after["ships"][0]["cargo"] == {}
    assert {"type": "unloaded", "seat": 1, "number": 1, "cargo": {"ore": 2, "wool": 1}} in events
    assert after["current"] == 0 and after["phase"] == "main" and ENGINE.to_act(after) == [0]
    assert ENGINE.may_act(after) == [0], "an empty hold has nothing to unload"
    # nothing else is open to him outside his turn
    give(s, 1, ore=4)
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "bank_trade", "give": "ore", "get": "wool"})
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "load", "ship": 1, "cargo": {"ore": 1}})
    # the turn's owner still times out to ending his turn; the unload is never played for seat 1
    assert ENGINE.timeout_action(s, 0) == {"type": "end_turn"}


@pytest.mark.rule("C8")
@pytest.mark.parametrize("phase", ["roll", "discard", "robber", "pirate", "sail", "special_build"])
def test_c8_unloading_at_once_in_every_phase_of_play(phase):
    """C8: "at once" holds in every phase of another's turn, and unloading after a 7 was rolled
    does not make the player discard."""
    s = docked_for_seat_1({"ore": 3})
    give(s, 1, wool=6)                     # 9 cards once unloaded
    extra = {"roll": {"rolled": False, "dice": None}, "discard": {"discarding": {"0": 4}},
             "robber": {}, "pirate": {},
             "sail": {"sailing": {"queue": [0], "number": 5, "pending": {"0-9": {}}, "start": {}}},
             "special_build": {"special": [2, 3]}}[phase]
    s.update(phase=phase, **extra)
    assert 1 not in ENGINE.to_act(s) and 1 in ENGINE.may_act(s)
    after, _ = act(s, 1, {"type": "unload", "ship": 1})
    assert after["hands"][1] == hand(wool=6, ore=3) and after["phase"] == phase
    assert "1" not in after["discarding"] and ENGINE.to_act(after) == ENGINE.to_act(s)


@pytest.mark.rule("C8")
def test_c8_a_ship_the_wind_docks_in_another_turn_unloads_before_its_owners_turn():
    """C8: a ship that reaches its owner's settlement on the wind of another's roll can be
    unloaded at once, in that turn, though its owner has no other ship to move."""
    s = ships_board()
    geo = geometry(s["board"])
    for v in range(geo.vertex_count):
        coast = [e for e in geo.vertex_edges[v] if geo.edge_kind[e] == "coast"]
        if not geo.vertex_on_land[v] or not coast:
            continue
        dock = coast[0]
        # an edge from which a wind carries the ship onto the dock
        start = next(((f, w) for f in range(geo.edge_count) for w, pair in geo.wind[f]
                      if dock in pair and geo.edge_kind[f] != "land"
                      and not any(geo.edge_vertices[f][i] == v for i in (0, 1))), None)
        if start is not None:
            break
    f, w = start
    place(s, 1, v)
    add_ship(s, 1, f, {"grain": 2})
    s, _ = act(rolling(s, geo.number[w]), 0, {"type": "roll"})
    assert s["phase"] == "sail" and ENGINE.to_act(s) == [1]
    s, _ = act(s, 1, {"type": "sail", "ship": 1, "edge": dock})
    assert s["phase"] == "main" and s["current"] == 0 and ENGINE.to_act(s) == [0]
    assert ENGINE.legal_actions(s, 1) == [{"type": "unload", "ship": 1}]
    s, _ = act(s, 1, {"type": "unload", "ship": 1})
    assert s["hands"][1]["grain"] == 2


@pytest.mark.rule("C8")
def test_c8_edition_1_waits_for_the_owners_turn():
    """C8, edition 1 (kept for its matches): the owner unloads only in his own turn."""
    s = docked_for_seat_1(edition=1)
    assert ENGINE.may_act(s) == ENGINE.to_act(s) == [0]
    assert ENGINE.legal_actions(s, 1) == []
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "unload", "ship": 1})


@pytest.mark.rule("C8")
def test_c8_random_games_with_unloads_at_once_still_end_with_a_winner():
    """C8: games in which owners unload at once whenever they may, in others' turns too, still
    end with a winner, and apply stays pure for those moves."""
    for players in (3, 6):
        rnd = random.Random(players)
        state = fresh(players, True, f"at-once-{players}")
        unloads = 0
        for _ in range(60000):
            if ENGINE.is_over(state):
                break
            outside = [p for p in ENGINE.may_act(state) if p not in ENGINE.to_act(state)]
            if outside and rnd.random() < 0.5:
                seat = outside[0]
                action = ENGINE.legal_actions(state, seat)[0]
                given, before = state, copy.deepcopy(state)
                state, _ = ENGINE.apply(given, seat, action)
                assert given == before and action["type"] == "unload"
                unloads += 1
                continue
            seat = ENGINE.to_act(state)[0]
            state, _ = ENGINE.apply(state, seat, random_action(state, seat, rnd))
        assert state["phase"] == "over" and state["winner"] is not None
        assert unloads > 0


# ---- B-special-build: the extension's special building phase ---------------------------------

@pytest.mark.rule("B-special-build")
@pytest.mark.parametrize("players", [5, 6])
def test_special_building_builds_and_buys_as_much_as_one_can_pay_for(players):
    """B-special-build: with 5-6 players each other player in turn may build and buy as much as
    he can pay for (no trading, no cards played), then passes. Edition 1 allowed one build."""
    s = empty_board(players=players)
    geo = geometry(s["board"])
    v = next(v for v in range(geo.vertex_count) if geo.vertex_on_land[v])
    place(s, 2, v)
    give(s, 2, brick=2, lumber=2, ore=2, wool=2, grain=2)
    s["deck"] = ["monopoly", "knight", "knight"]
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "pass"})
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 2)}
    assert kinds == {"build_road", "buy_development", "pass"}
    for _ in range(2):
        road = next(a for a in ENGINE.legal_actions(s, 2) if a["type"] == "build_road")
        s, _ = act(s, 2, road)
        assert s["phase"] == "special_build" and ENGINE.to_act(s) == [2]
    s, _ = act(s, 2, {"type": "buy_development"})
    s, _ = act(s, 2, {"type": "buy_development"})
    assert s["pieces"][2][0] == 2 and len(s["dev"][2]) == 2 and s["hands"][2] == hand()
    assert ENGINE.legal_actions(s, 2) == [{"type": "pass"}]
    for seat in range(2, players):
        s, _ = act(s, seat, {"type": "pass"})
    assert s["phase"] == "roll" and s["current"] == 1


@pytest.mark.rule("B-special-build")
@pytest.mark.rule("C5")
def test_special_building_builds_several_ships():
    """B-special-build with ships (C5): two ships in one special building turn."""
    s = ships_board(players=5)
    geo = geometry(s["board"])
    v, e, h, w = coast_spot(geo)
    place(s, 2, v)
    give(s, 2, wool=2, lumber=2, grain=2)
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "pass"})
    for number in (1, 2):
        ship = next(a for a in ENGINE.legal_actions(s, 2) if a["type"] == "build_ship")
        s, events = act(s, 2, ship)
        assert {"type": "built_ship", "seat": 2, "number": number, "edge": ship["edge"]} in events
        assert ENGINE.to_act(s) == [2]


# ---- C4: number tokens and harbours drawn from the seed --------------------------------------

@pytest.mark.rule("C4")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_c4_every_hex_draws_its_token_from_the_base_games_set(players):
    """C4: land and water hexes draw their tokens from the base game's set (as many sets as the
    board needs), so any number can fall on land; no 6 and 8 are neighbours on land. Edition 1
    gave land the first 4n tokens of the sequence."""
    land_seen = Counter()
    for k in range(12):
        geo = geometry(fresh(players, True, f"tokens-{k}")["board"])
        tokens = Counter(geo.number[h] for h in range(geo.hex_count))
        sets = -(-geo.hex_count // len(TOKEN_CYCLE))
        pool = Counter(TOKEN_CYCLE * sets)
        assert all(tokens[n] <= pool[n] for n in tokens) and sum(tokens.values()) == geo.hex_count
        land = [h for h in geo.land_hexes]
        land_seen.update(geo.number[h] for h in land)
        red = {geo.hexes[h][:2] for h in land if geo.number[h] in (6, 8)}
        assert not any((q + dq, r + dr) in red for q, r in red
                       for dq, dr in ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)))
    assert set(land_seen) == set(TOKEN_CYCLE), "every number falls on land on some board"
    boards = {tuple(sorted(geometry(fresh(players, True, f"tokens-{k}")["board"]).number[h]
                           for h in geometry(fresh(players, True, f"tokens-{k}")["board"]).land_hexes))
              for k in range(6)}
    assert len(boards) > 1, "the land's tokens differ from game to game"


@pytest.mark.rule("C4")
def test_c4_edition_1_keeps_its_land_tokens():
    """C4, edition 1 (kept for its matches): with 3 players the land never had a 10, 11 or 12."""
    for k in range(6):
        geo = geometry(fresh(3, True, f"tokens-{k}", edition=1)["board"])
        assert not {geo.number[h] for h in geo.land_hexes} & {10, 11, 12}


@pytest.mark.rule("C13")
@pytest.mark.parametrize("players", [3, 4])
def test_c13_every_resources_two_to_one_harbour_is_drawn_on_some_board(players):
    """C13 (harbours of the generated board): drawn from the base game's nine (four 3:1, one
    2:1 per resource), so every resource's 2:1 harbour is possible; edition 1 never had an ore
    harbour with 3 players."""
    seen = Counter()
    for k in range(20):
        geo = geometry(fresh(players, True, f"harbours-{k}")["board"])
        kinds = Counter(kind for _, kind in geo.harbours)
        pool = Counter(STANDARD_HARBOURS[4] * 2)
        assert all(kinds[x] <= pool[x] for x in kinds)
        assert all(geo.edge_kind[e] == "coast" for e, _ in geo.harbours)
        seen.update(kinds)
    assert set(RESOURCES) <= set(seen)
    old = Counter(kind for k in range(20)
                  for _, kind in geometry(fresh(3, True, f"harbours-{k}", edition=1)["board"]).harbours)
    assert "ore" not in old


# ---- B-dev-before-roll -----------------------------------------------------------------------

def before_roll(cards):
    s = empty_board()
    s.update(phase="roll", rolled=False, dice=None)
    s["dev"] = [[[c, 1] for c in cards], [], [], []]
    return s


@pytest.mark.rule("B-dev-before-roll")
def test_any_development_card_may_be_played_before_the_roll():
    """B-dev-before-roll: road building, year of plenty, monopoly and the knight may all be
    played before rolling; one a turn; never the turn the card was bought. Edition 1 allowed
    only the knight."""
    s = before_roll(["road_building", "year_of_plenty", "monopoly", "knight"])
    geo = geometry(s["board"])
    v = next(v for v in range(geo.vertex_count) if geo.vertex_on_land[v] and len(geo.vertex_land_hexes[v]) == 3)
    place(s, 0, v)
    give(s, 1, ore=2)
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 0)}
    assert {"roll", "play_road_building", "play_year_of_plenty", "play_monopoly", "play_knight"} <= kinds
    m, events = act(s, 0, {"type": "play_monopoly", "resource": "ore"})
    assert m["phase"] == "roll" and m["hands"][0]["ore"] == 2 and m["played_dev"]
    assert {a["type"] for a in ENGINE.legal_actions(m, 0)} == {"roll"}, "one card a turn"
    with pytest.raises(IllegalAction):
        act(m, 0, {"type": "play_year_of_plenty", "resources": ["ore", "ore"]})
    y, _ = act(s, 0, {"type": "play_year_of_plenty", "resources": ["brick", "wool"]})
    assert y["phase"] == "roll" and y["hands"][0] == hand(brick=1, wool=1)
    pair = next(a for a in ENGINE.legal_actions(s, 0) if a["type"] == "play_road_building")
    r, _ = act(s, 0, pair)
    assert r["phase"] == "roll" and r["pieces"][0][0] == len(pair["edges"])
    r, _ = act(r, 0, {"type": "roll"})
    assert r["rolled"]
    # a card bought this turn waits
    new = before_roll([])
    new["dev"] = [[["monopoly", new["turn"]]], [], [], []]
    assert ENGINE.legal_actions(new, 0) == [{"type": "roll"}]
    with pytest.raises(IllegalAction):
        act(new, 0, {"type": "play_monopoly", "resource": "ore"})


@pytest.mark.rule("B-dev-before-roll")
def test_edition_1_allows_only_the_knight_before_the_roll():
    """B-dev-before-roll, edition 1 (kept for its matches): only a knight before the roll."""
    s = empty_board(edition=1)
    s.update(phase="roll", rolled=False, dice=None)
    s["dev"] = [[["monopoly", 1], ["knight", 1]], [], [], []]
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 0)}
    assert "play_monopoly" not in kinds and "play_knight" in kinds
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "play_monopoly", "resource": "ore"})


@pytest.mark.rule("B-dev-cards")
def test_only_the_active_player_plays_cards_and_trades_with_the_bank():
    """B-dev-cards, B-trade: a seat answering an offer acts in another's main phase but may not
    play a card or trade with the bank there."""
    s = empty_board()
    give(s, 0, ore=1)
    give(s, 1, wool=4)
    s["dev"] = [[], [["monopoly", 1], ["year_of_plenty", 1]], [], []]
    s, _ = act(s, 0, {"type": "offer", "give": {"ore": 1}, "get": {"wool": 1}, "to": [1]})
    assert 1 in ENGINE.to_act(s)
    for bad in ({"type": "play_monopoly", "resource": "ore"},
                {"type": "play_year_of_plenty", "resources": ["ore", "ore"]},
                {"type": "bank_trade", "give": "wool", "get": "ore"}):
        with pytest.raises(IllegalAction):
            act(s, 1, bad)


# ---- B-trade: the bound on offers ------------------------------------------------------------

@pytest.mark.rule("B-trade")
def test_offers_are_bounded_only_where_no_table_trades():
    """B-trade: edition 2 bounds offers at MAX_OFFERS_2 a turn, which no table meets (it only
    stops a runaway client); edition 1's bound of 3 stays for its matches."""
    assert trade.MAX_OFFERS_2 >= 100
    s = empty_board()
    give(s, 0, ore=1)
    offer = {"type": "offer", "give": {"ore": 1}, "get": {"wool": 1}, "to": None}
    for _ in range(10):
        s, _ = act(s, 0, offer)
        s, _ = act(s, 0, {"type": "withdraw", "offer": s["offers"][-1]["id"]})
    assert s["offers_made"] == 10 and any(a["type"] == "offer" for a in ENGINE.legal_actions(s, 0))
    at_bound = dict(s, offers_made=trade.MAX_OFFERS_2)
    with pytest.raises(IllegalAction, match=str(trade.MAX_OFFERS_2)):
        act(at_bound, 0, offer)
    old = empty_board(edition=1)
    give(old, 0, ore=1)
    for _ in range(3):
        old, _ = act(old, 0, offer)
        old, _ = act(old, 0, {"type": "withdraw", "offer": old["offers"][-1]["id"]})
    with pytest.raises(IllegalAction):
        act(old, 0, offer)


# ---- C12 and the bank's shortage -------------------------------------------------------------

@pytest.mark.rule("C12")
@pytest.mark.rule("B-shortage")
def test_c12_no_cargo_overboard_for_a_resource_the_bank_lacks():
    """C12 (c) with B-shortage: a full ship cannot throw cargo overboard for a resource the bank
    no longer has; keeping its cargo is the only choice. Edition 1 let it throw and take nothing."""
    s, geo, e, h = gathering({"ore": 2, "wool": 1})
    r = geo.resource[h]
    s = rolling(s, geo.number[h])
    s["bank"] = dict(s["bank"], **{r: 1})
    s, _ = act(s, 0, {"type": "roll"})
    assert s["sailing"]["pending"]["0-1"]["overboard"] == r
    s["bank"] = dict(s["bank"], **{r: 0})            # another ship took the last one meanwhile
    choices = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "overboard"]
    assert choices == [{"type": "overboard", "ship": 1, "resource": None}]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "overboard", "ship": 1, "resource": "ore"})


@pytest.mark.rule("C12")
@pytest.mark.rule("B-shortage")
def test_c12_a_full_ship_gets_nothing_the_shortage_rule_denied_everyone():
    """C12 (c) with B-shortage: where the bank cannot pay everyone owed a resource (hands and
    ships, full ones too), nobody gets it, so a full ship has nothing to throw cargo for."""
    s, geo, e, h = gathering({"ore": 2, "wool": 1})
    r = geo.resource[h]
    far = next(v for v in geo.hex_vertices[h] if v not in geo.edge_vertices[e]
               and not set(geo.vertex_adjacent[v]) & set(geo.edge_vertices[e]))
    place(s, 1, far)
    s = rolling(s, geo.number[h])
    s["bank"] = dict(s["bank"], **{r: 1})          # two owed (seat 1's settlement, the ship), one left
    after, events = act(s, 0, {"type": "roll"})
    assert {"type": "shortage", "resource": r} in events
    assert after["hands"][1][r] == 0 and after["bank"][r] == 1
    pending = (after.get("sailing") or {}).get("pending", {})
    assert "overboard" not in pending.get("0-1", {})
    old = dict(s, edition=1)
    old_after, _ = act(old, 0, {"type": "roll"})
    assert old_after["sailing"]["pending"]["0-1"]["overboard"] == r    # edition 1, kept


# ---- apply is pure after a sinking; rates keyed on values ------------------------------------

def two_ships_at_the_pirate(first, second):
    """Two ships (seats 1 and 2) on an open-sea edge next to the pirate, the dice set so that the
    first ship's attack rolls `first` and the second's `second`."""
    s = ships_board()
    geo = geometry(s["board"])
    target = next(f for f in geo.edge_adjacent[s["pirate"]] if geo.edge_kind[f] == "sea")
    add_ship(s, 1, target, {"ore": 2})
    add_ship(s, 2, target, {"wool": 2, "grain": 1})
    s = dict(s, phase="pirate")
    for draws in range(20000):
        probe = {"seed": s["seed"], "draws": draws}
        a, b = sum(dice.roll(probe, 2)), None
        if a in first:
            dice.draw(probe, 2)                      # the first ship's lost cargo...
            dice.draw(probe, 2)
            dice.draw(probe, 2)                      # ... and the commission
            b = sum(dice.roll(probe, 2))
        if b in second:
            return dict(s, draws=draws), target
    raise AssertionError("no such dice")


@pytest.mark.rule("C18")
def test_c18_apply_leaves_its_input_alone_when_the_pirate_sinks_one_ship_and_robs_another():
    """C18 and the contract: the pirate sinks the first ship it meets and robs the next; the
    state given to apply is unchanged (the later ship was once edited in place)."""
    s, target = two_ships_at_the_pirate(first=(11, 12), second=range(5, 11))
    before = copy.deepcopy(s)
    after, events = act(s, 0, {"type": "move_pirate", "edge": target})
    outcomes = [e["outcome"] for e in events if e["type"] == "pirate_attack"]
    assert outcomes[0] == "sunk" and outcomes[1] == "lost_cargo"
    assert s == before
    assert [x["seat"] for x in after["ships"]] == [2] and after["ships"][0]["cargo"] == {}


@pytest.mark.rule("B-harbour")
def test_harbour_rates_follow_the_corners_not_the_list_object():
    """B-harbour: the cached rates are keyed on who holds the harbour corners; a caller that
    edits the corner list in place gets fresh rates."""
    s = empty_board()
    geo = geometry(s["board"])
    e, kind = next((e, k) for e, k in geo.harbours if k != "3:1")
    corner = geo.edge_vertices[e][0]
    place(s, 0, corner)
    assert trade.rates(s, 0, geo)[kind] == 2
    s["owner"][corner] = -1                          # the same list, edited in place
    assert trade.rates(s, 0, geo)[kind] == 4
    s["owner"][corner] = 0
    assert trade.rates(s, 0, geo)[kind] == 2


def test_a_seats_view_carries_its_own_bank_rates_and_no_one_elses():
    """The page words the bank's trade from the view (issue 32: the engine decides): the seat's
    own entry carries the rates a bank trade takes, with a harbour's corner held; no other
    seat's entry carries rates."""
    s = empty_board()
    geo = geometry(s["board"])
    e, kind = next((e, k) for e, k in geo.harbours if k != "3:1")
    place(s, 0, geo.edge_vertices[e][0])
    mine = ENGINE.view(s, 0)["players"]
    assert mine[0]["rates"] == trade.rates(s, 0, geo) and mine[0]["rates"][kind] == 2
    assert all("rates" not in p for p in mine[1:])
    assert all("rates" not in p for p in ENGINE.view(s, None)["players"])
