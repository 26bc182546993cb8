"""Figure 7: bytes a player's browser downloads for a match page, and for one HTMX action.

For each registered game, a four-player match played some way in (so the log and the pieces
are there), served by the running Daphne to a player logged in through /accounts/login/ whose
client sends Accept-Encoding: gzip, as browsers do. First load: the HTML plus every asset it
references (stylesheets, scripts — django-htmx's htmx and its ws extension included —, icons,
images, and the url(...)s inside the stylesheets), each counted as it came over the wire:
response headers plus the body as sent (compressed where the server compressed it). One action:
a POST to /matches/<id>/action/ with HX-Request: true, as the page's forms send it."""
from __future__ import annotations

import json
import random
import re
import time
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlparse

from bench.common import PASSWORD, Figure, make_users, median, start_match

PLAYERS = 4
OPTIONS = {"fuldrigger": {"rounds": 0, "start_cash": 1000}}
ACTIONS_IN = {"fuldrigger": 120, "pirater": 30}
FIRST_TARGET, ACTION_TARGET = 150 * 1024, 15 * 1024
TTFB_SAMPLES, TTFB_TARGET = 21, 100  # ms


class Assets(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("href") and set((a.get("rel") or "").split()) & {
                "stylesheet", "icon", "preload", "modulepreload", "manifest", "apple-touch-icon"}:
            self.urls.append(a["href"])
        elif tag in ("script", "img", "audio", "video", "source") and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "image" and (a.get("href") or a.get("xlink:href")):
            self.urls.append(a.get("href") or a.get("xlink:href"))


CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
IMPORT = re.compile(r"@import\s+['\"]([^'\"]+)['\"]")


def wire_bytes(response) -> int:
    """Status line, headers and the body as it came over the wire."""
    head = len(f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n")
    head += sum(len(k) + len(v) + 4 for k, v in response.headers.raw) + 2
    return head + response.num_bytes_downloaded


def _play_in(match, count: int) -> None:
    import importlib

    from games import play
    from games.engines import get_engine
    from games.models import Match

    engine = get_engine(match.game)
    bots = importlib.import_module(f"games.engines.{match.game}.bots")
    users = {s.number: s.user for s in match.seats.all()}
    rnd = random.Random(3)
    for _ in range(count):
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.RUNNING or engine.is_over(match.state) or not engine.to_act(match.state):
            break
        seat = rnd.choice(engine.to_act(match.state))
        play.action_apply(match_id=match.pk, user=users[seat], action=bots.random_action(match.state, seat, rnd),
                              expected_version=match.version)


def _measure_game(servers, game: str) -> dict:
    import httpx

    from games.engines import ENGINES
    from games.models import Match

    engine = ENGINES[game]
    players = max(engine.min_players, min(PLAYERS, engine.max_players))
    users = make_users(f"page-{game}-", players)
    match = start_match(game, users, OPTIONS.get(game, {}))
    _play_in(match, ACTIONS_IN.get(game, 30))
    match = Match.objects.get(pk=match.pk)
    seat = engine.to_act(match.state)[0]
    player = next(s.user for s in match.seats.all() if s.number == seat)
    out = {"version": match.version, "assets": {}, "errors": []}
    with httpx.Client(base_url=servers.base, timeout=30, headers={"Accept-Encoding": "gzip"}) as client:
        from bench.players import login

        login(client, player.username, PASSWORD)
        page = client.get(f"/matches/{match.pk}/")
        # Time to the first byte of the match page, on the quiet server: when the response's
        # headers arrive (the server sends them once the page is rendered).
        out["ttfb_ms"] = []
        for _ in range(TTFB_SAMPLES):
            start = time.perf_counter()
            with client.stream("GET", f"/matches/{match.pk}/") as response:
                out["ttfb_ms"].append((time.perf_counter() - start) * 1e3)
                response.read()
        out["page_status"] = page.status_code
        out["html"] = wire_bytes(page)
        out["html_encoding"] = page.headers.get("content-encoding", "identity")
        out["html_plain"] = len(page.content)
        parser = Assets()
        parser.feed(page.text)
        seen, queue = set(), list(parser.urls)
        while queue:
            url = queue.pop(0)
            if url.startswith("data:") or url in seen:
                continue
            seen.add(url)
            if urlparse(url).netloc and urlparse(url).netloc != urlparse(servers.base).netloc:
                out["errors"].append(f"external asset {url}")
                continue
            response = client.get(url)
            out["assets"][url] = {"bytes": wire_bytes(response), "status": response.status_code,
                                  "encoding": response.headers.get("content-encoding", "identity"),
                                  "plain": len(response.content)}
            if response.status_code != 200:
                out["errors"].append(f"{url}: {response.status_code}")
            if "css" in response.headers.get("content-type", ""):
                for found in CSS_URL.findall(response.text) + IMPORT.findall(response.text):
                    if not found.startswith("#"):  # url(#id) points into the page's own SVG
                        queue.append(urldefrag(urljoin(url, found)).url)
        # One action as the page sends it: the form's fields, the CSRF header from <body>.
        match = Match.objects.get(pk=match.pk)
        action = random.Random(1).choice(engine.legal_actions(match.state, seat))
        response = client.post(f"/matches/{match.pk}/action/",
                               data={"action": json.dumps(action), "version": str(match.version)},
                               headers={"HX-Request": "true", "HX-Target": "match-live",
                                        "X-CSRFToken": client.cookies.get("csrftoken", "")})
        out["action_status"] = response.status_code
        out["action"] = wire_bytes(response)
        out["action_plain"] = len(response.content)
        out["action_encoding"] = response.headers.get("content-encoding", "identity")
        if response.status_code != 200:
            out["errors"].append(f"action: {response.status_code} {response.text[:200]}")
    out["first"] = out["html"] + sum(a["bytes"] for a in out["assets"].values())
    return out


def measure(servers) -> list[Figure]:
    from games.engines import ENGINES

    figures = []
    for game in sorted(ENGINES):
        r = _measure_game(servers, game)
        ok = r["page_status"] == 200 and not r["errors"]
        assets = ", ".join(f"{urlparse(u).path.rsplit('/', 1)[-1]} {a['bytes'] / 1024:.1f} KB ({a['encoding']})"
                           for u, a in r["assets"].items())
        figures.append(Figure(
            f"page_bytes_first.{game}", r["first"], "bytes", f"<= {FIRST_TARGET // 1024} KB",
            ok and r["first"] <= FIRST_TARGET,
            note=f"HTML {r['html'] / 1024:.1f} KB ({r['html_encoding']}, {r['html_plain'] / 1024:.1f} KB plain) "
                 f"at version {r['version']}; {assets}" + (f"; errors: {r['errors']}" if r["errors"] else ""),
            detail={k: v for k, v in r.items() if k != "errors"} | {"errors": r["errors"]}))
        ttfb = median(r["ttfb_ms"])
        figures.append(Figure(
            f"page_ttfb_p50_ms.{game}", round(ttfb, 1), "ms", f"<= {TTFB_TARGET}", ok and ttfb <= TTFB_TARGET,
            note=f"GET /matches/<id>/ as a logged-in player at version {r['version']}, time to the response's "
                 f"headers, {len(r['ttfb_ms'])} requests on one connection; max {max(r['ttfb_ms']):.0f} ms",
            detail={"samples_ms": [round(x, 1) for x in r["ttfb_ms"]]}))
        figures.append(Figure(
            f"page_bytes_action.{game}", r["action"], "bytes", f"<= {ACTION_TARGET // 1024} KB",
            r["action_status"] == 200 and r["action"] <= ACTION_TARGET,
            note=f"HTTP {r['action_status']}, {r['action_encoding']}, {r['action_plain'] / 1024:.1f} KB plain"))
    return figures
