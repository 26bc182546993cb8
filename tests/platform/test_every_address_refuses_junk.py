"""Every address of the site (Django's own admin aside), asked with junk by every kind of
visitor — nobody, a seated player, a player from outside, staff, a bot's token — answers below
500: ids that exist and ids that cannot, query strings and form fields and JSON bodies with
NULs, 3,000 characters, 1e400, numbers past 64 bits, brackets, markup. Each form's own verbs
("do": join, add, hand…) are among them, so the junk reaches past the first check. A walk of
the URL list, so an address added later is asked too. (It found 500s on PostgreSQL, which
refuses even to compare a NUL: the push unsubscribe's endpoint, the organisers' player names.)
JUNK_ROUNDS=20 asks twenty times as much, each round with other junk."""
import importlib
import itertools
import json
import os
import random

from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from accounts.models import ApiToken
from games import play
from games.engines import get_engine
from games.models import Match
from leagues import ladders, services as events
from tests.conftest import make_user

JUNK = ["", "-1", "1e400", "x" * 3000, "\x00", "[]", '{"a": 1}', "9" * 25, "NaN", "０", "true", "../..",
        "<b>", " "]
VERBS = ["join", "leave", "close", "pause", "resume", "remove", "hand", "next_season", "challenge", "add",
         "up", "down", "start", "accept", "refuse"]
QUERY = ["sail", "to", "near", "attack", "offer", "step", "season", "opponent", "invite", "feed", "game", "page",
         "seat", "since", "next", "kind", "version", "revision"]
FORM = ["a.type", "a.path", "a.ship", "a.to", "a.node", "a.edge", "a.hex", "a.give.ducats", "a.give.ships[]",
        "version", "text", "game", "seats", "days", "name", "kind", "index", "scope", "until", "paused", "player",
        "table", "seat", "reason", "min_rating", "rounds", "reach", "idle_days", "turn_hours", "game_hours",
        "language", "time_zone", "display_name", "email", "password", "colour", "invite", "public", "back",
        "data", "opt_finish", "endpoint", "kinds", "quiet_from", "quiet_until", "username", "next"]


def addresses(patterns, namespace=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue  # Django's own admin
            yield from addresses(p.url_patterns, f"{namespace}{p.namespace}:" if p.namespace else namespace)
        elif isinstance(p, URLPattern) and p.name and "logout" not in p.name:
            yield namespace + p.name, list(p.pattern.converters.items())


def played(game, users):
    """A match of `game` some random moves in, as its players would leave it."""
    match = play.match_create(creator=users[0], game=game, seats=len(users))
    for user in users[1:]:
        play.match_join(match_id=match.pk, user=user)
    engine, bots = get_engine(game), importlib.import_module(f"games.engines.{game}.bots")
    rnd, by_seat = random.Random(5), {s.number: s.user for s in match.seats.all()}
    for _ in range(25):
        match.refresh_from_db()
        if match.status != Match.RUNNING:
            break
        if match.needs_system:
            play.system_action_apply(match_id=match.pk)
            continue
        seat = engine.to_act(match.state)[0]
        play.action_apply(match_id=match.pk, user=by_seat[seat], action=bots.random_action(match.state, seat, rnd),
                          expected_version=match.version)
    return match


def test_every_address_answers_junk_below_500(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    anna, bo, carl = make_user("anna"), make_user("bo"), make_user("carl")
    staff = make_user("admiral", is_staff=True, is_superuser=True)
    matches = [played("catan_ships", [anna, bo, carl]), played("fuldrigger", [anna, bo]), played("pirater", [anna, bo]),
               play.match_create(creator=anna, game="fuldrigger", seats=3), played("pirater", [bo, carl])]
    matches[-1].refresh_from_db()
    if matches[-1].status == Match.RUNNING:   # (once, on SQLite, it was not: ended already, its replay serves)
        play.match_finish(match_id=matches[-1].pk, reason="ended by an admin")  # its replay and export
    event = events.event_create(organiser=anna, name="Cup", game="pirater", seats=2, rounds=2)
    ladder = ladders.ladder_create(organiser=anna, name="Ladder", game="pirater")
    token, key = ApiToken.issue(anna)
    real = sorted({m.pk for m in matches} | {event.pk, ladder.pk, token.pk})

    signed_in = {user.username: user for user in (anna, carl, staff)}
    visitors = {"nobody": Client(raise_request_exception=False)}
    for name, user in signed_in.items():
        visitors[name] = Client(raise_request_exception=False)
        visitors[name].force_login(user)
    visitors["token"] = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {key}")

    rnd, failures, asked = random.Random(32), [], 0
    for name, converters in list(addresses(get_resolver().url_patterns)) * int(os.environ.get("JUNK_ROUNDS", 1)):
        choices = [real + [0, 2**63] if type(c).__name__ == "IntConverter" else ["x", "anna", "a" * 200]
                   for _, c in converters]
        urls = []
        for values in itertools.product(*choices):
            try:
                urls.append(reverse(name, kwargs={k: v for (k, _), v in zip(converters, values)}))
            except NoReverseMatch:
                pass
        for url in rnd.sample(urls, min(len(urls), 7)):
            for who, client in visitors.items():
                junk = rnd.choice(JUNK)
                query = {k: junk for k in rnd.sample(QUERY, 6)}
                form = {k: junk for k in rnd.sample(FORM, 14)} | {"do": rnd.choice(VERBS)}
                body = json.dumps({**form, "action": {"type": junk, "ship": junk, "path": [junk]},
                                   "expected_version": rnd.choice([junk, -1, 10**30, None, []])})
                for method, kwargs in (("get", {"data": query}), ("post", {"data": form}),
                                       ("post", {"data": form, "HTTP_HX_REQUEST": "true"}),
                                       ("post", {"data": body, "content_type": "application/json"}),
                                       ("put", {"data": body, "content_type": "application/json"}),
                                       ("delete", {})):
                    asked += 1
                    status = getattr(client, method)(url, **kwargs).status_code
                    if status >= 500:
                        failures.append((who, method.upper(), url, junk[:20], status))
                if who in signed_in and "_auth_user_id" not in client.session:
                    client.force_login(signed_in[who])
    assert asked > 3000
    assert not failures, failures[:20]


def test_every_page_says_which_methods_it_takes(db, settings):
    """A page asked with a method it does not take (a GET of a form's address, as a reload or a
    shared link makes it; a PUT) answered 405 with an empty body: a blank page."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    anna = make_user("anna")
    client = Client(raise_request_exception=False)
    client.force_login(anna)
    silent, refused = [], 0
    for name, converters in addresses(get_resolver().url_patterns):
        if name.startswith("api:"):
            continue  # the API's 405s are JSON already (games/web/api_urls.py)
        kwargs = {k: 1 if type(c).__name__ == "IntConverter" else "x" for k, c in converters}
        try:
            url = reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            continue
        for method in ("get", "post", "put", "delete", "patch"):
            response = getattr(client, method)(url)
            if response.status_code == 405:
                refused += 1
                if "not take" not in response.content.decode() or not response.get("Allow"):
                    silent.append((method.upper(), url))
    assert refused > 100
    assert silent == []
