"""No socket silently falls behind (issue 34).

A change reaches its sockets through the channel layer; if a message is lost — Redis was away
when the publisher sent it, or restarted and forgot the groups — the socket would show the old
version until the next change. So each socket process checks, every LIVE_WATCH_SECONDS, the
versions of the matches its sockets show (with the revision of a change that kept the version:
the deal, a seat taken), in one query for all of them, and a socket still behind one that was
already committed at the check before (the publisher had all that
time to deliver it) catches up by itself: it joins its groups again, reads the match and sends
its viewer's part. In normal running nothing is behind and the check costs one indexed query
per process per interval; no query and no render per socket."""
import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

log = logging.getLogger(__name__)


def _versions(match_ids) -> dict:
    """Each match's version and revision (a change that kept the version: Match.revision)."""
    from games.models import Match

    return {pk: (version, revision) for pk, version, revision
            in Match.objects.filter(pk__in=match_ids).values_list("pk", "version", "revision")}


class Watch:
    """The sockets of this process by match, and the task that checks they keep up."""

    def __init__(self):
        self.sockets: dict[int, set] = {}
        self.seen: dict[int, int] = {}
        self.loop = self.task = None

    def add(self, match_id, socket) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop or self.task is None or self.task.done():
            # A new event loop (a new server process, a test's loop): start afresh on it.
            self.sockets, self.seen, self.loop = {}, {}, loop
            self.task = loop.create_task(self._run())
        self.sockets.setdefault(int(match_id), set()).add(socket)

    def remove(self, match_id, socket) -> None:
        held = self.sockets.get(int(match_id))
        if held is not None:
            held.discard(socket)
            if not held:
                self.sockets.pop(int(match_id), None)
                self.seen.pop(int(match_id), None)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(settings.LIVE_WATCH_SECONDS)
            try:
                await self.check()
            except Exception:  # the database is away: the next check tries again
                log.warning("could not check the sockets' versions", exc_info=True)

    async def check(self) -> None:
        ids = list(self.sockets)
        if not ids:
            return
        versions = await database_sync_to_async(_versions, thread_sensitive=False)(ids)
        for match_id in ids:
            version, before = versions.get(match_id), self.seen.get(match_id)
            if version is None:
                continue
            self.seen[match_id] = version
            if before is None:
                continue
            for socket in list(self.sockets.get(match_id, ())):
                if (socket.shown_version, socket.shown_revision) < before:
                    log.info("match %s: a socket showed version %s (%r) of %s; catching it up",
                             match_id, socket.shown_version, socket.shown_revision, version)
                    asyncio.ensure_future(socket.catch_up())


watch = Watch()
