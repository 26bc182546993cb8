"""Counts in the cache what one person may do only so often: failed logins, reset mails, and
requests that make work for others (chat posts, new matches, joins).

Failed logins are counted three ways, so that guessing is slow and nobody can lock out anybody
else (issue 34.7):
- per (address, account) the tight bound (LOGIN_ATTEMPTS): one address guessing one account;
- per address, for any names, a much looser one (LOGIN_ATTEMPTS_PER_ADDRESS): behind a proxy
  many players share an address, and five wrong passwords for a made-up name must not lock
  them all out;
- per account, from all addresses (LOGIN_ATTEMPTS_PER_ACCOUNT), against guessing from many
  machines. Beyond it an account is tried only from places its owner has signed in from: an
  address it signed in from within LOGIN_KNOWN_DAYS, or a browser holding the signed cookie
  that a sign-in leaves (KNOWN_COOKIE). Anywhere else the owner proves themselves by mail: a
  password-reset link makes the browser and address that open it known. So twenty-one
  addresses guessing once each stop the guessing (nothing more is even checked from a place
  the owner never used) but cannot lock the owner out at home: only guesses made from an
  address lock that address.

The client's address is REMOTE_ADDR, or, when settings.TRUSTED_PROXY_HOPS says that many proxies
of ours stand in front, the address the outermost of them saw (X-Forwarded-For counted from the
right; what a client writes further left is its own claim and is ignored).

If the cache (Redis) is away, everything still works: the limits fail open rather than locking
everybody out, and say so in the log."""
import functools
import hashlib
import logging

from django.conf import settings
from django.core.cache import cache
from django.utils.crypto import salted_hmac

log = logging.getLogger(__name__)


def _tolerant(default):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception:
                log.warning("rate limit unavailable (cache error)", exc_info=True)
                return default

        return inner

    return wrap


def client_address(request) -> str:
    address = request.META.get("REMOTE_ADDR", "")
    hops = getattr(settings, "TRUSTED_PROXY_HOPS", 0)
    if hops > 0:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if len(forwarded) >= hops:
            address = forwarded[-hops]
    return address[:64]


def digest(text: str) -> str:
    # Hashed: names and addresses are free text and cache keys are not.
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _name(username: str) -> str:
    return digest(username.strip().lower()[:150])


# Why a login is refused: guesses from this address (at this account, or at any), or guesses
# at this account from elsewhere while this place is not one its owner has signed in from.
HERE, ELSEWHERE = "here", "elsewhere"
# A browser's accounts signed in from it, signed (the names keyed with the site's secret, so the
# cookie does not tell its reader the names): proof of a past sign-in.
KNOWN_COOKIE = "tradewinds_known"
_KNOWN_SALT = "accounts.ratelimit.known"
_KNOWN_PER_BROWSER = 8


def _login_keys(name: str, address: str) -> dict[str, str]:
    return {"pair": f"login-fail:pair:{address}:{name}", "user": f"login-fail:user:{name}",
            "addr": f"login-fail:addr:{address}", "known": f"login-known:{address}:{name}"}


def _count(key: str, seconds: int) -> int:
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds)
        return 1


@_tolerant(None)
def locked(username: str, address: str, *, browser_known: bool = False) -> str | None:
    """HERE or ELSEWHERE if a login for `username` from `address` is refused without checking
    the password, else None. `browser_known`: the request carries proof of a past sign-in to
    this account (known_browser())."""
    name = _name(username)
    keys = _login_keys(name, address)
    counts = cache.get_many(list(keys.values()))
    if (counts.get(keys["pair"]) or 0) >= settings.LOGIN_ATTEMPTS \
            or (counts.get(keys["addr"]) or 0) >= settings.LOGIN_ATTEMPTS_PER_ADDRESS:
        return HERE
    if (counts.get(keys["user"]) or 0) >= settings.LOGIN_ATTEMPTS_PER_ACCOUNT \
            and not browser_known and not counts.get(keys["known"]):
        return ELSEWHERE
    return None


@_tolerant(None)
def record_failure(username: str, address: str) -> None:
    keys = _login_keys(_name(username), address)
    for kind in ("pair", "user", "addr"):
        _count(keys[kind], settings.LOGIN_LOCKOUT_SECONDS)


@_tolerant(None)
def signed_in(username: str, address: str) -> None:
    """The owner is here (a right password, or a reset link from their mail): this address is
    theirs for LOGIN_KNOWN_DAYS, and its guesses at the account are forgiven. Not the account's
    count from elsewhere (the owner signing in must not hand a guesser on many machines a fresh
    allowance), nor the address's for any names (a guesser with an account of their own would
    log into it between guesses)."""
    keys = _login_keys(_name(username), address)
    cache.set(keys["known"], 1, settings.LOGIN_KNOWN_DAYS * 86400)
    cache.delete(keys["pair"])


def _known_names(request) -> list[str]:
    value = request.get_signed_cookie(KNOWN_COOKIE, default="", salt=_KNOWN_SALT,
                                      max_age=settings.LOGIN_KNOWN_DAYS * 86400)
    return [n for n in value.split(",") if n]


def _cookie_name(username: str) -> str:
    return salted_hmac(_KNOWN_SALT, username.strip().lower()[:150]).hexdigest()[:32]


def known_browser(request, username: str) -> bool:
    """The browser has signed in to this account before (the cookie remember_browser left)."""
    return _cookie_name(username) in _known_names(request)


def remember_browser(request, response, username: str) -> None:
    """Leave the signed cookie that says this browser signed in to `username` (a few accounts at
    most: the latest first)."""
    name = _cookie_name(username)
    names = [name] + [n for n in _known_names(request) if n != name]
    response.set_signed_cookie(KNOWN_COOKIE, ",".join(names[:_KNOWN_PER_BROWSER]), salt=_KNOWN_SALT,
                               max_age=settings.LOGIN_KNOWN_DAYS * 86400, httponly=True, samesite="Lax",
                               secure=settings.SESSION_COOKIE_SECURE)


@_tolerant(True)
def allow(kind: str, who: str, limit: int, seconds: int) -> bool:
    """Count one more `kind` by `who`; False once that makes more than `limit` in the window."""
    return _count(f"rate:{kind}:{who}", seconds) <= limit


def parse_rate(rate: str) -> tuple[int, int]:
    """"20/60" is twenty per sixty seconds."""
    count, _, seconds = rate.partition("/")
    return int(count), int(seconds or 60)


def allow_user(kind: str, user) -> bool:
    """The per-user limits of settings.ACTION_RATES (chat, new matches, joins, imports)."""
    rate = settings.ACTION_RATES.get(kind)
    if not rate:
        return True
    limit, seconds = parse_rate(rate)
    return allow(kind, str(user.pk), limit, seconds)


@_tolerant(None)
def give_back(kind: str, user) -> None:
    """Uncount one of allow_user's `kind`: the request it counted was refused after all."""
    if settings.ACTION_RATES.get(kind):
        try:
            cache.decr(f"rate:{kind}:{user.pk}")
        except ValueError:  # the window ended meanwhile
            pass
