"""Safe at every door, in a real headless Chromium against the API on a real uvicorn over a real FalkorDB:

- a page served from another origin (a tiny http.server on another port of the same host: the same *site*,
  so the browser's SameSite=Strict cookies go along) auto-submits a form to /ui/runs, and no run is created;
  the page's own form still starts one;
- the citation panel shows a `javascript:` source address as text, never as a link.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from records_support import free_port, offline_run_server

from openresearch.graph.store import GraphStore

from .browser_support import Server, rec, serve

pytestmark = pytest.mark.integration
WAIT_S = 60  # an upper bound on a loaded 2-core machine, never a measured figure
PAYLOAD = "javascript:window.__pwned=1"


def _wait(driver: Any, cond: Callable[[Any], Any]) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.1).until(cond)


def _css(driver: Any, sel: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, sel))


@pytest.fixture
def run_web(falkor_store: GraphStore, tmp_path: Path) -> Iterator[Server]:
    """The API with its run manager (offline components), local sources allowed under tmp_path."""
    with offline_run_server(serve, falkor_store, tmp_path) as server:
        yield server


@pytest.fixture
def attacker(run_web: Server, tmp_path: Path) -> Iterator[str]:
    """Another origin (http://127.0.0.1:<other port>) whose page posts a form to /ui/runs as soon as it loads."""
    empty = tmp_path / "empty"
    empty.mkdir(exist_ok=True)
    page = (f'<!DOCTYPE html><html><body><form id="f" method="post" action="{run_web.url}/ui/runs">'
            '<input name="question" value="Planted by another site">'
            f'<input name="sources" value="local:{empty}"><input name="offline" value="true"></form>'
            '<script>document.getElementById("f").submit()</script></body></html>').encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_a_form_auto_submitted_from_another_origin_creates_no_run(
        chrome: Any, run_web: Server, attacker: str, tmp_path: Path,
        screenshot: Callable[[Any, str], Path]) -> None:
    chrome.get(run_web.url + "/")  # the browser has been on the page: it holds the page's cookie
    assert _css(chrome, "#run-form input[name=csrf_token]")
    chrome.get(attacker)
    _wait(chrome, lambda d: d.current_url.startswith(run_web.url + "/ui/runs"))
    _wait(chrome, lambda d: _css(d, "section.problem"))
    assert "Forbidden" in _css(chrome, "section.problem h1")[0].text
    assert "HTTP 403" in _css(chrome, "section.problem")[0].text
    screenshot(chrome, "web-cross-site-form-refused")
    assert httpx.get(run_web.url + "/runs").json()["items"] == []

    # the page's own form, in the same browser, starts a run
    chrome.get(run_web.url + "/")
    _css(chrome, "#question")[0].send_keys("Started from the page itself")
    _css(chrome, "#sources")[0].send_keys(f"local:{tmp_path / 'empty'}")
    _css(chrome, "#offline")[0].click()
    _css(chrome, "#start-run")[0].click()
    _wait(chrome, lambda d: "/ui/runs/" in d.current_url and d.current_url != run_web.url + "/ui/runs")
    runs = httpx.get(run_web.url + "/runs").json()["items"]
    assert [r["question"] for r in runs] == ["Started from the page itself"]
    httpx.delete(f"{run_web.url}/runs/{runs[0]['id']}")  # no need to finish it


def test_the_citation_panel_shows_a_javascript_source_as_text(
        chrome: Any, falkor_store: GraphStore, screenshot: Callable[[Any, str], Path]) -> None:
    falkor_store.write_evidence([rec(PAYLOAD, "Imported", "Hostile reached 7 MB/s with three brokers.",
                                     "Hostile", "throughput", 7, "MB/s")])
    with serve(falkor_store) as server:
        chrome.get(server.url + "/ui/compare?entity=Hostile")
        cite = _wait(chrome, lambda d: (_css(d, "#compare-table a.cite") or [None])[0])
        cite.click()
        panel = _wait(chrome, lambda d: next((p for p in _css(d, "#evidence-panel") if p.is_displayed()
                                              and _css(d, "#evidence-panel blockquote.quote")), None))
        source = _css(chrome, "#evidence-panel p.source")[0]
        assert "Imported" in source.text and PAYLOAD in source.text
        assert _css(chrome, "#evidence-panel p.source a") == []
        hrefs = [a.get_attribute("href") or "" for a in _css(chrome, "#evidence-panel a")]
        assert not any(h.lower().startswith("javascript:") for h in hrefs), hrefs
        source.click()
        assert chrome.execute_script("return window.__pwned === undefined")
        screenshot(chrome, "web-citation-javascript-source")
        assert "Hostile" in panel.text
