"""The pages around the matches say words, not the project's own shorthand (issue 24).

The rules pages and the new-match form name no rule codes ("(F44–F47)", "P20:") and no raw
option values ("one_each", "False") in any language; the flash messages are a list inside a live
region, not a list that lost its semantics to a role; and a finished match says why it ended in
the reader's language on its page and its replay.
"""
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import play
from tests.conftest import client_for, make_user

LANGUAGES = ("en", "da", "de", "sv")
GAMES = ("fuldrigger", "pirater", "catan_ships")
# On these pages no board is drawn, so any F5, P20 or C1 is a rule code (Pirater's squares are
# named like "F5", but only on its board).
RULE_CODE = re.compile(r"\b[FPC]\d{1,2}\b")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
RAW_VALUE = re.compile(r"\b(?:True|False|None)\b")


class _Text(HTMLParser):
    """The text a reader sees in <main>: no scripts, styles or attributes."""

    def __init__(self):
        super().__init__()
        self.depth, self.skip, self.parts = 0, 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "main":
            self.depth += 1
        elif tag in ("script", "style", "template"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag == "main":
            self.depth -= 1
        elif tag in ("script", "style", "template"):
            self.skip -= 1

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.parts.append(data)


def shown(response) -> str:
    parser = _Text()
    parser.feed(response.content.decode())
    return " ".join(" ".join(parser.parts).split())


def reader(lang, name="anna"):
    user = make_user(name)
    user.profile.language = lang
    user.profile.save()
    return user


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_names_no_rule_codes_and_no_raw_values(client, game, lang):
    """The rules text and its list of options read as words in every language."""
    client.cookies["django_language"] = lang
    response = client.get(reverse("rules", args=[game]))
    assert response.status_code == 200
    text = shown(response)
    assert f'lang="{lang}"' in response.content.decode()
    assert not RULE_CODE.findall(text), RULE_CODE.findall(text)
    assert not SNAKE.findall(text), SNAKE.findall(text)
    assert not RAW_VALUE.findall(text), RAW_VALUE.findall(text)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_states_each_default_in_words(client, lang):
    """Pirater's double-board treasures default to "one on each island" in the reader's words,
    and an option that is off by default says so."""
    from games.engines import get_engine

    client.cookies["django_language"] = lang
    text = shown(client.get(reverse("rules", args=["pirater"])))
    options = {o["name"]: o for o in get_engine("pirater").options(lang=lang)}
    treasures = options["double_treasure"]
    assert treasures["choice_labels"]["one_each"] in text and "one_each" not in text
    off = {"en": "default off", "da": "standard slået fra", "de": "Standard: aus", "sv": "standard av"}[lang]
    assert f'{options["hurricane"]["label"]} ({off})' in text


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_new_match_form_names_no_rule_codes(game, lang):
    """The options' labels and help on the new-match form read as words in every language."""
    client = client_for(reader(lang))
    response = client.get(reverse("match_new") + f"?game={game}")
    assert response.status_code == 200
    text = shown(response)
    assert "<fieldset>" in response.content.decode()  # the game's options are on the form
    assert not RULE_CODE.findall(text), RULE_CODE.findall(text)


@pytest.mark.parametrize("game", GAMES)
def test_no_option_help_in_any_language_names_a_rule(game):
    """The engines' own option words, as the API and every page get them."""
    from games.engines import get_engine

    for lang in LANGUAGES:
        for option in get_engine(game).options(lang=lang):
            for words in (option["label"], option["help"], *option.get("choice_labels", {}).values()):
                assert not RULE_CODE.search(words), (game, lang, option["name"], words)


@pytest.mark.django_db
def test_flash_messages_are_a_list_inside_a_live_region(client):
    """A role on the <ul> would take away its list semantics (axe: listitem): the live region is
    a wrapper around the list."""
    response = client.post(reverse("signup"), {"username": "dora", "email": "dora@example.com",
                                               "password1": "sail-the-seven-seas",
                                               "password2": "sail-the-seven-seas"}, follow=True)
    page = response.content.decode()
    assert "Welcome aboard!" in page
    found = re.search(r'<div role="status"><ul class="messages">\s*<li[^>]*>Welcome aboard!', page)
    assert found, page[page.index("messages") - 200:page.index("messages") + 200]
    assert not re.search(r"<ul[^>]*\brole=", page)


REASONS = {
    "the game reached its end": {"en": "the game reached its end", "da": "spillet nåede sin afslutning",
                                 "de": "das Spiel hat sein Ende erreicht", "sv": "spelet nådde sitt slut"},
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ("da", "de", "sv"))
@pytest.mark.parametrize("game", GAMES)
def test_a_finished_match_says_why_it_ended_in_the_readers_language(game, lang):
    """The match page and the replay put the stored (English) finish reason in the reader's words."""
    anna, admiral = reader(lang), make_user("admiral", is_staff=True, is_superuser=True)
    from games.engines import get_engine

    seats = max(get_engine(game).min_players, 2)
    match = play.match_create(creator=anna, game=game, seats=seats, bot_seats=seats - 1, title="Kattegat")
    play.match_finish(match_id=match.pk, reason="the game reached its end", actor=admiral)
    client = client_for(anna)
    for url in (reverse("match_detail", args=[match.pk]), reverse("match_replay", args=[match.pk])):
        response = client.get(url)
        assert response.status_code == 200, url
        text = shown(response)
        assert "the game reached its end" not in text, (url, text[:400])
        assert REASONS["the game reached its end"][lang].lower() in text.lower(), (url, text[:2000])
