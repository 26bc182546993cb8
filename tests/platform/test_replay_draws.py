"""The fair-dice check explains each game's draws as that game makes them: a player who follows
the replay's table from the revealed seed finds every die of every step (Catan's turn roll is one
draw of 36 split in two; Pirater's and Fuldrigger's dice are a draw each). Real matches, played
through the services, replayed step by step."""
import pytest
from django.urls import reverse

from games import play
from games.engines import get_engine
from games.engines.dice import draw_number, one_die, two_dice_of_36
from games.models import ActionLog, Match
from games.reads.replay import draw_readings, replay_context
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def played(capture, game: str, seats: int, actions: int) -> Match:
    """A match played through the services, each commit's jobs (the bank's own actions) run."""
    users = [make_user(f"p{game[:3]}{n}") for n in range(seats)]
    match = play.match_create(creator=users[0], game=game, seats=seats)
    for user in users[1:]:
        play.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    engine = get_engine(game)
    by_seat = {s.number: s.user for s in match.seats.all()}
    for _ in range(actions):
        if match.status != Match.RUNNING or not match.turn_seats:
            break
        seat = match.turn_seats[0]
        legal = engine.legal_actions(match.state, seat)
        action = next((a for a in legal if a.get("type") == "roll"), None) or engine.timeout_action(match.state, seat)
        with capture(execute=True):
            play.action_apply(match_id=match.pk, user=by_seat[seat], action=action)
        match.refresh_from_db()
    play.match_finish(match_id=match.pk, reason="the match deadline passed")
    match.refresh_from_db()
    return match


def faces_found(dice: list[int], table: list[dict]) -> bool:
    """Whether a player reading the table finds `dice`: as one reading of a single draw (a
    pair), or as one die each from consecutive draws, in order."""
    for reading in range(len(table[0]["readings"]) if table else 0):
        cells = [d["readings"][reading]["faces"] for d in table]
        if any(c == dice for c in cells):
            return True
        singles = [c[0] for c in cells if len(c) == 1]
        if any(singles[i:i + len(dice)] == dice for i in range(len(singles))):
            return True
    return False


@pytest.mark.parametrize("game, seats, actions", [("pirater", 2, 30), ("fuldrigger", 2, 30), ("catan_ships", 3, 80)])
def test_every_die_of_every_step_is_found_in_the_steps_draws(game, seats, actions, django_capture_on_commit_callbacks):
    match = played(django_capture_on_commit_callbacks, game, seats, actions)
    total = match.log.filter(kind__in=ActionLog.ENGINE_KINDS).count()
    checked = 0
    for step in range(1, total + 1):
        page = replay_context(match, step)
        for event in page["row"].events:
            if event.get("dice"):
                assert faces_found(event["dice"], page["draws"]), (step, event, page["draws"])
                checked += 1
        for d in page["draws"]:   # every reading is computed from the draw the seed gives
            number = draw_number(match.seed, d["n"])
            assert d["digest"] == f"{number:064x}"
    assert checked >= 2, "the match rolled too few dice to check"
    # Every game's replay page draws the position as it was: no final ranking before the end.
    client = client_for(match.creator)
    for step in (0, total // 2):
        page = client.get(reverse("match_replay", args=[match.pk]) + f"?step={step}").content.decode()
        assert "Final standings" not in page and "The match is over" not in page and "fd-final" not in page


def test_catans_turn_roll_is_one_draw_of_36_split_in_two_not_two_draws_modulo_6(django_capture_on_commit_callbacks):
    match = played(django_capture_on_commit_callbacks, "catan_ships", 3, 80)
    rolls = 0
    for step in range(1, match.log.filter(kind__in=ActionLog.ENGINE_KINDS).count() + 1):
        page = replay_context(match, step)
        if page["row"].action.get("type") != "roll":
            continue
        dice = next(e["dice"] for e in page["row"].events if e.get("dice"))
        first = draw_number(match.seed, page["draws"][0]["n"])
        assert two_dice_of_36(first) == dice
        assert page["draws"][0]["readings"][0]["faces"] == dice and page["draws"][0]["readings"][0]["sides"] == 36
        rolls += 1
    assert rolls >= 1
    words = draw_readings("catan_ships", "en")
    assert "modulo 36" in words["intro"] and "divided by 6" in words["intro"]
    assert "modulo 36" in draw_readings("catan_ships", "de")["intro"]


def test_the_readings_are_the_engines_own_arithmetic():
    assert two_dice_of_36(24) == [5, 1] and two_dice_of_36(36 + 24) == [5, 1]
    assert one_die(5) == [6] and one_die(6) == [1]
    for lang in ("en", "da", "de", "sv"):
        for game in ("pirater", "fuldrigger", "catan_ships"):
            how = draw_readings(game, lang)
            assert how["intro"] and all(r["label"] for r in how["readings"])
