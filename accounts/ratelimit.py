"""Counts failed logins per account name and per address in the cache, so guessing is slow."""
from django.conf import settings
from django.core.cache import cache


def _keys(username: str, address: str) -> list[str]:
    return [f"login-fail:user:{username.lower()[:150]}", f"login-fail:addr:{address}"]


def is_locked(username: str, address: str) -> bool:
    return any((cache.get(k) or 0) >= settings.LOGIN_ATTEMPTS for k in _keys(username, address))


def record_failure(username: str, address: str) -> None:
    for key in _keys(username, address):
        cache.add(key, 0, settings.LOGIN_LOCKOUT_SECONDS)
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, settings.LOGIN_LOCKOUT_SECONDS)


def clear(username: str, address: str) -> None:
    cache.delete_many(_keys(username, address))
