"""The Ship and Fortress rows follow the engine's state through every action of real matches
played through the services: created, moved, laden, sunk or sold (gone), captured or traded
(new owner)."""
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import play
from games.engines.fuldrigger import ENGINE
from games.engines.fuldrigger.bots import random_action
from games.fuldrigger.models import Fortress, Ship
from games.fuldrigger.projection import project_match
from games.models import Match
from games.engines.fuldrigger.state import fresh_turn
from tests.conftest import make_user
from tests.fuldrigger.fuldrigger_pages_support import choose_homes


def start(users, **options):
    match = play.match_create(creator=users[0], game="fuldrigger", seats=len(users), options=options)
    for user in users[1:]:
        play.match_join(match_id=match.pk, user=user)
    choose_homes(match)                    # edition 2 (F7): no fleet before the homes are chosen
    # These tests expect seat 0 to begin (F8: the first to choose): set it so, by hand.
    Match.objects.filter(pk=match.pk).update(state={**match.state, "first": 0, "turn": fresh_turn(0)})
    match.refresh_from_db()
    if match.needs_system:  # on_commit does not run inside a test's transaction
        play.system_action_apply(match_id=match.pk)
        match.refresh_from_db()
    return match


def seat_users(match):
    return {s.number: s.user for s in match.seats.all()}


def expected(match):
    users = {n: u.pk for n, u in seat_users(match).items()}
    ships = {(s["id"], s["owner"], users[s["owner"]], s["name"], s["node"],
              s["cargo"]["good"] if s["cargo"] else "", s["cargo"]["paid"] if s["cargo"] else None,
              s["privateer"]) for s in match.state["ships"].values()}
    forts = {(port, seat, users[seat]) for port, seat in match.state["fortresses"].items()}
    return ships, forts


def actual(match):
    ships = set(Ship.objects.filter(match=match).values_list(
        "engine_id", "owner_seat", "owner_id", "name", "node", "cargo", "cargo_paid", "privateer"))
    forts = set(Fortress.objects.filter(match=match).values_list("port", "owner_seat", "owner_id"))
    return ships, forts


def assert_rows_match(match):
    assert actual(match) == expected(match)


def step(match, users, rnd):
    """One move of the match as the platform would make it: the bank's card, or a bot's action."""
    if match.needs_system:
        play.system_action_apply(match_id=match.pk)
    else:
        seat = rnd.choice(ENGINE.to_act(match.state))
        play.action_apply(match_id=match.pk, user=users[seat], action=random_action(match.state, seat, rnd),
                              expected_version=match.version)
    match.refresh_from_db()


def four_users(player, opponent, outsider):
    return [player, opponent, outsider, make_user("dora")]


@pytest.mark.django_db
@pytest.mark.parametrize("seed, players, rounds", [(1, 2, 4), (2, 3, 3), (3, 4, 3), (4, 4, 0), (5, 2, 0)])
def test_rows_equal_the_snapshot_after_every_action_of_random_playouts(seed, players, rounds, player, opponent,
                                                                       outsider):
    match = start(four_users(player, opponent, outsider)[:players], rounds=rounds)
    users = seat_users(match)
    rnd = random.Random(seed)
    assert_rows_match(match)
    seen_ids, gone, owners_changed = set(), set(), 0
    previous = {s["id"]: s["owner"] for s in match.state["ships"].values()}
    for _ in range(350):
        if match.status != Match.RUNNING:
            break
        step(match, users, rnd)
        assert_rows_match(match)
        now = {s["id"]: s["owner"] for s in match.state["ships"].values()}
        gone |= set(previous) - set(now)
        owners_changed += sum(1 for n in now if n in previous and previous[n] != now[n])
        seen_ids |= set(now)
        previous = now
    assert not Ship.objects.filter(match=match, engine_id__in=gone).exists()
    if rounds:
        assert match.status == Match.FINISHED
    assert len(seen_ids) >= 3 * players


@pytest.mark.django_db
def test_a_ship_sold_disappears_and_one_traded_changes_owner(player, opponent):
    match = start([player, opponent])
    users = seat_users(match)
    mine = sorted(s["id"] for s in match.state["ships"].values() if s["owner"] == 0)
    play.action_apply(match_id=match.pk, user=users[0], action={"type": "sell_ship", "ship": mine[0]})
    assert not Ship.objects.filter(match=match, engine_id=mine[0]).exists()
    play.action_apply(match_id=match.pk, user=users[0], action={
        "type": "offer", "to": 1, "give": {"ships": [mine[1]]}, "take": {"ducats": 10}})
    match.refresh_from_db()
    offer = match.state["offers"][0]["id"]
    play.action_apply(match_id=match.pk, user=users[1], action={"type": "accept_offer", "offer": offer})
    row = Ship.objects.get(match=match, engine_id=mine[1])
    assert (row.owner_seat, row.owner) == (1, opponent)
    match.refresh_from_db()
    assert_rows_match(match)


@pytest.mark.django_db
def test_captures_sinkings_and_fortresses_follow_the_state(player, opponent):
    """A captured ship and a captured fortress change owner; a sunk ship goes; a razed fortress
    goes (the projector reads only the state, however it came to be)."""
    match = start([player, opponent])
    state = match.state
    theirs = next(s for s in state["ships"].values() if s["owner"] == 1)
    mine = next(s for s in state["ships"].values() if s["owner"] == 0)
    state["fortresses"] = {"lisbon": 0, "cadiz": 1}
    project_match(match)
    assert_rows_match(match)
    theirs["owner"] = 0                                  # taken as a prize
    mine["cargo"] = {"good": "tea", "paid": 40, "carried": 3, "from": "canton"}
    mine["node"] = "cape_town"
    del state["ships"][str(next(s["id"] for s in state["ships"].values()
                               if s["owner"] == 1 and s is not theirs))]   # sunk
    state["fortresses"] = {"lisbon": 1}                  # cadiz razed, lisbon taken
    project_match(match)
    assert_rows_match(match)
    assert Ship.objects.get(match=match, engine_id=theirs["id"]).owner == player
    assert Fortress.objects.get(match=match).owner == opponent


@pytest.mark.django_db
def test_projection_writes_only_what_changed(player, opponent):
    match = start([player, opponent])
    with CaptureQueriesContext(connection) as nothing:
        project_match(match)
    assert len(nothing) == 3                             # seats, ships, fortresses: no writes
    ship = next(iter(match.state["ships"].values()))
    ship["node"] = "north_sea"
    with CaptureQueriesContext(connection) as one_move:
        project_match(match)
    writes = [q["sql"] for q in one_move if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(writes) == 1 and writes[0].lstrip().upper().startswith("UPDATE")


@pytest.mark.django_db
def test_projection_from_the_locked_state_writes_the_difference_without_reading(player, opponent):
    """Given the state the rows hold, an unchanged fleet costs no query, a moved ship one UPDATE,
    and a captured, sunk or new ship and a razed fortress land in the rows all the same."""
    import copy

    match = start([player, opponent])
    before = copy.deepcopy(match.state)
    with CaptureQueriesContext(connection) as nothing:
        project_match(match, before)
    assert len(nothing) == 0
    ship = next(iter(match.state["ships"].values()))
    ship["node"] = "north_sea"
    with CaptureQueriesContext(connection) as one_move:
        project_match(match, before)
    writes = [q["sql"] for q in one_move if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(writes) == 1 and writes[0].lstrip().upper().startswith("UPDATE")
    assert_rows_match(match)
    before = copy.deepcopy(match.state)
    state = match.state
    theirs = next(s for s in state["ships"].values() if s["owner"] == 1)
    theirs["owner"] = 0
    sunk = next(s for s in state["ships"].values() if s["owner"] == 1 and s is not theirs)
    del state["ships"][str(sunk["id"])]
    state["fortresses"] = {"lisbon": 1}
    project_match(match, before)
    assert_rows_match(match)
    before = copy.deepcopy(match.state)
    del match.state["fortresses"]["lisbon"]
    project_match(match, before)
    assert_rows_match(match)


def test_a_seat_handed_over_by_an_admin_hands_over_its_fleet_rows(db):
    """The projection follows an admin's hand-over at once, not at the next move."""
    users = [make_user(name) for name in ("anna", "bo")]
    match = start(users)
    heir = make_user("carl")
    play.seat_hand_over(match_id=match.pk, seat_number=1, to_user=heir, actor=None)
    match.refresh_from_db()
    assert set(Ship.objects.filter(match=match, owner_seat=1).values_list("owner_id", flat=True)) == {heir.pk}
    assert_rows_match(match)
