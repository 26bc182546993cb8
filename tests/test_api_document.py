"""The API's generated OpenAPI document and its docs page: the games and each game's action types
are discoverable, a newly registered game appears by itself, and the docs fetch nothing from a CDN."""
import re

import pytest

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
    class Ships(RaceEngine):
        name = "catan_ships"
        title = "Catan with ships"

    ENGINES["catan_ships"] = Ships()
    yield Ships
    del ENGINES["catan_ships"]


def test_a_game_registered_later_appears_by_itself(client, db, a_new_game):
    """Without a declaration it is listed with a generic action; with one, each of its types."""
    schemas = document(client)["components"]["schemas"]
    assert "catan_ships" in schemas["Game"]["enum"]
    assert schemas["CatanShipsAction"]["required"] == ["type"]
    a_new_game.action_fields = {"build_ship": {"properties": {"edge": {"type": "string"}}, "required": ["edge"]}}
    schemas = document(client)["components"]["schemas"]
    assert schemas["CatanShipsAction"]["discriminator"]["mapping"] == {
        "build_ship": "#/components/schemas/CatanShipsBuildShipAction"}
    assert schemas["CatanShipsBuildShipAction"]["required"] == ["type", "edge"]


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
