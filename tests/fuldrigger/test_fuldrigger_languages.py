"""Fuldrigger's pages in the viewer's language: goods, ports, sea areas and chance cards come
from the engine's phrase book in the language of the player's profile (or a spectator's
browser); the words around them are gettext's, and the map's script takes its words from the
page. English pages are the other tests' business."""
import html
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from accounts.models import Profile
from games.engines.fuldrigger import ENGINE, view as book
from games.engines.fuldrigger.board import WORLD
from games.engines.fuldrigger.state import fresh_turn
from games.fuldrigger import pages
from tests.conftest import client_for
from tests.fuldrigger.fuldrigger_pages_support import change_state, start
from tests.engines.fuldrigger.fuldrigger_support import dealt


@pytest.fixture(autouse=True)
def _english_afterwards():
    # A request activates the viewer's language in this thread; the next test starts in English.
    yield
    translation.deactivate()


@pytest.fixture
def match(player, opponent):
    return start([player, opponent])


def speaks(user, lang):
    Profile.objects.filter(user=user).update(language=lang)
    return client_for(user)


def page(client, match, **headers):
    return html.unescape(client.get(match.get_absolute_url(), **headers).content.decode())


def card_box(body):
    """The chance card as the turn shows it (the log tells the card too, in its own words)."""
    start = body.index('class="fd-card"')
    return body[start:body.index("</div>", start)]


def renamed(names, lang):
    """Those of `names` (ports, goods …) the book calls otherwise in `lang`, as (english, theirs)."""
    found = [(english, theirs) for english, theirs in names if english != theirs]
    assert found, f"the {lang} book names nothing differently"
    return found


def test_a_german_player_sees_the_goods_of_his_port_in_german(match, player):
    """The price table of the port where his ships lie names each good as the book's German."""
    body = page(speaks(player, "de"), match)
    port = match.state["homes"][0]
    on_sale = [g for g, entry in WORLD.prices[port].items() if entry["buy"] is not None]
    for good in on_sale:
        assert f"<th>{book.good_name(good, 'de')}</th>" in body
    for english, german in renamed([(book.good_name(g, "en"), book.good_name(g, "de")) for g in on_sale], "de"):
        assert f"<th>{english}</th>" not in body
    assert f"{book.place_name(port, 'de')} <small>" in body          # the port panel's heading


def test_the_chance_card_is_read_out_in_the_players_language(match, player):
    """The card turned this round shows the book's title and text, not the English."""
    title, text = book.card_words(match.state["last_card"], "de")
    english_title, _ = book.card_words(match.state["last_card"], "en")
    card = card_box(page(speaks(player, "de"), match))
    assert f"{title}</strong>" in card and text in card
    assert english_title == title or f"{english_title}</strong>" not in card


def test_a_spectators_browser_language_names_the_ports_on_the_map(match):
    """Accept-Language: de for someone not signed in: every port on the chart in German."""
    body = page(Client(), match, HTTP_ACCEPT_LANGUAGE="de")
    for port in WORLD.ports:
        assert f">{book.place_name(port, 'de')}</text>" in body
    ports = [(WORLD.nodes[p]["name"], book.place_name(p, "de")) for p in WORLD.ports]
    for english, german in renamed(ports, "de"):
        assert f">{english}</text>" not in body


def test_the_profile_language_wins_over_the_browsers(match, player):
    """A Swedish profile with a German browser: the card is read out in Swedish."""
    title, _ = book.card_words(match.state["last_card"], "sv")
    card = card_box(page(speaks(player, "sv"), match, HTTP_ACCEPT_LANGUAGE="de"))
    german, _ = book.card_words(match.state["last_card"], "de")
    assert f"{title}</strong>" in card and (german == title or f"{german}</strong>" not in card)


@pytest.mark.parametrize("lang", ["da", "de", "sv"])
def test_hazards_on_a_path_name_the_sea_area_in_the_language(lang):
    """What a route passes through (the sail form's list) uses the book's sea areas."""
    path = [node for node in WORLD.nodes if WORLD.hazard(node) in ("storm", "ice", "calm", "pirates", "reef")]
    with translation.override(lang):
        said = pages.hazards_on(path, {"fortresses": {}, "effects": []}, {"owner": 0, "privateer": False})
    assert len(said) == len(path)
    for node, words in zip(path, said):
        assert book.area_name(node, lang) in words


@pytest.mark.parametrize("lang", ["da", "de", "sv"])
def test_a_laden_ships_title_names_its_cargo_as_the_language_writes_it(lang):
    """On the map a ship's title names its cargo inside a sentence: German writes the noun
    large, Danish and Swedish small — as the engine's log does."""
    state = dealt(2, "languages", {"rounds": 0})
    state["phase"] = "play"
    state["turn"] = fresh_turn(0)
    ship = next(s for s in state["ships"].values() if s["owner"] == 0)
    ship["cargo"] = {"good": "iron", "paid": 30, "carried": 0}
    with translation.override(lang):
        live = pages.live(view=ENGINE.view(state, 1), seat=1, legal=[], my_turn=False,
                          names=["Anna", "Bo"], colours=["red", "blue"])
    title = next(s["title"] for s in live["pieces"]["ships"] if s["id"] == ship["id"])
    name = book.good_name("iron", lang)
    assert (name if lang == "de" else name.lower()) in title


def test_a_ships_title_is_worded_only_where_drawn_and_in_the_presenters_language(monkeypatch):
    """Every viewer of a change sees a ship's title alike, drawn once ({% once %}): the other
    viewers' presenters do not word it. Worded later, it keeps the language it was asked in."""
    worded = []
    title_of = pages._ship_title
    monkeypatch.setattr(pages, "_ship_title", lambda ship, seats: worded.append(ship["id"]) or title_of(ship, seats))
    state = dealt(2, "languages", {"rounds": 0})
    state["phase"] = "play"
    state["turn"] = fresh_turn(0)
    ship = next(s for s in state["ships"].values() if s["owner"] == 0)
    ship["cargo"] = {"good": "iron", "paid": 30, "carried": 0}
    with translation.override("de"):
        live = pages.live(view=ENGINE.view(state, 1), seat=1, legal=[], my_turn=False,
                          names=["Anna", "Bo"], colours=["red", "blue"])
    assert worded == []
    title = next(s["title"] for s in live["pieces"]["ships"] if s["id"] == ship["id"])
    assert book.good_name("iron", "de") in str(title) and worded == [ship["id"]]
    assert str(title) == str(title) and worded == [ship["id"]]


def test_a_german_spectator_reads_the_chance_card_on_a_public_match(match):
    """Nobody signed in, Accept-Language: de — the same German card as a German player."""
    title, text = book.card_words(match.state["last_card"], "de")
    card = card_box(page(Client(), match, HTTP_ACCEPT_LANGUAGE="de"))
    assert f"{title}</strong>" in card and text in card


def test_cargo_in_a_german_players_port_is_told_in_german(match, player):
    """The cargo line of the port panel and the fleet list name the good in German."""
    ship = next(s for s in match.state["ships"].values() if s["owner"] == 0)

    def laden(state):
        state["ships"][str(ship["id"])]["cargo"] = {"good": "tea", "paid": 40, "carried": 3}
    change_state(match, laden)
    body = page(speaks(player, "de"), match)
    tea = book.good_name("tea", "de")
    # "Kopenhagen" said as where she lies, in German ("im Hafen von Kopenhagen"), then the cargo.
    assert f"{ship['name']}</strong> — im Hafen von {book.place_name(ship['node'], 'de')} · {tea}," in body


def test_the_map_script_takes_its_words_from_the_page(match, player):
    """fuldrigger.js says nothing in English of its own: the map carries its words, rendered in
    the page's language (the catalogue translates them)."""
    script = (Path(settings.BASE_DIR) / "static" / "js" / "fuldrigger.js").read_text(encoding="utf-8")
    assert "Choose a destination first." not in script and '"Path: "' not in script
    body = client_for(player).get(match.get_absolute_url()).content.decode()
    assert 'data-say-path="Path:"' in body and 'data-say-choose="Choose a destination first."' in body
