"""Figure 3: database queries per action and per match page, early in a match and 1,000 actions
later. They must not grow with the log: a long match costs what a short one does.

In this process, on the bench database: one four-player Fuldrigger match without a round limit
is played by the engine's bot through games.play.action_apply; the chance cards the system
draws are applied with play.system_action_apply (not counted as a player's action). At the
first action and at the first action of the same type from action 1,000 on, it counts the
queries of that action_apply, of the match page (django.test.Client, logged in as a player) and,
for the whole request, of one HTMX action and one JSON API action, and what one socket's update
costs (MatchConsumer reads the match and renders the live part, for every viewer, every version)."""
from __future__ import annotations

import importlib
import json
import random

from bench.common import Figure, make_users, start_match

# No round limit, and rich players: the match must outlast 1,000 actions (bankrupt players
# leave; a match that still ends early is replayed with new dice, up to three times).
GAME, OPTIONS, PLAYERS = "fuldrigger", {"rounds": 0, "isthmus": True, "start_cash": 1000}, 4
FAR = 1000
# Edition 2's setup (each player chooses a home port) never comes back: the two points compare
# the first action of the play proper with one of its kind from action 1,000 on.
SETUP = {"choose_home"}
TARGET = 12


def _counting():
    """A CaptureQueriesContext on a cleared log: the log keeps only the last 9,000 queries, and
    a full one would count every later capture as zero."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.queries_log.clear()
    return CaptureQueriesContext(connection)


def _sql(ctx) -> list[str]:
    return [q["sql"][:160] for q in ctx.captured_queries]


def measure() -> list[Figure]:
    from games.play import jobs

    users = make_users("q", PLAYERS)
    # Chance cards are applied here, one step at a time, not by the on_commit job.
    real_queue = jobs.queue
    jobs.queue = lambda name, *args: None
    try:
        for attempt in range(3):
            try:
                points, system_counts = _play(users, attempt)
                break
            except EndedEarly:
                if attempt == 2:
                    raise
    finally:
        jobs.queue = real_queue

    near, far = points[1], points[FAR]
    figures = []

    def pair(name, key, what, target=True, most=TARGET):
        a, b = near[key], far[key]
        ok = (a == b and b <= most) if target else None
        figures.append(Figure(
            name, b, "queries", f"= at action 1, <= {most}" if target else "", ok, baseline=a,
            compared_with=f"{what} at action {near['action_number']} ({near['action']}, "
                          f"{near['log_rows']} log rows)",
            note=f"at action {far['action_number']} ({far['action']}, {far['log_rows']} log rows): {b}; "
                 f"at action {near['action_number']}: {a}",
            detail={"sql_near": near[key.replace("queries", "sql")], "sql_far": far[key.replace("queries", "sql")]}))

    pair("queries_per_action", "action_queries", "play.action_apply")
    pair("queries_match_page", "page_queries", "GET /matches/<id>/ as a player")
    pair("queries_socket_update", "socket_queries", "one more viewer drawn from a Change (the publisher, once per "
         "kind of viewer and version; each socket only forwards it)", most=0)
    pair("queries_state_update", "state_queries", "one viewer's update on the state feed "
         "(the match as data, drawn from the Change)", most=0)
    pair("queries_htmx_action", "htmx_queries", "POST /matches/<id>/action/ with HX-Request, whole request", False)
    pair("queries_api_action", "api_queries", "POST /api/matches/<id>/actions, whole request", False)
    if system_counts:
        figures.append(Figure("queries_per_system_action", sorted(system_counts)[len(system_counts) // 2],
                              "queries", note=f"median over {len(system_counts)} chance cards "
                                              f"(play.system_action_apply), max {max(system_counts)}"))
    return figures


class EndedEarly(RuntimeError):
    pass


def _play(users, attempt):
    from django.test import Client

    from accounts.models import ApiToken
    from games import play
    from games.live import socket_slots
    from games.live import publisher
    from games.live.viewers import Viewer
    from games.engines import get_engine
    from games.models import Match

    engine = get_engine(GAME)
    bots = importlib.import_module(f"games.engines.{GAME}.bots")
    match = start_match(GAME, users, OPTIONS)
    by_seat = {seat.number: seat.user for seat in match.seats.all()}

    def viewer(user, feed="html"):
        return Viewer(user_id=user.pk if user else None, staff=False, invite="", session="", credentials="",
                      language="en", zone="UTC", feed=feed)

    # Each seat's socket watches the match (registered as sockets register), so each change is
    # rendered for them by the process that commits it (counted in the action's queries).
    for user in by_seat.values():
        socket_slots.claim({"url_route": {"kwargs": {"match_id": match.pk}}}, viewer(user).key())
    keys = {seat: ApiToken.issue(user)[1] for seat, user in by_seat.items()}
    clients = {}
    for seat, user in by_seat.items():
        clients[seat] = Client()
        clients[seat].force_login(user)
    rnd = random.Random(5 + attempt)
    points: dict[int, dict] = {}
    system_counts = []

    def settle():
        nonlocal match
        match = Match.objects.get(pk=match.pk)
        while match.needs_system:
            with _counting() as ctx:
                play.system_action_apply(match_id=match.pk)
            system_counts.append(len(ctx))
            match = Match.objects.get(pk=match.pk)

    def next_move():
        seat = rnd.choice(engine.to_act(match.state))
        return seat, bots.random_action(match.state, seat, rnd)

    settle()
    done, first_type, checkpoints = 0, None, [1, FAR]
    while checkpoints:
        if match.status != Match.RUNNING:
            raise EndedEarly(f"the match ended after {done} actions: {match.finish_reason}")
        seat, action = next_move()
        at_checkpoint = (done + 1 >= checkpoints[0] and action["type"] not in SETUP
                         and (first_type is None or action["type"] == first_type))
        with _counting() as ctx:
            change = play.action_apply(match_id=match.pk, user=by_seat[seat], action=action,
                                           expected_version=match.version)
        match = change.match
        done += 1
        if action["type"] not in SETUP:
            first_type = first_type or action["type"]
        if match.needs_system:
            settle()
        if not at_checkpoint:
            continue
        point = {"action_number": done, "action": action["type"], "log_rows": match.log.count(),
                 "action_queries": len(ctx), "action_sql": _sql(ctx)}
        with _counting() as ctx:
            response = clients[seat].get(f"/matches/{match.pk}/")
        assert response.status_code == 200, response.status_code
        point.update(page_queries=len(ctx), page_sql=_sql(ctx), page_status=response.status_code)
        # What a socket does for a new version (games/live/): nothing but forward the bytes the
        # committing process rendered. Counted here: one more kind of viewer drawn from the
        # Change (a spectator, not rendered yet), which is all the publisher reads per viewer.
        with _counting() as ctx:
            publisher.part(change, viewer(None))
        point.update(socket_queries=len(ctx), socket_sql=_sql(ctx))
        # The same on the state feed (a bot's socket): the match as data.
        with _counting() as ctx:
            publisher.part(change, viewer(by_seat[(seat + 1) % PLAYERS], feed="state"))
        point.update(state_queries=len(ctx), state_sql=_sql(ctx))
        # One more action through the page (HTMX) and one through the API, whole requests.
        seat, action = next_move()
        with _counting() as ctx:
            response = clients[seat].post(f"/matches/{match.pk}/action/",
                                          {"action": json.dumps(action), "version": match.version},
                                          HTTP_HX_REQUEST="true")
        point.update(htmx_queries=len(ctx), htmx_status=response.status_code, htmx_sql=_sql(ctx))
        done += 1
        settle()
        seat, action = next_move()
        with _counting() as ctx:
            response = Client().post(f"/api/matches/{match.pk}/actions",
                                     {"action": action, "version": match.version},
                                     content_type="application/json",
                                     HTTP_AUTHORIZATION=f"Token {keys[seat]}")
        point.update(api_queries=len(ctx), api_status=response.status_code, api_sql=_sql(ctx))
        done += 1
        settle()
        points[checkpoints.pop(0)] = point
    return points, system_counts
