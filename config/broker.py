"""Kombu's Redis transport with a channel that finishes closing when the broker is gone.

Why the worker died when Redis went away (issue 29, reproduced in
tests/ops/test_worker_outage.py with the worker as `make worker` starts it):

1. The worker's task channel waits on Redis in a BRPOP most of the time. A channel closed while
   its BRPOP is pending first reads that BRPOP's reply, so that a message Redis popped is not
   lost (kombu#1733). With Redis gone the read raises ConnectionError, and `close()` stops there:
   the channel is not marked closed, its unacknowledged messages are not restored.
2. On a lost connection Celery 5.7's consumer collects the connection (kombu swallows the
   ConnectionError of step 1, then detaches the transport: `transport.client = None`) and then
   closes it again. The second close reaches the same channel, now not polling, and goes on to
   restore the unacknowledged messages (late-acknowledged jobs were running: the bots were
   playing). That needs a new connection pool, whose parameters are read from the detached
   transport's client: AttributeError "'NoneType' object has no attribute 'hostname'", which is
   no connection error, so it escapes to the worker: "Unrecoverable error", exit.

This channel, when its close fails on the dead connection, closes once more at once, while the
transport is still attached: the BRPOP is no longer pending (kombu clears the flag whatever the
read did), so that close completes and marks the channel closed; its unacknowledged messages
stay in Redis's unacked index and come back by the visibility timeout, to be run again (every
job is safe to run twice). The later second close then finds a closed channel and does nothing.
"""
from kombu.transport import redis


class Channel(redis.Channel):
    def close(self):
        try:
            super().close()
        except self.connection_errors:
            if self.closed:
                raise
            try:
                super().close()  # the pending read is done with: this one gets through
            except self.connection_errors:
                pass  # restoring the unacked messages needs Redis: they wait for the timeout
            raise


class Transport(redis.Transport):
    Channel = Channel
