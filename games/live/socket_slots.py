"""Match sockets open at once per user and per address (SOCKETS_PER_USER, SOCKETS_PER_ADDRESS),
counted across every server process, and forgotten soon after a process dies.

With Redis, each bound is a hash (one per user or address) holding one count per process; a
process also keeps a key of its own alive (`socket-process:<id>`, SOCKET_SLOT_SECONDS, refreshed
by a thread a few times within that). A claim adds up the counts of the processes still alive
and drops the others', in one script, so a Daphne killed with its sockets open (a crash, an
out-of-memory kill) stops counting within SOCKET_SLOT_SECONDS: one count per user or address,
kept for hours and refreshed by every new socket, held a user below SOCKETS_PER_USER after a
crash (issue 29). A process that finds its own key gone (Redis restarted, or the process was
stalled past the expiry and others dropped its counts) writes its counts again.

Without Redis the cache is the process's own memory, which dies with the process: counted there.
If Redis is away, sockets are let in (the limits fail open and say so in the log)."""
import logging
import os
import secrets
import socket
import threading

import redis
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

UNBOUNDED = 2**31  # a count kept only to be read (a match's sockets)

# A claim: every bound with room gets this process's count raised by one; None (nothing counted)
# when one of them is full.
# A field is a process's id, or "<process>|<viewer>" for a match's sockets (who watches it, for
# the publisher): a dead process's fields go whatever follows its id.
_CLAIM = """
local me, alive_prefix, keep, n = ARGV[1], ARGV[2], tonumber(ARGV[3]), #KEYS
for i, key in ipairs(KEYS) do
  local fields, total = redis.call('HGETALL', key), 0
  for j = 1, #fields, 2 do
    local process = string.match(fields[j], '^[^|]*')
    if process ~= me and redis.call('EXISTS', alive_prefix .. process) == 0 then
      redis.call('HDEL', key, fields[j])
    else
      total = total + tonumber(fields[j + 1])
    end
  end
  if total >= tonumber(ARGV[3 + i]) then
    return i
  end
end
for i, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, ARGV[3 + n + i], 1)
  redis.call('EXPIRE', key, keep)
end
return 0
"""
_RELEASE = """
for i, key in ipairs(KEYS) do
  if redis.call('HINCRBY', key, ARGV[i], -1) <= 0 then
    redis.call('HDEL', key, ARGV[i])
  end
end
"""


def match_key(match_id) -> str:
    return f"sockets:match:{match_id}"


def bounds(scope, viewer: str = "", user=None) -> list[tuple[str, int, str]]:
    """The bounds a socket counts against, as (hash, bound, what it counts there): its user's
    (signed in) and its address's; and its match's sockets by viewer, which have no bound (see
    watchers)."""
    user = user if user is not None else scope.get("user")
    match_id = scope.get("url_route", {}).get("kwargs", {}).get("match_id")
    keys = [(match_key(match_id), UNBOUNDED, viewer)] if match_id is not None else []
    if user is not None and user.is_authenticated:
        keys.append((f"sockets:user:{user.pk}", settings.SOCKETS_PER_USER, ""))
    client = scope.get("client") or (None,)
    if client[0]:
        keys.append((f"sockets:addr:{client[0]}", settings.SOCKETS_PER_ADDRESS, ""))
    return keys


def claim(scope, viewer: str = "", user=None) -> list | None:
    """Count a new socket (on its match, as `viewer`); None if a bound is full. What it returns
    is given to release()."""
    try:
        return _backend().claim(bounds(scope, viewer, user))
    except Exception:
        log.warning("socket limits unavailable (cache error)", exc_info=True)
        return []


def watchers(match_id) -> list[str]:
    """The viewers whose sockets (in any process alive or lately alive) watch the match: a change
    is rendered for these alone. With the cache away, none (the sockets catch up later)."""
    try:
        return _backend().watchers(match_key(match_id))
    except Exception:
        log.warning("socket counts unavailable (cache error)", exc_info=True)
        return []


def release(claimed: list[str] | None) -> None:
    if not claimed:
        return
    try:
        _backend().release(claimed)
    except Exception:  # the cache is away: the process's counts are written again when it is back
        log.warning("socket count not given back (cache error)", exc_info=True)


class _InCache:
    """The process's own memory (no Redis): counts die with the process."""

    def __init__(self):
        self.counts, self.lock = {}, threading.Lock()  # {hash: {field: count}}

    def watchers(self, key):
        with self.lock:
            return [field for field, n in self.counts.get(key, {}).items() if n > 0]

    def claim(self, keys):
        with self.lock:
            for key, limit, _field in keys:
                if sum(self.counts.get(key, {}).values()) >= limit:
                    return None
            for key, _limit, field in keys:
                fields = self.counts.setdefault(key, {})
                fields[field] = fields.get(field, 0) + 1
        return [(key, field) for key, _limit, field in keys]

    def release(self, counted):
        with self.lock:
            for key, field in counted:
                fields = self.counts.get(key, {})
                if fields.get(field, 0) <= 1:
                    fields.pop(field, None)
                else:
                    fields[field] -= 1


class _InRedis:
    def __init__(self, location):
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.client = redis.Redis.from_url(location, socket_connect_timeout=5, socket_timeout=5)
        self.claim_script = self.client.register_script(_CLAIM)
        self.release_script = self.client.register_script(_RELEASE)
        self.seconds = max(1, int(settings.SOCKET_SLOT_SECONDS))
        # The hashes outlive a process's key by far: each alive process refreshes its own.
        self.keep = self.seconds * 20
        self.alive_key = cache.make_key(f"socket-process:{self.me}")
        self.mine, self.lock = {}, threading.Lock()  # this process's counts, by (hash, field)
        self.beating = False

    def _key(self, name):
        # Named as the cache names its keys (prefix and version), beside the other counters.
        return cache.make_key(name)

    def _field(self, counted: str) -> str:
        return f"{self.me}|{counted}" if counted else self.me

    def _beat(self) -> None:
        """Keep this process's key alive; if it was gone, write this process's counts again."""
        pipe = self.client.pipeline()
        pipe.set(self.alive_key, 1, ex=self.seconds, get=True)
        with self.lock:
            counts = dict(self.mine)
        for key in {key for key, _field in counts}:
            pipe.expire(key, self.keep)
        was = pipe.execute()[0]
        if was is None and counts:
            pipe = self.client.pipeline()
            for (key, field), n in counts.items():
                pipe.hset(key, field, n)
                pipe.expire(key, self.keep)
            pipe.execute()

    def _keep_beating(self) -> None:
        stop = threading.Event()
        while not stop.wait(self.seconds / 3):
            try:
                self._beat()
            except Exception:
                log.warning("socket counts not refreshed (cache error)", exc_info=True)

    def _start(self) -> None:
        with self.lock:
            if self.beating:
                return
            self.beating = True
        self._beat()
        threading.Thread(target=self._keep_beating, name="socket-slots", daemon=True).start()

    def claim(self, keys):
        if not keys:
            return []
        self._start()
        counted = [(self._key(key), self._field(what)) for key, _limit, what in keys]
        full = self.claim_script(keys=[key for key, _field in counted],
                                 args=[self.me, self._key("socket-process:"), self.keep,
                                       *[limit for _key, limit, _what in keys], *[field for _key, field in counted]])
        if full:
            return None
        with self.lock:
            for pair in counted:
                self.mine[pair] = self.mine.get(pair, 0) + 1
        return counted

    def watchers(self, key):
        # A dead process's viewers linger until the next claim drops them: a part made for
        # nobody now and then, never one missing.
        fields = self.client.hgetall(self._key(key))
        found = set()
        for field, n in fields.items():
            process, _bar, viewer = field.decode().partition("|")
            if viewer and int(n) > 0:
                found.add(viewer)
        return sorted(found)

    def release(self, counted):
        with self.lock:
            for pair in counted:
                left = self.mine.get(pair, 0) - 1
                if left > 0:
                    self.mine[pair] = left
                else:
                    self.mine.pop(pair, None)
        self.release_script(keys=[key for key, _field in counted], args=[field for _key, field in counted])


_backends: dict[tuple, object] = {}
_backends_lock = threading.Lock()


def _backend():
    # One per process (a forked server gets its own id and connections) and cache location.
    location = settings.CACHES["default"].get("LOCATION") if isinstance(caches["default"], RedisCache) else None
    key = (os.getpid(), location)
    with _backends_lock:
        backend = _backends.get(key)
        if backend is None:
            backend = _backends[key] = _InRedis(location) if location else _InCache()
    return backend
