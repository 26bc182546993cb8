"""What the events' browser tests share: an event made on its page, matches played a little by
random legal moves through the services (as bots would), and the standings as the page shows
them and as the services count them."""
import importlib
from datetime import timedelta

from django.utils import timezone

from games import play
from games.engines import get_engine
from games.models import Match
from leagues import services
from leagues.models import Round
from leagues.tasks import sweep_events


def create_event(person, name, *, game="pirater", seats=2, rounds=2, format=None):
    """The organiser fills the events page's form (the format left as it is unless given)."""
    person.go("/events/")
    person.page.fill("#id_name", name)
    person.page.select_option("#id_game", game)
    if format is not None:
        person.page.select_option("#id_format", format)
    person.page.fill("#id_seats", str(seats))
    person.page.fill("#id_rounds", str(rounds))
    person.page.fill("#id_starts_at", (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"))
    person.page.click("text=Create the event")
    person.page.wait_for_selector(f"h1:has-text('{name}')")
    return person.page.url


def play_a_little(match_id, rnd, moves=12, game="pirater"):
    """Random legal moves by whoever is to move, through play.action_apply (system moves too)."""
    bots = importlib.import_module(f"games.engines.{game}.bots")
    engine = get_engine(game)
    for _ in range(moves):
        match = Match.objects.get(pk=match_id)
        while match.needs_system:
            play.system_action_apply(match_id=match.pk)
            match = Match.objects.get(pk=match_id)
        if match.status != Match.RUNNING:
            return
        seat = rnd.choice(engine.to_act(match.state))
        user = match.seats.get(number=seat).user
        play.action_apply(match_id=match.pk, user=user, action=bots.random_action(match.state, seat, rnd),
                          expected_version=match.version)


def standings_on(person):
    rows = person.page.eval_on_selector_all(
        "table.standings tbody tr", "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
    return [(int(r[0]), r[1], float(r[2])) for r in rows]


def standings_of(event):
    return [(r["rank"], r["user"].username, float(r["score"])) for r in services.standings(event)]


def play_round_to_its_close(current, rnd):
    """Each table of the round played a little, then the round's deadline as the beat finds it
    once it has passed: unfinished matches end by the game's own ranking, the round closes and
    the next is paired."""
    for table in current.tables.all():
        play_a_little(table.match_id, rnd)
    Round.objects.filter(pk=current.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    sweep_events()
    current.refresh_from_db()
    assert current.status == Round.CLOSED
    assert all(t.match.is_over for t in current.tables.select_related("match"))


def standings_shown_after(person, event_url, event, number):
    """The event page after round `number`, as `person` sees it: its standings the services'."""
    event.refresh_from_db()
    person.page.goto(event_url)
    person.page.wait_for_selector(f"h2:has-text('Round {number}')")
    shown = standings_on(person)
    assert shown == standings_of(event)
    return shown
