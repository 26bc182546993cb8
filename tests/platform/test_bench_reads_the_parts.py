"""The load bench reads each socket message as a browser does (bench/load.py): its version, its
status and how far back its log reaches — which is what tells a version folded into a later
message from one lost. The patterns must find them in the parts the site sends."""
import pytest

from bench.load import LOG_FROM, STATUS, VERSION
from games import play
from games.live import publisher
from games.live.viewers import Viewer

pytestmark = pytest.mark.django_db


def test_the_bench_finds_the_version_status_and_oldest_log_line_of_a_live_part(race_match, player, opponent):
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "roll"})
    play.action_apply(match_id=race_match.pk, user=player, action={"type": "stay"})
    change = play.action_apply(match_id=race_match.pk, user=opponent, action={"type": "roll"})
    viewer = Viewer(user_id=opponent.pk, staff=False, invite="", session="", credentials="", language="en",
                    zone="UTC", feed="html")
    part = publisher.part(change, viewer)
    assert int(VERSION.search(part[:400]).group(1)) == change.version == 3
    assert STATUS.search(part).group(1) == "running"
    assert int(LOG_FROM.search(part).group(1)) == 1  # the oldest line shown: the first roll
