"""The per-player rate of new matches counts matches created, not requests refused (issue 29,
item 10): after three creations and a few forms refused for their fields, a valid one got 429."""
import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games.models import Match
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

VALID = {"game": "pirater", "seats": 2, "turn_hours": 24, "time_bank_hours": 0, "is_public": "on"}
# Flotilla and Curse Island both place the ships: the engine refuses the two together.
CLASHING = {**VALID, "opt_flotilla": "on", "opt_curse_island": "on"}


@pytest.fixture(autouse=True)
def _bounds(settings, player):
    settings.ACTION_RATES = {"match_create": "5/600"}
    settings.MAX_OPEN_MATCHES_PER_USER = 50
    cache.delete(f"rate:match_create:{player.pk}")  # an earlier test's player may have had this id


def test_refused_forms_do_not_count_against_the_rate_of_new_matches(player):
    client = client_for(player)
    new = reverse("match_new")
    assert [client.post(new, VALID).status_code for _ in range(3)] == [302, 302, 302]
    refused = [client.post(new, CLASHING) for _ in range(4)]
    assert all(r.status_code == 400 and "choose one of them" in r.content.decode() for r in refused)
    assert [client.post(new, VALID).status_code for _ in range(3)] == [302, 302, 429]
    assert Match.objects.filter(creator=player).count() == 5


def test_refused_api_requests_do_not_count_against_the_rate_of_new_matches(player):
    key = ApiToken.issue(player, "bot")[1]

    def create(options):
        return Client().post("/api/matches", json.dumps({"game": "pirater", "seats": 2, "options": options}),
                             content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}")

    assert [create({}).status_code for _ in range(3)] == [201, 201, 201]
    refused = [create({"flotilla": True, "curse_island": True}) for _ in range(4)]
    assert all(r.status_code == 400 and "choose one of them" in r.json()["error"] for r in refused)
    assert [create({}).status_code for _ in range(3)] == [201, 201, 429]
    assert Match.objects.filter(creator=player).count() == 5
