"""A web research run through a real local SearXNG-format server and deep fetches; the second identical run
is answered from the caches and the graph: zero network requests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from openresearch.agents.run.components import Components
from openresearch.agents.run.pipeline import run_research
from openresearch.agents.run.run_config import RunOptions
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder

pytestmark = pytest.mark.integration
CORPUS = Path(__file__).resolve().parents[2] / "examples" / "corpus"
PAGES = {"/confluent.html": "bench-confluent-2020.html", "/nats.html": "bench-nats-jetstream.html",
         "/rabbit.html": "bench-rabbitmq-streams-perf.html"}


class Site(ThreadingHTTPServer):
    hits: list[str]


class Handler(BaseHTTPRequestHandler):
    server: Site

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        self.server.hits.append(parts.path)
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        if parts.path == "/robots.txt":
            self._send(b"User-agent: *\nAllow: /\n", "text/plain")
        elif parts.path == "/search":
            q = parse_qs(parts.query).get("q", [""])[0]
            results = [{"url": f"{base}{p}", "title": f"{name} ({q})", "content": f"Benchmark of brokers for {q}",
                        "engine": "local", "publishedDate": "2024-01-15T00:00:00"} for p, name in PAGES.items()]
            self._send(json.dumps({"query": q, "results": results}).encode(), "application/json")
        elif parts.path in PAGES:
            self._send((CORPUS / PAGES[parts.path]).read_bytes(), "text/html; charset=utf-8")
        else:
            self.send_error(404)

    def _send(self, body: bytes, ctype: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def site() -> Iterator[Site]:
    server = Site(("127.0.0.1", 0), Handler)
    server.hits = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_second_identical_web_run_makes_no_network_request(store: GraphStore, site: Site, embedder: Embedder,
                                                          tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", searxng_url=f"http://127.0.0.1:{site.server_address[1]}",
                        trusted_hosts=["127.0.0.1"], host_intervals={}, llm_base_url=None)
    question = "What throughput do Kafka and NATS JetStream reach in benchmarks?"

    def once(out: str) -> dict[str, object]:
        opts = RunOptions(question=question, sources=["web"], out=tmp_path / out, max_sub_questions=5)
        comps = Components.build(settings, embedder, offline=False, caps=opts.caps)
        return run_research(opts, store, settings, embedder=embedder, components=comps).metrics

    first = once("a")
    hits_after_first = len(site.hits)
    assert first["network_requests"] and hits_after_first > 0
    assert any(h in PAGES for h in site.hits)  # pages were deep-fetched, not just searched
    assert first["evidence_written"]
    data = json.loads((tmp_path / "a" / "report.json").read_text("utf-8"))
    assert data["verification"]["phantom_citations"] == 0
    assert {e["source"]["url"].rsplit("/", 1)[-1] for e in data["evidence"]} & {"confluent.html", "nats.html",
                                                                             "rabbit.html"}
    # what was read is kept: the exact text, its hash, the fetch time and the response headers
    kept = store.backend.read("MATCH (s:Source) WHERE s.url ENDS WITH '/nats.html' "
                              "RETURN s.headers AS h, s.fetched_at AS t, s.content_hash AS c, s.text AS x")
    assert kept and kept[0]["t"] and kept[0]["c"] and kept[0]["x"]
    assert json.loads(kept[0]["h"])["content-type"].startswith("text/html")
    second = once("b")
    assert len(site.hits) == hits_after_first  # the server saw nothing new
    assert second["network_requests"] == 0 and second["cache_hits"] > 0
    assert second["evidence_written"] == 0  # nothing extracted twice
