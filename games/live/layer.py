"""Sending to the channel layer from synchronous code (the services' commit hooks under granian,
Celery jobs): many group messages of one change in one go."""
import asyncio
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

SEND_SECONDS = 5  # a broadcast that takes longer is given up (the browsers catch up later)


class _LayerLoop:
    """One event loop per process, on a thread of its own, for sending to the Redis channel
    layer from synchronous code. async_to_sync would make a new loop for every broadcast, and
    channels-redis keeps its connections per loop: each move then opened and closed a Redis
    connection (about a sixth of an API move's time)."""

    def __init__(self):
        self.lock, self.loop, self.pid = threading.Lock(), None, None

    def run(self, coroutine):
        with self.lock:
            if self.loop is None or self.pid != os.getpid():  # none yet, or forked (Celery's pool)
                self.loop, self.pid = asyncio.new_event_loop(), os.getpid()
                threading.Thread(target=self.loop.run_forever, name="channel-layer", daemon=True).start()
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(SEND_SECONDS)


_layer_loop = _LayerLoop()


async def _send_all(layer, messages) -> None:
    # One after another on one connection; gathered, channels-redis would open one per send.
    for group, message in messages:
        await layer.group_send(group, message)


def send(messages: list[tuple[str, dict]], what: str) -> None:
    """Send (group, message) pairs. A failure is logged, never raised: the change is committed,
    and the browsers catch up when the layer is back."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        # The in-memory layer's queues belong to the consumers' loop: there asgiref's own bridge
        # (which hands the call back to that loop) is the right one. A thread with a loop
        # running cannot wait on another loop either.
        try:
            asyncio.get_running_loop()
            running = True
        except RuntimeError:
            running = False
        if running or not type(layer).__module__.startswith("channels_redis"):
            async_to_sync(_send_all)(layer, messages)
        else:
            _layer_loop.run(_send_all(layer, messages))
    except Exception:
        log.warning("could not send %s", what, exc_info=True)
