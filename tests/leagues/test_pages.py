"""The events' pages and API: an owner (the organiser), a player and an outsider."""
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ApiToken
from games.models import Match
from leagues import services
from leagues.models import Entry, Event
from leagues.tasks import sweep_events
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return services.event_create(organiser=make_user("org"), name="Winter Swiss", game="pirater", seats=2, rounds=2,
                                 turn_seconds=3600, game_hours=48, round_hours=72)


def test_it_lists_and_shows_events(client, event):
    assert "Winter Swiss" in client.get("/events/").content.decode()
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Standings" in page and "Enter the event" not in page   # not logged in


def test_it_creates_an_event_from_the_form_and_refuses_bad_input(client):
    client.force_login(make_user("org"))
    form = {"name": "Spring", "game": "pirater", "seats": 2, "rounds": 3, "fill": "byes", "turn_hours": 24,
            "game_hours": 48, "round_hours": 24, "starts_at": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")}
    response = client.post("/events/", form)
    assert response.status_code == 400 and "round deadline cannot come before" in response.content.decode()
    assert not Event.objects.exists()
    form["round_hours"] = 72
    response = client.post("/events/", form)
    assert response.status_code == 302 and Event.objects.get().name == "Spring"
    assert Event.objects.get().format == Event.SWISS      # the form's first choice


def test_the_form_makes_a_league_division_and_the_pages_say_which(client):
    """The format is the organiser's choice on the page (it was Swiss or nothing); a league
    division seats no bots and plays no smaller tables (the service says so, nothing stored)."""
    client.force_login(make_user("org"))
    form = {"name": "Autumn League", "game": "pirater", "format": "league", "seats": 2, "rounds": 3,
            "fill": "bots", "turn_hours": 24, "game_hours": 48, "round_hours": 72,
            "starts_at": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")}
    response = client.post("/events/", form)
    assert response.status_code == 400 and "sit out in turn" in response.content.decode()
    assert not Event.objects.exists()
    response = client.post("/events/", dict(form, format="knockout", fill="byes"))
    assert response.status_code == 400 and not Event.objects.exists()
    response = client.post("/events/", dict(form, fill="byes"))
    event = Event.objects.get()
    assert response.status_code == 302 and event.format == Event.LEAGUE
    assert "League division" in client.get(event.get_absolute_url()).content.decode()
    assert "League division" in client.get("/events/").content.decode()


def test_it_joins_leaves_and_only_the_organiser_uses_the_tools(client, event):
    player = make_user("ann")
    client.force_login(player)
    assert client.post(f"/events/{event.pk}/act/", {"do": "join"}).status_code == 302
    assert Entry.objects.filter(event=event, user=player).exists()
    response = client.post(f"/events/{event.pk}/act/", {"do": "close"})
    assert response.status_code == 403 and Event.objects.get().entries_open
    assert client.post(f"/events/{event.pk}/act/", {"do": "leave"}).status_code == 302
    assert not Entry.objects.exists()
    assert client.post(f"/events/{event.pk}/act/", {"do": "nonsense"}).status_code == 400


@pytest.mark.parametrize("name", ["ann\x00", "\x00", "a" * 151, ""])
def test_the_organisers_tools_name_nobody_for_a_name_no_account_can_have(client, event, name):
    """A NUL in the name was a 500 on PostgreSQL, which refuses even to compare it."""
    services.event_join(event_id=event.pk, user=make_user("ann"))
    client.force_login(event.organiser)
    response = client.post(f"/events/{event.pk}/act/", {"do": "remove", "player": name})
    assert response.status_code == 400 and "There is no player by that name." in response.content.decode()
    assert Entry.objects.filter(event=event).count() == 1


def test_the_match_page_and_home_page_link_to_the_event(client, event):
    players = [make_user(n) for n in ("ann", "bo")]
    for p in players:
        services.event_join(event_id=event.pk, user=p)
    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    sweep_events()
    match = Match.objects.get()
    client.force_login(players[0])
    assert f"/events/{event.pk}/" in client.get(match.get_absolute_url()).content.decode()
    home = client.get("/").content.decode()
    assert "Your events" in home and "Winter Swiss" in home
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert match.get_absolute_url() in page and "to move" in page


def test_the_api_documents_and_serves_events(client, event):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "/events" in paths and "/events/{event_id}/entry" in paths
    assert client.get("/api/events").json()[0]["name"] == "Winter Swiss"
    player = make_user("ann")
    key = ApiToken.issue(player)[1]
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"}
    assert client.post(f"/api/events/{event.pk}/entry", **headers).status_code == 201
    again = client.post(f"/api/events/{event.pk}/entry", **headers)
    assert again.status_code == 400 and "already" in again.json()["error"]
    bad = client.post("/api/events", {"name": "x", "game": "pirater", "seats": 2, "rounds": 0},
                      content_type="application/json", **headers)
    assert bad.status_code == 400 and Event.objects.count() == 1
    # The game's options are taken as a match's are: a float is no whole number, a text no yes-or-no.
    for options, says in (({"rounds": 1.5}, "rounds"), ({"isthmus": "1"}, "isthmus"), ({"rounds": {"a": 1}}, "rounds")):
        bad = client.post("/api/events", {"name": "x", "game": "fuldrigger", "seats": 2, "rounds": 2, "options": options},
                          content_type="application/json", **headers)
        assert bad.status_code == 400 and says in bad.json()["error"], (options, bad.content)
    assert Event.objects.count() == 1
    detail = client.get(f"/api/events/{event.pk}").json()
    assert detail["standings"][0]["player"] == "ann"


@pytest.mark.parametrize("lang, words", [("de", "Turniere"), ("da", "Turneringer"), ("sv", "Turneringar")])
def test_it_speaks_the_viewers_language(client, event, lang, words):
    page = client.get("/events/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert words in page


@pytest.mark.parametrize("language, words", [("en", "Tournaments"), ("da", "Turneringer"), ("de", "Turniere"),
                                             ("sv", "Turneringar")])
def test_every_page_leads_to_the_tournaments_and_from_them_to_the_ladders(client, language, words):
    """The events and ladders are found from the main navigation, in the reader's language."""
    import re

    home = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    nav = re.search(r'<nav aria-label="[^"]*">(.*?)</nav>', home, re.S).group(1)
    assert f'<a href="/events/">{words}</a>' in nav
    events = client.get("/events/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    # The page a tap on "Tournaments" opens says so in its heading.
    assert re.search(r"<h1>([^<]*)</h1>", events).group(1).startswith(words)
    assert 'href="/events/ladders/"' in events
