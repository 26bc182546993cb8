"""Issue 19 (fair play under abuse), issue 14 items 3–4 and issue 18's HTTP part: each test
replays an attack from the review and shows it refused or harmless."""
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation, vacation_days_left
from games import services
from games.errors import BadRequest, NotAllowed, ServiceError
from games.models import Match
from tests.conftest import client_for, make_user


# --- 19.1 Vacations ----------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_eight_racing_vacation_requests_spend_the_allowance_once(settings):
    """Eight sessions of one player, who owns the turn, ask for 21 days at once: one vacation is
    stored and the turn's deadline moves 21 days, not 105."""
    settings.VACATION_DAYS_PER_YEAR = 21
    anna, bo = make_user("anna"), make_user("bo")
    match = services.match_create(creator=anna, game="race", seats=2)
    services.match_join(match_id=match.pk, user=bo)
    match.refresh_from_db()
    before = match.turn_deadline
    barrier = threading.Barrier(8)
    outcomes = []

    def go_away():
        try:
            client = client_for(anna)
            barrier.wait()
            response = client.post("/accounts/vacation/", {"days": 21})
            outcomes.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=go_away) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # One is granted (302 to the profile); the seven others are refused with a 4xx that says so.
    assert sorted(outcomes) == [302] + [400] * 7
    assert Vacation.objects.filter(user=anna).count() == 1
    match.refresh_from_db()
    assert match.turn_deadline - before == timedelta(days=21)
    assert vacation_days_left(user=anna) == 0


def test_one_active_vacation_at_a_time(race_match, player, settings):
    settings.VACATION_DAYS_PER_YEAR = 21
    services.vacation_start(user=player, days=2)
    with pytest.raises(BadRequest, match="already on vacation"):
        services.vacation_start(user=player, days=2)
    assert Vacation.objects.filter(user=player).count() == 1


def test_the_vacation_form_keeps_its_address(race_match, player):
    assert reverse("vacation") == "/accounts/vacation/"
    response = client_for(player).post("/accounts/vacation/", {"days": 2})
    assert response.status_code == 302
    assert Vacation.objects.filter(user=player).exists()
    page = client_for(player).get(reverse("profile")).content.decode()
    assert "on vacation until" in page


# --- 19.6 Chat on a private match ---------------------------------------------------------

def test_chat_on_a_private_match_by_a_non_member_is_refused_not_a_500(player, outsider):
    match = services.match_create(creator=player, game="race", seats=2, is_public=False)
    client = client_for(outsider)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(reverse("chat_post", args=[match.pk]), {"text": "hello"}, **headers)
        assert response.status_code == 403
    assert not match.chat.exists()


# --- 19.9 Caches, methods, access before status --------------------------------------------

def test_private_pages_are_not_stored_by_caches(player, opponent):
    match = services.match_create(creator=player, game="race", seats=2, is_public=False)
    client = client_for(player)
    for url in (reverse("profile"), reverse("inbox"), match.get_absolute_url()):
        cache_control = client.get(url)["Cache-Control"]
        assert "no-store" in cache_control and "private" in cache_control, url


def test_unused_methods_get_405_not_the_page(player, race_match):
    client = client_for(player)
    for url in ("/", reverse("lobby"), race_match.get_absolute_url(), reverse("profile"), reverse("inbox"),
                reverse("login"), reverse("signup"), reverse("match_new"), reverse("leaderboards")):
        for method in ("options", "trace", "put", "delete"):
            response = getattr(client, method)(url)
            assert response.status_code == 405, (method, url)
            assert b"<html" not in response.content


def test_joining_or_starting_a_private_match_tells_a_stranger_nothing_of_its_status(player, opponent, outsider):
    running = services.match_create(creator=player, game="race", seats=2, is_public=False)
    services.match_join(match_id=running.pk, user=opponent, invite_code=running.invite_code)
    waiting = services.match_create(creator=player, game="race", seats=3, is_public=False)
    client = client_for(outsider)
    answers = []
    for match in (running, waiting):
        for name in ("match_join", "match_start", "match_leave", "match_colour"):
            response = client.post(reverse(name, args=[match.pk]), {"colour": "red"})
            answers.append((response.status_code, response.content.decode()))
    refusals = []
    for match in (running, waiting):
        said = []
        for service, extra in ((services.match_join, {}), (services.match_start, {}),
                               (services.match_leave, {}), (services.match_set_colour, {"colour": "red"})):
            with pytest.raises(ServiceError) as refused:
                service(match_id=match.pk, user=outsider, **extra)
            said.append((type(refused.value).__name__, refused.value.message))
        refusals.append(said)
    assert refusals[0] == refusals[1]
    assert refusals[0][0][0] == "NotAllowed"
    running_answers, waiting_answers = answers[:4], answers[4:]
    for (code, page), (code2, page2) in zip(running_answers, waiting_answers):
        assert code == code2 and code in (302, 403)
        assert "started" not in page and "no longer open" not in page and "running" not in page.lower()


# --- 14.3 and 19.4 Logins ----------------------------------------------------------------

def _login(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def test_wrong_passwords_for_a_made_up_name_lock_out_nobody_else(client, player, settings):
    """Issue 14.3: five wrong passwords for any name used to lock every account at the address."""
    settings.LOGIN_ATTEMPTS = 5
    for _ in range(6):
        _login(client, "nobody-at-all", "guess")
    assert _login(client, "anna", "pw-annaanna").status_code == 302


def test_login_limit_per_address_and_account_then_per_account_then_per_address(db, settings):
    settings.LOGIN_ATTEMPTS, settings.LOGIN_ATTEMPTS_PER_ACCOUNT, settings.LOGIN_ATTEMPTS_PER_ADDRESS = 3, 5, 8
    from django.test import Client

    anna = make_user("anna")
    make_user("bo")
    client = Client()
    here, there, elsewhere = ({"REMOTE_ADDR": a} for a in ("10.0.0.1", "10.0.0.2", "10.0.0.3"))
    for _ in range(3):
        assert _login(client, "anna", "wrong", **here).status_code == 400
    assert _login(client, "anna", "pw-annaanna", **here).status_code == 429  # this address, this account
    assert _login(client, "bo", "pw-bobo", **here).status_code == 302  # another account from here
    Client().post("/accounts/logout/")
    for _ in range(2):
        assert _login(Client(), "anna", "wrong", **there).status_code == 400
    assert _login(Client(), "anna", "pw-annaanna", **elsewhere).status_code == 429  # the account, everywhere
    for n in range(6):  # 2 + 6 failures from there: its bound of 8, for whatever names
        _login(Client(), f"made-up-{n}", "wrong", **there)
    assert _login(Client(), "bo", "pw-bobo", **there).status_code == 429  # the address's looser bound
    assert anna.is_active


def test_the_proxy_header_counts_only_when_the_setting_trusts_it(db, settings):
    settings.LOGIN_ATTEMPTS = 2
    make_user("anna")
    from django.test import Client

    # Untrusted: a client writing X-Forwarded-For does not escape its own address's count.
    settings.TRUSTED_PROXY_HOPS = 0
    for n in range(2):
        _login(Client(), "anna", "wrong", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert _login(Client(), "anna", "pw-annaanna", REMOTE_ADDR="10.0.0.1",
                  HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429
    # Behind one trusted proxy: every player shares its address; the proxy's entry names them,
    # and what the client prepends itself is ignored.
    settings.TRUSTED_PROXY_HOPS = 1
    for _ in range(2):
        _login(Client(), "anna", "wrong", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.5")
    assert _login(Client(), "anna", "pw-annaanna", REMOTE_ADDR="10.9.9.9",
                  HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
    assert _login(Client(), "anna", "pw-annaanna", REMOTE_ADDR="10.9.9.9",
                  HTTP_X_FORWARDED_FOR="203.0.113.5, 198.51.100.7").status_code == 302


def test_the_admin_login_is_behind_the_same_limiter(db, settings):
    """Issue 19.4: twenty wrong passwords, then the right one, logged into the admin."""
    settings.LOGIN_ATTEMPTS = 5
    make_user("admiral", is_staff=True, is_superuser=True)
    from django.test import Client

    client = Client()
    for _ in range(20):
        client.post("/admin/login/", {"username": "admiral", "password": "wrong"})
    client.post("/admin/login/", {"username": "admiral", "password": "pw-admiraladmiral"})
    assert client.get("/admin/").status_code == 302  # still sent to log in
    assert "Too many failed attempts" in client.post(
        "/admin/login/", {"username": "admiral", "password": "pw-admiraladmiral"}).content.decode()
    # ... and a lockout on the site's login holds at the admin's too.
    make_user("skipper", is_staff=True)
    for _ in range(5):
        _login(Client(), "skipper", "wrong")
    other = Client()
    other.post("/admin/login/", {"username": "skipper", "password": "pw-skipperskipper"})
    assert other.get("/admin/").status_code == 302


# --- 14.4 No telling whether an address has an account; reset mails bounded ---------------

def test_signup_does_not_tell_that_an_address_has_an_account(client, player):
    response = client.post(reverse("signup"), {"username": "mallory", "email": "ANNA@example.com",
                                               "password1": "sail-the-seven-seas", "password2": "sail-the-seven-seas"})
    assert response.status_code == 302
    assert "already exists" not in response.content.decode()
    taken = client.post(reverse("signup"), {"username": "mallory2", "email": "fresh@example.com",
                                            "password1": "x", "password2": "y"}).content.decode()
    assert "email already" not in taken


def test_reset_mails_are_bounded_per_address_and_per_email(db, settings):
    from django.core import mail
    from django.test import Client

    settings.PASSWORD_RESET_RATE_PER_ADDRESS, settings.PASSWORD_RESET_RATE_PER_EMAIL = "5/3600", "3/3600"
    make_user("anna")
    codes = [Client().post(reverse("password_reset"), {"email": "anna@example.com"},
                           REMOTE_ADDR=f"10.0.0.{n}").status_code for n in range(9)]
    assert codes == [302] * 3 + [429] * 6 and len(mail.outbox) == 3
    # One address asking for many e-mail addresses, known or not, is bounded too; the answer is
    # the same whether an account has the address or not.
    codes = [Client().post(reverse("password_reset"), {"email": f"who{n}@example.com"},
                           REMOTE_ADDR="10.1.1.1").status_code for n in range(7)]
    assert codes == [302] * 5 + [429] * 2


# --- 19.8 Tokens --------------------------------------------------------------------------

def test_a_new_tokens_key_is_shown_in_the_page_not_in_a_cookie(player):
    client = client_for(player)
    response = client.post(reverse("token_create"), {"name": "my bot"})
    page = response.content.decode()
    assert response.status_code == 201 and "tw_" in page
    assert "no-store" in response["Cache-Control"]
    assert all("tw_" not in morsel.value for morsel in response.cookies.values())
    assert "tw_" not in client.get(reverse("profile")).content.decode()  # once only


def test_tokens_end_with_a_password_change(player):
    from accounts.models import ApiToken

    key = ApiToken.issue(player, "bot")[1]
    api = {"HTTP_AUTHORIZATION": f"Token {key}"}
    from django.test import Client

    assert Client().get("/api/me", **api).status_code == 200
    response = client_for(player).post(reverse("password_change"), {
        "old_password": "pw-annaanna", "new_password1": "a-new-sail-2026", "new_password2": "a-new-sail-2026"},
        follow=True)
    assert "revoked" in response.content.decode()
    assert not ApiToken.objects.filter(user=player).exists()
    assert Client().get("/api/me", **api).status_code in (401, 403)


def test_tokens_end_with_a_password_reset(player):
    from django.contrib.auth.tokens import default_token_generator
    from django.test import Client
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from accounts.models import ApiToken

    ApiToken.issue(player, "bot")
    client = Client()
    url = reverse("password_reset_confirm", args=[urlsafe_base64_encode(force_bytes(player.pk)),
                                                  default_token_generator.make_token(player)])
    form_url = client.get(url)["Location"]
    response = client.post(form_url, {"new_password1": "a-new-sail-2026", "new_password2": "a-new-sail-2026"})
    assert response.status_code == 302
    assert not ApiToken.objects.filter(user=player).exists()


# --- 19.5 and 19.7 Imports: size bounded before reading, private, bounded a day -----------

def _export(race_match, player, opponent):
    from games.history import match_export

    match = services.match_finish(match_id=race_match.pk, reason="ended by an admin")
    return match_export(match)


def test_a_huge_import_is_refused_before_it_is_read(race_match, player, opponent, outsider, settings):
    """Issue 19.5: a 150 MiB upload was read whole into memory before its 400."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.IMPORT_MAX_BYTES = 10_000
    client = client_for(outsider)
    # Past the bound by its length: refused from the headers, the body never parsed.
    huge = SimpleUploadedFile("m.json", b" " * 200_000, content_type="application/json")
    response = client.post(reverse("match_import"), {"file": huge})
    assert response.status_code == 413 and "too large" in response.content.decode()
    # Within the headers' slack but past the bound: the upload is stopped as it streams in.
    bigger = SimpleUploadedFile("m.json", b" " * 30_000, content_type="application/json")
    response = client.post(reverse("match_import"), {"file": bigger})
    assert response.status_code == 413
    assert Match.objects.count() == 1


def test_imports_are_private_by_default_and_bounded_a_day(race_match, player, opponent, outsider, settings):
    import json

    settings.MAX_IMPORTS_PER_DAY = 2
    data = json.dumps(_export(race_match, player, opponent))
    client = client_for(outsider)
    assert client.post(reverse("match_import"), {"data": data}).status_code == 302
    assert client.post(reverse("match_import"), {"data": data, "public": "1"}).status_code == 302
    private, public = Match.objects.filter(creator=outsider).order_by("pk")
    assert not private.is_public and public.is_public
    assert client.get(private.get_absolute_url()).status_code == 200  # its importer sees it
    assert client_for(player).get(private.get_absolute_url()).status_code == 403
    response = client.post(reverse("match_import"), {"data": data})
    assert response.status_code == 400 and "the limit" in response.content.decode()
    assert Match.objects.filter(creator=outsider).count() == 2


# --- 19.7 and 18 Lobby spam --------------------------------------------------------------

def test_one_account_cannot_fill_the_lobby_with_open_matches(player, settings):
    settings.MAX_OPEN_MATCHES_PER_USER = 5
    for _ in range(5):
        services.match_create(creator=player, game="race", seats=2)
    with pytest.raises(BadRequest, match="waiting for players"):
        services.match_create(creator=player, game="race", seats=2)
    response = client_for(player).post(reverse("match_new"), {
        "game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "is_public": "on"})
    assert response.status_code == 400 and "waiting for players" in response.content.decode()
    assert Match.objects.filter(creator=player, status=Match.OPEN).count() == 5


def test_one_account_cannot_take_seats_without_end(player, outsider, settings):
    """Issue 19.7: one account joined 100 matches in 8 s, then could leave each waiting."""
    settings.MAX_ACTIVE_SEATS_PER_USER = 3
    hosts = [make_user(f"host{n}") for n in range(4)]
    matches = [services.match_create(creator=h, game="race", seats=3) for h in hosts]
    for match in matches[:3]:
        services.match_join(match_id=match.pk, user=outsider)
    with pytest.raises(BadRequest, match="unfinished matches"):
        services.match_join(match_id=matches[3].pk, user=outsider)
    assert not matches[3].seats.filter(user=outsider).exists()


def test_chat_posts_matches_and_joins_are_rate_limited_with_a_429(race_match, player, opponent, settings):
    """Issue 18: requests that make work for others have a per-user rate."""
    settings.ACTION_RATES = {"chat": "3/60", "match_create": "2/600", "join": "2/600"}
    client = client_for(player)
    url = reverse("chat_post", args=[race_match.pk])
    answers = [client.post(url, {"text": f"hi {n}"}, HTTP_HX_REQUEST="true") for n in range(5)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert "Too many requests in a short time" in answers[3].content.decode()
    assert race_match.chat.count() == 3
    response = client.post(url, {"text": "again"})
    # Without htmx too: a 429 page that says why (nothing kept).
    assert response.status_code == 429 and "Too many requests" in response.content.decode()
    new = {"game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "is_public": "on"}
    codes = [client.post(reverse("match_new"), new).status_code for _ in range(3)]
    assert codes == [302, 302, 429]
    assert "Too many requests" in client.post(reverse("match_new"), new).content.decode()
    waiting = [services.match_create(creator=make_user(f"host{n}"), game="race", seats=3) for n in range(3)]
    other = client_for(opponent)
    codes = [other.post(reverse("match_join", args=[m.pk])).status_code for m in waiting]
    assert codes == [302, 302, 429]
    assert not waiting[2].seats.filter(user=opponent).exists()


def test_the_api_has_the_same_rates(player, settings):
    import json

    from accounts.models import ApiToken

    settings.ACTION_RATES = {"match_create": "2/600"}
    key = ApiToken.issue(player, "bot")[1]
    from django.test import Client

    codes = [Client().post("/api/matches", json.dumps({"game": "race", "seats": 2}), content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {key}").status_code for _ in range(3)]
    assert codes == [201, 201, 429]


# --- 19.2 Rating farming -----------------------------------------------------------------

def _rated_race(players, positions, **create):
    """A race among players, ended by an admin at these positions, then rated."""
    from community import ratings

    match = services.match_create(creator=players[0], game="race", seats=len(players), options={"finish": 200},
                                  **create)
    for user in players[1:]:
        services.match_join(match_id=match.pk, user=user, invite_code=match.invite_code)
    state = Match.objects.get(pk=match.pk).state
    state["positions"] = list(positions)
    Match.objects.filter(pk=match.pk).update(state=state)
    services.match_finish(match_id=match.pk, reason="ended by an admin")
    ratings.match_finished(match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def test_two_accounts_trading_wins_gain_nothing_after_the_bound(player, opponent, outsider, settings):
    """Issue 19.2: a player and his second account played rated matches against each other
    until he topped the board. Past RATED_GAMES_PER_PAIR in RATED_PAIR_DAYS, neither moves."""
    from community.models import ALL_TIME, Rating, RatingEvent
    from community.selectors import leaderboard

    settings.RATED_GAMES_PER_PAIR, settings.RATED_PAIR_DAYS, settings.LEADERBOARD_MIN_GAMES = 3, 7, 1
    for n in range(3):
        _rated_race([player, opponent], [30, 10] if n % 2 == 0 else [10, 30])
    at_bound = {r.user_id: (r.ordinal, r.games, r.wins) for r in Rating.objects.filter(season=ALL_TIME)}
    for n in range(6):  # the farm goes on: anna wins every one
        _rated_race([player, opponent], [40, 5])
    after = {r.user_id: (r.ordinal, r.games, r.wins) for r in Rating.objects.filter(season=ALL_TIME)}
    assert after == at_bound
    assert RatingEvent.objects.filter(capped=True, season=ALL_TIME).count() == 12  # 6 matches × 2, for staff
    # Against someone else, anna's games count as ever.
    _rated_race([player, outsider], [40, 5])
    assert Rating.objects.get(user=player, season=ALL_TIME).ordinal > at_bound[player.pk][0]
    assert leaderboard(game="race")  # the board still works
    # The staff's list: the admin filters rating changes by "capped".
    staff = make_user("admiral", is_staff=True, is_superuser=True)
    page = client_for(staff).get("/admin/community/ratingevent/?capped__exact=1")
    assert page.status_code == 200 and page.content.decode().count('class="field-capped"') == 24  # both boards


def test_the_bound_is_per_period(player, opponent, settings):
    from community.models import ALL_TIME, Rating

    settings.RATED_GAMES_PER_PAIR, settings.RATED_PAIR_DAYS = 1, 7
    first = _rated_race([player, opponent], [30, 10])
    Match.objects.filter(pk=first.pk).update(finished_at=timezone.now() - timedelta(days=8))
    before = Rating.objects.get(user=player, season=ALL_TIME).ordinal
    _rated_race([player, opponent], [30, 10])  # a week later: counts again
    assert Rating.objects.get(user=player, season=ALL_TIME).ordinal > before


def test_private_one_round_or_bot_matches_are_not_rated(player, opponent, settings):
    """Issue 19.2: four private, rated, one-round matches put a farmer on top of the board."""
    from community import ratings
    from community.models import RatingEvent

    settings.RATED_MIN_ROUNDS = 3
    private = _rated_race([player, opponent], [30, 10], is_public=False, rated=True)
    short = _rated_race([player, opponent], [30, 10], round_limit=1, rated=True)
    assert not private.rated and not short.rated
    # Rated before the rules (or set so in the admin): the listener checks again.
    Match.objects.filter(pk__in=[private.pk, short.pk]).update(rated=True)
    assert ratings.match_finished(match_id=private.pk) is False
    assert ratings.match_finished(match_id=short.pk) is False
    assert not RatingEvent.objects.exists()
    # The form says why it is unrated, rather than quietly making it so.
    client = client_for(player)
    response = client.post(reverse("match_new"), {
        "game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "rated": "on", "round_limit": 1,
        "is_public": "on"}, follow=True)
    assert "at least 3 rounds" in response.content.decode() and "played unrated" in response.content.decode()
    response = client.post(reverse("match_new"), {
        "game": "race", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "rated": "on"}, follow=True)
    assert "must be public" in response.content.decode()
    assert not Match.objects.filter(rated=True).exclude(pk__in=[private.pk, short.pk]).exists()


def test_a_round_limit_does_not_end_a_match_before_every_seat_moved(player, opponent):
    """Issue 19.2: two chance cards, then the round limit, ended a match nobody had moved in."""
    match = services.match_create(creator=player, game="race", seats=2, round_limit=1, options={"wind": False})
    services.match_join(match_id=match.pk, user=opponent)
    state = Match.objects.get(pk=match.pk).state
    state["round"] = 3  # as if the system's own steps had carried it past the limit
    Match.objects.filter(pk=match.pk).update(state=state)
    services.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    match = services.action_apply(match_id=match.pk, user=player, action={"type": "stay"})
    assert match.status == Match.RUNNING  # bo has not moved yet
    match = services.action_apply(match_id=match.pk, user=opponent, action={"type": "roll"})
    assert match.status == Match.FINISHED and "round limit" in match.finish_reason


def test_tokens_end_when_staff_set_a_password(player, staff):
    from accounts.models import ApiToken

    ApiToken.issue(player, "bot")
    response = client_for(staff).post(f"/admin/auth/user/{player.pk}/password/", {
        "password1": "a-new-sail-2026", "password2": "a-new-sail-2026", "usable_password": "true"})
    assert response.status_code == 302
    assert not ApiToken.objects.filter(user=player).exists()
