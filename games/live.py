"""Telling connected browsers that a match changed. Messages carry only the match id and its
version: each socket renders its own viewer's parts, so no secret rides on the channel layer.
`sent_at` lets a socket skip a message about a change that its last render already showed."""
import asyncio
import logging
import os
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

SEND_SECONDS = 5  # a broadcast that takes longer is given up (the browsers catch up later)


class _LayerLoop:
    """One event loop per process, on a thread of its own, for sending to the Redis channel
    layer from synchronous code (views under granian, Celery jobs). async_to_sync would make a
    new loop for every broadcast, and channels-redis keeps its connections per loop: each move
    then opened and closed a Redis connection (about a sixth of an API move's time)."""

    def __init__(self):
        self.lock, self.loop, self.pid = threading.Lock(), None, None

    def run(self, coroutine):
        with self.lock:
            if self.loop is None or self.pid != os.getpid():  # none yet, or forked (Celery's pool)
                self.loop, self.pid = asyncio.new_event_loop(), os.getpid()
                threading.Thread(target=self.loop.run_forever, name="channel-layer", daemon=True).start()
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(SEND_SECONDS)


_layer_loop = _LayerLoop()


def _group_send(layer, group, message) -> None:
    # The in-memory layer's queues belong to the consumers' loop: there asgiref's own bridge
    # (which hands the call back to that loop) is the right one. A thread with a loop running
    # cannot wait on another loop either.
    try:
        asyncio.get_running_loop()
        running = True
    except RuntimeError:
        running = False
    if running or not type(layer).__module__.startswith("channels_redis"):
        async_to_sync(layer.group_send)(group, message)
    else:
        _layer_loop.run(layer.group_send(group, message))


def group_name(match_id) -> str:
    return f"match-{match_id}"


def broadcast(match_id, version, *, unversioned=False) -> None:
    """`unversioned`: a change that keeps the version (a seat taken in the lobby, a deadline
    moved by a vacation), which a socket showing that version must look at again; any other
    announcement is of a new version, whose state never changes once committed."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "match.changed", "version": version, "sent_at": time.time()}
    if unversioned:
        message["unversioned"] = True
    try:
        _group_send(layer, group_name(match_id), message)
    except Exception:  # the move is committed; browsers catch up when the layer is back
        log.warning("could not broadcast match %s version %s", match_id, version, exc_info=True)


def broadcast_chat(match_id) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _group_send(layer, group_name(match_id), {"type": "match.chat", "sent_at": time.time()})
    except Exception:
        log.warning("could not broadcast the chat of match %s", match_id, exc_info=True)
