"""The API's generated OpenAPI document and its docs page: the games and each game's action types
are discoverable, a newly registered game appears by itself, and the docs fetch nothing from a CDN."""
import re

import pytest

from games.web.api import TradewindsAPI
from games.engines import ENGINES
from tests.race_engine import RaceEngine


def document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_document_names_every_game_and_its_action_types(client, db):
    schemas = document(client)["components"]["schemas"]
    assert set(schemas["Game"]["enum"]) == set(ENGINES) >= {"fuldrigger", "pirater"}
    fuldrigger = schemas["FuldriggerAction"]
    assert fuldrigger["discriminator"]["propertyName"] == "type"
    assert {"roll", "move", "attack", "offer", "end_turn"} <= set(fuldrigger["discriminator"]["mapping"])
    attack = schemas["FuldriggerAttackAction"]
    assert attack["additionalProperties"] is False and {"type", "target", "ships"} <= set(attack["required"])
    move = schemas["PiraterMoveAction"]["properties"]
    assert move["die"]["type"] == "integer" and move["to"]["readOnly"] is True
    action = schemas["ActionIn"]["properties"]["action"]
    assert {"$ref": "#/components/schemas/PiraterAction"} in action["anyOf"]
    assert schemas["NewMatch"]["properties"]["game"]["enum"] == sorted(ENGINES)


@pytest.fixture
def a_new_game():
    class Whaling(RaceEngine):
        name = "whaling"
        title = "Whaling"

    ENGINES["whaling"] = Whaling()
    yield Whaling
    del ENGINES["whaling"]


def test_a_game_registered_later_appears_by_itself(client, db, a_new_game):
    """Without a declaration it is listed with a generic action; with one, each of its types."""
    schemas = document(client)["components"]["schemas"]
    assert "whaling" in schemas["Game"]["enum"]
    assert schemas["WhalingAction"]["required"] == ["type"]
    a_new_game.action_fields = {"build_ship": {"properties": {"edge": {"type": "string"}}, "required": ["edge"]}}
    # A game's declarations are fixed while a process runs: the document is built once per set
    # of games, so the declared game is what a process started after the change shows.
    TradewindsAPI._documents.clear()
    schemas = document(client)["components"]["schemas"]
    assert schemas["WhalingAction"]["discriminator"]["mapping"] == {
        "build_ship": "#/components/schemas/WhalingBuildShipAction"}
    assert schemas["WhalingBuildShipAction"]["required"] == ["type", "edge"]


def test_catan_with_ships_lists_its_action_types(client, db):
    schemas = document(client)["components"]["schemas"]
    mapping = schemas["CatanShipsAction"]["discriminator"]["mapping"]
    assert {"place_settlement", "roll", "sail", "move_pirate", "offer", "answer", "end_turn"} <= set(mapping)
    assert {"type", "offer", "accept"} <= set(schemas["CatanShipsAnswerAction"]["required"])


def test_the_docs_page_loads_its_assets_from_this_site(client, db):
    page = client.get("/api/docs").content.decode()
    assert "/api/openapi.json" in page and "cdn" not in page.lower()
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200, asset
        response.close()
    assert "<script>" not in page and "onload=" not in page  # the Content-Security-Policy allows no inline script


def test_a_method_an_address_does_not_take_is_a_json_405(client, db):
    response = client.delete("/api/matches")
    assert response.status_code == 405 and response.json() == {"error": "Method DELETE not allowed."}
    assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "POST"}


@pytest.mark.django_db
def test_the_document_is_built_once_per_language_and_set_of_games(client, monkeypatch):
    """Issue 15: /api/openapi.json answers anyone without a token; building it cost ~50 ms of
    CPU, so it is built once per language and set of games, and a new game still shows."""
    built = []
    build = TradewindsAPI._build_openapi_schema
    monkeypatch.setattr(TradewindsAPI, "_documents", {})
    monkeypatch.setattr(TradewindsAPI, "_build_openapi_schema",
                        lambda self, path_params: built.append(1) or build(self, path_params))
    first = client.get("/api/openapi.json").json()
    assert client.get("/api/openapi.json").json() == first and len(built) == 1
    client.get("/api/openapi.json", HTTP_ACCEPT_LANGUAGE="da")
    assert len(built) == 2
    class Whaling(RaceEngine):
        name = "whaling"
        title = "Whaling"

    ENGINES["whaling"] = Whaling()
    try:
        assert "whaling" in client.get("/api/openapi.json").json()["components"]["schemas"]["Game"]["enum"]
        assert len(built) == 3
    finally:
        del ENGINES["whaling"]
    assert client.get("/api/openapi.json").json() == first and len(built) == 3
