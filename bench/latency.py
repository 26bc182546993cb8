"""Figure 2: one action over the JSON API against the running server, beside an authenticated
read on the same server in the same run.

For each game, two players (API tokens) take turns in a match on the quiet server, one request
at a time over a kept-alive connection. Each sample is a POST /api/matches/<id>/actions (the
engine's legal action chosen from the list the API gave) followed at once by a GET /api/me with
the same token — the trivial authenticated JSON view, the floor an action is compared with —
and a GET /api/matches/<id> (the match as that player sees it, a read of the same match). GET
/api/openapi.json (no token, no database) is timed too, as the bare cost of a request."""
from __future__ import annotations

import random
import time

from bench.common import Figure, make_users, median, percentile, start_match
from bench.players import choose

SAMPLES = 80
GAMES = {"fuldrigger": {"rounds": 0, "start_cash": 1000}, "pirater": {}}
TARGET = 3
FLOOR_TARGET = 5  # ms


class Table:
    """A match of two token holders; a new one when it ends."""

    def __init__(self, game, users, keys):
        self.game, self.users, self.keys = game, users, keys
        self.new_match()

    def new_match(self):
        match = start_match(self.game, self.users, GAMES[self.game])
        self.match_id = match.pk
        self.token_of = {s.number: self.keys[s.user_id] for s in match.seats.all()}


def _measure_game(client, game: str) -> dict:
    from accounts.models import ApiToken

    users = make_users(f"lat-{game}-", 2)
    keys = {u.pk: ApiToken.issue(u)[1] for u in users}
    table = Table(game, users, keys)
    rnd = random.Random(11)
    from django.test import Client

    local = Client()
    post_ms, floor_ms, read_ms, bare_ms, local_ms, errors, matches = [], [], [], [], [], [], 1
    turn = None  # (seat, version, actions) when known from the last response

    def auth(seat):
        return {"Authorization": f"Token {table.token_of[seat]}"}

    deadline = time.monotonic() + 120
    while len(post_ms) < SAMPLES and time.monotonic() < deadline:
        if turn is None:
            for seat in table.token_of:
                data = client.get(f"/api/matches/{table.match_id}/actions", headers=auth(seat)).json()
                if data["my_turn"] and data["actions"]:
                    turn = (seat, data["version"], data["actions"])
                    break
            else:
                match = client.get(f"/api/matches/{table.match_id}", headers=auth(0)).json()
                if match["status"] != "running":
                    table.new_match()
                    matches += 1
                else:
                    time.sleep(0.02)  # the worker is drawing a chance card
                continue
        seat, version, actions = turn
        body = {"action": choose(game, actions, rnd), "version": version}
        start = time.perf_counter()
        response = client.post(f"/api/matches/{table.match_id}/actions", json=body, headers=auth(seat))
        post_ms.append((time.perf_counter() - start) * 1e3)
        if response.status_code != 201:
            errors.append(f"{response.status_code} {response.text[:120]}")
            turn = None
            continue
        data = response.json()
        turn = (seat, data["version"], data["actions"]) if data["my_turn"] and data["actions"] else None
        start = time.perf_counter()
        client.get("/api/me", headers=auth(seat))
        floor_ms.append((time.perf_counter() - start) * 1e3)
        # The same view in this process (Django's test client, no server, no socket), at once:
        # what the server adds to a request, measured side by side.
        start = time.perf_counter()
        local.get("/api/me", headers=auth(seat))
        local_ms.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        read = client.get(f"/api/matches/{table.match_id}", headers=auth(seat))
        read_ms.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        client.get("/api/openapi.json")
        bare_ms.append((time.perf_counter() - start) * 1e3)
        if read.json()["status"] != "running":
            table.new_match()
            matches, turn = matches + 1, None
    return {"post": post_ms, "floor": floor_ms, "local": local_ms, "read": read_ms, "bare": bare_ms, "errors": errors,
            "matches": matches}


def measure(servers) -> list[Figure]:
    import httpx

    results = {}
    with httpx.Client(base_url=servers.base, timeout=30) as client:
        for game in GAMES:
            results[game] = _measure_game(client, game)
    raw = {game: dict(r) for game, r in results.items()}
    figures = []
    worst = None
    for game, r in results.items():
        p50, p99, floor = median(r["post"]), percentile(r["post"], 99), median(r["floor"])
        row = {"game": game, "p50": p50, "p99": p99, "floor": floor, "bare": median(r["bare"]),
               "read": median(r["read"]),
               "ratio": p50 / floor, "n": len(r["post"]), "errors": r["errors"], "matches": r["matches"]}
        if worst is None or row["ratio"] > worst["ratio"]:
            worst = row
        results[game] = row
    note = "; ".join(f"{g}: p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms, floor {r['floor']:.1f} ms, "
                     f"match read {r['read']:.1f} ms, "
                     f"ratio {r['ratio']:.2f}, {r['n']} actions" for g, r in results.items())
    errors = sum(len(r["errors"]) for r in results.values())
    w = worst
    figures.append(Figure("action_p50_ms", round(w["p50"], 2), "ms", note=f"{w['game']} (the game with the "
                          f"highest ratio); {note}",
                          detail={g: {k: v for k, v in r.items() if k != "errors"} for g, r in results.items()}))
    figures.append(Figure("action_p99_ms", round(w["p99"], 2), "ms", note=f"{w['game']}, {w['n']} actions"))
    figures.append(Figure(
        "action_vs_floor", round(w["ratio"], 2), "ratio", f"<= {TARGET}", w["ratio"] <= TARGET and not errors,
        baseline=round(w["floor"], 2),
        compared_with="p50 ms of GET /api/me (same token, same server, interleaved)",
        note=f"{w['game']}; {errors} failed actions" + (f": {results[w['game']]['errors'][:3]}" if errors else "")))
    floor = median([ms for r in raw.values() for ms in r["floor"]])
    figures.append(Figure("http_floor_p50_ms", round(floor, 2), "ms", f"<= {FLOOR_TARGET}", floor <= FLOOR_TARGET,
                          note=f"GET /api/me with a token, one kept-alive connection, the quiet server "
                               f"({servers.layout}); {sum(len(r['floor']) for r in raw.values())} requests"))
    local = median([ms for r in raw.values() for ms in r["local"]])
    figures.append(Figure("http_floor_vs_in_process", round(floor / local, 2), "ratio", baseline=round(local, 2),
                          compared_with="p50 ms of the same GET /api/me through Django's test client in the "
                                        "bench process (no server), interleaved",
                          note="what the server adds to the view's own time; under Daphne alone it was about 4"))
    figures.append(Figure("http_bare_p50_ms", round(median([r["bare"] for r in results.values()]), 2), "ms",
                          note="GET /api/openapi.json: no token, no database — the cost of any request"))
    figures.append(Figure("http_read_p50_ms", round(median([r["read"] for r in results.values()]), 2), "ms",
                          note="GET /api/matches/<id>: the match as its player sees it"))
    for game, r in results.items():
        figures.append(Figure(f"action_p50_ms.{game}", round(r["p50"], 2), "ms", baseline=round(r["floor"], 2),
                              compared_with="p50 ms of GET /api/me",
                              note=f"p99 {r['p99']:.1f} ms, ratio {r['ratio']:.2f}, {r['n']} actions, "
                                   f"{r['matches']} matches"))
    return figures
