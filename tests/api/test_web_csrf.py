"""No cross-site writes, over real HTTP (uvicorn, a real run manager, real FalkorDB): a web form's POST needs
this browser's token and is refused when `Origin` or `Sec-Fetch-Site` says another site sent it; the JSON
API refuses the content types an HTML form can send (415)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from api_support import Server, serve
from records_support import offline_run_server

from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
EVIL = "https://evil.example"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain;charset=UTF-8")


def assert_problem(r: httpx.Response, status: int) -> dict[str, object]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"] == "application/problem+json"
    body: dict[str, object] = r.json()
    assert body["status"] == status
    return body


def page_token(browser: httpx.Client, path: str = "/") -> str:
    """What a browser's form would send: the hidden csrf_token of the page (its nonce cookie is now set)."""
    page = browser.get(path)
    assert page.status_code == 200, page.text[:300]
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert found, page.text[:500]
    return found[1]


@pytest.fixture
def run_web(falkor_store: GraphStore, tmp_path: Path) -> Iterator[Server]:
    """The API with its run manager (offline), local sources allowed under tmp_path."""
    with offline_run_server(serve, falkor_store, tmp_path) as server:
        yield server


def test_a_cross_site_form_starts_no_run_and_records_no_resolution(run_web: Server, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with httpx.Client(base_url=run_web.url, follow_redirects=False, timeout=60) as browser:
        token = page_token(browser)
        run_form = {"question": "Which broker is fastest?", "sources": f"local:{empty}", "offline": "true",
                    "csrf_token": token}
        conflict_id = browser.get("/conflicts").json()["items"][0]["id"]
        resolve_form = {"choice": "both_hold", "note": "posted from elsewhere", "csrf_token": token}
        resolve = f"/ui/conflicts/{conflict_id}/resolution"
        other_site = [{"Origin": EVIL}, {"Origin": "null"}, {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
                      {"Sec-Fetch-Site": "cross-site"},
                      # another port of the same host is the same *site*: SameSite cookies go along, so refused
                      {"Sec-Fetch-Site": "same-site"}, {"Origin": "http://127.0.0.1:1"},
                      {"Origin": run_web.url, "Sec-Fetch-Site": "same-site"}]
        for headers in other_site:
            for path, form in (("/ui/runs", run_form), (resolve, resolve_form)):
                r = browser.post(path, data=form, headers=headers)
                assert r.status_code == 403, (path, headers, r.status_code, r.text[:300])
                assert "Forbidden" in r.text and "text/html" in r.headers["content-type"]
        # with neither header the token decides: none, a forged one, another browser's, one for another session
        with httpx.Client(base_url=run_web.url, timeout=60) as other:
            others = page_token(other)
        for bad in ("", token[:-4] + "AAAA", others, "x.9999999999.y"):
            for path, form in (("/ui/runs", run_form), (resolve, resolve_form)):
                assert browser.post(path, data={**form, "csrf_token": bad}).status_code == 403, (path, bad)
        # the attacker's page itself holds no cookie of this server: refused whatever it sends
        assert httpx.post(run_web.url + "/ui/runs", data=run_form, headers={"Origin": EVIL}).status_code == 403
        assert httpx.post(run_web.url + "/ui/runs", data=run_form).status_code == 403
        assert browser.get("/runs").json()["items"] == []
        assert conflict_id not in run_web.store.conflict_resolutions([conflict_id])

        # the page's own posts: same-origin headers (a current browser) or neither header (an older one)
        r = browser.post(resolve, data={**resolve_form, "note": "same origin"},
                         headers={"Origin": run_web.url, "Sec-Fetch-Site": "same-origin"})
        assert r.status_code == 303 and r.headers["location"] == f"/ui/conflicts#c-{conflict_id}"
        assert run_web.store.conflict_resolutions([conflict_id])[conflict_id].note == "same origin"
        r = browser.post("/ui/runs", data=run_form)
        assert r.status_code == 303 and r.headers["location"].startswith("/ui/runs/"), r.text[:300]
        run_id = r.headers["location"].rsplit("/", 1)[-1]
        assert [x["id"] for x in browser.get("/runs").json()["items"]] == [run_id]
        browser.delete(f"/runs/{run_id}")  # no need to finish it


def test_the_json_api_refuses_what_an_html_form_can_send(api: Server) -> None:
    body = b'{"target": "source", "target_id": "S-1", "verdict": "accept"}'
    with httpx.Client(base_url=api.url) as c:
        for ctype in FORM_TYPES:
            for method, path in (("POST", "/feedback"), ("POST", "/conflicts/C-x/resolution"), ("POST", "/runs"),
                                 ("POST", "/runs/R-x/resume"), ("DELETE", "/runs/R-x"), ("POST", "/mcp")):
                r = c.request(method, path, content=body, headers={"content-type": ctype, "origin": EVIL})
                body_of = assert_problem(r, 415)
                assert ctype.split(";")[0] in str(body_of["detail"])
        # JSON still goes through (here to the API's own answer: the source is not in the graph)
        # a body of no type (what a cross-site fetch of a Blob sends; FastAPI would read it as JSON)
        r = c.post("/feedback", content=body, headers={"origin": EVIL})
        assert_problem(r, 415)
        assert_problem(c.post("/feedback", content=body), 415)
        # JSON still goes through (here to the API's own answer: the source is not in the graph)
        r = c.post("/feedback", content=body, headers={"content-type": "application/json; charset=utf-8"})
        assert r.status_code not in (403, 415, 422) and r.status_code < 500, r.text
        # ...but not a write a browser says another site sent, with or without a body
        for headers in ({"origin": EVIL}, {"origin": "null"}, {"sec-fetch-site": "cross-site"},
                        {"sec-fetch-site": "same-site"}, {"origin": "http://127.0.0.1:1"}):
            assert_problem(c.post("/feedback", content=body, headers={"content-type": "application/json",
                                                                       **headers}), 403)
            assert_problem(c.post("/runs/R-x/resume", headers=headers), 403)
        same = {"origin": api.url, "sec-fetch-site": "same-origin", "content-type": "application/json"}
        assert c.post("/feedback", content=body, headers=same).status_code not in (403, 415)


def test_a_write_from_an_origin_cors_allows_goes_through(falkor_store: GraphStore) -> None:
    body = {"target": "source", "target_id": "S-1", "verdict": "accept"}
    with serve(falkor_store, api_cors_origins=["https://app.example"]) as server, \
            httpx.Client(base_url=server.url) as c:
        ok = c.post("/feedback", json=body, headers={"origin": "https://app.example", "sec-fetch-site": "cross-site"})
        assert ok.status_code not in (403, 415) and ok.status_code < 500
        assert "access-control-allow-origin" in ok.headers
        assert_problem(c.post("/feedback", json=body, headers={"origin": EVIL, "sec-fetch-site": "cross-site"}), 403)
