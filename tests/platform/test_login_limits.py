"""Logins and accounts under guessing (issues 14.3–14.4, 19.4, 34.7): the login limiter per address
and per account, nobody locked out by guessers elsewhere, the proxy header only when trusted, the
admin's login behind it; signup and password reset tell nobody whether an address has an account,
and reset mails are bounded."""
from django.urls import reverse

from tests.conftest import make_user


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


def test_guessers_on_many_addresses_cannot_lock_the_owner_out_at_home(db, settings):
    """Issue 34.7: twenty-one addresses each trying one wrong password locked the owner out from
    their own address. Now the account's bound closes it to places its owner never used, only."""
    settings.LOGIN_ATTEMPTS, settings.LOGIN_ATTEMPTS_PER_ACCOUNT = 5, 20
    from django.test import Client

    make_user("anna")
    home = {"REMOTE_ADDR": "198.51.100.1"}
    assert _login(Client(), "anna", "pw-annaanna", **home).status_code == 302  # the owner, last week
    codes = [_login(Client(), "anna", "wrong", REMOTE_ADDR=f"203.0.113.{n}").status_code for n in range(21)]
    assert codes == [400] * 20 + [429]
    # Nothing more is checked from places the owner never used, the right password included:
    # the distributed guessing has stopped at the bound.
    for address in ("203.0.113.50", "203.0.113.3"):
        refused = _login(Client(), "anna", "pw-annaanna", REMOTE_ADDR=address)
        assert refused.status_code == 429 and "other places" in refused.content.decode()
    # The owner, at home with a new browser: in.
    assert _login(Client(), "anna", "pw-annaanna", **home).status_code == 302
    # Their mistyping at home counts against their own address only, as before the attack.
    owner = Client()
    assert _login(owner, "anna", "wrong", **home).status_code == 400
    assert _login(owner, "anna", "pw-annaanna", **home).status_code == 302


def test_the_owners_browser_is_known_wherever_it_goes(db, settings):
    settings.LOGIN_ATTEMPTS_PER_ACCOUNT = 3
    from django.test import Client

    from accounts.ratelimit import KNOWN_COOKIE

    make_user("anna")
    laptop = Client()
    assert _login(laptop, "anna", "pw-annaanna", REMOTE_ADDR="198.51.100.1").status_code == 302
    assert KNOWN_COOKIE in laptop.cookies
    laptop.post("/accounts/logout/")
    for n in range(3):
        _login(Client(), "anna", "wrong", REMOTE_ADDR=f"203.0.113.{n}")
    # On a train: an address never used, but the browser that signed in before.
    assert _login(laptop, "anna", "pw-annaanna", REMOTE_ADDR="192.0.2.77").status_code == 302
    # A cookie of the guesser's own making, or one for another account, proves nothing.
    make_user("mallory")
    guesser = Client()
    assert _login(guesser, "mallory", "pw-mallorymallory", REMOTE_ADDR="203.0.113.9").status_code == 302
    assert _login(guesser, "anna", "pw-annaanna", REMOTE_ADDR="203.0.113.9").status_code == 429
    guesser.cookies[KNOWN_COOKIE] = laptop.cookies[KNOWN_COOKIE].value + "x"
    assert _login(guesser, "anna", "pw-annaanna", REMOTE_ADDR="203.0.113.9").status_code == 429


def test_a_reset_link_from_the_owners_mail_opens_a_new_place(db, settings):
    """Where the owner never signed in, under attack, the mail is their proof."""
    settings.LOGIN_ATTEMPTS_PER_ACCOUNT = 3
    from django.contrib.auth.tokens import default_token_generator
    from django.test import Client
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    anna = make_user("anna")
    for n in range(3):
        _login(Client(), "anna", "wrong", REMOTE_ADDR=f"203.0.113.{n}")
    phone = Client(REMOTE_ADDR="192.0.2.5")
    assert _login(phone, "anna", "pw-annaanna").status_code == 429
    url = reverse("password_reset_confirm", args=[urlsafe_base64_encode(force_bytes(anna.pk)),
                                                  default_token_generator.make_token(anna)])
    form_url = phone.get(url)["Location"]
    assert phone.post(form_url, {"new_password1": "a-new-sail-2026",
                                 "new_password2": "a-new-sail-2026"}).status_code == 302
    assert _login(phone, "anna", "a-new-sail-2026").status_code == 302
    assert _login(Client(), "anna", "a-new-sail-2026", REMOTE_ADDR="192.0.2.5").status_code == 302  # the address too
    assert _login(Client(), "anna", "a-new-sail-2026", REMOTE_ADDR="203.0.113.77").status_code == 429


def test_one_address_guessing_is_stopped_even_at_a_known_place(db, settings):
    """The bound per (address, account) holds wherever: a guesser behind the owner's own address
    (a shared network) gets LOGIN_ATTEMPTS tries, then not even the right password is checked."""
    settings.LOGIN_ATTEMPTS = 5
    from django.test import Client

    make_user("anna")
    shared = {"REMOTE_ADDR": "198.51.100.1"}
    assert _login(Client(), "anna", "pw-annaanna", **shared).status_code == 302
    guesser = Client()
    for _ in range(5):
        assert _login(guesser, "anna", "wrong", **shared).status_code == 400
    locked = _login(guesser, "anna", "pw-annaanna", **shared)
    assert locked.status_code == 429 and "wait a few minutes" in locked.content.decode()
    assert _login(Client(), "anna", "pw-annaanna", REMOTE_ADDR="198.51.100.2").status_code == 302


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
