"""The one read model of the live path (issue 26): a committed change leaves a snapshot of its
version (row, seats with their players, recent log) from which the live part renders with no
query, and whose log is the one the database holds however it was put together."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import live, panels, selectors, services, socket_slots
from games.engines import get_engine
from games.models import ActionLog, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch):
    """Each announcement's (version, revision, snapshot), as if a socket watched the match (a
    change nobody watches keeps no snapshot)."""
    seen = []
    monkeypatch.setattr(socket_slots, "watched", lambda match_id: True)
    monkeypatch.setattr(live, "publish", lambda match_id, version, revision, snapshot, access:
                        seen.append((version, revision, snapshot)))
    return seen


def _plain_log(match_id, version):
    return [(r.pk, r.seq, r.events) for r in ActionLog.objects.filter(match_id=match_id, seq__lte=version)
            .order_by("-seq")[:selectors.LOG_LINES]]


def _move(match, users, capture):
    match = Match.objects.get(pk=match.pk)
    seat = get_engine("race").to_act(match.state)[0]
    with capture(execute=True):
        services.action_apply(match_id=match.pk, user=users[seat],
                              action=get_engine("race").legal_actions(match.state, seat)[-1])


def test_each_snapshot_holds_its_versions_thirty_newest_rows(race_match, player, opponent, published,
                                                             django_capture_on_commit_callbacks):
    for _ in range(45):
        _move(race_match, [player, opponent], django_capture_on_commit_callbacks)
        version, revision, snapshot = published[-1]
        assert snapshot.version == version and revision == ""
        assert [(r.pk, r.seq, r.events) for r in snapshot.recent_log] == _plain_log(race_match.pk, version)
    assert version > selectors.LOG_LINES


def test_a_moves_snapshot_reads_no_log_row_it_wrote_or_kept(race_match, player, opponent, published,
                                                            django_capture_on_commit_callbacks):
    _move(race_match, [player, opponent], django_capture_on_commit_callbacks)
    with CaptureQueriesContext(connection) as queries:
        _move(race_match, [player, opponent], django_capture_on_commit_callbacks)
    # (the notifications' job reads the new row's events alone)
    rows_read = [q["sql"] for q in queries.captured_queries if 'SELECT "games_actionlog"."id"' in q["sql"]]
    assert rows_read == []
    assert [(r.pk, r.seq, r.events) for r in published[-1][2].recent_log] == \
        _plain_log(race_match.pk, published[-1][0])


def test_rows_kept_from_another_database_are_not_trusted(race_match, player, opponent, published,
                                                         django_capture_on_commit_callbacks):
    """As when a database is made again and its ids and seqs repeat: the rows kept for a
    version before this one are not that match's, so the log is read afresh."""
    _move(race_match, [player, opponent], django_capture_on_commit_callbacks)
    ActionLog.objects.filter(match_id=race_match.pk).update(events=[{"type": "replaced"}])
    Match.objects.filter(pk=race_match.pk).update(created_at=race_match.created_at.replace(year=2001))
    _move(race_match, [player, opponent], django_capture_on_commit_callbacks)
    snapshot = published[-1][2]
    assert [(r.pk, r.seq, r.events) for r in snapshot.recent_log] == _plain_log(race_match.pk, snapshot.version)
    assert snapshot.recent_log[-1].events == [{"type": "replaced"}]


def test_the_live_part_renders_from_a_snapshot_without_a_query(race_match, player, opponent, published,
                                                               django_capture_on_commit_callbacks):
    from django.core.cache import cache

    _move(race_match, [player, opponent], django_capture_on_commit_callbacks)
    version, revision, snapshot = published[-1]
    cache.set("test:snapshot", snapshot)
    kept = cache.get("test:snapshot")  # as a socket in another process gets it
    seated = {s.user_id: s.user for s in kept.seats.all()}
    with CaptureQueriesContext(connection) as queries:
        html = panels.render_live(kept, seated[player.pk])
        spectator = panels.render_live(kept, None)
    assert len(queries) == 0, [q["sql"] for q in queries.captured_queries]
    assert f'data-version="{version}"' in html and "peeked at the secret" in html
    assert "peeked at the secret" not in spectator
