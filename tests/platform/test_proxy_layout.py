"""README's production layout behind nginx (docs/deploy/nginx.conf) keeps every limit per
visitor and answers in the API's words what nginx refuses itself (issue 29, items 3 and 4);
operators' pages are for operators, and the API's clients read JSON while the app is away
(issue 34, items 3 and 4).

Two visitors come from different loopback addresses (127.0.0.2 and 127.0.0.3, as client
source addresses): the README's example sent no X-Forwarded-For and ran Daphne without proxy
headers, so everybody was nginx's 127.0.0.1, five wrong passwords locked an account's owner out
from everywhere, and SOCKETS_PER_ADDRESS became a cap for the whole site."""
import asyncio
import re
import secrets
from pathlib import Path

import httpx
import pytest
from asgiref.sync import sync_to_async

from games import play
from tests.conftest import make_user
from tests.platform.conftest import DAPHNE, ENVIRONMENT, GRANIAN, NGINX_CONF, Layout

README = Path(__file__).resolve().parents[2] / "README.md"
pytestmark = pytest.mark.django_db(transaction=True)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def test_the_readme_starts_what_this_test_starts():
    text = " ".join(README.read_text().replace("\\\n", " ").split())
    assert GRANIAN.format(port=8001) in text
    assert DAPHNE.format(port=8002) in text and DAPHNE.format(port=8003) in text
    assert all(f"{name}={value}" in text for name, value in ENVIRONMENT.items())
    assert "docs/deploy/nginx.conf" in text
    conf = NGINX_CONF.read_text()
    assert "proxy_set_header X-Real-IP $remote_addr;" in conf
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in conf


def _client(layout, address):
    return httpx.Client(base_url=layout.base, transport=httpx.HTTPTransport(local_address=address), timeout=30)


def _log_in(client, username, password) -> httpx.Response:
    page = client.get("/accounts/login/")
    token = CSRF.search(page.text).group(1)
    return client.post("/accounts/login/", data={"username": username, "password": password,
                                                 "csrfmiddlewaretoken": token})


async def _open(layout, match_id, address):
    """A socket through nginx from `address`: True if accepted, False if refused."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    try:
        ws = await connect(f"ws://127.0.0.1:{layout.port}/ws/matches/{match_id}/", origin=layout.base,
                           local_addr=(address, 0), open_timeout=20)
    except InvalidStatus as refused:
        assert refused.response.status_code == 403  # not allowed: refused at the handshake
        return None
    try:
        await asyncio.wait_for(ws.recv(), 20)  # its first render: a socket really open and counted
    except ConnectionClosed as closed:  # too many sockets: accepted, then closed with 4029
        assert closed.rcvd is not None and closed.rcvd.code == 4029
        return None
    return ws


@pytest.mark.asyncio
async def test_two_visitors_behind_nginx_are_counted_apart(redis_url, tmp_path):
    name = f"anna{secrets.token_hex(3)}"  # failed logins live in Redis for 15 minutes
    anna = await sync_to_async(make_user)(name)
    match = await sync_to_async(play.match_create)(creator=anna, game="pirater", seats=2, options={},
                                                       is_public=True)
    with Layout(redis_url, tmp_path, SOCKETS_PER_ADDRESS="3", LOGIN_ATTEMPTS="5") as layout:
        try:
            # Five wrong passwords from one address lock the account there, and only there.
            with _client(layout, "127.0.0.2") as guesser, _client(layout, "127.0.0.3") as owner:
                for _ in range(5):
                    assert (await sync_to_async(_log_in)(guesser, name, "wrong")).status_code == 400
                locked = await sync_to_async(_log_in)(guesser, name, "pw-" + name * 2)
                assert locked.status_code == 429
                welcome = await sync_to_async(_log_in)(owner, name, "pw-" + name * 2)
                assert welcome.status_code == 302, welcome.text[:500]

            # Three sockets per address: the fourth from one address is refused, another's are not.
            first = [await _open(layout, match.pk, "127.0.0.2") for _ in range(3)]
            assert all(first)
            assert await _open(layout, match.pk, "127.0.0.2") is None
            second = [await _open(layout, match.pk, "127.0.0.3") for _ in range(3)]
            assert all(second)
            for ws in first + second:
                await ws.close()
        except BaseException:
            print(layout.tail())
            raise


def test_nginx_refuses_oversized_bodies_and_headers_in_the_apis_words(redis_url, tmp_path):
    with Layout(redis_url, tmp_path, daphnes=1) as layout, httpx.Client(base_url=layout.base, timeout=30) as http:
        try:
            # Over REQUEST_MAX_BYTES (1 MiB): nginx's own 413, every time, never a 502 page.
            for size in (1024 * 1024 + 1, 2 * 1024 * 1024, 3 * 1024 * 1024):
                for _ in range(3):
                    answer = http.post("/api/matches", content=b"x" * size,
                                       headers={"Content-Type": "application/json"})
                    assert answer.status_code == 413
                    assert answer.headers["content-type"].startswith("application/json")
                    assert answer.json()["error"]
            # At most the limit, the app reads it and answers for itself (here: no token).
            answer = http.post("/api/matches", content=b"{}", headers={"Content-Type": "application/json"})
            assert answer.status_code == 401 and answer.json()["error"]
            # An import may be up to IMPORT_MAX_BYTES (4 MiB): nginx lets 3 MiB through to the app.
            answer = http.post("/matches/import/", content=b"x" * (3 * 1024 * 1024),
                               headers={"Content-Type": "application/octet-stream"})
            assert answer.status_code != 413 and answer.status_code < 500
            answer = http.post("/matches/import/", content=b"x" * (5 * 1024 * 1024))
            assert answer.status_code == 413 and answer.json()["error"]
            # A header over nginx's buffers.
            answer = http.get("/api/me", headers={"Cookie": "a=" + "b" * 40000})
            assert answer.status_code == 400
            assert answer.headers["content-type"].startswith("application/json")
            assert answer.json()["error"]
        except BaseException:
            print(layout.tail())
            raise


def test_metrics_are_for_the_scraper_and_health_tells_outsiders_the_status_alone(redis_url, tmp_path):
    """Issue 34.3: /metrics answered anyone through nginx (the app checked REMOTE_ADDR, nginx's),
    also with a forged X-Forwarded-For. The scraper is on the machine here (127.0.0.1, the
    README's nginx.conf and METRICS_ALLOWED_IPS as shipped); a visitor is anyone else."""
    with Layout(redis_url, tmp_path, daphnes=1) as layout, _client(layout, "127.0.0.1") as scraper, \
            _client(layout, "127.0.0.2") as outsider:
        try:
            scraped = scraper.get("/metrics")
            assert scraped.status_code == 200 and "tradewinds_open_sockets" in scraped.text
            for headers in ({}, {"X-Forwarded-For": "127.0.0.1"}, {"X-Forwarded-For": "127.0.0.1, 127.0.0.1"},
                            {"X-Real-IP": "127.0.0.1"}):
                for path in (b"/metrics", b"//metrics", b"/%6detrics", b"/metrics?format=json"):
                    refused = outsider.get(httpx.URL(layout.base).copy_with(raw_path=path), headers=headers)
                    assert refused.status_code in (403, 404) and "tradewinds_" not in refused.text, (path, headers)
            # The app checks too, by the address nginx saw: what nginx would pass on for a visitor
            # from outside who forged the header, were its location left open.
            with httpx.Client(base_url=f"http://127.0.0.1:{layout.http_port}", timeout=30) as app:
                assert app.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1, 127.0.0.2"}).status_code == 404
                assert app.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 200

            # /health/: the operator sees every check (no worker runs here, so the heartbeats
            # fail and say so); a visitor the status alone, in every format.
            report = scraper.get("/health/?format=json")
            assert "Heartbeat(process='worker')" in report.json(), report.text
            for query in ("", "?format=json", "?format=text", "?format=openmetrics"):
                answer = outsider.get(f"/health/{query}", headers={"X-Forwarded-For": "127.0.0.1"})
                assert answer.status_code == report.status_code
                assert answer.text == ("OK\n" if report.status_code == 200 else "Unavailable\n"), answer.text
        except BaseException:
            print(layout.tail())
            raise


def test_api_clients_get_json_from_nginx_while_the_app_is_down(redis_url, tmp_path):
    """Issue 34.4: during a granian restart nginx answered the API's clients with its HTML 502."""
    with Layout(redis_url, tmp_path, daphnes=1) as layout, httpx.Client(base_url=layout.base, timeout=30) as http:
        try:
            assert http.get("/api/me").headers["content-type"].startswith("application/json")
            answer = http.get("/api/matches?q=" + "a" * 20000)  # a request line over nginx's buffers
            assert answer.status_code == 414 and answer.json()["error"]
            granian = layout.processes[0]
            granian.terminate()
            granian.wait(timeout=30)
            for method, path in (("GET", "/api/me"), ("POST", "/api/matches"), ("GET", "/api/openapi.json")):
                answer = http.request(method, path, content=b"{}" if method == "POST" else None)
                assert answer.status_code == 502, (path, answer.status_code)
                assert answer.headers["content-type"].startswith("application/json"), answer.text
                assert "restarting" in answer.json()["error"]
                assert answer.headers["retry-after"] == "5"
            # Still JSON for a body over the limit (the /api/ location keeps the server's 413).
            answer = http.post("/api/matches", content=b"x" * (2 * 1024 * 1024))
            assert answer.status_code == 413 and answer.json()["error"]
            # Pages keep nginx's own page for browsers.
            page = http.get("/")
            assert page.status_code == 502 and page.headers["content-type"].startswith("text/html")
        except BaseException:
            print(layout.tail())
            raise
