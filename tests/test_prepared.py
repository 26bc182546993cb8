"""The prepared reads (games/prepared.py) give what their plain QuerySets give, field for field,
with the same related objects attached, and one query each."""
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Vacation
from games import selectors, services
from games.errors import NotFound
from games.models import ActionLog, Match, Seat
from games.prepared import PreparedRead, prefetched


def _fields(obj):
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def played(race_match, player, opponent, play):
    play(race_match, (player, "roll"), (player, "stay"), (opponent, "roll"))
    Vacation.objects.create(user=opponent, starts_at=timezone.now() - timedelta(days=1),
                            ends_at=timezone.now() + timedelta(days=2))
    return Match.objects.get(pk=race_match.pk)


@pytest.mark.django_db
def test_match_with_creator_as_the_orm_reads_it(played, player):
    prepared = selectors._MATCH_WITH_CREATOR.first(played.pk)
    plain = Match.objects.select_related("creator").get(pk=played.pk)
    assert _fields(prepared) == _fields(plain)
    assert prepared.state == plain.state and isinstance(prepared.state, dict)
    assert prepared._state.adding is False and prepared._state.db == "default"
    with CaptureQueriesContext(connection) as queries:
        assert prepared.creator == player and prepared.creator.username == player.username
    assert len(queries) == 0, "the creator came with the match"


@pytest.mark.django_db
def test_seats_with_players_profiles_and_vacations_as_the_orm_reads_them(played, opponent):
    prepared = selectors._SEATS_WITH_PLAYERS.all(played.pk)
    plain = list(selectors._seats_with_players().filter(match_id=played.pk))
    assert [_fields(s) for s in prepared] == [_fields(s) for s in plain]
    assert [s.number for s in prepared] == [0, 1]
    with CaptureQueriesContext(connection) as queries:
        for mine, theirs in zip(prepared, plain):
            assert _fields(mine.user) == _fields(theirs.user)
            assert _fields(mine.user.profile) == _fields(theirs.user.profile)
            assert mine.away_until == theirs.away_until
    assert len(queries) == 0, "users and profiles came with the seats"
    away = {s.user_id: s.away_until for s in prepared}
    assert away[opponent.pk] is not None and away[opponent.pk] > timezone.now()
    assert sum(v is None for v in away.values()) == 1


@pytest.mark.django_db
def test_recent_log_newest_first_as_the_orm_reads_it(played):
    prepared = selectors._RECENT_LOG.all(played.pk, played.version)
    plain = list(ActionLog.objects.filter(match_id=played.pk).order_by("-seq")[:selectors.LOG_LINES])
    assert [_fields(r) for r in prepared] == [_fields(r) for r in plain]
    assert [r.seq for r in prepared] == sorted((r.seq for r in prepared), reverse=True)
    assert all(isinstance(r.events, list) for r in prepared)


@pytest.mark.django_db
def test_match_get_hands_its_seats_over_as_prefetched(played):
    with CaptureQueriesContext(connection) as queries:
        match = selectors.match_get(match_id=played.pk)
        seats = list(match.seats.all())
        names = [s.user.profile.display_name for s in seats]
        assert all(s.match is match for s in seats)
    assert len(queries) == 2, [q["sql"] for q in queries]
    assert names == ["Anna", "Bo"]
    # A filter on the prefetched seats still asks the database, and gets the same answer.
    assert list(match.seats.filter(number=1)) == [seats[1]]


@pytest.mark.django_db
def test_a_move_reads_its_locked_match_and_seats_prepared(race_match, player, django_capture_on_commit_callbacks):
    before = Match.objects.get(pk=race_match.pk).version
    with CaptureQueriesContext(connection) as queries:
        services.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    assert Match.objects.get(pk=race_match.pk).version == before + 1
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries[0]["sql"] or any("FOR UPDATE" in q["sql"] for q in queries[:3])


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["x", "", None, 0, -1, 2 ** 63, 10 ** 30, True, "1e3", 3.5j])
def test_ids_the_database_cannot_hold_are_no_such_match(bad):
    with pytest.raises(NotFound):
        selectors.match_get(match_id=bad)


@pytest.mark.django_db
def test_an_unknown_match_is_no_such_match(played):
    with pytest.raises(NotFound):
        selectors.match_get(match_id=played.pk + 1000)
    with pytest.raises(NotFound):
        selectors.match_for_player(match_id=played.pk + 1000, user=None)


@pytest.mark.django_db
def test_a_parameter_that_does_not_reach_the_sql_once_is_refused(race_match):
    twice = PreparedRead(lambda pk: Match.objects.filter(pk=pk) | Match.objects.filter(id=pk))
    with pytest.raises(ValueError, match="once"):
        twice.all(race_match.pk)
    unused = PreparedRead(lambda pk: Match.objects.all())
    with pytest.raises(ValueError, match="once"):
        unused.all(race_match.pk)


@pytest.mark.django_db
def test_prefetched_seats_replace_the_relation_for_reading_only(race_match):
    match = Match.objects.get(pk=race_match.pk)
    only_first = list(Seat.objects.filter(match=match, number=0))
    prefetched(match, "seats", only_first)
    assert list(match.seats.all()) == only_first  # what was handed over, without a query
    assert match.seats.count() == 1


@pytest.mark.django_db
def test_a_values_list_read_gives_the_tuples_the_orm_gives(played):
    from notifications.listeners import _LOG_EVENTS

    plain = list(ActionLog.objects.filter(match_id=played.pk, seq__gte=2, seq__lte=3)
                 .order_by("seq").values_list("seq", "events"))
    assert _LOG_EVENTS.all(played.pk, 2, 3) == plain and len(plain) == 2
    assert _LOG_EVENTS.all(played.pk, 3, 2) == []
    flat = PreparedRead(lambda pk: Match.objects.filter(pk=pk).values_list("pk", flat=True))
    with pytest.raises(ValueError, match="tuples"):
        flat.all(played.pk)


@pytest.mark.django_db(transaction=True)
def test_a_jobs_locked_row_reads_as_the_orm_reads_it_and_a_held_row_is_skipped(race_match):
    """The worker's lock of a job (games.tasks._JOB_LOCKED): the row's match, kind and JSON
    arguments as the ORM gives them, nothing for a row another run holds or none at all."""
    import threading

    from django.db import transaction

    from games.models import Job
    from games.tasks import _JOB_LOCKED

    job = Job.objects.create(match=race_match, kind=Job.MATCH_CHANGED, args={"first_seq": 1, "last_seq": 2})
    plain = list(Job.objects.filter(pk=job.pk).values_list("match_id", "kind", "args"))
    assert _JOB_LOCKED.first(job.pk + 1000) is None
    with transaction.atomic():
        assert [_JOB_LOCKED.first(job.pk)] == plain
        if not connection.features.has_select_for_update_skip_locked:
            return  # SQLite locks the whole database: there is no row to skip
        seen = []

        def other_run():  # another worker's run, on a connection of its own
            from django.db import connection as other

            try:
                with transaction.atomic():
                    seen.append(_JOB_LOCKED.first(job.pk))
            finally:
                other.close()

        runner = threading.Thread(target=other_run)
        runner.start()
        runner.join()
        assert seen == [None]
    assert _JOB_LOCKED.first(job.pk) == plain[0]  # let go once the first run's transaction ends


def _play_moves(match, users, count):
    """`count` moves of whoever is to act (the last legal action: stay after a roll), each
    committed with its jobs run (the race's wind)."""
    from django.test import TestCase

    from games.engines import get_engine

    engine = get_engine("race")
    for _ in range(count):
        match = Match.objects.get(pk=match.pk)
        seat = engine.to_act(match.state)[0]
        with TestCase.captureOnCommitCallbacks(execute=True):
            services.action_apply(match_id=match.pk, user=users[seat],
                                  action=engine.legal_actions(match.state, seat)[-1])


def _plain_log(match_id, version):
    return [(r.pk, r.seq, r.events) for r in ActionLog.objects.filter(match_id=match_id, seq__lte=version)
            .order_by("-seq")[:selectors.LOG_LINES]]


@pytest.mark.django_db
def test_the_recent_log_kept_between_versions_is_the_one_the_database_holds(race_match, player, opponent):
    """Issue 15: a socket's read of each new version fetches only the rows after the newest one
    it kept, and still gets the thirty newest rows, newest first, as the database holds them."""
    users = [player, opponent]
    for _ in range(12):
        _play_moves(race_match, users, 4)
        match = selectors.match_live(match_id=race_match.pk)
        assert [(r.pk, r.seq, r.events) for r in match.recent_log] == _plain_log(race_match.pk, match.version)
    assert match.version > selectors.LOG_LINES + 10
    _play_moves(race_match, users, 1)
    with CaptureQueriesContext(connection) as queries:
        match = selectors.match_live(match_id=race_match.pk)
    log_reads = [q["sql"] for q in queries.captured_queries if "actionlog" in q["sql"].lower()]
    assert len(log_reads) == 1 and '"seq" >=' in log_reads[0]  # the kept newest row and the one after
    assert [(r.pk, r.seq, r.events) for r in match.recent_log] == _plain_log(race_match.pk, match.version)


@pytest.mark.django_db
def test_an_older_version_read_after_a_newer_one_gets_its_own_rows(race_match, player, opponent):
    import copy

    _play_moves(race_match, [player, opponent], 45)
    newest = selectors.match_live(match_id=race_match.pk)
    older = copy.copy(newest)
    older.version = newest.version - 7
    assert [(r.pk, r.seq, r.events) for r in selectors.recent_logs.of(older)] == \
        _plain_log(race_match.pk, older.version)


@pytest.mark.django_db
def test_a_kept_newest_row_that_is_no_longer_in_the_database_makes_a_fresh_read(race_match, player, opponent):
    """As when a database is made again and its ids and seqs repeat: the row at the kept seq is
    another row, so nothing kept is trusted."""
    _play_moves(race_match, [player, opponent], 10)
    match = selectors.match_live(match_id=race_match.pk)
    top = match.recent_log[0]
    ActionLog.objects.filter(match_id=race_match.pk, seq__lt=top.seq).update(events=[{"type": "replaced"}])
    ActionLog.objects.filter(pk=top.pk).update(events=[{"type": "replaced"}],
                                               created_at=top.created_at + timedelta(seconds=1))
    again = selectors.match_live(match_id=race_match.pk)
    assert [r.events for r in again.recent_log] == [[{"type": "replaced"}]] * len(again.recent_log)
    assert [(r.pk, r.seq, r.events) for r in again.recent_log] == _plain_log(race_match.pk, again.version)
