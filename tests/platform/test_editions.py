"""Rule editions on the site (contract, "Rule editions"): a match dealt under edition 1 plays on
under edition 1 after the engines moved to edition 2, and every finished match, of either
edition, replays and verifies (verify_match, --all, and the verify page)."""
import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import play
from games.engines import get_engine
from games.models import Match
from games.reads.replay import match_edition, replay_match
from tests.conftest import client_for


def _running(game, player, opponent, options, edition=None):
    """A running two-seat match; with `edition`, dealt again under that edition from its seed,
    as a match begun before the engines changed would have been."""
    match = play.match_create(creator=player, game=game, seats=2, options=options)
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    assert match.status == Match.RUNNING
    if edition is not None:
        engine = get_engine(game)
        match.state = engine.new_game(2, match.seed, match.options, edition=edition)
        match.rules_version = str(edition)
        match.save()
    return match


def _play(match, moves):
    """Play `moves` actions through the services, the bots' random choices for the seat to act."""
    engine = get_engine(match.game)
    bots = __import__(f"games.engines.{match.game}.bots", fromlist=["random_action"])
    users = {seat.number: seat.user for seat in match.seats.all()}
    rnd = random.Random(match.pk)
    for _ in range(moves):
        match.refresh_from_db()
        if match.is_over:
            break
        if engine.system_action(match.state) is not None:
            play.system_action_apply(match_id=match.pk)
            continue
        seat = engine.to_act(match.state)[0]
        action = bots.random_action(match.state, seat, rnd)
        play.action_apply(match_id=match.pk, user=users[seat], action=action)
    match.refresh_from_db()
    return match


@pytest.mark.parametrize("game", ["fuldrigger", "pirater"])
def test_an_edition_1_match_plays_on_under_edition_1_and_both_editions_verify(
        game, player, opponent, staff, capsys):
    options = {"rounds": 3} if game == "fuldrigger" else {}
    old = _running(game, player, opponent, options, edition=1)
    assert "edition" not in old.state and match_edition(old) == 1
    old = _play(old, 40)
    assert "edition" not in old.state                       # still edition 1 after moves
    if game == "pirater":
        assert old.state["board"] == "single"
    else:
        assert old.state["homes"] == ["copenhagen", "amsterdam"]
    new = _running(game, player, opponent, options)
    current = get_engine(game).edition
    assert current >= 2 and new.state["edition"] == current and new.rules_version == str(current)
    new = _play(new, 40)
    for match in (old, new):
        if not match.is_over:
            play.match_finish(match_id=match.pk, reason="ended by an admin", actor=staff)
        match.refresh_from_db()
        result = replay_match(match)
        assert result["ok"], result
        call_command("verify_match", str(match.pk))
        assert f"rules edition {match_edition(match)}" in capsys.readouterr().out
        page = client_for(player).get(reverse("match_verify", args=[match.pk])).content.decode()
        assert "reproduce the final state" in page
    call_command("verify_match", "--all")
    out = capsys.readouterr().out
    assert "rules edition 1" in out and f"rules edition {current}" in out and "all 2 finished" in out


def test_a_tampered_match_fails_verify_all(player, opponent, staff):
    """verify_match --all reports a match whose log no longer reproduces its state."""
    match = _running("pirater", player, opponent, {})
    match = _play(match, 10)
    play.match_finish(match_id=match.pk, reason="ended by an admin", actor=staff)
    match.refresh_from_db()
    match.state = dict(match.state, round=999)
    match.save()
    with pytest.raises(Exception, match="do NOT replay"):
        call_command("verify_match", "--all")


@pytest.mark.parametrize("game, rule, change", [
    ("fuldrigger", "F39", "Only a port with no fortress at all shelters ships"),
    ("pirater", "P13", "a treasure ship moves towards the side where its port lies or along it, never back")])
def test_the_rules_page_names_the_edition_and_what_changed(client, game, rule, change):
    """The rules page names the current edition and lists what changed (docs/rules/changelog.md),
    in words: the rule's ID (here for the reader of this test) is not a player's word."""
    page = client.get(reverse("rules", args=[game])).content.decode()
    assert f"These are the rules of edition {get_engine(game).edition}." in page
    assert "What changed in edition 2" in page and change in page and f"({rule})" not in page
