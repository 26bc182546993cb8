"""The Orders panel follows the match live (issue 33): it lies outside the live part, so a push
never wipes what its owner is typing; the live part says what the seat's panel offers now (a
digest, data-orders) and the page fetches the panel again only when that differs from its own
(static/js/site.js). Before the start the page keeps an empty place for it."""
import re

from django.test import Client
from django.utils import timezone, translation

from games import play
from games.engines import get_engine
from games.live import publisher
from games.models import Match
from games.reads import standing
from tests.conftest import client_for, refusal_status
from tests.orders.conftest import seat_user


def live_digest(html):
    return re.search(r'id="match-live"[^>]*\bdata-orders="([^"]*)"', html).group(1)


def panel_digest(html):
    found = re.search(r'id="orders"[^>]*\bdata-orders="([^"]*)"', html)
    return found.group(1) if found else None


def part(change, user):
    """What the user's sockets get of the change (and their own htmx answer)."""
    return publisher.answer(change, user, language="en", zone=timezone.get_current_timezone())


def ships_offered(match, number):
    match.refresh_from_db()
    view = get_engine(match.game).view(match.state, number)
    return [value for value, _words in standing.vocabulary(match.game).choices("ship", view, "en")]


def test_the_part_carries_a_new_digest_exactly_when_the_seats_choices_change(player, opponent, commits):
    match = play.match_create(creator=player, game="fuldrigger", seats=2)
    anna = client_for(player)
    page = anna.get(f"/matches/{match.pk}/").content.decode()
    # Before the start: no panel, an empty place for it, and the live part offers nothing.
    assert "Standing orders" not in page and panel_digest(page) == "" and live_digest(page) == ""
    assert panel_digest(client_for(opponent).get(f"/matches/{match.pk}/").content.decode()) is None
    commits(play.match_join, match_id=match.pk, user=opponent)  # full: it starts
    live = anna.get(f"/matches/{match.pk}/", HTTP_HX_REQUEST="true").content.decode()
    started = live_digest(live)
    assert started != ""
    # The panel the page fetches then is the one for that digest, with its kinds.
    panel = anna.get(f"/matches/{match.pk}/orders/", HTTP_HX_REQUEST="true")
    assert panel.status_code == 200 and panel_digest(panel.content.decode()) == started
    assert "Sail a ship towards a port" in panel.content.decode()
    # Through the homes and the first turns: the digest moves with anna's ships, and only then.
    match = Match.objects.get(pk=match.pk)
    digest, ships, seen = started, ships_offered(match, 0), {"changed": 0, "kept": 0}
    for _ in range(12):
        match.refresh_from_db()
        mover = match.turn_seats[0]
        action = get_engine(match.game).legal_actions(match.state, mover)[0]
        change = commits(play.action_apply, match_id=match.pk, user=seat_user(match, mover), action=action)
        now, offered = live_digest(part(change, player)), ships_offered(match, 0)
        assert (now != digest) == (offered != ships), (ships, offered)
        seen["changed" if now != digest else "kept"] += 1
        if now != digest:  # the panel fetched for it offers the new ships
            html = anna.get(f"/matches/{match.pk}/orders/", HTTP_HX_REQUEST="true").content.decode()
            assert panel_digest(html) == now
            assert all(f'value="{ship}"' in html for ship in offered)
        digest, ships = now, offered
    assert seen["changed"] and seen["kept"], seen
    # Another seat's digest is its own; a spectator's part has none.
    assert live_digest(part(change, opponent)) not in ("", digest)
    with translation.override("en"):
        assert live_digest(Client().get(f"/matches/{match.pk}/", HTTP_HX_REQUEST="true").content.decode()) == ""


def test_a_get_of_the_panel_changes_nothing_and_shows_only_ones_own(sea_match, outsider):
    version = Match.objects.get(pk=sea_match.pk).version
    html = client_for(outsider).get(f"/matches/{sea_match.pk}/orders/", HTTP_HX_REQUEST="true").content.decode()
    assert "Standing orders" not in html
    assert Client().get(f"/matches/{sea_match.pk}/orders/").status_code == 302  # to log in
    assert refusal_status(client_for(outsider).get("/matches/999999/orders/", HTTP_HX_REQUEST="true")) == 404
    assert Match.objects.get(pk=sea_match.pk).version == version
