"""The Orders panel on the match page: add, move, remove lines and pause them all through its
htmx forms; bad input gets a 4xx with its reason and changes nothing."""
from games.models import StandingOrders
from tests.conftest import client_for, refusal_status
from tests.orders.conftest import seat_user


def post(client, match, **data):
    return client.post(f"/matches/{match.pk}/orders/", data, HTTP_HX_REQUEST="true")


def kinds(match, seat=1):
    return [line["kind"] for line in StandingOrders.objects.get(match=match, seat=seat).lines]


def test_it_adds_moves_removes_and_pauses_lines(sea_match):
    bo = client_for(seat_user(sea_match, 1))
    assert post(bo, sea_match, do="add", kind="roll").status_code == 200
    response = post(bo, sea_match, do="add", kind="accept_offers", **{"f.at_least": "30"}, scope="turn")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="orders"' in html and "at least: 30" in html
    assert "next turn only" in html
    assert kinds(sea_match) == ["roll", "accept_offers"]
    post(bo, sea_match, do="up", index="1")
    assert kinds(sea_match) == ["accept_offers", "roll"]
    post(bo, sea_match, do="down", index="0")
    assert kinds(sea_match) == ["roll", "accept_offers"]
    html = post(bo, sea_match, do="pause", paused="1").content.decode()
    assert StandingOrders.objects.get(match=sea_match, seat=1).paused and "Resume all orders" in html
    post(bo, sea_match, do="pause", paused="0")
    post(bo, sea_match, do="remove", index="0")
    assert kinds(sea_match) == ["accept_offers"]
    assert not StandingOrders.objects.get(match=sea_match, seat=1).paused


def test_bad_lines_get_a_4xx_with_the_reason_and_change_nothing(sea_match, outsider):
    bo = client_for(seat_user(sea_match, 1))
    post(bo, sea_match, do="add", kind="roll")
    response = post(bo, sea_match, do="add", kind="sell", **{"f.good": "wine", "f.at_least": "thirty"})
    assert refusal_status(response) == 400 and response["HX-Retarget"] == "#orders" and "must be a whole number" in response.content.decode()
    response = post(bo, sea_match, do="add", kind="sail", **{"f.ship": "999", "f.port": "lisbon"})
    assert refusal_status(response) == 400 and "no ship called 999" in response.content.decode()
    assert refusal_status(post(bo, sea_match, do="add", kind="dance")) == 400
    assert post(bo, sea_match, do="explode").status_code == 400
    assert kinds(sea_match) == ["roll"]
    refused = post(client_for(outsider), sea_match, do="add", kind="roll")
    assert refused.status_code == 403 and "seated player" in refused.content.decode()
    assert client_for(outsider).post(f"/matches/{sea_match.pk}/orders/", {"do": "add", "kind": "roll"}).status_code == 403
    assert StandingOrders.objects.filter(match=sea_match).count() == 1
    assert bo.post("/matches/999999/orders/", {"do": "add", "kind": "roll"}).status_code == 404


def test_the_panel_speaks_the_players_language(sea_match):
    bo = seat_user(sea_match, 1)
    bo.profile.language = "da"
    bo.profile.save()
    client = client_for(bo)
    client.cookies["django_language"] = "da"
    html = client.get(f"/matches/{sea_match.pk}/", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "Stående ordrer" in html


def test_the_panel_that_replaces_this_one_says_where_the_focus_goes(sea_match):
    """The control a keyboard player used is gone with the swap: the new panel's `autofocus`
    (which htmx focuses) is on what they acted on, never nothing (the crawl found <body>)."""
    import re

    bo = client_for(seat_user(sea_match, 1))

    def focused(response):
        found = re.findall(r"<(\w+)[^>]*\bautofocus\b[^>]*>", response.content.decode())
        assert len(found) == 1, found
        return re.search(r"<\w+[^>]*\bautofocus\b[^>]*>", response.content.decode()).group(0)

    assert "<li" in focused(post(bo, sea_match, do="add", kind="roll"))
    added = focused(post(bo, sea_match, do="add", kind="end_turn"))
    assert added.startswith("<li")
    assert "orders-pause" in focused(post(bo, sea_match, do="pause", paused="1"))
    assert 'role="alert"' in focused(post(bo, sea_match, do="add", kind="dance"))
    post(bo, sea_match, do="remove", index="1")
    # The last one removed: the line saying there are none, where the removed line stood.
    assert 'class="empty"' in focused(post(bo, sea_match, do="remove", index="0"))
    page = bo.get(f"/matches/{sea_match.pk}/").content.decode()
    assert "autofocus" not in page.split('id="orders"', 1)[1].split("</section>", 1)[0]


def test_an_order_that_names_a_place_lists_the_places_in_words_to_pick_on_the_board(player, opponent, third):
    """Catan's "Build a road at an edge": the panel names each edge a road may take as the board
    does (never a raw number), with where it lies for the pick on the board; the line reads the
    same words; a sea edge is refused (issue 33)."""
    import re

    from games import play
    from games.catan_ships.pages import Board
    from games.engines import get_engine

    match = play.match_create(creator=player, game="catan_ships", seats=3)
    for user in (opponent, third):
        play.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    anna = client_for(seat_user(match, 0))
    html = anna.get(f"/matches/{match.pk}/").content.decode()
    field = re.search(r'<select name="f.edge"[^>]*>(.*?)</select>', html, re.S)
    assert field and 'class="orders-pick"' in html and "js/orders.js" in html
    options = re.findall(r'<option value="(\d+)" data-x="([\d.]+)" data-y="([\d.]+)">([^<]+)</option>', field.group(1))
    board = get_engine("catan_ships").view(match.state, None)["board"]
    roads = [e for e in board["edges"] if e["kind"] != "sea"]
    assert len(options) == len(roads) and not any(words.strip().isdigit() for *_, words in options)
    edge = roads[0]["id"]
    words = Board(board).place_words("edge", edge)
    assert any(value == str(edge) and said == words.replace("'", "&#x27;") for value, _x, _y, said in options)
    added = post(anna, match, do="add", kind="build_road", **{"f.edge": str(edge)})
    assert added.status_code == 200
    assert f"edge: {words}".replace("'", "&#x27;") in added.content.decode()
    sea = next(e["id"] for e in board["edges"] if e["kind"] == "sea")
    refused = post(anna, match, do="add", kind="build_road", **{"f.edge": str(sea)})
    assert refusal_status(refused) == 400 and f"no edge called {sea}" in refused.content.decode()
    assert kinds(match, seat=0) == ["build_road"]


def test_a_line_pressed_in_a_list_that_has_changed_since_changes_nothing_and_shows_the_list_as_it_is(sea_match):
    """An order for one move plays and goes while its list still shows on the player's screen;
    "Remove" pressed on a line of that list names a number that is now another order's, or none
    (the crawl met "Say what to do with the orders." for it, the panel gone). It changes nothing
    and the panel comes back as the orders are now, saying why, with the focus on that."""
    import re

    bo = client_for(seat_user(sea_match, 1))
    post(bo, sea_match, do="add", kind="roll")
    html = post(bo, sea_match, do="add", kind="end_turn").content.decode()
    shown = re.search(r'name="lines" value="(\w+)"', html).group(1)
    # The first order played (a one-move order, say) and went: the list on the screen is old.
    orders = StandingOrders.objects.get(match=sea_match, seat=1)
    orders.lines = orders.lines[1:]
    orders.save()
    for data in ({"do": "remove", "index": "0"}, {"do": "down", "index": "0"}, {"do": "remove", "index": "1"}):
        response = post(bo, sea_match, lines=shown, **data)
        html = response.content.decode()
        assert refusal_status(response) == 409 and response["HX-Retarget"] == "#orders", data
        assert "changed since this list was shown" in html and 'id="orders"' in html
        assert re.search(r'<p class="error" role="alert"[^>]*autofocus', html)
        assert kinds(sea_match) == ["end_turn"]
    # Pressed in the list as it is now, it does what it says.
    now = re.search(r'name="lines" value="(\w+)"', html).group(1)
    assert now != shown
    assert post(bo, sea_match, lines=now, do="remove", index="0").status_code == 200
    assert kinds(sea_match) == []
