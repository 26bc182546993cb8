"""Reliability from the log: the share of a player's last 100 turns taken in time, and the
gate a match's creator may set at join."""
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import ApiToken
from games import play
from games.errors import BadRequest, NotAllowed
from games.models import ActionLog, Match, Seat
from games.reads.reliability import (NEWCOMER_TURNS, RELIABILITY_TURNS, reliability_of, reliability_of_many,
                                      turn_records)
from tests.conftest import client_for, make_user
from tests.substitutes.support import history


def _naive(rows_by_match, user_pk):
    """Walk each match's seat rows in order; a run of one seat's rows is one turn."""
    turns = []
    for rows in rows_by_match:
        current = None
        for seq, (seat, kind, actor, when) in enumerate(rows):
            if kind == "system":
                continue
            if current is None or current["seat"] != seat:
                current = {"seat": seat, "actors": {}, "when": when}
                turns.append(current)
            entry = current["actors"].setdefault(actor, {"missed": False, "when": when})
            entry["missed"] |= kind in ("timeout", "bot")
            entry["when"] = max(entry["when"], when)
    mine = sorted((t["actors"][user_pk] for t in turns if user_pk in t["actors"]), key=lambda e: e["when"],
                  reverse=True)[:RELIABILITY_TURNS]
    return len(mine), sum(1 for e in mine if not e["missed"])


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(6))
def test_reliability_matches_a_naive_count_of_random_logs(seed):
    rnd = random.Random(seed)
    users = [make_user(f"p{seed}x{i}") for i in range(3)]
    rows_by_match = []
    tick = 0
    for _m in range(rnd.randint(1, 4)):
        match = Match.objects.create(game="race", seats_count=3, creator=users[0], status=Match.RUNNING)
        rows = []
        for seq in range(1, rnd.randint(5, 120)):
            tick += 1
            seat = rnd.randrange(3)
            kind = rnd.choice(["player", "player", "order", "timeout", "bot", "system"])
            actor = None if kind == "system" else users[seat].pk
            row = ActionLog.objects.create(match=match, seq=seq, seat=None if kind == "system" else seat,
                                           kind=kind, actor_id=actor, action={"type": "x"})
            ActionLog.objects.filter(pk=row.pk).update(created_at=row.created_at.replace(microsecond=0)
                                                       + __import__("datetime").timedelta(seconds=tick))
            rows.append((seat, kind, actor, tick))
        rows_by_match.append(rows)
    known = reliability_of_many([u.pk for u in users])
    # What the profiles keep (the listener's count, games/play/records.py) and the lobby reads:
    # the same turns, in one query of the profiles, without the matches finished.
    from games.play.records import records_refresh

    records_refresh([u.pk for u in users])
    with CaptureQueriesContext(connection) as queries:
        worded = turn_records([u.pk for u in users])
    assert len(queries) == 1
    for user in users:
        turns, in_time = _naive(rows_by_match, user.pk)
        assert (known[user.pk].turns, known[user.pk].in_time) == (turns, in_time)
        assert (worded[user.pk].turns, worded[user.pk].in_time, worded[user.pk].words) == (
            turns, in_time, known[user.pk].words)
        assert worded[user.pk].finished is None


@pytest.mark.django_db
def test_only_the_last_hundred_turns_count_and_words_say_the_share(player, opponent):
    history(player, in_time=50, missed=0, other=opponent)
    history(player, in_time=97, missed=3, other=opponent)  # the newer match: 97 of its last 100
    known = reliability_of(player.pk)
    assert (known.turns, known.in_time, known.percent) == (100, 97, 97)
    assert known.words == "takes 97 % of turns in time"
    assert reliability_of(opponent.pk).percent == 100


@pytest.mark.django_db
def test_a_newcomer_is_told_as_new(player, opponent):
    history(player, in_time=NEWCOMER_TURNS - 1, other=opponent)
    known = reliability_of(player.pk)
    assert known.newcomer and known.words == f"new here: {NEWCOMER_TURNS - 1} turns so far"
    assert known.admits(99)


@pytest.mark.django_db
def test_timeouts_and_bots_in_a_real_match_count_as_missed(race_match, player, opponent, settings,
                                                           django_capture_on_commit_callbacks):
    from datetime import timedelta
    from django.utils import timezone
    Match.objects.filter(pk=race_match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        play.deadline_apply(match_id=race_match.pk)
    assert set(ActionLog.objects.filter(kind="timeout").values_list("actor_id", flat=True)) == {player.pk}
    assert (reliability_of(player.pk).turns, reliability_of(player.pk).in_time) == (1, 0)


@pytest.mark.django_db
def test_a_minimum_is_checked_at_create(player):
    for bad in ("lots", 101, -1):
        with pytest.raises(BadRequest):
            play.match_create(creator=player, game="race", seats=2, min_reliability=bad)
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_a_join_below_the_minimum_is_refused_and_stores_nothing(player, opponent, outsider):
    history(opponent, in_time=10, missed=10, other=outsider)  # 50 %
    match = play.match_create(creator=player, game="race", seats=2, min_reliability=90)
    with pytest.raises(NotAllowed, match="90 %"):
        play.match_join(match_id=match.pk, user=opponent)
    assert Seat.objects.filter(match=match).count() == 1
    # The page and the API refuse it the same way.
    response = client_for(opponent).post(reverse("match_join", args=[match.pk]))
    assert response.status_code == 403 and Seat.objects.filter(match=match).count() == 1
    key = ApiToken.issue(opponent)[1]
    api = client_for(opponent).post(f"/api/matches/{match.pk}/join", content_type="application/json", data={},
                                    HTTP_AUTHORIZATION=f"Token {key}")
    assert api.status_code == 403 and "90 %" in api.json()["error"]
    assert Seat.objects.filter(match=match).count() == 1
    play.match_join(match_id=match.pk, user=outsider)  # a newcomer is let in
    assert Seat.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_the_api_tells_a_players_reliability_and_takes_a_minimum(client, player, opponent):
    history(opponent, in_time=19, missed=1, other=player)
    key = ApiToken.issue(player)[1]
    answer = client.get("/api/players/bo/reliability", HTTP_AUTHORIZATION=f"Token {key}").json()
    assert answer["percent"] == 95 and answer["words"] == "takes 95 % of turns in time"
    created = client.post("/api/matches", content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}",
                          data={"game": "race", "seats": 2, "min_reliability": 96})
    assert created.status_code == 201
    assert Match.objects.get(pk=created.json()["id"]).min_reliability == 96
    bad = client.post("/api/matches", content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}",
                      data={"game": "race", "seats": 2, "min_reliability": 101})
    assert bad.status_code == 400 and Match.objects.count() == 2  # the history's match and the one made
    schema = client.get("/api/openapi.json").json()
    assert "/players/{username}/reliability" in schema["paths"] and "/substitutes/offers/{offer_id}/accept" in schema["paths"]
    assert "min_reliability" in schema["components"]["schemas"]["NewMatch"]["properties"]


@pytest.mark.django_db
def test_the_profiles_keep_the_records_as_turns_pass_and_the_seat_cards_read_them_without_the_log(
        player, opponent, django_capture_on_commit_callbacks):
    """The listener of the turns that pass (games/play/records.py) counts the players who acted
    again; the seat cards read the profiles, which the seats are read with, and no log."""
    from accounts.models import Profile
    from games.reads import selectors
    from games.reads.reliability import seat_records

    history(player, in_time=9, missed=1, other=opponent)
    match = play.match_create(creator=player, game="race", seats=2)
    with django_capture_on_commit_callbacks(execute=True):
        play.match_join(match_id=match.pk, user=opponent)
        first = Match.objects.get(pk=match.pk).turn_seats[0]
        mover = player if first == 0 else opponent
        play.action_apply(match_id=match.pk, user=mover, action={"type": "roll"})
    # A move that keeps the turn settles nothing: the mover's record is as it was.
    kept = Profile.objects.get(user=mover)
    assert (kept.turns_counted, kept.turns_in_time) == ((10, 9) if mover == player else (10, 10))
    with django_capture_on_commit_callbacks(execute=True):
        play.action_apply(match_id=match.pk, user=mover, action={"type": "stay"})
    for user in (player, opponent):
        profile, counted = Profile.objects.get(user=user), reliability_of(user.pk)
        assert (profile.turns_counted, profile.turns_in_time) == (counted.turns, counted.in_time)
    assert Profile.objects.get(user=mover).turns_counted == 11
    live = selectors.match_live(match_id=match.pk)
    selectors.with_seats_and_players(live)
    with CaptureQueriesContext(connection) as queries:
        records = seat_records(live.seats.all())
    assert len(queries) == 0
    assert records[player.pk].words == reliability_of(player.pk).words


@pytest.mark.django_db
def test_the_migration_counts_every_player_who_ever_acted_onto_their_profile(player, opponent):
    import importlib

    from django.apps import apps

    from accounts.models import Profile

    history(player, in_time=12, missed=3, other=opponent)
    Profile.objects.update(turns_counted=0, turns_in_time=0)  # as before the migration
    importlib.import_module("games.migrations.0013_turn_records").count(apps, None)
    for user in (player, opponent):
        profile, counted = Profile.objects.get(user=user), reliability_of(user.pk)
        assert (profile.turns_counted, profile.turns_in_time) == (counted.turns, counted.in_time)
    assert Profile.objects.get(user=player).turns_in_time == 12
