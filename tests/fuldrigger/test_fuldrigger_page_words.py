"""What a Fuldrigger player reads on the match page, as a player would expect it (issue 24): a
wreck told to its owner in the turn's panel, in his language; no rule codes, no "None"; places to
sail to each named once and never the port the ship lies in; the reason a good cannot be bought;
when the campaign ends, on the page and in the lobby."""
import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games import play
from games.engines.fuldrigger.board import WORLD
from games.models import ActionLog, Match
from tests.conftest import client_for
from tests.fuldrigger.fuldrigger_pages_support import change_state, start

RULE_CODE = re.compile(r"\(F\d|\bF\d+[:)]|\bNone\b")


@pytest.fixture
def match(player, opponent):
    return start([player, opponent])


def text_of(body):
    """The visible words of the live part: tags and the script's JSON left out."""
    live = body[body.index('<div id="match-live"'):]
    live = re.sub(r"<(script|style|title)\b.*?</\1>", " ", live, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", live))


def live_part(client, match, query=""):
    return client.get(match.get_absolute_url() + query, HTTP_HX_REQUEST="true").content.decode()


def wreck(match, seat=0):
    """The first ship of `seat` wrecked on a reef by a move, as the engine logs it."""
    ship = min((s for s in match.state["ships"].values() if s["owner"] == seat), key=lambda s: s["id"])
    reef = next(n for n, d in WORLD.nodes.items() if d.get("reef"))
    event = {"type": "reef", "seat": seat, "ship": ship["id"], "name": ship["name"], "node": reef,
             "letter": WORLD.reef_letter(reef), "dice": [1, 1], "wrecked": True, "cargo": None}
    change_state(match, lambda state: state["ships"].pop(str(ship["id"])))
    seq = Match.objects.get(pk=match.pk).version + 1        # a log row's number is the version it made
    Match.objects.filter(pk=match.pk).update(version=seq)
    match.refresh_from_db()
    ActionLog.objects.create(match=match, seq=seq, seat=seat, kind=ActionLog.PLAYER,
                             action={"type": "move", "ship": ship["id"], "path": [reef]},
                             events=[{"type": "move", "seat": seat, "ship": ship["id"], "name": ship["name"],
                                      "from": ship["node"], "to": reef, "path": [reef], "stopped": "wrecked"},
                                     event])
    return ship


@pytest.mark.rule("F18")
def test_a_wreck_is_told_to_its_owner_in_the_turns_panel_in_his_language(match, player, opponent):
    ship = wreck(match)
    body = live_part(client_for(player), match)
    # In the turn's panel, where the player looks after acting (the fleet just lists the others).
    turn = body[body.index('class="fd-turn"'):]
    turn = turn[:turn.index("</section>")]
    notice = re.search(r'<div class="fd-lost" role="alert">(.*?)</div>', turn, re.S)
    assert notice and html.unescape(ship["name"]) in html.unescape(notice.group(1))
    assert "wreck" in notice.group(1).lower()
    # Only its owner is told there; the other player reads it in the log.
    assert 'class="fd-lost"' not in live_part(client_for(opponent), match)
    # In German for a German player, in the engine's own words.
    Profile.objects.filter(user=player).update(language="de")
    german = html.unescape(live_part(client_for(player), match))
    notice = re.search(r'<div class="fd-lost" role="alert">(.*?)</div>', german, re.S).group(1)
    assert ship["name"] in notice and "wreck" not in notice.lower()


def test_the_wreck_notice_stays_until_its_owner_ends_his_turn(match, player):
    wreck(match)
    assert 'class="fd-lost"' in live_part(client_for(player), match)
    play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    assert 'class="fd-lost"' in live_part(client_for(player), match)
    play.action_apply(match_id=match.pk, user=player, action={"type": "end_turn"})
    assert 'class="fd-lost"' not in live_part(client_for(player), match)


def test_the_live_part_says_no_rule_codes_and_no_none(match, player):
    """Home cities not yet chosen ("home None"), a port panel with a fortress and duty, the sail
    form, offers: words only."""
    def busy(state):
        state["fortresses"]["london"] = 0
        state["turn"]["sold"] = {"london": {"tea": 1}}
        ship = min((s for s in state["ships"].values() if s["owner"] == 0), key=lambda s: s["id"])
        ship["node"] = "london"
    change_state(match, busy)
    client = client_for(player)
    body = client.get(match.get_absolute_url()).content.decode()
    words = text_of(body)
    assert not RULE_CODE.search(words), RULE_CODE.search(words)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", words), re.search(r"\b[a-z]+_[a-z_]+\b", words)
    play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    ship = min((s for s in Match.objects.get(pk=match.pk).state["ships"].values() if s["owner"] == 0),
               key=lambda s: s["id"])
    for query in (f"?sail={ship['id']}", "?offer=1"):
        words = text_of(client.get(match.get_absolute_url() + query).content.decode())
        assert not RULE_CODE.search(words), (query, RULE_CODE.search(words))


def test_before_the_homes_are_chosen_no_player_reads_home_none(player, opponent):
    match = play.match_create(creator=player, game="fuldrigger", seats=2, options={})
    play.match_join(match_id=match.pk, user=opponent)
    match.refresh_from_db()
    assert match.state["phase"] == "homes" and None in match.state["homes"]
    words = text_of(client_for(player).get(match.get_absolute_url()).content.decode())
    assert "None" not in words and "home" not in words.split("Players", 1)[-1].lower().replace("home city", "")


def test_each_place_to_sail_to_is_named_once_and_never_where_she_lies(match, player):
    play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    match.refresh_from_db()
    for ship in (s for s in match.state["ships"].values() if s["owner"] == 0):
        body = html.unescape(live_part(client_for(player), match, f"?sail={ship['id']}"))
        options = re.findall(r'<option value=\'[^\']*\' data-to="(\w+)">([^<]*)</option>', body)
        assert options
        assert ship["node"] not in {to for to, _ in options}
        names = [label.split(" — ")[0] for _, label in options]
        assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
        assert all(re.search(r"— \d+ squares?\b", label) for _, label in options)
        assert not any(" sq" in label.replace(" square", "") for _, label in options)


def test_ships_named_like_ports_are_told_apart_from_where_they_lie(match, player):
    ship = min((s for s in match.state["ships"].values() if s["owner"] == 0), key=lambda s: s["id"])
    home = WORLD.name(match.state["homes"][0])
    change_state(match, lambda state: state["ships"][str(ship["id"])].__setitem__("name", home))
    body = html.unescape(live_part(client_for(player), match))
    assert f"{home}</strong> — in port at {home}" in body
    assert f"{home}</strong> — {home}" not in body


def test_a_good_that_cannot_be_bought_says_why(match, player):
    def poor(state):
        state["cash"][0] = 5
    change_state(match, poor)
    body = html.unescape(live_part(client_for(player), match))
    panel = body[body.index('class="fd-port-panel"'):]
    panel = panel[:panel.index("</table>")]
    reasons = re.findall(r'<small class="fd-why-not">([^<]*)</small>', panel)
    rows = re.findall(r"<tr><th>", panel)
    assert reasons and len(reasons) == len(rows)
    assert all(r in ("you have 5 ducats", "none left in the bank") for r in reasons), reasons


def _port_reasons(body):
    panel = body[body.index('class="fd-port-panel"'):]
    return re.findall(r'<small class="fd-why-not">([^<]*)</small>', panel[:panel.index("</table>")])


@pytest.mark.rule("F29")
def test_a_port_where_every_ship_is_laden_says_so_and_a_ship_refused_says_why_in_the_engines_words(match, player):
    """The reasons come from the engine's refusal of the purchase (trade.cargo_refusal): laden
    ships (F29) are "no empty merchant ship here"; a full fleet and no money for a ship (F22,
    F20) is said by "Buy a ship" in the engine's own words."""
    def laden(state):
        for ship in state["ships"].values():
            if ship["owner"] == 0:
                ship["cargo"] = {"good": "fish", "paid": 10, "carried": 0, "from": ship["node"]}
    change_state(match, laden)
    body = html.unescape(live_part(client_for(player), match))
    reasons = _port_reasons(body)
    assert reasons and set(reasons) == {"no empty merchant ship here"}, reasons

    def broke(state):
        state["cash"][0] = 3
    change_state(match, broke)
    body = html.unescape(live_part(client_for(player), match))
    assert "Buy a ship</button>" in body
    assert re.search(r"<button type=\"button\" disabled>Buy a ship</button>\s*<small class=\"fd-why-not\">A ship costs 100 ducats; you have 3\.",
                     body), body[body.index("Buy a ship") - 200:body.index("Buy a ship") + 300]


def test_the_campaign_end_shows_first_when_it_comes_before_the_turns_clock(match, player):
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(game_deadline=now + timedelta(minutes=20),
                                             turn_deadline=now + timedelta(hours=20))
    body = live_part(client_for(player), match)
    status = body[body.index('class="status-bar"'):body.index("</section>")]
    assert "The match ends in" in status and "Time left" not in status
    assert "The campaign ends in" in body
    Match.objects.filter(pk=match.pk).update(game_deadline=now + timedelta(days=20))
    status = live_part(client_for(player), match)
    status = status[status.index('class="status-bar"'):status.index("</section>")]
    assert "Time left" in status and "The match ends in" not in status


def test_the_lobby_says_when_a_campaign_ends(player, opponent):
    ends = timezone.now() + timedelta(days=3)
    match = play.match_create(creator=player, game="fuldrigger", seats=3, options={}, game_deadline=ends)
    body = client_for(opponent).get(reverse("lobby")).content.decode()
    row = body[body.index(match.get_absolute_url()):]
    row = row[:row.index("</tr>")]
    assert "match ends" in row and str(timezone.localtime(ends).year) in row


def test_the_live_part_is_escaped_by_the_templates(match, player):
    """Names come from players: a ship's name with markup is written as text everywhere."""
    ship = min((s for s in match.state["ships"].values() if s["owner"] == 0), key=lambda s: s["id"])
    change_state(match, lambda state: state["ships"][str(ship["id"])].__setitem__("name", "<b>x</b>'\""))
    body = live_part(client_for(player), match)
    assert "<b>x</b>" not in body and "&lt;b&gt;x&lt;/b&gt;" in body
    play.action_apply(match_id=match.pk, user=player, action={"type": "roll"})
    body = live_part(client_for(player), match, f"?sail={ship['id']}")
    assert "<b>x</b>" not in body


def test_ships_never_read_as_ports_in_the_fleet_and_on_the_buy_buttons(player, opponent):
    """Issue 33: "Amsterdam — in port at London" and "Buy for Amsterdam" read like ports: the
    fleet names each row "The ship …", the buy buttons "Buy for the ship …" (F20)."""
    match = start([player, opponent])
    body = html.unescape(client_for(player).get(match.get_absolute_url()).content.decode())
    ships = [s for s in match.state["ships"].values() if s["owner"] == 0]
    for ship in ships:
        assert f"The ship <strong>{ship['name']}</strong> — " in body
    assert "Buy for the ship " in body
