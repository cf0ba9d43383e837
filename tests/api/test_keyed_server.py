"""A server with an API key is closed: over real HTTP, nothing but /healthz and the sign-in form answers
without the key, and the browser's sign-in is a signed, expiring session that never holds the key."""

from __future__ import annotations

import re

import httpx
import pytest
from api_support import serve

from openresearch.api.session import SESSION_COOKIE, Sessions
from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
CLOSED_API = ["/readyz", "/openapi.json", "/docs/assets/swagger-ui.css", "/docs/assets/swagger-ui-bundle.js",
              "/ui/static/style.css", "/ui/static/app.js", "/ui/neo4j/style.grass", "/ui/neo4j/guide.html",
              "/evidence", "/entities", "/conflicts", "/graph/stats", "/runs", "/topics", "/mcp", "/no/such/route"]
CLOSED_PAGES = ["/", "/docs", "/ui/compare", "/ui/conflicts", "/ui/evidence/E-1", "/ui/runs/R-1", "/ui/topics"]


def sign_in(browser: httpx.Client, key: str) -> httpx.Response:
    token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/ui/login").text)
    assert token
    return browser.post("/ui/login", data={"key": key, "next": "/", "csrf_token": token[1]})


def test_nothing_but_healthz_and_the_sign_in_form_answers_without_the_key(falkor_store: GraphStore) -> None:
    with serve(falkor_store, api_key="s3cret") as server, \
            httpx.Client(base_url=server.url, follow_redirects=False) as anon:
        assert anon.get("/healthz").status_code == 200
        for path in CLOSED_API:
            r = anon.get(path)
            assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json", (path, r.text)
            assert r.headers["www-authenticate"] == "Bearer"
        for path in CLOSED_PAGES:  # a page sends the browser to the sign-in form, and back afterwards
            r = anon.get(path, headers={"accept": "text/html"})
            assert r.status_code == 303 and r.headers["location"].startswith("/ui/login?next=%2F"), (path, r.text)
        r = anon.post("/ui/runs", data={"question": "q"})
        assert r.status_code == 303 and r.headers["location"] == "/ui/login?next=%2F"
        r = anon.post("/ui/logout")
        assert r.status_code == 303 and r.headers["location"].startswith("/ui/login")
        # the sign-in form is the one page served: its stylesheet inline, no script, nothing from /ui/static;
        # a raw key an earlier version left in a cookie is deleted
        form = anon.get("/ui/login", headers={"cookie": "openresearch_key=s3cret"})
        assert 'openresearch_key=""' in form.headers.get_list("set-cookie")[-1]
        assert form.status_code == 200 and 'name="key"' in form.text
        assert "/ui/static/" not in form.text and "<style>" in form.text and "<script" not in form.text
        assert 'id="sign-out"' not in form.text
        # a wrong bearer key, a key in the old cookie, a made-up session: all still closed
        for headers in ({"authorization": "Bearer wrong"}, {"authorization": "Basic czNjcmV0"},
                        {"cookie": "openresearch_key=s3cret"}, {"cookie": f"{SESSION_COOKIE}=x.9999999999.y"}):
            assert httpx.get(server.url + "/evidence", headers=headers).status_code == 401, headers
        # with the key, everything answers
        with server.client("s3cret") as good:
            for path in ("/readyz", "/openapi.json", "/docs", "/docs/assets/swagger-ui.css", "/ui/static/style.css",
                         "/ui/neo4j/style.grass", "/evidence", "/ui/compare"):
                assert good.get(path).status_code == 200, path


def test_the_sign_in_cookie_is_a_signed_session_never_the_key(falkor_store: GraphStore) -> None:
    with serve(falkor_store, api_key="s3cret", api_session_secret="shared") as server, \
            httpx.Client(base_url=server.url, follow_redirects=False) as browser:
        ok = sign_in(browser, "s3cret")
        assert ok.status_code == 303
        value = browser.cookies[SESSION_COOKIE]
        assert "s3cret" not in ok.headers["set-cookie"] and "max-age=43200" in ok.headers["set-cookie"].lower()
        assert browser.get("/ui/static/style.css").status_code == 200  # the page's assets, once signed in
        assert browser.get("/openapi.json").status_code == 200  # what /docs fetches
        # tampered with: refused
        sid, expires, mac = value.split(".")
        for forged in (f"{sid}x.{expires}.{mac}", f"{sid}.{int(expires) + 10**6}.{mac}", f"{sid}.{expires}.{mac[:-2]}",
                       f"{sid}.{expires}"):
            r = httpx.get(server.url + "/evidence", headers={"cookie": f"{SESSION_COOKIE}={forged}"})
            assert r.status_code == 401, forged
        with httpx.Client(base_url=server.url) as other_browser:  # a stolen cookie works until it expires...
            assert other_browser.get("/evidence", headers={"cookie": f"{SESSION_COOKIE}={value}"}).status_code == 200
    # ...or until the key changes; with a configured secret it outlives a restart
    with serve(falkor_store, api_key="s3cret", api_session_secret="shared") as same:
        assert httpx.get(same.url + "/evidence", headers={"cookie": f"{SESSION_COOKIE}={value}"}).status_code == 200
    with serve(falkor_store, api_key="n3w", api_session_secret="shared") as rekeyed:
        assert httpx.get(rekeyed.url + "/evidence", headers={"cookie": f"{SESSION_COOKIE}={value}"}).status_code == 401
    with serve(falkor_store, api_key="s3cret") as random_secret:  # the default: a secret of its own each start
        r = httpx.get(random_secret.url + "/evidence", headers={"cookie": f"{SESSION_COOKIE}={value}"})
        assert r.status_code == 401


def test_a_session_expires_and_a_signed_out_one_stays_out() -> None:
    sessions = Sessions(b"secret", "key", ttl_s=60)
    cookie = sessions.issue(now=1_000)
    sid = sessions.session_id(cookie, now=1_059)
    assert sid and "key" not in cookie
    assert sessions.session_id(cookie, now=1_060) is None  # expired
    assert Sessions(b"secret", "other key", ttl_s=60).session_id(cookie, now=1_001) is None
    assert Sessions(b"other secret", "key", ttl_s=60).session_id(cookie, now=1_001) is None
    sessions.revoke(cookie, now=1_001)
    assert sessions.session_id(cookie, now=1_002) is None and sid in sessions.revoked
    sessions.revoke("", now=1_061)  # revoked ids are forgotten once their cookie has expired anyway
    assert sessions.revoked == {}
