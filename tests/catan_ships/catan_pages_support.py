"""Shared set-up for the Catan with ships page tests: matches played forward through the
services, as the site plays them, to the moment a test needs."""
import html
import json
import random
import re

from games import play
from games.engines import get_engine
from games.models import Match

ENGINE = get_engine("catan_ships")


def new_match(creator, *others, options=None) -> Match:
    match = play.match_create(creator=creator, game="catan_ships", seats=1 + len(others), options=options or {})
    for user in others:
        play.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def users_by_seat(match: Match) -> dict:
    return {s.number: s.user for s in match.seats.all()}


def play_until(match: Match, done, *, seed=0, max_actions=3000, prefer=("roll",)) -> Match:
    """Play legal actions (seeded random, a preferred type first) through the services until
    `done(match.state)` holds; fail if it never does."""
    rnd = random.Random(seed)
    users = users_by_seat(match)
    for _ in range(max_actions):
        match.refresh_from_db()
        if done(match.state):
            return match
        assert match.status == Match.RUNNING, "the match ended first"
        if not match.turn_seats:
            play.system_action_apply(match_id=match.pk)
            continue
        seat = match.turn_seats[0]
        legal = ENGINE.legal_actions(match.state, seat)
        preferred = [a for a in legal if a["type"] in prefer]
        # Trades rarely move the game on: offers and withdrawals are left out when there is more.
        useful = [a for a in legal if a["type"] not in ("offer", "withdraw")] or legal
        action = preferred[0] if preferred else rnd.choice(useful)
        play.action_apply(match_id=match.pk, user=users[seat], action=action)
    raise AssertionError("never reached")


def offered(body: str) -> list[dict]:
    """Every action a button of this page posts."""
    return [json.loads(html.unescape(v)) for v in re.findall(r"<button[^>]*name=\"action\" value='([^']*)'", body)]


def set_state(match: Match, state: dict) -> Match:
    """Put the match in a given state (as if play had led there), with the seats to act."""
    Match.objects.filter(pk=match.pk).update(state=state, turn_seats=ENGINE.to_act(state))
    match.refresh_from_db()
    return match


def states_of_a_playout(players=3, seed="pages", options=None, steps=4000, rnd_seed=7):
    """States along a random game (engine only), every phase and action type on the way."""
    rnd = random.Random(rnd_seed)
    state = ENGINE.new_game(players, seed, options or {})
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        system = ENGINE.system_action(state)
        if system:
            state, _ = ENGINE.apply(state, None, system)
            continue
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        useful = [a for a in legal if a["type"] not in ("offer", "withdraw")] or legal
        yield state, seat, legal
        state, _ = ENGINE.apply(state, seat, rnd.choice(useful))
