"""Admin game management: bulk actions and the manage page go through services into the log."""
from django.urls import reverse

from games.models import ActionLog, Match
from tests.conftest import client_for


def test_admin_pause_resume_end_and_abort(race_match, staff):
    client = client_for(staff)
    url = reverse("admin:games_match_changelist")
    for action in ("action_match_pause", "action_match_resume", "action_match_end_now"):
        client.post(url, {"action": action, "_selected_action": [race_match.pk], "confirm": "yes"})
    match = Match.objects.get(pk=race_match.pk)
    assert match.status == Match.FINISHED and "ended by an admin" in match.finish_reason
    assert list(match.log.filter(kind=ActionLog.ADMIN).values_list("action__type", flat=True)) == \
        ["admin_pause", "admin_resume"]
    response = client.post(url, {"action": "action_match_abort", "_selected_action": [race_match.pk],
                                 "confirm": "yes"}, follow=True)
    assert "already over" in response.content.decode()


def test_end_now_and_abort_ask_first(race_match, staff):
    """Ending or aborting cannot be undone: the first click shows what it will act on and
    changes nothing; only the confirmation acts."""
    client = client_for(staff)
    url = reverse("admin:games_match_changelist")
    for action in ("action_match_end_now", "action_match_abort"):
        page = client.post(url, {"action": action, "_selected_action": [race_match.pk]})
        assert page.status_code == 200 and "cannot be undone" in page.content.decode()
        assert str(race_match) in page.content.decode()
        assert Match.objects.get(pk=race_match.pk).status == Match.RUNNING
    client.post(url, {"action": "action_match_abort", "_selected_action": [race_match.pk], "confirm": "yes"})
    assert Match.objects.get(pk=race_match.pk).status == Match.ABORTED


def test_an_admin_with_the_longest_name_can_end_a_match(race_match, staff):
    """The finish reason names the admin; a 150-character username still fits (PostgreSQL
    would refuse a longer value than the column holds)."""
    staff.username = "a" * 150
    staff.save()
    client = client_for(staff)
    client.post(reverse("admin:games_match_changelist"),
                {"action": "action_match_end_now", "_selected_action": [race_match.pk], "confirm": "yes"})
    match = Match.objects.get(pk=race_match.pk)
    assert match.status == Match.FINISHED and match.finish_reason.endswith("a" * 150 + ")")


def test_manage_page_extends_and_hands_a_seat(race_match, staff, outsider):
    client = client_for(staff)
    url = reverse("admin:games_match_manage", args=[race_match.pk])
    before = race_match.turn_deadline
    client.post(url, {"extend": "1", "extend-turn_hours": "12"})
    client.post(url, {"hand": "1", "hand-seat": "1", "hand-username": "carl"})
    response = client.post(url, {"hand": "1", "hand-seat": "0", "hand-username": "nobody"}, follow=True)
    assert "No user with that name" in response.content.decode()
    match = Match.objects.get(pk=race_match.pk)
    assert (match.turn_deadline - before).total_seconds() == 12 * 3600
    assert match.seats.get(number=1).user == outsider


def test_log_is_read_only_and_admin_needs_staff(race_match, staff, player):
    client = client_for(staff)
    assert client.get(reverse("admin:games_actionlog_changelist")).status_code == 200
    assert client.get(reverse("admin:games_actionlog_add")).status_code == 403
    assert client.get(reverse("admin:games_match_change", args=[race_match.pk])).status_code == 200
    response = client_for(player).get(reverse("admin:games_match_manage", args=[race_match.pk]))
    assert response.status_code == 302 and "login" in response.url


def test_moving_the_match_deadline_earlier_says_so(race_match, staff):
    """The manage page says "moved earlier", not "extended", and so does the log; its heading
    appears once and its times name their zone."""
    from datetime import timedelta

    from django.utils import timezone

    from games.reads import selectors
    from games.engines import get_engine

    Match.objects.filter(pk=race_match.pk).update(game_deadline=timezone.now() + timedelta(days=10))
    client = client_for(staff)
    url = reverse("admin:games_match_manage", args=[race_match.pk])
    sooner = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    page = client.post(url, {"extend": "1", "extend-game_deadline": sooner}, follow=True).content.decode()
    assert "moved earlier" in page and "Deadline extended" not in page
    assert page.count(f"<h1>Manage {race_match}</h1>") == 1 and page.count("<h1>") == 1
    assert "UTC" in page
    event = Match.objects.get(pk=race_match.pk).log.filter(kind=ActionLog.ADMIN).last().action
    assert "earlier" in selectors.describe(get_engine(race_match.game), event, ["A", "B"])
