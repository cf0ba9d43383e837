"""Conventions every route keeps: problem details for every error (never a 5xx for bad input), the bearer key,
the body limit, CORS off unless configured, and no start beyond loopback without a key."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from api_support import SEED, Server, serve

from openresearch.api.deps import check_bind, is_loopback
from openresearch.config import Settings
from openresearch.errors import ConfigError
from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
PROBLEM = "application/problem+json"
REPO = Path(__file__).resolve().parents[2]
HOSTILE = ["a' OR 1=1 //", "`x` MATCH (n) DETACH DELETE n //", "\"; DROP", "}) RETURN 1 //", "%00", "\u0000",
           "💥" * 50, "$id", "\\", "[E-1](javascript:alert(1))", "Kafka' }) MATCH (n) DETACH DELETE n //"]


def assert_problem(r: httpx.Response, status: int) -> dict[str, object]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"] == PROBLEM
    body: dict[str, object] = r.json()
    assert body["status"] == status and body["title"] and str(body["type"]).startswith(("https://", "about:"))
    return body


def test_bad_input_is_a_4xx_problem(api: Server) -> None:
    with api.client() as c:
        assert_problem(c.get("/evidence/E-nope"), 404)
        assert_problem(c.get("/entities/N-nope"), 404)
        assert_problem(c.get("/conflicts/C-nope"), 404)
        assert_problem(c.get("/no/such/route"), 404)
        assert_problem(c.delete("/evidence"), 405)
        body = assert_problem(c.get("/evidence", params={"limit": "ten"}), 422)
        assert body["errors"]
        assert_problem(c.get("/evidence", params={"limit": 0}), 422)
        assert_problem(c.get("/evidence", params={"cursor": "not-a-cursor!"}), 400)
        assert_problem(c.get("/evidence", params={"cursor": "WzFd"}), 400)  # valid base64 JSON, not ours
        assert_problem(c.get("/compare"), 422)
        assert_problem(c.get("/conflicts", params={"status": "maybe"}), 422)
        headers = {"content-type": "application/json"}
        assert_problem(c.post("/feedback", content=b"{not json", headers=headers), 422)
        assert_problem(c.post("/feedback", content=b"\xff\xfe\x00", headers=headers), 400)  # not even text
        assert_problem(c.post("/feedback", json=[1, 2]), 422)
        assert_problem(c.post("/feedback", json={"target": "evidence", "target_id": 5, "verdict": "dispute"}), 422)
        assert_problem(c.post("/feedback", json={"target": "planet", "target_id": "E-1", "verdict": "dispute"}), 422)
        assert_problem(c.post("/feedback", json={"target": "source", "target_id": "S-1", "verdict": "x"}), 422)
        assert_problem(c.post("/feedback", json={"target": "source", "target_id": "S-1", "verdict": "accept",
                                                 "extra": 1}), 422)
        assert_problem(c.post("/conflicts/C-x/resolution", json={"decision": "value_correct", "value": "NaN"}), 422)


def test_injection_strings_are_data(api: Server) -> None:
    before = api.store.stats()
    with api.client() as c:
        for s in HOSTILE:
            for path, params in (("/evidence", {"entity": s}), ("/evidence", {"q": s}), ("/entities", {"q": s}),
                                 ("/compare", {"entity": s}), ("/conflicts", {"entity": s, "metric": s})):
                r = c.get(path, params=params)
                assert r.status_code < 500, (path, s, r.text)
            for path in ("/entities/", "/evidence/", "/conflicts/"):
                assert c.get(path + quote(s, safe="")).status_code < 500
            r = c.post("/feedback", json={"target": "evidence", "target_id": s, "verdict": "dispute", "note": s})
            assert r.status_code in (404, 422)
        # the entity whose name is an injection string is found as itself
        found = c.get("/entities", params={"q": "a' or 1=1"}).json()["items"]
        assert [e["name"] for e in found] == ["a' OR 1=1 //"]
        assert c.get("/compare", params={"entity": "a' OR 1=1 //"}).json()["cells"]["ops"]
    assert api.store.stats() == before


def test_oversized_bodies_are_413(falkor_store: GraphStore) -> None:
    with serve(falkor_store, api_max_body_bytes=2000) as server, server.client() as c:
        big = {"target": "source", "target_id": "S-1", "verdict": "accept", "note": "x" * 3000}
        assert_problem(c.post("/feedback", json=big), 413)

        def chunks() -> Iterator[bytes]:  # no Content-Length: a streamed body is cut off too
            for _ in range(10):
                yield b" " * 500
        assert_problem(c.post("/feedback", content=chunks(), headers={"content-type": "application/json"}), 413)
        ok = c.post("/feedback", json={"target": "source", "target_id": "S-1", "verdict": "accept"})
        assert_problem(ok, 404)  # under the limit: handled (an unknown source)


def test_api_key_when_configured(falkor_store: GraphStore) -> None:
    with serve(falkor_store, api_key="s3cret") as server:
        with server.client() as anon:
            assert anon.get("/healthz").status_code == 200  # liveness is the one route open without the key
            for path in ("/evidence", "/entities", "/conflicts", "/graph/stats", "/compare?entity=Kafka", "/readyz",
                         "/openapi.json"):
                r = anon.get(path)
                assert_problem(r, 401)
                assert r.headers["www-authenticate"] == "Bearer"
            assert_problem(anon.post("/feedback", json={}), 401)
        with server.client("wrong") as bad:
            assert_problem(bad.get("/evidence"), 401)
        with server.client("s3cret") as good:
            assert good.get("/evidence").status_code == 200
            assert good.get("/graph/stats").status_code == 200
            assert good.get("/readyz").status_code == 200
            schema = good.get("/openapi.json").json()
        assert "HTTPBearer" in schema["components"]["securitySchemes"]


def test_no_key_means_open_on_loopback(api: Server) -> None:
    with api.client() as c:
        assert c.get("/evidence").status_code == 200


def test_cors_off_unless_configured(falkor_store: GraphStore) -> None:
    pre = {"Origin": "https://app.example", "Access-Control-Request-Method": "GET"}
    with serve(falkor_store) as server, server.client() as c:
        assert "access-control-allow-origin" not in c.get("/healthz", headers={"Origin": "https://app.example"}).headers
        assert "access-control-allow-origin" not in c.options("/evidence", headers=pre).headers
    with serve(falkor_store, api_cors_origins=["https://app.example"]) as server, server.client() as c:
        r = c.options("/evidence", headers=pre)
        assert r.headers["access-control-allow-origin"] == "https://app.example"
        assert "access-control-allow-origin" not in c.get("/healthz", headers={"Origin": "https://evil.example"}).headers


def test_refuses_to_listen_beyond_loopback_without_a_key(tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("[::1]")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")
    with pytest.raises(ConfigError, match="API key"):
        check_bind("0.0.0.0", Settings(_env_file=None))  # type: ignore[call-arg]
    check_bind("0.0.0.0", Settings(_env_file=None, api_key="k"))  # type: ignore[call-arg]
    check_bind("127.0.0.1", Settings(_env_file=None))  # type: ignore[call-arg]
    env = {"OPENRESEARCH_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "openresearch.cli", "serve", "--host", "0.0.0.0"], env=env,
                          text=True, capture_output=True, timeout=120, cwd=REPO)
    assert proc.returncode == 1 and "without an API key" in proc.stderr


def test_the_web_page_signs_in_with_the_key(falkor_store: GraphStore) -> None:
    """With a key required, a browser signs in once (/ui/login) and every page, the JSON the page's script
    fetches and the event stream then carry a signed session in an HttpOnly, SameSite=Strict cookie (never
    the key); signing out ends that session."""
    falkor_store.write_evidence(SEED)
    with serve(falkor_store, api_key="s3cret") as server, \
            httpx.Client(base_url=server.url, follow_redirects=False) as browser:
        page = browser.get("/ui/compare", params={"entity": ["Kafka", "RabbitMQ"]})
        assert page.status_code == 303  # to the sign-in form, and back afterwards
        assert page.headers["location"] == "/ui/login?next=%2Fui%2Fcompare%3Fentity%3DKafka%26entity%3DRabbitMQ"
        form = browser.get(page.headers["location"]).text
        assert 'name="key"' in form
        token = re.search(r'name="csrf_token" value="([^"]+)"', form)
        assert token
        wrong = browser.post("/ui/login", data={"key": "guess", "next": "/ui/conflicts", "csrf_token": token[1]})
        assert wrong.status_code == 401 and "not the key" in wrong.text
        assert "openresearch_session" not in wrong.headers.get("set-cookie", "")
        ok = browser.post("/ui/login", data={"key": "s3cret", "next": "/ui/conflicts", "csrf_token": token[1]})
        assert ok.status_code == 303 and ok.headers["location"] == "/ui/conflicts"
        cookie = ok.headers["set-cookie"]
        assert cookie.startswith("openresearch_session=") and "s3cret" not in cookie
        assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
        assert browser.get("/ui/compare", params={"entity": ["Kafka", "RabbitMQ"]}).status_code == 200
        conflicts = browser.get("/ui/conflicts")
        assert conflicts.status_code == 200 and 'id="sign-out"' in conflicts.text
        assert browser.get("/evidence").status_code == 200  # what app.js fetches
        # the sign-in never sends the browser to another site (a form token is bound to the session: a new one)
        again = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/ui/login").text)
        assert again and again[1] != token[1]
        away = browser.post("/ui/login", data={"key": "s3cret", "next": "//evil.example/x", "csrf_token": again[1]})
        assert away.status_code == 303 and away.headers["location"] == "/"
        signed_in = browser.cookies["openresearch_session"]
        page_token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/ui/conflicts").text)
        assert page_token
        assert browser.post("/ui/logout").status_code == 403  # a form like any other: its token is needed
        assert browser.post("/ui/logout", data={"csrf_token": page_token[1]}).status_code == 303
        assert browser.get("/evidence").status_code == 401
        # the session is over on the server too, not only deleted from this browser
        assert httpx.get(server.url + "/evidence", headers={"cookie": f"openresearch_session={signed_in}"}
                         ).status_code == 401
