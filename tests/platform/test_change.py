"""One committed change, one immutable value (issue 32): what every service returns and every
listener reads, and how the live path renders it once and forwards it."""
import dataclasses

import pytest
from django.test import Client
from django.test.signals import template_rendered

from games import play
from games.live import socket_slots
from games.change import Change
from games.live import publisher
from games.live.viewers import Viewer
from games.models import ActionLog, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def watching():
    """Register viewers of a match as sockets do (games/live/socket_slots.py), and let them go."""
    claimed = []

    def watch(match, viewer):
        scope = {"url_route": {"kwargs": {"match_id": match.pk}}}
        claimed.append(socket_slots.claim(scope, viewer.key()))
        return viewer

    yield watch
    for counted in claimed:
        socket_slots.release(counted)


def _viewer(user=None, language="en", zone="UTC", feed="html"):
    return Viewer(user_id=user.pk if user else None, staff=False, invite="", session="", credentials="",
                  language=language, zone=zone, feed=feed)


@pytest.fixture
def renders():
    """The live parts rendered, as (template) names."""
    seen = []

    def rendered(sender, template, context, **kwargs):
        if template.name == "games/partials/match_live.html":
            seen.append(context.get("user"))

    template_rendered.connect(rendered)
    yield seen
    template_rendered.disconnect(rendered)


def test_a_move_returns_the_change_it_made_and_the_change_cannot_be_altered(race_match, player):
    change = play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    assert isinstance(change, Change)
    row = ActionLog.objects.get(match_id=race_match.pk, seq=1)
    assert (change.version, change.revision, change.first_seq) == (1, "", 1)
    assert [(r.seq, r.seat, r.kind, list(r.events)) for r in change.rows] == [(1, 0, ActionLog.PLAYER, row.events)]
    assert change.access.seated == tuple(sorted(s.user_id for s in race_match.seats.all()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        change.version = 7
    assert change.facts() == {"first_seq": 1, "last_seq": 1, "turn_passed_to": None}


def test_the_change_that_passes_the_turn_names_its_new_owner(race_match, player):
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    change = play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})
    assert change.turn_seats == (1,) and change.turn_passed_to == 1
    assert Match.objects.get(pk=race_match.pk).turn_seats == [1]


def test_a_change_that_keeps_the_version_has_a_revision_of_its_own_growing_with_time(player, opponent, outsider):
    match = play.match_create(creator=player, game="race", seats=3)
    first = play.match_set_colour(match_id=match.pk, user=player, colour="green")
    second = play.match_set_colour(match_id=match.pk, user=player, colour="blue")
    assert first.rows == () and first.version == second.version == 0
    assert first.revision and second.revision > first.revision
    assert first.access.lobby and first.access.seated == (player.pk,)


def test_a_change_nobody_watches_renders_nothing(race_match, player, renders, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    assert callbacks
    assert renders == []


def test_each_part_is_rendered_once_per_kind_of_viewer(race_match, player, opponent, outsider, watching, renders,
                                                      django_capture_on_commit_callbacks):
    for viewer in [_viewer(player), _viewer(player), _viewer(opponent), _viewer(), _viewer(outsider)]:
        watching(race_match, viewer)
    with django_capture_on_commit_callbacks(execute=True):
        play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    # anna's two sockets share one; bo one; the visitor and carl, spectators of a running
    # match, one between them.
    assert len(renders) == 3


def test_the_movers_answer_is_the_rendering_their_socket_gets(race_match, player, watching, renders,
                                                             django_capture_on_commit_callbacks):
    watching(race_match, _viewer(player))
    client = Client()
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/matches/{race_match.pk}/action/", {"action": '{"type": "roll"}', "version": "0"},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and 'data-version="1"' in answer.content.decode()
    assert len(renders) == 1


def test_a_part_is_drawn_in_the_viewers_own_words(race_match, player, opponent):
    change = play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    danish = publisher.part(change, _viewer(opponent, language="da"))
    english = publisher.part(change, _viewer(opponent))
    assert danish != english and "Log" in english
    # and the state feed's data for the seat
    assert '"my_seat":1' in publisher.part(change, _viewer(opponent, feed="state"))


@pytest.mark.parametrize("game, drawing", [("catan_ships", 'class="cs-hexes"'), ("fuldrigger", 'class="fd-players"')])
def test_the_board_every_viewer_shares_is_drawn_once_and_each_part_is_as_if_drawn_alone(
        game, drawing, player, opponent, outsider, watching, django_capture_on_commit_callbacks):
    from django.utils import translation

    from games.reads import panels, selectors

    match = play.match_create(creator=player, game=game, seats=3)
    for user in (opponent, outsider):
        play.match_join(match_id=match.pk, user=user)
    match = selectors.match_live(match_id=match.pk)
    with translation.override("en"):
        shared = panels.shared_parts(match)
    assert drawing in shared["board"]
    for user in (player, opponent, outsider, None):
        kind = f"u{user.pk}" if user else "spectator"
        alone = publisher.render(match, _viewer(user), kind, "")
        assert publisher.render(match, _viewer(user), kind, "", shared) == alone

    boards = []

    def drawn(sender, template, context, **kwargs):
        if template.name == f"games/{game}/partials/board_shared.html":
            boards.append(1)

    for user in (player, opponent, outsider, None):
        watching(match, _viewer(user))
    template_rendered.connect(drawn)
    try:
        to_act = selectors.match_get(match_id=match.pk).turn_seats[0]
        mover = [player, opponent, outsider][to_act]
        legal = __import__("games.engines", fromlist=["get_engine"]).get_engine(game).legal_actions(
            match.state, to_act)
        with django_capture_on_commit_callbacks(execute=True):
            play.action_apply(match_id=match.pk, user=mover, action=legal[0])
    finally:
        template_rendered.disconnect(drawn)
    assert boards == [1]  # four viewers, one language: one board



def test_the_parts_of_a_change_read_the_database_as_much_for_one_watcher_as_for_four(player, opponent, outsider):
    """The players' records on the seat cards and the substitutes the table may still refuse are
    read once per change (panels.match_facts), not once per viewer's part."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.engines import get_engine
    from games.reads import selectors

    match = play.match_create(creator=player, game="catan_ships", seats=3)
    for user in (opponent, outsider):
        play.match_join(match_id=match.pk, user=user)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.RUNNING
    mover = match.turn_seats[0]
    users = {s.number: s.user for s in match.seats.all()}
    change = play.action_apply(match_id=match.pk, user=users[mover],
                               action=get_engine("catan_ships").legal_actions(match.state, mover)[0])

    def queries_of(viewers):
        fresh = dataclasses.replace(change, match=selectors.match_live(match_id=match.pk), parts={})
        with CaptureQueriesContext(connection) as queries:
            parts = [publisher.part(fresh, viewer) for viewer in viewers]
        assert all('id="match-live"' in p for p in parts)
        return len(queries)

    one = queries_of([_viewer(player)])
    four = queries_of([_viewer(player), _viewer(opponent), _viewer(outsider), _viewer()])
    assert one == four


@pytest.mark.parametrize("game", ["catan_ships", "fuldrigger", "pirater"])
def test_what_a_change_draws_once_for_all_viewers_is_what_each_would_draw_alone(game, player, opponent, outsider):
    """The shared board and the {% once %} blocks (games_tags.once) are drawn by the first
    viewer's part and taken as drawn by the others: over a random playout, at every version,
    each seat's and a spectator's part, in two languages, is byte for byte what it is drawn alone."""
    import importlib
    import random

    from games.engines import get_engine
    from games.reads import selectors

    engine = get_engine(game)
    bots = importlib.import_module(f"games.engines.{game}.bots")
    match = play.match_create(creator=player, game=game, seats=3)
    for user in (opponent, outsider):
        play.match_join(match_id=match.pk, user=user)
    users = {s.number: s.user for s in Match.objects.get(pk=match.pk).seats.all()}
    rnd, compared = random.Random(32), 0
    for _ in range(30):
        match = Match.objects.get(pk=match.pk)
        if match.needs_system:
            change = play.system_action_apply(match_id=match.pk)
        elif match.status == Match.RUNNING:
            seat = rnd.choice(engine.to_act(match.state))
            change = play.action_apply(match_id=match.pk, user=users[seat],
                                       action=bots.random_action(match.state, seat, rnd))
        else:
            break
        if not isinstance(change, Change):
            continue
        fresh = dataclasses.replace(change, match=selectors.match_live(match_id=match.pk), parts={})
        for language in ("en", "da"):
            for user in (*users.values(), None):
                viewer = _viewer(user, language=language)
                kind = viewer.kind(change.access)
                alone = publisher.render(selectors.match_live(match_id=match.pk), viewer, kind, change.revision)
                assert publisher.part(fresh, viewer) == alone, (game, change.version, language, kind)
                compared += 1
    assert compared >= 8 * 20
    assert any(memo[0] == "shared" and memo_part["once"] for memo, memo_part in fresh.parts.items()
               if isinstance(memo_part, dict))


def test_viewers_shown_different_events_of_the_log_each_get_their_own_lines(race_match, player, opponent, outsider):
    """The log is drawn once for the viewers shown the same events (selectors.log_lines_seen): a
    private event keeps its seat's log apart from the others', however many share a drawing."""
    from django.utils import translation

    from games.reads import panels, selectors

    change = play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    ActionLog.objects.create(match_id=race_match.pk, seq=change.rows[-1].seq + 1, seat=None, kind=ActionLog.SYSTEM,
                             action={"type": "note"}, events=[{"type": "admin_pause", "private": [0]}])
    Match.objects.filter(pk=race_match.pk).update(version=change.version + 1)
    match = selectors.match_live(match_id=race_match.pk)
    with translation.override("en"):
        shared = {**panels.match_facts(match), **panels.shared_parts(match)}
    parts = {}
    for user in (outsider, player, opponent, None):  # a spectator first: the shared drawing is theirs
        kind = f"u{user.pk}" if user in (player, opponent) else "spectator"
        alone = publisher.render(selectors.match_live(match_id=race_match.pk), _viewer(user), kind, "")
        parts[user] = publisher.render(match, _viewer(user), kind, "", shared)
        assert parts[user] == alone
    assert "An admin paused the match." in parts[player]
    assert all("An admin paused the match." not in parts[u] for u in (opponent, outsider, None))
    assert len(shared["seen"]) == 2  # two ways of seeing the log, each drawn once


def test_a_watched_moves_parts_show_who_is_on_vacation_from_the_seats_the_move_read(race_match, player, opponent,
                                                                                   outsider, settings):
    """A move reads its seats with their players under the lock, and its parts draw from that
    read: who is on vacation comes with the players' profiles (Profile.away_until), and a seat's
    card says its player is away with no query of its own."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.VACATION_DAYS_PER_YEAR = 21
    assert race_match.allow_vacation
    play.vacation_start(user=opponent, days=3)
    change = play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    with CaptureQueriesContext(connection) as queries:
        parts = [publisher.part(change, _viewer(user)) for user in (player, opponent, outsider, None)]
    assert all("on vacation until" in p for p in parts)
    vacation_reads = [q for q in queries.captured_queries if "accounts_vacation" in q["sql"]]
    assert vacation_reads == []
    assert not any('FROM "games_seat"' in q["sql"] for q in queries.captured_queries)  # as the move read them


def test_a_change_told_on_the_state_feed_reads_nothing_the_move_did_not(race_match, player, opponent):
    """The state feed sends the seat's view and legal actions, not the log: a change that only
    state feeds watch is told from what the move read under the lock, with no query (a bot's
    socket move read the log's recent rows for nothing)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    change = play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    with CaptureQueriesContext(connection) as queries:
        parts = [publisher.part(change, _viewer(user, feed="state")) for user in (player, opponent, None)]
    assert all(p.startswith('{"type":"match.state"') for p in parts)
    assert queries.captured_queries == []


def test_a_move_writes_with_few_statements_and_locks_its_match_by_its_key_alone(race_match, player):
    """The write path's queries are the lock, the seats with their players, the match, the log
    row and the commit's (issue 32: "the write path's queries are few"). The lock reads one row
    by its primary key: no ORDER BY, which the ORM builds at a quarter of the lock's cost."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    statements = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    lock = statements[0]  # SQLite, which locks the whole database, has no FOR UPDATE
    assert 'FROM "games_match"' in lock and "ORDER BY" not in lock
    assert ("FOR UPDATE" in lock) == (connection.vendor == "postgresql")
    assert len(statements) <= 5, statements
