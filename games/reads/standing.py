"""Standing orders in words: each kind of line and field as the games call them, a line as its
owner reads it, the places on the board a line may name, and which logged events a standing
order played (the log and the notices mark them). The lines themselves are kept and played by
games/play/orders.py."""
import importlib

from django.utils import translation
from django.utils.translation import gettext as _, gettext_lazy

from games.errors import BadRequest
from games.models import ActionLog


# What each kind of line is called, in the games' own words.
KIND_LABELS = {
    "roll": gettext_lazy("Roll the dice"),
    "sail": gettext_lazy("Sail a ship towards a port by the shortest safe route"),
    "sell": gettext_lazy("Sell a good if I get at least (after any duty)"),
    "buy": gettext_lazy("Buy a good if it costs at most (duty included)"),
    "end_turn": gettext_lazy("End the turn"),
    "decline_offers": gettext_lazy("Decline offers from others"),
    "accept_offers": gettext_lazy("Accept an offer that pays at least"),
    "home_port": gettext_lazy("Choose my home port (if it is taken, the first free one)"),
    "capture": gettext_lazy("Capture a ship when possible"),
    "treasure_home": gettext_lazy("Bring a treasure home by the shortest way"),
    "toward_treasure": gettext_lazy("Move the ship nearest the treasure towards it"),
    "any_move": gettext_lazy("Otherwise, any move the dice allow"),
    "discard": gettext_lazy("On a 7, discard in this order of resources"),
    "robber_leader": gettext_lazy("Put the robber on the leader's best hex"),
    "pirate_leader": gettext_lazy("Move the pirate onto a ship of the leader's, or else leave it"),
    "decline_trades": gettext_lazy("Decline every trade offer"),
    "accept_trades": gettext_lazy("Accept trade offers giving me one resource for another"),
    "build_road": gettext_lazy("Build a road at an edge if I can pay"),
    "unload": gettext_lazy("Unload ships when docked"),
    "end_sailing": gettext_lazy("Leave my ships where they are when asked to sail"),
}


FIELD_LABELS = {"ship": gettext_lazy("ship"), "port": gettext_lazy("port"), "good": gettext_lazy("good"),
                "at_least": gettext_lazy("at least"), "at_most": gettext_lazy("at most"),
                "order": gettext_lazy("order of resources"), "give": gettext_lazy("they give"),
                "get": gettext_lazy("I give"), "edge": gettext_lazy("edge")}


def vocabulary(game: str):
    try:
        return importlib.import_module(f"games.engines.{game}.orders")
    except ImportError:
        raise BadRequest(_("This game has no standing orders.")) from None


def problem_text(problem: tuple) -> str:
    index, code, details = problem
    field = str(FIELD_LABELS.get(details.get("field"), details.get("field", "")))
    words = {
        "not_a_list": _("Orders are a list of lines."),
        "unknown_kind": _("Line %(n)s: there is no such order.") % {"n": index + 1},
        "missing": _("Line %(n)s: say which %(field)s.") % {"n": index + 1, "field": field},
        "not_a_number": _("Line %(n)s: %(field)s must be a whole number, not %(value)s.")
        % {"n": index + 1, "field": field, "value": details.get("value")},
        "no_such": _("Line %(n)s: there is no %(field)s called %(value)s.")
        % {"n": index + 1, "field": field, "value": details.get("value")},
        "bad_scope": _("Line %(n)s: an order lasts for the next turn, until a time, or until removed.")
        % {"n": index + 1},
        "bad_time": _("Line %(n)s: the time it lasts until must be a time in the future.") % {"n": index + 1},
        "far_time": _("Line %(n)s: an order lasts until a time within a year; for longer, until removed.")
        % {"n": index + 1},
    }
    return words[code]


# The engines' headers of what comes after a turn: the next player's turn ("turn", in every
# game), Fuldrigger's new round and a turn lost to scurvy, the first player named. Each follows
# the move that ended a turn, in the same log row, but is not part of that move.
TURN_HEADERS = frozenset(("turn", "round", "turn_lost", "first_player"))


def passes_the_turn(event: dict) -> bool:
    """Whether a logged event ends a turn: a header of what comes next, or the match's end."""
    return event.get("type") in TURN_HEADERS or event.get("type") == "match_finished"


def played_by_order(row_kind: str, event: dict) -> bool:
    """Whether the log marks an event "played by standing order": an event of a move the orders
    played, not the next player's turn header logged with it (issue 33)."""
    return row_kind == ActionLog.ORDER and not passes_the_turn(event)


def places(game: str, kind: str, view) -> list[dict]:
    """The places of the board a field of this kind ("edge") may name, each {value, words,
    left, top} (where it lies on the board, in percent), from the game's own pages (its
    `order_places`); none for a game whose orders name no place."""
    try:
        pages = importlib.import_module(f"games.{game}.pages")
    except ImportError:
        return []
    order_places = getattr(pages, "order_places", None)
    return order_places(view, kind) if order_places is not None and view else []


def place_values(game: str, kind: str, view) -> list:
    """The values of `places` alone, cheaply where the game's pages say them alone
    (`order_place_values`)."""
    try:
        pages = importlib.import_module(f"games.{game}.pages")
    except ImportError:
        return []
    values = getattr(pages, "order_place_values", None)
    if values is None:
        return [place["value"] for place in places(game, kind, view)]
    return values(view, kind) if view else []


def line_words(game: str, line: dict, view) -> str:
    """One line in words for its owner's panel."""
    module = vocabulary(game)
    parts = [str(KIND_LABELS.get(line["kind"], line["kind"]))]
    for field, kind in module.KINDS.get(line["kind"], {}).items():
        value = line.get(field)
        if kind == "edge":  # a place on the board: its words, as the board says them
            names = {str(p["value"]): p["words"] for p in places(game, kind, view)}
        else:
            names = dict((str(v), label) for v, label in module.choices(field, view, translation.get_language()))
        if isinstance(value, list):
            shown = ", ".join(str(names.get(str(v), v)) for v in value)
        else:
            shown = str(names.get(str(value), value))
        parts.append(f"{FIELD_LABELS.get(field, field)}: {shown}")
    return "; ".join(parts)
