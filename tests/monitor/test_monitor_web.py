"""Monitoring over the web through a real local server in SearXNG's response format with pages that carry
ETags: the second day asks the search with a `time_range`, revalidates every page it read with If-None-Match
(answered 304), extracts nothing and changes no count; a page that appears later is a new source."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from monitor_support import TINY, offline_services

from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
DAY = 86_400_000


def page(title: str, published: str, value: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><title>{title}</title>"
            f"<meta property='article:published_time' content='{published}'></head><body><article><h1>{title}</h1>"
            f"<p>AcmeDB reaches a write throughput of {value} rows per second on a single node.</p>"
            "<p>AcmeDB is an open-source time-series database that stores data in compressed columnar blocks. "
            "The release also improves query planning for downsampled series and adds retention policies.</p>"
            "</article></body></html>").encode()


class Site(ThreadingHTTPServer):
    pages: dict[str, tuple[bytes, str]]  # path -> (body, etag)
    results: list[str]  # the paths the search returns
    log: list[dict[str, str]]


class Handler(BaseHTTPRequestHandler):
    server: Site

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        entry = {"path": parts.path, "time_range": query.get("time_range", ""),
                 "if_none_match": self.headers.get("If-None-Match") or ""}
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        if parts.path == "/robots.txt":
            self._send(200, b"User-agent: *\nAllow: /\n", "text/plain")
        elif parts.path == "/search":
            results = [{"url": f"{base}{p}", "title": f"AcmeDB {p}", "content": "AcmeDB write throughput",
                        "engine": "local", "publishedDate": "2026-01-10T00:00:00"} for p in self.server.results]
            self._send(200, json.dumps({"query": query.get("q", ""), "results": results}).encode(),
                       "application/json")
        elif parts.path in self.server.pages:
            body, etag = self.server.pages[parts.path]
            if self.headers.get("If-None-Match") == etag:
                entry["status"] = "304"
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
            else:
                entry["status"] = "200"
                self._send(200, body, "text/html; charset=utf-8", etag)
        else:
            self.send_error(404)
        if parts.path != "/robots.txt":
            self.server.log.append(entry)

    def _send(self, status: int, body: bytes, ctype: str, etag: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", etag)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def site() -> Iterator[Site]:
    server = Site(("127.0.0.1", 0), Handler)
    server.pages = {"/a.html": (page("AcmeDB 1.4 release", "2026-01-10", "120,000"), '"a1"'),
                    "/c.html": (page("AcmeDB 1.5 release", "2026-02-10", "150,000"), '"c1"')}
    server.results = ["/a.html"]
    server.log = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


COUNTED = ("Source", "Evidence", "Observation", "Entity", "Chunk")


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_web_monitoring_is_incremental(store: GraphStore, site: Site, embedder: Embedder, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", searxng_url=f"http://127.0.0.1:{site.server_address[1]}",
                        trusted_hosts=["127.0.0.1"], host_intervals={}, llm_base_url=None, cache_ttl_s=0)
    clock = FakeClock(int(time.time() * 1000))
    m = Monitor(offline_services(store, embedder, tmp_path / "data", settings), clock=clock)
    options = {**TINY, "offline": False}
    topic = m.add("What is the write throughput of AcmeDB?", sources=["web"], options=options)

    first = m.run_topic(topic.id)
    assert first is not None and first.extracted > 0
    assert [s.url.rsplit("/", 1)[-1] for s in first.digest.new_sources] == ["a.html"]
    assert all(e["time_range"] == "" for e in site.log if e["path"] == "/search")  # the first run: any date

    site.log.clear()
    clock.advance(DAY + 20 * 60_000)
    counts = {k: v for k, v in store.stats()["nodes"].items() if k in COUNTED}
    second = m.run_due()
    assert len(second) == 1 and second[0].extracted == 0 and second[0].digest.nothing_changed
    assert {k: v for k, v in store.stats()["nodes"].items() if k in COUNTED} == counts
    searches = [e for e in site.log if e["path"] == "/search"]
    assert searches and all(e["time_range"] in ("day", "week") for e in searches)
    fetches = [e for e in site.log if e["path"].endswith(".html")]
    assert fetches and all(e["if_none_match"] == '"a1"' and e["status"] == "304" for e in fetches)

    site.log.clear()
    site.results = ["/a.html", "/c.html"]  # a new release appears
    clock.advance(DAY)
    third = m.run_due()
    assert len(third) == 1
    d = third[0].digest
    assert [s.url.rsplit("/", 1)[-1] for s in d.new_sources] == ["c.html"]
    assert [(c.old_value, c.new_value) for c in d.changed_values] == [("120,000 rows per second",
                                                                      "150,000 rows per second")]
    statuses: dict[str, list[str]] = {}
    for e in site.log:
        if e["path"].endswith(".html"):
            statuses.setdefault(e["path"], []).append(e["status"])
    assert set(statuses["/a.html"]) == {"304"} and statuses["/c.html"][0] == "200"  # only the new page is read
