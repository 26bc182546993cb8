"""The API described for clients and for Schemathesis; kept beside the endpoints it describes."""

ERROR = {"$ref": "#/components/schemas/Error"}


def _responses(ok_schema, ok="200", errors=("400", "401", "403", "404")):
    out = {ok: {"description": "OK", "content": {"application/json": {"schema": ok_schema}}}}
    for code in errors:
        out[code] = {"description": "Error", "content": {"application/json": {"schema": ERROR}}}
    return out


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
SUMMARY = {"$ref": "#/components/schemas/MatchSummary"}

SCHEMA = {
    "openapi": "3.0.3",
    "info": {"title": "Tradewinds API", "version": "1.0",
             "description": "Play Fuldrigger, Pirater and more from bots and tools. "
                            "Authenticate with 'Authorization: Token <key>' (made on your profile page)."},
    "servers": [{"url": "/api"}],
    "components": {
        "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "Authorization"}},
        "schemas": {
            "Error": {"type": "object", "required": ["error"],
                      "properties": {"error": {"type": "string"}, "version": {"type": "integer"}}},
            "MatchSummary": {
                "type": "object", "required": ["id", "game", "status", "version"],
                "properties": {
                    "id": {"type": "integer"}, "game": {"type": "string"}, "title": {"type": "string"},
                    "status": {"type": "string", "enum": ["open", "running", "paused", "finished", "aborted"]},
                    "version": {"type": "integer"}, "seats": {"type": "integer"},
                    "rules_version": {"type": "string"},
                    "players": {"type": "array", "items": {"type": "object"}},
                    "my_seat": {"type": "integer", "nullable": True},
                    "to_act": {"type": "array", "items": {"type": "integer"}},
                    "my_turn": {"type": "boolean"},
                    "turn_deadline": {"type": "string", "nullable": True},
                    "game_deadline": {"type": "string", "nullable": True},
                    "seed_hash": {"type": "string", "nullable": True},
                    "standings": {"type": "array", "nullable": True, "items": {"type": "object"}},
                    "view": {"type": "object", "nullable": True},
                },
            },
            "NewMatch": {
                "type": "object", "required": ["game"],
                "properties": {
                    "game": {"type": "string"}, "seats": {"type": "integer"}, "options": {"type": "object"},
                    "turn_seconds": {"type": "integer"}, "time_bank_seconds": {"type": "integer"},
                    "game_deadline": {"type": "string", "format": "date-time"},
                    "round_limit": {"type": "integer"}, "public": {"type": "boolean"}, "title": {"type": "string"},
                    "rated": {"type": "boolean"}, "allow_vacation": {"type": "boolean"},
                    "bots_cover_absence": {"type": "boolean"}, "bot_seats": {"type": "integer"},
                },
            },
            "Actions": {"type": "object", "required": ["version", "my_turn", "actions"],
                        "properties": {"version": {"type": "integer"}, "my_turn": {"type": "boolean"},
                                       "actions": {"type": "array", "items": {"type": "object"}}}},
        },
    },
    "security": [{"token": []}],
    "paths": {
        "/me": {"get": {"summary": "Who this token belongs to", "responses": _responses(
            {"type": "object", "required": ["username", "name", "language", "time_zone"],
             "properties": {"username": {"type": "string"}, "name": {"type": "string"},
                            "language": {"type": "string"}, "time_zone": {"type": "string"}}},
            errors=("401",))}},
        "/matches": {
            "get": {"summary": "My matches", "responses": _responses(
                {"type": "object", "properties": {"matches": {"type": "array", "items": SUMMARY}}},
                errors=("401",))},
            "post": {"summary": "Create a match",
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewMatch"}}}},
                     "responses": _responses(SUMMARY, ok="201", errors=("400", "401"))},
        },
        "/matches/{match_id}": {"get": {"summary": "A match as I may see it", "parameters": [MATCH_ID],
                                        "responses": _responses(SUMMARY)}},
        "/matches/{match_id}/join": {"post": {"summary": "Take a seat", "parameters": [MATCH_ID],
                                              "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"colour": {"type": "string"}, "invite": {"type": "string"}}}}}},
                                              "responses": _responses(SUMMARY)}},
        "/matches/{match_id}/start": {"post": {"summary": "Start a full match (creator)", "parameters": [MATCH_ID],
                                               "responses": _responses(SUMMARY)}},
        "/matches/{match_id}/actions": {
            "get": {"summary": "My legal actions now", "parameters": [MATCH_ID],
                    "responses": _responses({"$ref": "#/components/schemas/Actions"})},
            "post": {"summary": "Submit an action on the version I saw", "parameters": [MATCH_ID],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         "type": "object", "required": ["action", "version"],
                         "properties": {"action": {"type": "object"}, "version": {"type": "integer"}}}}}},
                     "responses": _responses({"$ref": "#/components/schemas/Actions"}, ok="201",
                                             errors=("400", "401", "403", "404", "409"))},
        },
        "/matches/{match_id}/log": {"get": {"summary": "The public log", "security": [{}, {"token": []}],
                                            "parameters": [MATCH_ID],
                                            "responses": _responses({"type": "object"}, errors=("403", "404"))}},
        "/matches/{match_id}/replay": {"get": {"summary": "After the end: seed and full log", "security": [{}, {"token": []}],
                                               "parameters": [MATCH_ID],
                                               "responses": _responses({"type": "object"}, errors=("403", "404"))}},
    },
}
