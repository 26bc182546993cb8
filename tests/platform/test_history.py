"""History: the players' chat, the step-by-step replay with its dice checks, and export and
import of a match between sites."""
import json

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import play
from games.reads.export import match_export
from games.models import ChatMessage, Match
from tests.conftest import client_for, refusal_status


def _finished(match, player, opponent, staff):
    for user in (player, opponent):
        play.action_apply(match_id=match.pk, user=user, action={"type": "roll"})
        play.action_apply(match_id=match.pk, user=user, action={"type": "advance"})
    play.system_action_apply(match_id=match.pk)
    return play.match_finish(match_id=match.pk, reason="ended by an admin", actor=staff).match


def test_players_chat_spectators_do_not_see_it_and_admins_hide(race_match, player, opponent, outsider, staff):
    url = reverse("chat_post", args=[race_match.pk])
    response = client_for(player).post(url, {"text": "Fair winds, Bo!"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Fair winds, Bo!" in response.content.decode()
    assert client_for(outsider).post(url, {"text": "hi"}).status_code == 403  # a spectator may not chat
    assert ChatMessage.objects.count() == 1
    assert refusal_status(client_for(player).post(url, {"text": "  "}, HTTP_HX_REQUEST="true")) == 400
    assert "Fair winds" in client_for(opponent).get(race_match.get_absolute_url()).content.decode()
    assert "Fair winds" not in client_for(outsider).get(race_match.get_absolute_url()).content.decode()
    client_for(staff).post(reverse("admin:games_chatmessage_changelist"),
                           {"action": "hide", "_selected_action": [ChatMessage.objects.get().pk]})
    assert "Fair winds" not in client_for(opponent).get(race_match.get_absolute_url()).content.decode()


def test_replay_steps_through_a_finished_match_with_its_dice(race_match, player, opponent, staff):
    assert client_for(player).get(reverse("match_replay", args=[race_match.pk])).status_code == 403
    match = _finished(race_match, player, opponent, staff)
    first_roll = match.log.get(seq=1).events[0]["dice"][0]
    page = client_for(player).get(reverse("match_replay", args=[match.pk]) + "?step=1").content.decode()
    assert "Step 1 of 5" in page and f"Anna rolled {first_roll}" in page
    assert "positions: [0, 0]" in page  # the board as it was: nobody has moved yet
    assert f"→ <strong>{first_roll}</strong></td>" in page  # the die as derived from the seed
    end = client_for(player).get(reverse("match_replay", args=[match.pk]) + "?step=99").content.decode()
    assert "Step 5 of 5" in end


def test_export_and_import_round_trip(race_match, player, opponent, staff, outsider):
    match = _finished(race_match, player, opponent, staff)
    response = client_for(outsider).get(reverse("match_export", args=[match.pk]))
    data = json.loads(response.content)
    assert data["seed"] == match.seed and len(data["actions"]) == 5 and data["players"] == ["Anna", "Bo"]
    upload = SimpleUploadedFile("m.json", response.content, content_type="application/json")
    response = client_for(outsider).post(reverse("match_import"), {"file": upload})
    imported = Match.objects.exclude(pk=match.pk).get()
    assert response.status_code == 302 and imported.state == Match.objects.get(pk=match.pk).state
    assert imported.status == Match.FINISHED and not imported.rated
    page = client_for(outsider).get(imported.get_absolute_url()).content.decode()
    assert "Anna" in page and "Bo" in page
    assert client_for(outsider).get(reverse("match_verify", args=[imported.pk])).status_code == 200


def test_a_tampered_export_is_refused(race_match, player, opponent, staff, outsider):
    data = match_export(_finished(race_match, player, opponent, staff))
    data["actions"][1]["action"] = {"type": "roll"}
    response = client_for(outsider).post(reverse("match_import"), {"data": json.dumps(data)})
    assert response.status_code == 400 and "The replay fails" in response.content.decode()
    data["seed"] = "0" * 64
    response = client_for(outsider).post(reverse("match_import"), {"data": json.dumps(data)})
    assert "does not match its published hash" in response.content.decode()
    assert client_for(outsider).post(reverse("match_import"), {"data": "{"}).status_code == 400
    assert Match.objects.count() == 1
