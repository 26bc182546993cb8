"""Counts failed logins per account name and per address in the cache, so guessing is slow.

If the cache (Redis) is away, logging in still works: the limit fails open rather than locking
everybody out, and says so in the log."""
import functools
import logging

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)


def _tolerant(default):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args):
            try:
                return fn(*args)
            except Exception:
                log.warning("login rate limit unavailable (cache error)", exc_info=True)
                return default

        return inner

    return wrap


def _keys(username: str, address: str) -> list[str]:
    return [f"login-fail:user:{username.lower()[:150]}", f"login-fail:addr:{address}"]


@_tolerant(False)
def is_locked(username: str, address: str) -> bool:
    return any((cache.get(k) or 0) >= settings.LOGIN_ATTEMPTS for k in _keys(username, address))


@_tolerant(None)
def record_failure(username: str, address: str) -> None:
    for key in _keys(username, address):
        cache.add(key, 0, settings.LOGIN_LOCKOUT_SECONDS)
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, settings.LOGIN_LOCKOUT_SECONDS)


@_tolerant(None)
def clear(username: str, address: str) -> None:
    cache.delete_many(_keys(username, address))
