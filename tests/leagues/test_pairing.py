"""Swiss pairing's properties over random events (no database)."""
from collections import Counter

from hypothesis import given, settings, strategies as st

import pytest

from leagues.pairing import BOTS, BYES, SMALLER, Player, league_round, order, pair


def _play_rounds(n, size, rounds, fill, seed):
    import random

    rnd = random.Random(seed)
    players = {k: Player(key=k, rating=rnd.random() * 10) for k in range(n)}
    history = []
    for _ in range(rounds):
        result = pair(list(players.values()), size=size, smallest=2, fill=fill)
        history.append((result, {k: p.score for k, p in players.items()}))
        for table in result.tables:
            people = [k for k in table if k is not None]
            for s, k in enumerate(table):
                if k is None:
                    continue
                p = players[k]
                p.seats[s] = p.seats.get(s, 0) + 1
                for q in people:
                    if q != k:
                        p.met[q] = p.met.get(q, 0) + 1
            for place, k in enumerate(rnd.sample(people, len(people))):
                players[k].score += size - 1 - place
        for k in result.byes:
            players[k].byes += 1
            players[k].score += (size - 1) / 2
    return players, history


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 60), size=st.integers(2, 6), rounds=st.integers(1, 5),
       fill=st.sampled_from([BYES, BOTS, SMALLER]), seed=st.integers(0, 10**6))
def test_every_player_is_seated_or_sits_out_exactly_once_a_round(n, size, rounds, fill, seed):
    players, history = _play_rounds(n, size, rounds, fill, seed)
    for result, _ in history:
        seated = [k for t in result.tables for k in t if k is not None]
        assert sorted(seated + result.byes) == list(range(n))
        assert all(len(t) == size for t in result.tables) or fill == SMALLER
        assert all(size - 1 <= len(t) <= size for t in result.tables)
        if fill == BOTS:
            assert result.byes == []
        if fill == SMALLER and size > 2 and n > size * (size - 1):  # enough tables to take one short seat each
            assert result.byes == []


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 40), size=st.integers(2, 5), rounds=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_byes_are_fair_nobody_gets_a_second_before_everyone_had_one(n, size, rounds, seed):
    players, _ = _play_rounds(n, size, rounds, BYES, seed)
    byes = [p.byes for p in players.values()]
    assert max(byes) - min(byes) <= 1


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 5), rounds=st.integers(1, 4), extra=st.integers(0, 30), seed=st.integers(0, 10**6))
def test_no_repeat_opponents_when_the_field_is_large_enough(size, rounds, extra, seed):
    # Each player has met at most (size-1)*rounds others: with well more players than that
    # around every table, a fresh table always exists.
    n = size * (2 * (size - 1) * rounds + 2) + extra
    n -= n % size
    players, _ = _play_rounds(n, size, rounds, BYES, seed)
    assert all(times == 1 for p in players.values() for times in p.met.values())


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 40), size=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_tables_are_score_groups_the_top_table_holds_the_leaders(n, size, seed):
    # Round two of a big enough field: the first table holds the best placed, nobody below
    # the first table's worst outranks it (a field with no repeats forced: n large).
    n = max(n, size * size * 2)
    n -= n % size
    players, history = _play_rounds(n, size, 2, BYES, seed)
    result, scores = history[1]
    ranked = [p.key for p in order([Player(key=k, score=s, rating=players[k].rating) for k, s in scores.items()])]
    first = result.tables[0]
    assert ranked[0] in first
    # Every table's best is no better placed than the table above's best.
    heads = [min(ranked.index(k) for k in t) for t in result.tables]
    assert heads == sorted(heads)


@settings(max_examples=30, deadline=None)
@given(size=st.integers(2, 6), rounds=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_seats_are_balanced(size, rounds, seed):
    players, _ = _play_rounds(size * 6, size, rounds, BYES, seed)
    for p in players.values():
        first = p.seats.get(0, 0)
        assert first <= (rounds + size - 1) // size + 1


def test_nine_players_at_three_seat_tables_meet_nobody_twice_in_two_rounds():
    players, history = _play_rounds(9, 3, 2, BYES, 7)
    assert all(times == 1 for p in players.values() for times in p.met.values())
    assert all(Counter(p.seats.values()) for p in players.values())


@pytest.mark.parametrize("n, size, rounds", [(6, 2, 5), (8, 2, 7), (9, 3, 4)])
def test_a_league_schedule_is_a_round_robin_where_one_exists(n, size, rounds):
    from itertools import combinations

    players = {k: Player(key=k) for k in range(n)}
    for number in range(1, rounds + 1):
        result = league_round(list(players.values()), size=size, number=number, rounds_left=rounds - number + 1)
        assert sorted(k for t in result.tables for k in t) == list(range(n))
        for table in result.tables:
            for a in table:
                for b in table:
                    if a != b:
                        players[a].met[b] = players[a].met.get(b, 0) + 1
    assert {players[a].met.get(b, 0) for a, b in combinations(range(n), 2)} == {1}


@pytest.mark.parametrize("n, size, rounds", [(5, 2, 5), (7, 2, 7)])
def test_a_league_with_one_sitting_out_each_round_is_still_a_round_robin(n, size, rounds):
    """The byes are part of the schedule: chosen apart from the tables (the fewest byes, then at
    random) a bye stranded a pair — five players at tables of two, two pairs met twice and two
    never. Now every pair meets once and everyone sits out once."""
    from itertools import combinations

    players = {k: Player(key=k) for k in range(n)}
    for number in range(1, rounds + 1):
        result = league_round(list(players.values()), size=size, number=number, rounds_left=rounds - number + 1)
        assert sorted([k for t in result.tables for k in t] + list(result.byes)) == list(range(n))
        for key in result.byes:
            players[key].byes += 1
        for table in result.tables:
            for a in table:
                for b in table:
                    if a != b:
                        players[a].met[b] = players[a].met.get(b, 0) + 1
    assert {players[a].met.get(b, 0) for a, b in combinations(range(n), 2)} == {1}
    assert {p.byes for p in players.values()} == {1}
