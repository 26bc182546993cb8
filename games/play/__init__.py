"""Play: every change to a match, one module per concern, each service `<entity>_<verb>`
running in one transaction with the match locked and returning what changed (games/change.py).

    core      the one way a match changes: lock, engine step, log, clock, end, announce
    lobby     create, join, leave, colour, start (the last seat deals)
    moves     a player's move; the system's own (chance cards)
    clocks    timeouts, bots covering absences, standing orders when due, deadlines, vacations
    staff     what the admin does: end, pause, resume, extend, abort, hand a seat over
    orders    a seat's standing orders, kept and played
    chat      the match's chat
    imports   a match played elsewhere, replayed and stored
    jobs, bots, limits, projections   what the services lean on

Callers outside play use the names below (`from games import play; play.action_apply(...)`)."""
from games.play.clocks import deadline_apply, seat_return, vacation_end, vacation_start
from games.play.chat import chat_hide, chat_post
from games.play.imports import match_import
from games.play.lobby import MAX_TURN_SECONDS, MIN_TURN_SECONDS, match_create, match_join, match_leave, \
    match_set_colour, match_start
from games.play.moves import action_apply, system_action_apply
from games.play.orders import orders_of, orders_pause, orders_set
from games.play.substitutes import offer_accept, offer_refuse, volunteer_remove, volunteer_set
from games.play.staff import match_abort, match_extend, match_finish, match_pause, match_resume, seat_hand_over

__all__ = [
    "action_apply", "chat_hide", "chat_post", "deadline_apply", "match_abort", "match_create",
    "match_extend", "match_finish", "match_import", "match_join", "match_leave", "match_pause", "match_resume",
    "match_set_colour", "match_start", "offer_accept", "offer_refuse", "volunteer_remove", "volunteer_set", "MAX_TURN_SECONDS", "MIN_TURN_SECONDS", "orders_of", "orders_pause",
    "orders_set", "seat_hand_over", "seat_return", "system_action_apply", "vacation_end", "vacation_start",
]
