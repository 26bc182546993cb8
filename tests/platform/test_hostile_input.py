"""Issue 13: every way in — each API endpoint and each form that writes — refuses hostile input
with a 4xx that says why, and keeps nothing: numbers that are not finite (Infinity, -Infinity,
1e400, NaN as JSON literals), NUL and other control characters, JSON nested 100,000 deep,
5 MB bodies, strings for booleans, floats for whole numbers, extra keys. And an action is
logged as the engine understood it, never with keys it ignored."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.models import ApiToken, Profile, Vacation
from games import play
from games.engines import get_engine
from games.reads.export import match_export
from games.models import ActionLog, ChatMessage, Match, Seat
from tests.conftest import client_for, refusal_status
from tests.pirater.pirater_pages_support import choose_ports

DEEP = "[" * 100_000 + "]" * 100_000
FIVE_MB = "a" * 5_000_000


@pytest.fixture(autouse=True)
def _quick_passwords(settings):
    # Many small cases, each with its players: hashing their passwords properly would be most of the time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def stored() -> dict:
    """Everything a refused request could have left behind."""
    return {"matches": Match.objects.count(), "seats": Seat.objects.count(), "log": ActionLog.objects.count(),
            "chat": ChatMessage.objects.count(), "vacations": Vacation.objects.count(),
            "tokens": ApiToken.objects.count(),
            "versions": sorted(Match.objects.values_list("pk", "version", "status")),
            "profiles": sorted(Profile.objects.values_list("display_name", flat=True))}


@pytest.fixture
def keys(player, opponent):
    return {u.username: ApiToken.issue(u)[1] for u in (player, opponent)}


def send(client, path, body: str, key=None, method="post"):
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"} if key else {}
    return client.generic(method.upper(), f"/api{path}", body, content_type="application/json", **headers)


def assert_refused_json(response, *, says=""):
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    message = response.json()["error"]
    assert isinstance(message, str) and message
    assert says.lower() in message.lower(), message
    return message


# --- The API -----------------------------------------------------------------------------

NEW_MATCH = {
    "Infinity seats": ('{"game": "race", "seats": Infinity}', "finite"),
    "-Infinity time bank": ('{"game": "race", "time_bank_seconds": -Infinity}', "finite"),
    "1e400 turn seconds": ('{"game": "race", "turn_seconds": 1e400}', "finite"),
    "Infinity round limit": ('{"game": "race", "round_limit": Infinity}', "finite"),
    "Infinity bots": ('{"game": "race", "bot_seats": Infinity}', "finite"),
    "NaN in options": ('{"game": "race", "options": {"finish": NaN}}', "finite"),
    "a number too large": ('{"game": "race", "seats": 1' + "0" * 400 + "}", "too large"),
    "NUL in the title": ('{"game": "race", "title": "a\\u0000b"}', "control"),
    "a newline in the title": ('{"game": "race", "title": "a\\r\\nb"}', "control"),
    "a lone surrogate": ('{"game": "race", "title": "\\ud800"}', "unicode"),
    "nesting 100,000 deep": ('{"game": "race", "options": ' + DEEP + "}", "nested"),
    "a 5 MB body": ('{"game": "race", "title": "' + FIVE_MB + '"}', "too large"),
    "a string for public": ('{"game": "race", "public": "false"}', "public"),
    "a string for rated": ('{"game": "race", "rated": "false"}', "rated"),
    "a number for allow_vacation": ('{"game": "race", "allow_vacation": 0}', "allow_vacation"),
    "a string for bots_cover_absence": ('{"game": "race", "bots_cover_absence": "no"}', "bots_cover_absence"),
    "a float for seats": ('{"game": "race", "seats": 2.9}', "seats"),
    "a whole float for seats": ('{"game": "race", "seats": 2.0}', "seats"),
    "a string for seats": ('{"game": "race", "seats": "2"}', "seats"),
    "an extra key": ('{"game": "race", "junk": 1}', "junk"),
    "options as a list": ('{"game": "race", "options": [1]}', "options"),
    "a string for a yes-or-no option": ('{"game": "race", "options": {"wind": "false"}}', "wind"),
    "a float for a number option": ('{"game": "race", "options": {"finish": 10.5}}', "finish"),
    "a title too long": ('{"game": "race", "title": "' + "a" * 81 + '"}', "title"),
    "not an object": ("[1, 2]", "object"),
}


@pytest.mark.parametrize("body, says", NEW_MATCH.values(), ids=NEW_MATCH.keys())
def test_creating_a_match_refuses_hostile_bodies(client, keys, body, says):
    before = stored()
    assert_refused_json(send(client, "/matches", body, keys["anna"]), says=says)
    assert stored() == before


ACTIONS = {
    "version Infinity": ('{"action": {"type": "roll"}, "version": Infinity}', "finite"),
    "version -Infinity": ('{"action": {"type": "roll"}, "version": -Infinity}', "finite"),
    "version NaN": ('{"action": {"type": "roll"}, "version": NaN}', "finite"),
    "version 1e400": ('{"action": {"type": "roll"}, "version": 1e400}', "finite"),
    "version null": ('{"action": {"type": "roll"}, "version": null}', "version"),
    "version 0.5": ('{"action": {"type": "roll"}, "version": 0.5}', "version"),
    "version 0.0": ('{"action": {"type": "roll"}, "version": 0.0}', "version"),
    "version as a string": ('{"action": {"type": "roll"}, "version": "0"}', "version"),
    "version as a boolean": ('{"action": {"type": "roll"}, "version": false}', "version"),
    "NUL in the action": ('{"action": {"type": "roll", "note": "\\u0000"}, "version": 0}', "control"),
    "NUL in a key": ('{"action": {"type": "roll", "\\u0000": 1}, "version": 0}', "control"),
    "NaN in the action": ('{"action": {"type": "roll", "n": NaN}, "version": 0}', "finite"),
    "nesting 100,000 deep": ('{"action": {"type": "roll", "n": ' + DEEP + '}, "version": 0}', "nested"),
    "a 5 MB body": ('{"action": {"type": "roll", "junk": "' + FIVE_MB + '"}, "version": 0}', "too large"),
    "an extra key beside the action": ('{"action": {"type": "roll"}, "version": 0, "junk": 1}', "junk"),
    "an action that is not an object": ('{"action": "roll", "version": 0}', "action"),
    "no action": ('{"version": 0}', "action"),
}


@pytest.mark.parametrize("body, says", ACTIONS.values(), ids=ACTIONS.keys())
def test_submitting_an_action_refuses_hostile_bodies(client, keys, race_match, body, says):
    before = stored()
    assert_refused_json(send(client, f"/matches/{race_match.pk}/actions", body, keys["anna"]), says=says)
    assert stored() == before


@pytest.fixture
def open_match(player):
    return play.match_create(creator=player, game="race", seats=3)


JOIN = {
    "an extra key": ('{"colour": "red", "junk": 1}', "junk"),
    "NUL in the colour": ('{"colour": "re\\u0000d"}', "control"),
    "NaN as the invitation": ('{"invite": NaN}', "finite"),
    "a number for the colour": ('{"colour": 3}', "colour"),
    "nesting 100,000 deep": ('{"invite": ' + DEEP + "}", "nested"),
    "a 5 MB body": ('{"invite": "' + FIVE_MB + '"}', "too large"),
}


@pytest.mark.parametrize("body, says", JOIN.values(), ids=JOIN.keys())
def test_joining_refuses_hostile_bodies(client, keys, open_match, body, says):
    before = stored()
    assert_refused_json(send(client, f"/matches/{open_match.pk}/join", body, keys["bo"]), says=says)
    assert stored() == before


@pytest.mark.parametrize("body, says", [('{"junk": 1}', "junk"), ("[" * 100_000, "nested"),
                                        ('{"n": Infinity}', "finite"), ('"' + FIVE_MB + '"', "too large")])
def test_starting_refuses_hostile_bodies(client, keys, player, opponent, open_match, body, says):
    play.match_join(match_id=open_match.pk, user=opponent)
    before = stored()
    assert_refused_json(send(client, f"/matches/{open_match.pk}/start", body, keys["anna"]), says=says)
    assert stored() == before


@pytest.mark.parametrize("path", ["/me", "/matches", "/matches/{id}", "/matches/{id}/actions",
                                  "/matches/{id}/log", "/matches/{id}/replay"])
def test_reading_endpoints_refuse_a_5_mb_body_and_impossible_ids(client, keys, race_match, path):
    response = send(client, path.format(id=race_match.pk), FIVE_MB, keys["anna"], method="get")
    assert response.status_code == 413 and "too large" in response.json()["error"]
    if "{id}" in path:
        for bad in ("99999999999999999999999", "0"):
            assert_refused_json(client.get(f"/api{path.format(id=bad)}", HTTP_AUTHORIZATION=f"Token {keys['anna']}"))


def test_the_old_error_shape_for_bodies_that_are_not_json(client, keys, race_match):
    response = send(client, f"/matches/{race_match.pk}/actions", '{"action": ', keys["anna"])
    assert response.status_code == 400 and response.json() == {"error": "The body is not valid JSON."}
    response = send(client, "/matches", "\xff", keys["anna"])
    assert response.status_code == 400 and "error" in response.json()


# --- Actions as the engine understood them ----------------------------------------------

def test_a_legal_roll_with_junk_is_logged_without_it(client, keys, race_match):
    """A game that declares no fields (the test race): the legal action it matched is logged."""
    body = json.dumps({"action": {"type": "roll", "junk": "x" * 100_000}, "version": 0})
    assert send(client, f"/matches/{race_match.pk}/actions", body, keys["anna"]).status_code == 201
    assert ActionLog.objects.get(match=race_match, seq=1).action == {"type": "roll"}


@pytest.fixture
def pirater_match(player, opponent):
    match = play.match_create(creator=player, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    return choose_ports(match)  # edition 2 (P5): ports first


def _mover(match, player, opponent):
    seat = match.turn_seats[0]
    return next(u for u in (player, opponent) if match.seats.get(user=u).number == seat)


def test_pirater_actions_are_checked_against_their_declared_fields(client, player, opponent, pirater_match):
    """Pirater (P-rules): extra keys, a float for the die, a wrong `to` are refused; a move
    without `to` is logged as the engine's legal move, `to` included."""
    match = pirater_match
    mover = _mover(match, player, opponent)
    key = ApiToken.issue(mover)[1]
    path = f"/matches/{match.pk}/actions"
    before = stored()
    body = json.dumps({"action": {"type": "roll", "junk": 1}, "version": match.version})
    assert_refused_json(send(client, path, body, key), says="junk")
    assert stored() == before
    engine = get_engine("pirater")
    for _attempt in range(20):  # roll until a seat has a move to make (a roll may pass the turn on)
        match.refresh_from_db()
        mover = _mover(match, player, opponent)
        moves = [a for a in engine.legal_actions(match.state, match.seats.get(user=mover).number)
                 if a["type"] == "move"]
        if moves:
            break
        play.action_apply(match_id=match.pk, user=mover, action={"type": "roll"})
    else:
        pytest.fail("twenty rolls and no move")
    key, move = ApiToken.issue(mover)[1], moves[0]
    assert move["type"] == "move" and "to" in move
    before = stored()
    for wrong in ({**move, "to": [99, 99]}, {**move, "die": float(move["die"])}, {**move, "die": str(move["die"])},
                  {**move, "split": "no"}, {**move, "junk": None}):
        body = json.dumps({"action": wrong, "version": match.version})
        assert_refused_json(send(client, path, body, key))
        assert stored() == before
    sent = {k: v for k, v in move.items() if k != "to"}
    assert send(client, path, json.dumps({"action": sent, "version": match.version}), key).status_code == 201
    assert ActionLog.objects.filter(match=match).order_by("-seq").first().action == move


# --- The forms ---------------------------------------------------------------------------

def assert_refused_page(response, *, says=""):
    # A body over the limit is refused before anything reads it (games/validation.py): its 413
    # stands for htmx too; every other refusal reaches htmx as a 200 (config/htmx.py).
    status = response.status_code if response.status_code == 413 else refusal_status(response)
    assert 400 <= status < 500, (response.status_code, response.content[:300])
    page = response.content.decode()
    assert says.lower() in page.lower(), page[:2000]


GOOD_MATCH_FORM = {"game": "race", "seats": "2", "turn_hours": "24", "time_bank_hours": "0", "is_public": "on"}
MATCH_FORM = {
    "NUL in the title": ({"title": "a\x00b"}, "null characters"),
    "a newline in the title": ({"title": "a\r\nb"}, "control"),
    "a bell in the title": ({"title": "a\x07b"}, "control"),
    "Infinity seats": ({"seats": "Infinity"}, "whole number"),
    "1e400 seats": ({"seats": "1e400"}, "whole number"),
    "NaN hours": ({"turn_hours": "NaN"}, "whole number"),
    "a float for seats": ({"seats": "2.9"}, "whole number"),
    "-Infinity round limit": ({"round_limit": "-Infinity"}, "whole number"),
    "Infinity as an option": ({"opt_finish": "Infinity"}, "whole number"),
    "NaN as a yes-or-no option": ({"opt_wind": "NaN"}, "yes or no"),
    "a 5 MB body": ({"title": FIVE_MB}, "too large"),
}


@pytest.mark.parametrize("fields, says", MATCH_FORM.values(), ids=MATCH_FORM.keys())
def test_the_new_match_form_refuses_hostile_input(player, fields, says):
    before = stored()
    assert_refused_page(client_for(player).post(reverse("match_new"), {**GOOD_MATCH_FORM, **fields}), says=says)
    assert stored() == before


def test_the_new_match_form_reads_false_as_no(player):
    """A page's checkbox sends "on" or nothing; a forged "false" does not make a public match."""
    client_for(player).post(reverse("match_new"), {**GOOD_MATCH_FORM, "is_public": "false", "rated": "false"})
    match = Match.objects.get()
    assert not match.is_public and not match.rated


ACTION_FORM = {
    "NaN": ({"action": '{"type": "roll", "n": NaN}'}, "finite"),
    "Infinity": ({"action": '{"type": "roll", "n": Infinity}'}, "finite"),
    "1e400": ({"action": '{"type": "roll", "n": 1e400}'}, "finite"),
    "NaN in a field": ({"action": '{"type": "roll"}', "a.n": "NaN"}, "finite"),
    "-Infinity in a field": ({"action": '{"type": "roll"}', "a.n": "-Infinity"}, "finite"),
    "NUL": ({"action": '{"type": "roll", "n": "\\u0000"}'}, "control"),
    "NUL in a field": ({"action": '{"type": "roll"}', "a.n": "a\x00b"}, "control"),
    "nesting 100,000 deep": ({"action": '{"type": "roll", "n": ' + DEEP + "}"}, "nested"),
    "nesting in a field": ({"action": '{"type": "roll"}', "a.n": DEEP}, "nested"),
    "a field path 300 deep": ({"action": '{"type": "roll"}', "a." + ".".join(["x"] * 300): "1"},
                                  "does not fit"),
    "a 5 MB body": ({"action": '{"type": "roll", "junk": "' + FIVE_MB + '"}'}, "too large"),
    "version 0.5": ({"action": '{"type": "roll"}', "version": "0.5"}, "whole number"),
    "version Infinity": ({"action": '{"type": "roll"}', "version": "Infinity"}, "whole number"),
    "version 1e400": ({"action": '{"type": "roll"}', "version": "1e400"}, "whole number"),
}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("fields, says", ACTION_FORM.values(), ids=ACTION_FORM.keys())
def test_the_action_form_refuses_hostile_input(player, race_match, fields, says, htmx):
    before = stored()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client_for(player).post(reverse("match_action", args=[race_match.pk]), fields, **headers)
    assert_refused_page(response, says=says)
    assert stored() == before


def test_the_action_form_refuses_extra_keys_for_a_game_that_declares_its_actions(player, opponent, pirater_match):
    mover = _mover(pirater_match, player, opponent)
    before = stored()
    response = client_for(mover).post(reverse("match_action", args=[pirater_match.pk]),
                                      {"action": '{"type": "roll"}', "a.junk": "1"}, HTTP_HX_REQUEST="true")
    assert_refused_page(response, says="junk")
    assert stored() == before


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-script"])
@pytest.mark.parametrize("text, says", [("a\x00b", "control"), ("ring \x07", "control"), ("a\r\nb", "control"),
                                        (FIVE_MB, "too large")])
def test_chat_refuses_control_characters_and_huge_bodies(player, race_match, text, says, htmx):
    before = stored()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client_for(player).post(reverse("chat_post", args=[race_match.pk]), {"text": text}, **headers)
    assert_refused_page(response, says=says)
    assert stored() == before


@pytest.fixture
def export(race_match, staff):
    play.action_apply(match_id=race_match.pk, user=race_match.creator, action={"type": "roll"})
    play.match_finish(match_id=race_match.pk, reason="ended by an admin", actor=staff)
    race_match.refresh_from_db()
    return json.dumps(match_export(race_match))


IMPORTS = {
    "NUL in a player's name": (lambda e: e.replace('"Anna"', '"An\\u0000na"'), "control"),
    "a newline in the title": (lambda e: e.replace('"title": "', '"title": "\\r\\n'), "control"),
    "NaN in an action": (lambda e: e.replace('"type": "roll"', '"type": "roll", "n": NaN'), "finite"),
    "1e400 as a seat": (lambda e: e.replace('"seats": 2', '"seats": 1e400'), "finite"),
    "nesting 100,000 deep": (lambda e: e.replace('"options": {', '"deep": ' + DEEP + ', "options": {'), "nested"),
}


@pytest.mark.parametrize("tamper, says", IMPORTS.values(), ids=IMPORTS.keys())
def test_import_refuses_hostile_exports(outsider, export, tamper, says):
    data = tamper(export)
    assert data != export
    before = stored()
    assert_refused_page(client_for(outsider).post(reverse("match_import"), {"data": data}), says=says)
    upload = SimpleUploadedFile("m.json", data.encode(), content_type="application/json")
    assert_refused_page(client_for(outsider).post(reverse("match_import"), {"file": upload}), says=says)
    assert stored() == before


def test_import_refuses_5_mb_before_reading_it(outsider, db):
    before = stored()
    upload = SimpleUploadedFile("m.json", FIVE_MB.encode(), content_type="application/json")
    assert_refused_page(client_for(outsider).post(reverse("match_import"), {"file": upload}), says="too large")
    assert_refused_page(client_for(outsider).post(reverse("match_import"), {"data": FIVE_MB}), says="too large")
    assert stored() == before


PROFILE = {"time_zone": "UTC", "language": "", "notify_email": "each", "reminder_hours": "24"}


@pytest.mark.parametrize("name, says", [("An\x00na", "null characters"), ("Anna\r\nBcc: x@example.com", "control"),
                                        ("A\x1bnna", "control"), (FIVE_MB, "too large")])
def test_the_profile_refuses_control_characters_in_the_name(player, name, says):
    before = stored()
    assert_refused_page(client_for(player).post(reverse("profile"), {**PROFILE, "display_name": name}), says=says)
    assert stored() == before


@pytest.mark.parametrize("days", ["Infinity", "-Infinity", "1e400", "NaN", "2.5", "\x00", "", "99999999999999999999"])
def test_vacation_refuses_what_is_not_a_whole_number_of_days(player, days):
    before = stored()
    assert_refused_page(client_for(player).post(reverse("vacation"), {"days": days}))
    assert stored() == before


def test_vacation_refuses_a_5_mb_body(player):
    before = stored()
    assert_refused_page(client_for(player).post(reverse("vacation"), {"days": "3", "x": FIVE_MB}), says="too large")
    assert stored() == before


@pytest.mark.parametrize("name, says", [("bot\x00", "null characters"), ("b\r\not", "control"), ("b\x07ot", "control"),
                                        ("", "required"), (FIVE_MB, "too large")])
def test_tokens_refuse_bad_names(player, name, says):
    before = stored()
    assert_refused_page(client_for(player).post(reverse("token_create"), {"name": name}), says=says)
    assert stored() == before


@pytest.mark.parametrize("path", ["/calendar/%00.ics", "/players/%00/", "/players/anna/vs/%00/", "/leaderboards/%00/",
                                  "/games/%00/rules/", "/events/ladders/%00/", "/api/players/%00/reliability",
                                  "/matches/%00/"])
def test_an_address_with_a_nul_is_a_404_not_a_500(client, db, path):
    """PostgreSQL refuses NUL in a lookup: /players/%00/ and the calendar's address were 500s
    there (SQLite let them by). No page's address has one."""
    from tests.conftest import make_user

    make_user("anna")
    response = client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/"):
        assert response.json()["error"]


# --- Digits that int() does not read ---------------------------------------------------------

SUPERSCRIPT = "²"  # str.isdigit() says yes, int() refuses it: each of these was a 500


@pytest.mark.parametrize("method, path, fields", [
    ("post", "/push/choices/", {"quiet_from": SUPERSCRIPT, "quiet_until": "3"}),
    ("post", "/inbox/read/", {"id": SUPERSCRIPT}),
    ("post", "/accounts/profile/", {**PROFILE, "display_name": "Anna", "reminder_hours": SUPERSCRIPT}),
    ("get", "/matches/new/", {"seats": SUPERSCRIPT}),
    ("post", "/matches/new/", {"switch": "1", "game": "race", "seats": SUPERSCRIPT}),
    ("post", "/matches/{id}/action/", {"action": '{"type": "roll"}', "version": SUPERSCRIPT}),
], ids=["push quiet hours", "inbox read", "reminder hours", "new match seats", "new match switch", "action version"])
def test_a_superscript_digit_is_not_a_number(player, race_match, method, path, fields):
    before = stored()
    response = getattr(client_for(player), method)(path.format(id=race_match.pk), fields)
    assert response.status_code < 500
    assert stored() == before


@pytest.mark.parametrize("game, line", [
    ("fuldrigger", {"kind": "sell", "good": "grain", "at_least": SUPERSCRIPT}),
    ("catan_ships", {"kind": "build_road", "edge": SUPERSCRIPT}),
])
def test_standing_orders_refuse_a_superscript_digit(client, player, opponent, outsider, game, line):
    seats = [player, opponent] + ([outsider] if game == "catan_ships" else [])
    match = play.match_create(creator=player, game=game, seats=len(seats))
    for user in seats[1:]:
        play.match_join(match_id=match.pk, user=user)
    key = ApiToken.issue(player)[1]
    response = send(client, f"/matches/{match.pk}/orders", json.dumps({"lines": [line]}), key, method="put")
    assert_refused_json(response)


# --- Requests Django cannot read -------------------------------------------------------------

UNREADABLE = {
    "multipart without a boundary": {"data": b"xx", "content_type": "multipart/form-data"},
    "more fields than Django reads": {"data": "&".join(f"f{i}=1" for i in range(1100)),
                                      "content_type": "application/x-www-form-urlencoded"},
}


@pytest.mark.parametrize("path", ["/matches/new/", "/accounts/profile/"])
@pytest.mark.parametrize("body", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_a_form_django_cannot_read_is_refused_in_words(player, path, body):
    """Django's own 400 page said only "Bad Request (400)"."""
    before = stored()
    response = client_for(player).post(path, **body)
    assert response.status_code == 400
    assert "could not be read" in response.content.decode()
    assert stored() == before


def test_an_unknown_host_is_refused_in_words(client, keys):
    page = client.get("/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and "could not be read" in page.content.decode()
    api = client.get("/api/me", HTTP_HOST="evil.example", HTTP_AUTHORIZATION=f"Token {keys['anna']}")
    assert_refused_json(api, says="could not be read")


@pytest.mark.parametrize("key", ['"\\000\\000\\000\\000\\000\\000\\000\\000"', '"abcdefgh\\000"', "../../../../x"])
def test_a_session_cookie_no_session_could_have_is_nobody(client, player, key):
    """Django reads a quoted cookie's octal escapes: sessionid="\\000…" is a key of NULs, which
    PostgreSQL refuses even to compare (every page was a 500 there). Keys are letters and digits."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    store = import_string(settings.SESSION_ENGINE + ".SessionStore")
    assert store(session_key=key.strip('"').replace("\\000", "\x00")).session_key is None
    for path in ("/", "/lobby/", "/accounts/login/"):
        assert client.get(path, HTTP_COOKIE=f"sessionid={key}").status_code == 200
