"""The chat kept with a match: its players write, staff hide a line; each change is sent to
whoever watches once committed."""
from django.utils.translation import gettext as _

from config import after_response
from games import live
from games.errors import BadRequest, NotAllowed
from games.models import ChatMessage, Match
from games.reads.selectors import can_chat
from games.validation import refuse_control_characters


def chat_post(*, match: Match, user, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not can_chat(match, user):
        raise NotAllowed(_("Only the players of this match can write in its chat."))
    if not text:
        raise BadRequest(_("Write something first."))
    if len(text) > 500:
        raise BadRequest(_("A message is at most 500 characters."))
    refuse_control_characters(text)
    message = ChatMessage.objects.create(match=match, user=user, text=text)
    match_id = match.pk
    after_response.on_commit(lambda: live.broadcast_chat(match_id))
    return message


def chat_hide(*, message_id, hidden=True) -> None:
    message = ChatMessage.objects.select_related("match").get(pk=message_id)
    message.hidden = hidden
    message.save(update_fields=["hidden"])
    match_id = message.match_id
    after_response.on_commit(lambda: live.broadcast_chat(match_id))
