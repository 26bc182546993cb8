"""What a player reads around Pirater and the platform (issue 24's minor items): the live part
written as templates with translators' msgids free of HTML, no rule codes, the port labels clear
of the column letters and anchors, the dice in one order, the home page's player counts, the
replay as it was at each step, finish reasons and genitives in every language, the profile's time
zones and help, and the log's scroll box reachable by keyboard."""
import pathlib
import re

import pytest
from django.urls import reverse

from games import play
from games.engines import get_engine
from games.engines.pirater.state import OPTIONS
from games.engines.words import genitive
from games.models import Match
from games.pirater.pages import MARGIN, _drawing
from tests.conftest import client_for, make_user
from tests.pirater.pirater_pages_support import choose_ports

ROOT = pathlib.Path(__file__).resolve().parents[2]
PIRATER_TEMPLATES = ROOT / "templates" / "games" / "pirater"
ENGINE = get_engine("pirater")
RULE_CODE = re.compile(r"\(P\d+\)|\bP\d+:")


def test_the_live_part_is_templates_not_python_strings():
    tags = (ROOT / "games" / "pirater" / "templatetags" / "pirater_tags.py").read_text()
    assert "mark_safe" not in tags and "<" not in tags
    live = (PIRATER_TEMPLATES / "partials" / "live.html").read_text()
    for part in ("pieces", "turn", "moves", "fleets"):
        assert f"partials/{part}.html" in live
        assert (PIRATER_TEMPLATES / "partials" / f"{part}.html").exists()


def test_pirater_msgids_carry_no_html_and_no_rule_codes():
    for path in PIRATER_TEMPLATES.glob("partials/*.html"):
        text = path.read_text()
        for msgid in re.findall(r'{% translate "([^"]*)"', text) + re.findall(
                r"{% blocktranslate[^%]*%}(.*?){% (?:endblocktranslate|plural) %}", text, re.S):
            assert "<" not in msgid, (path.name, msgid)
            assert not RULE_CODE.search(msgid), (path.name, msgid)
    for option in OPTIONS:
        assert not RULE_CODE.search(option.help), option.name
    for lang in ("en", "da", "de", "sv"):
        for option in ENGINE.options(lang=lang):
            assert not RULE_CODE.search(option["help"] or ""), (lang, option["name"])


@pytest.mark.parametrize("board", ["single2", "double2", "single"])
def test_port_labels_cover_neither_the_column_letters_nor_the_anchorages(board):
    drawing = _drawing(board)
    for port in drawing["ports"]:
        town, anchorage, label = port["town"], port["anchorage"], port["label"]
        assert label["y"] > -MARGIN + 4.5 and label["y"] > 0 or not town["half"]   # below the letters (y = -1.6)
        inside_anchorage = (anchorage["x"] <= label["x"] <= anchorage["x"] + anchorage["w"]
                            and anchorage["y"] <= label["y"] - 1 <= anchorage["y"] + anchorage["h"])
        assert not inside_anchorage, (board, port["name"])
        if town["half"]:
            assert town["y"] <= label["y"] <= town["y"] + town["h"], (board, port["name"])


def test_home_says_which_variant_seats_five_to_eight(client, db):
    page = client.get("/").content.decode()
    line = re.search(r"<strong>Pirater</strong>\s*<span>[^<]*", page).group(0)
    assert "2–4 players" in line and "5–8 with the variant “Double board”" in line


def started(player, opponent):
    match = play.match_create(creator=player, game="pirater", seats=2)
    play.match_join(match_id=match.pk, user=opponent)
    return choose_ports(match)


def test_the_end_line_is_in_the_readers_language(player, opponent):
    match = started(player, opponent)
    play.match_finish(match_id=match.pk, reason="the match deadline passed")
    player.profile.language = "de"
    player.profile.save()
    page = client_for(player).get(match.get_absolute_url()).content.decode()
    line = re.search(r'<p class="pt-winner ended" role="status">(.*?)</p>', page).group(1)
    assert "the match deadline passed" not in line and "Frist" in line


@pytest.mark.parametrize("lang, owner", [("da", "Jonas' skib"), ("de", "Jonas' Schiff"), ("sv", "Jonas skepp"),
                                         ("en", "Jonas's ship")])
def test_a_name_ending_in_s_takes_no_second_s(lang, owner):
    event = {"type": "move", "seat": 1, "ship": 3, "ships": [3], "die": 2, "direction": "n", "captured": []}
    text = ENGINE.describe(event, ["Anna", "Jonas"], lang)
    assert owner in text and "Jonass" not in text
    catan = get_engine("catan_ships").describe({"type": "turn", "seat": 0, "round": 2}, ["Max"], lang)
    assert "Maxs" not in catan
    assert genitive("Anna", "da") == "Annas" and genitive("Felix", "de") == "Felix'" and genitive("Lars", "sv") == "Lars"


def test_the_replay_shows_each_step_as_it_was(player, opponent):
    match = started(player, opponent)
    users = {s.number: s.user for s in match.seats.all()}
    for _ in range(6):
        seat = match.state["current"]
        play.action_apply(match_id=match.pk, user=users[seat], action=ENGINE.timeout_action(match.state, seat))
        match.refresh_from_db()
    play.match_finish(match_id=match.pk, reason="the match deadline passed")
    client = client_for(player)
    url = reverse("match_replay", args=[match.pk])
    opening = client.get(url + "?step=0").content.decode()
    middle = client.get(url + "?step=3").content.decode()
    for page in (opening, middle):
        assert "The match is over" not in page and "Final standings" not in page
    header = re.search(r'<section class="replay-step"><h2>(.*?)</h2>', middle).group(1)
    assert header.startswith("Step 3: ") and not re.search(r"[a-z]+_[a-z]+", header)
    assert "⏮" not in middle and "⏭" not in middle and 'id="replay-next"' in middle
    end = client.get(url + "?step=99").content.decode()
    assert "The match is over: the match deadline passed." in end
    # A step fetched by htmx is the step and the pieces (out of band), not the whole page.
    part = client.get(url + "?step=2", HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<div id="replay-step"') and "<html" not in part
    assert '<div id="replay-live" hx-swap-oob="true">' in part and 'class="pt-board"' not in part


def test_the_log_scroll_box_is_reachable_by_keyboard(player, opponent):
    match = started(player, opponent)
    page = client_for(player).get(match.get_absolute_url()).content.decode()
    box = re.search(r'<ol class="log-lines"[^>]*>', page).group(0)
    assert 'tabindex="0"' in box and 'aria-labelledby="log-title"' in box and 'id="log-title"' in page


def test_the_profile_offers_places_by_area_and_keeps_a_saved_zone(player):
    client = client_for(player)
    page = client.get(reverse("profile")).content.decode()
    select = re.search(r'<select name="time_zone".*?</select>', page, re.S).group(0)
    for odd in ("Factory", "localtime", "Etc/GMT+5", "US/Eastern"):
        assert f'value="{odd}"' not in select
    assert '<optgroup label="Europe">' in select and '<option value="Europe/Copenhagen">Copenhagen</option>' in select
    assert '"America/Argentina/Buenos_Aires">Argentina / Buenos Aires<' in select
    assert 'aria-describedby="id_reminder_hours-help"' in page and 'id="id_reminder_hours-help"' in page
    assert "24,4,1 reminds you" in page
    player.profile.time_zone = "US/Eastern"   # saved before the list was curated: still offered
    player.profile.save()
    page = client.get(reverse("profile")).content.decode()
    assert re.search(r'<option value="US/Eastern" selected>', page)
    player.profile.language = "de"
    player.profile.save()
    page = client.get(reverse("profile")).content.decode()
    assert '<optgroup label="Pazifik">' in page


def test_the_dice_read_the_same_on_the_turn_line_and_the_buttons(player, opponent):
    from tests.pirater.pirater_pages_support import usable_first_roll

    match = usable_first_roll(started(player, opponent))
    seat = match.state["current"]
    user = match.seats.get(number=seat).user
    client = client_for(user)
    client.post(reverse("match_action", args=[match.pk]), {"action": '{"type":"roll"}', "version": match.version})
    match.refresh_from_db()
    page = client.get(match.get_absolute_url()).content.decode()
    turn = [int(d) for d in re.findall(r'<span class="die(?: used)?"[^>]*>(\d)</span>',
                                       page.split('class="pt-dice"')[1].split("</p>")[0])]
    groups = [int(d) for d in re.findall(r"<p><b>(\d)</b>", page)]
    assert turn == match.state["dice"]
    assert list(dict.fromkeys(groups)) == [d for d in dict.fromkeys(turn) if d in groups]
    assert Match.objects.get(pk=match.pk).status == Match.RUNNING


def test_a_players_rating_reads_in_words_with_the_details_on_demand(player, outsider):
    from community.models import Rating

    Rating.objects.create(user=player, game="pirater", mu=27.6, sigma=8.07, ordinal=3.4, games=3, wins=2)
    page = client_for(outsider).get(reverse("player", args=[player.username])).content.decode()
    card = page[page.index('id="rating-pirater"'):]
    card = card[:card.index("</section>")]
    head = card[:card.index("<details")]
    assert "μ" not in head and "σ" not in head and "Rating" in head and "3.4" in head
    assert "<summary>How the rating is worked out</summary>" in card and "27.6, give or take 8.1" in card


def test_no_translation_glues_an_s_to_a_name():
    """A name ending in s would read "Jonass": the catalogues say whose it is another way."""
    for lang in ("da", "de", "sv"):
        catalogue = (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
        glued = re.findall(r'^msgstr .*%\((?:name|owner|who|player)\)ss\b.*$', catalogue, re.M)
        assert glued == [], (lang, glued)
