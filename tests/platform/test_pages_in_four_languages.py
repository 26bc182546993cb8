"""Every page in English, Danish, German and Swedish.

The catalogues are complete and compiled (every entry translated, the same placeholders, the
.mo files up to date with the .po files), and every page a player or an admin sees renders in
each language: the page says which language it is in, and no English sentence of the English
page is left standing on the translated page.
"""
import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

from games import play
from games.models import Match
from tests.conftest import client_for, make_user

LOCALE = Path(settings.BASE_DIR) / "locale"
OTHERS = ("da", "de", "sv")
FIELD = re.compile(r"%\((\w+)\)[sd]|\{(\w*)\}")

# Words that are the same in a language as in English: names of the site and its games, and a
# few words the languages share. A page's leftover English is what is not explained by these.
SAME = {
    "*": {"Tradewinds", "Fuldrigger", "Pirater", "OpenSkill", "JSON", "API", "HTMX", "UTC", "SHA-256",
          "English", "Dansk", "Deutsch", "Svenska", "Anna", "Bo", "Admiral", "Carl", "Race", "test", "game",
          "Lobby"},
}


def catalogue(lang):
    return polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_entry_is_translated_with_the_same_placeholders(lang):
    """Nothing is left untranslated or fuzzy, and every translation keeps its fields."""
    po = catalogue(lang)
    assert len(po) > 300
    assert not po.fuzzy_entries(), [e.msgid for e in po.fuzzy_entries()][:5]
    assert not po.untranslated_entries(), [e.msgid for e in po.untranslated_entries()][:5]
    for entry in po:
        forms = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for sources, form in ((entry.msgid, f) for f in forms):
            wanted = set(FIELD.findall(sources)) | (set(FIELD.findall(entry.msgid_plural)) if entry.msgid_plural else set())
            got = set(FIELD.findall(form))
            assert got <= wanted and (got == wanted or entry.msgid_plural), (lang, entry.msgid, form)


@pytest.mark.parametrize("lang", OTHERS)
def test_compiled_catalogues_match_their_sources(lang):
    """The committed .mo says what the .po says (`make messages` was run after the last edit)."""
    po = catalogue(lang)
    mo = polib.mofile(str(LOCALE / lang / "LC_MESSAGES" / "django.mo"))
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in mo}
    for entry in po.translated_entries():
        msgstr, plurals = compiled[(entry.msgctxt, entry.msgid)]
        if entry.msgid_plural:
            assert {int(k): v for k, v in plurals.items()} == {int(k): v for k, v in entry.msgstr_plural.items()}
        else:
            assert msgstr == entry.msgstr, (lang, entry.msgid)


class Words(HTMLParser):
    """The text a person reads on a page: text nodes and the labels screen readers speak."""

    SPOKEN = ("aria-label", "title", "placeholder", "alt")

    def __init__(self):
        super().__init__()
        self.texts, self.skip, self.lang = [], 0, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag in ("script", "style"):
            self.skip += 1
        for name in self.SPOKEN:
            if attrs.get(name):
                self.texts.append(attrs[name])

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(data)


def words_of(html: str) -> Words:
    parser = Words()
    parser.feed(html)
    return parser


def sentences(texts) -> set[str]:
    """Texts of at least two words of letters: a sentence, a label, a heading."""
    out = set()
    for text in texts:
        text = " ".join(text.split())
        if len(re.findall(r"[^\W\d_]{2,}", text)) >= 2:
            out.add(text)
    return out


# seeds, time zones, API calls, code names (a game's "catan_ships" in the admin's list)
NOT_WORDS = re.compile(r"[0-9a-f]{32,}|\S+/\S+|^GET |^POST |^Authorization: |^[a-z]+(?:_[a-z]+)+$")


# The small words inside place names (the time zones' cities), which stay as they are.
NAME_PARTICLES = {"es", "of", "au", "de", "la", "le", "du", "al", "el"}


def english_left(english: set, translated: set) -> set:
    """Sentences of the English page found unchanged on the translated one. Proper names (every
    word capitalised: ports, ships, players) and words the languages share don't count."""
    left = set()
    for text in english & translated:
        if NOT_WORDS.search(text):
            continue
        words = re.findall(r"[^\W\d_]{2,}", text)
        named = [w for w in words if w not in NAME_PARTICLES]   # "Dar es Salaam", "Isle of Man"
        if all(w[0].isupper() for w in named) or set(words) <= SAME["*"]:
            continue
        left.add(text)
    return left


@pytest.fixture
def site(player, opponent, staff):
    """Matches of the three games, running and finished, a notification, a leaderboard row."""
    running = {}
    for game, options in (("fuldrigger", {}), ("pirater", {})):
        match = play.match_create(creator=player, game=game, seats=2, options=options)
        play.match_join(match_id=match.pk, user=opponent)
        play.system_action_apply(match_id=match.pk)
        running[game] = Match.objects.get(pk=match.pk)
    catan = play.match_create(creator=player, game="catan_ships", seats=3, options={})
    play.match_join(match_id=catan.pk, user=opponent)
    play.match_join(match_id=catan.pk, user=staff)
    running["catan_ships"] = Match.objects.get(pk=catan.pk)
    over = play.match_create(creator=player, game="pirater", seats=2, options={})
    play.match_join(match_id=over.pk, user=opponent)
    play.match_finish(match_id=over.pk, reason="the game reached its end", actor=staff)
    open_match = play.match_create(creator=opponent, game="fuldrigger", seats=3, options={})
    return {"running": running, "over": Match.objects.get(pk=over.pk), "open": open_match}


def pages(site, player, opponent):
    fd, pt = site["running"]["fuldrigger"], site["running"]["pirater"]
    over = site["over"]
    return [
        ("player", reverse("home")),
        ("player", reverse("lobby")),
        ("player", reverse("match_new") + "?game=fuldrigger"),
        ("player", reverse("match_new") + "?game=pirater"),
        ("player", reverse("match_new") + "?game=catan_ships"),
        ("player", reverse("match_detail", args=[site["running"]["catan_ships"].pk])),
        ("player", reverse("match_detail", args=[fd.pk])),
        ("player", reverse("match_detail", args=[pt.pk])),
        ("player", reverse("match_detail", args=[site["open"].pk])),
        ("player", reverse("match_detail", args=[over.pk])),
        ("player", reverse("match_replay", args=[over.pk])),
        ("player", reverse("match_verify", args=[over.pk])),
        ("player", reverse("match_import")),
        ("player", reverse("rules", args=["fuldrigger"])),
        ("player", reverse("rules", args=["pirater"])),
        ("player", reverse("rules", args=["catan_ships"])),
        ("player", reverse("leaderboards")),
        ("player", reverse("leaderboard", args=["fuldrigger"])),
        ("player", reverse("player", args=[player.username])),
        ("player", reverse("head_to_head", args=[player.username, opponent.username])),
        ("player", reverse("inbox")),
        ("player", reverse("profile")),
        ("player", reverse("password_change") if _has("password_change") else reverse("profile")),
        ("staff", reverse("admin:games_match_changelist")),
        ("anonymous", reverse("login")),
        ("anonymous", reverse("signup")),
        ("anonymous", reverse("lobby")),
    ]


def _has(name):
    from django.urls import NoReverseMatch

    try:
        reverse(name)
        return True
    except NoReverseMatch:
        return False


def fetch(client, url, lang):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, (url, lang, response.status_code)
    return response.content.decode()


@pytest.mark.parametrize("lang", OTHERS)
def test_every_page_renders_in_the_language_with_no_english_left(lang, site, player, opponent, staff, client):
    """Signed-in players (profile language) and visitors (Accept-Language) read every page in
    their language: <html lang> says so, and no English sentence of the English page remains."""
    clients = {"player": client_for(player), "staff": client_for(staff), "anonymous": client}
    leftovers = {}
    for who, url in pages(site, player, opponent):
        for user in ([player, staff] if who != "anonymous" else []):
            user.profile.language = "en"
            user.profile.save()
        english = words_of(fetch(clients[who], url, "en"))
        assert english.lang == "en"
        for user in ([player, staff] if who != "anonymous" else []):
            user.profile.language = lang
            user.profile.save()
        translated = words_of(fetch(clients[who], url, lang))
        assert translated.lang == lang, url
        left = english_left(sentences(english.texts), sentences(translated.texts))
        if left:
            leftovers[url] = sorted(left)
    assert not leftovers, "\n".join(f"{url}: {texts}" for url, texts in leftovers.items())
