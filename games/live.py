"""Telling connected browsers that a match changed. Messages carry only the match id and its
version: each socket renders its own viewer's parts, so no secret rides on the channel layer.
`sent_at` lets a socket skip a message about a change that its last render already showed."""
import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(match_id) -> str:
    return f"match-{match_id}"


def broadcast(match_id, version) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(match_id), {"type": "match.changed", "version": version,
                                                                    "sent_at": time.time()})
    except Exception:  # the move is committed; browsers catch up when the layer is back
        log.warning("could not broadcast match %s version %s", match_id, version, exc_info=True)


def broadcast_chat(match_id) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(match_id), {"type": "match.chat", "sent_at": time.time()})
    except Exception:
        log.warning("could not broadcast the chat of match %s", match_id, exc_info=True)
