"""How the bench's clients choose a move from what the JSON API lists, and how they log in."""
from __future__ import annotations

import random
import re

from games.engines.fuldrigger.bots import WEIGHTS as FULDRIGGER_WEIGHTS


def choose(game: str, actions: list[dict], rnd: random.Random) -> dict:
    """A client sees only the legal actions (not the state), so it chooses by type as the
    engine's own bot does: Fuldrigger weighted so a turn makes progress and ends, preferring
    long voyages; other games uniformly."""
    if game != "fuldrigger":
        return rnd.choice(actions)
    by_type: dict[str, list[dict]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    kinds = sorted(by_type)
    kind = rnd.choices(kinds, weights=[FULDRIGGER_WEIGHTS.get(k, 1.0) for k in kinds])[0]
    choices = by_type[kind]
    if kind == "move":
        longest = max(len(a.get("path", ())) for a in choices)
        choices = [a for a in choices if len(a.get("path", ())) >= longest - 3]
    return rnd.choice(choices)


CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def login(client, username: str, password: str) -> str:
    """Log in through /accounts/login/ as a browser does; returns the session cookie."""
    page = client.get("/accounts/login/")
    token = CSRF_FIELD.search(page.text).group(1)
    response = client.post("/accounts/login/", data={"username": username, "password": password,
                                                     "csrfmiddlewaretoken": token},
                           headers={"Referer": str(client.base_url) + "/accounts/login/"})
    if response.status_code not in (200, 302) or "sessionid" not in client.cookies:
        raise RuntimeError(f"login of {username} failed: {response.status_code}")
    return client.cookies["sessionid"]


async def alogin(client, username: str, password: str) -> str:
    page = await client.get("/accounts/login/")
    token = CSRF_FIELD.search(page.text).group(1)
    response = await client.post("/accounts/login/", data={"username": username, "password": password,
                                                           "csrfmiddlewaretoken": token},
                                 headers={"Referer": str(client.base_url) + "/accounts/login/"})
    if response.status_code not in (200, 302) or "sessionid" not in client.cookies:
        raise RuntimeError(f"login of {username} failed: {response.status_code}")
    return client.cookies["sessionid"]
