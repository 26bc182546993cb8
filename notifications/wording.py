"""A notification's words, put together when they are read, in the reader's language then (issue
24: a player who switched to German still read the old ones in English). What each is about is
kept as data (`Notification.params`); rows made before that read their stored `text`."""
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import get_engine


def absolute_url(url: str) -> str:
    """A site path as the address a mail, a push or a calendar links to (SITE_URL before it)."""
    return settings.SITE_URL.rstrip("/") + url if url.startswith("/") else url


def match_name(match) -> str:
    """The match as the site names it: its title, else its game and number, never empty."""
    return str(match).strip() if match is not None else ""


def notification_text(notification, *, lang: str | None = None) -> str:
    """The notification in `lang` (else the active language); its stored text if it has no data,
    or if the data cannot be worded (an engine gone, an event it no longer knows)."""
    params, match = notification.params, notification.match
    if params is None or match is None:
        return notification.text
    lang = lang or translation.get_language()
    try:
        with translation.override(lang):
            return _word(notification.kind, params, match, lang)
    except (KeyError, TypeError, ValueError, LookupError):
        return notification.text


def _word(kind, params, match, lang) -> str:
    from notifications.models import Notification

    name = match_name(match)
    if kind == Notification.TURN:
        return _("It is your turn in %(match)s.") % {"match": name}
    if kind in (Notification.OFFER, Notification.CARD):
        said = get_engine(match.game).describe(params["event"], list(params["names"]), lang=lang)
        return f"{name}: {said}"
    if kind == Notification.FINISHED:
        if params.get("rank"):
            return _("%(match)s has ended: you placed %(rank)s of %(players)s.") % {
                "match": name, "rank": params["rank"], "players": params["players"]}
        return _("%(match)s has ended.") % {"match": name}
    if kind == Notification.REMINDER:
        hours = int(params["hours"])
        return ngettext("About %(hours)s hour left for your turn in %(match)s.",
                        "About %(hours)s hours left for your turn in %(match)s.", hours) % {
            "hours": hours, "match": name}
    if kind == Notification.STARTED:
        return _("%(match)s has started.") % {"match": name}
    if kind == Notification.SUBSTITUTE:
        return _("A seat in %(match)s is offered to you as substitute.") % {"match": name}
    raise LookupError(kind)
