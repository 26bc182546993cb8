"""The pages of reliability and substitutes: the words on the player's page, the lobby and the
seat cards; volunteering; taking an offered seat; refusing a substitute."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import play
from games.models import Match, SeatOffer, Volunteer
from tests.conftest import client_for, make_user
from tests.substitutes.support import history


@pytest.mark.django_db
def test_the_words_show_on_the_player_page_the_lobby_and_the_seats(player, opponent):
    history(player, in_time=97, missed=3, other=opponent)
    match = play.match_create(creator=player, game="race", seats=3, min_reliability=90)
    page = client_for(opponent).get(reverse("player", args=["anna"])).content.decode()
    assert "Takes 97 % of turns in time" in page
    lobby = client_for(opponent).get(reverse("lobby")).content.decode()
    assert "takes 97 % of turns in time" in lobby and "needs 90 % of turns in time" in lobby
    seats = client_for(opponent).get(match.get_absolute_url()).content.decode()
    assert "takes 97 % of turns in time" in seats


@pytest.mark.django_db
def test_the_words_in_danish(player, opponent):
    history(player, in_time=10, other=opponent)
    from accounts.models import Profile
    Profile.objects.filter(user=opponent).update(language="da")
    page = client_for(opponent).get(reverse("player", args=["anna"])).content.decode()
    assert "af sine træk i tide" in page


@pytest.mark.django_db
def test_volunteering_and_taking_an_offered_seat_by_the_page(settings, player, opponent, outsider,
                                                             django_capture_on_commit_callbacks):
    settings.ABSENT_AFTER_TIMEOUTS = 1
    kenji = make_user("kenji")
    history(kenji, in_time=20, other=outsider)
    client = client_for(kenji)
    assert client.post(reverse("substitutes"), {"game": "race", "hours_from": "25"}).status_code == 400
    assert client.post(reverse("substitutes"), {"game": "race", "hours_from": "8", "hours_until": "22"}).status_code == 302
    assert Volunteer.objects.get(user=kenji).hours_from == 8
    match = play.match_create(creator=player, game="race", seats=2, options={"wind": False})
    play.match_join(match_id=match.pk, user=opponent)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        play.deadline_apply(match_id=match.pk)
    offer = SeatOffer.objects.get(match=match)
    page = client.get(reverse("substitutes")).content.decode()
    assert "Take this seat" in page and str(match) in page
    response = client.post(reverse("offer_accept", args=[offer.pk]))
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    again = client_for(outsider).post(reverse("offer_accept", args=[offer.pk]))
    assert again.status_code in (400, 403)
    match_page = client_for(opponent).get(match.get_absolute_url()).content.decode()
    assert "Refuse this substitute" in match_page and "kenji took over anna" in match_page
    assert client_for(opponent).post(reverse("offer_refuse", args=[offer.pk])).status_code == 302
    assert match.seats.get(number=0).user == player  # one of one voters: a majority


@pytest.mark.django_db
def test_staff_see_volunteers_and_offers_in_the_admin_and_cannot_edit_offers(staff, player, opponent):
    play.volunteer_set(user=player, game="race")
    match = play.match_create(creator=player, game="race", seats=2)
    offer = SeatOffer.objects.create(match=match, seat=0, leaver=player)
    client = client_for(staff)
    assert "anna" in client.get(reverse("admin:games_volunteer_changelist")).content.decode()
    assert client.get(reverse("admin:games_seatoffer_changelist")).status_code == 200
    client.post(reverse("admin:games_seatoffer_change", args=[offer.pk]), {"status": "taken"})
    offer.refresh_from_db()
    assert offer.status == SeatOffer.OPEN
