"""Counts in the cache what one person may do only so often: failed logins, reset mails, and
requests that make work for others (chat posts, new matches, joins).

Failed logins are counted three ways, so that guessing is slow and nobody locks others out:
per (address, account) the tight bound (LOGIN_ATTEMPTS), per account a looser one across all
addresses (LOGIN_ATTEMPTS_PER_ACCOUNT, against guessing from many machines), and per address
a much looser one for any names (LOGIN_ATTEMPTS_PER_ADDRESS): behind a proxy many players share
an address, and five wrong passwords for a made-up name must not lock them all out.

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


def _login_bounds(username: str, address: str) -> list[tuple[str, int]]:
    name = _name(username)
    return [(f"login-fail:pair:{address}:{name}", settings.LOGIN_ATTEMPTS),
            (f"login-fail:user:{name}", settings.LOGIN_ATTEMPTS_PER_ACCOUNT),
            (f"login-fail:addr:{address}", settings.LOGIN_ATTEMPTS_PER_ADDRESS)]


def _count(key: str, seconds: int) -> int:
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds)
        return 1


@_tolerant(False)
def is_locked(username: str, address: str) -> bool:
    bounds = _login_bounds(username, address)
    counts = cache.get_many([k for k, _ in bounds])
    return any((counts.get(k) or 0) >= limit for k, limit in bounds)


@_tolerant(None)
def record_failure(username: str, address: str) -> None:
    for key, _limit in _login_bounds(username, address):
        _count(key, settings.LOGIN_LOCKOUT_SECONDS)


@_tolerant(None)
def clear(username: str, address: str) -> None:
    """A right password forgives that account's failures, not the address's: else a guesser
    with an account of their own could log into it between guesses to reset their count."""
    cache.delete_many([k for k, _ in _login_bounds(username, address)[:2]])


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
