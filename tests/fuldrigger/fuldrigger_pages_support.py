"""Shared set-up for the Fuldrigger page tests."""
from games import play
from games.engines.fuldrigger import ENGINE
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.state import fresh_turn
from games.fuldrigger.projection import project_match
from games.models import Match


def choose_homes(match):
    """Edition 2 (F7): each seat, in roll order, chooses the board's home of its own number."""
    match.refresh_from_db()
    users = seat_users(match)
    while match.state["phase"] == "homes":
        seat = ENGINE.to_act(match.state)[0]
        play.action_apply(match_id=match.pk, user=users[seat],
                              action={"type": "choose_home", "city": WORLD.homes[seat]})
        match.refresh_from_db()
    return match


def start(users, **options):
    match = play.match_create(creator=users[0], game="fuldrigger", seats=len(users), options=options)
    for user in users[1:]:
        play.match_join(match_id=match.pk, user=user)
    choose_homes(match)
    play.system_action_apply(match_id=match.pk)  # the first chance card (on_commit never runs here)
    match.refresh_from_db()
    change_state(match, calm_start)
    return match


def calm_start(state):
    """Whatever the first chance card did (a tax, scurvy, an embargo), seat 0 plays a plain turn."""
    players = state["players"]
    state.update(effects=[], skip=[False] * players, cash=[100] * players, phase="play")
    state["turn"] = fresh_turn(0)
    if "first" in state:
        state["first"] = 0               # seat 0 began (F8), as these tests expect


def seat_users(match):
    return {s.number: s.user for s in match.seats.all()}


def change_state(match, change):
    """Set up a position by hand (as a saved game would have it) and project it."""
    state = match.state
    change(state)
    Match.objects.filter(pk=match.pk).update(state=state, turn_seats=sorted(ENGINE.to_act(state)))
    match.refresh_from_db()
    project_match(match)
