"""A real HTTP/1.1 server on 127.0.0.1 serving recorded API responses and injecting faults.

Every request is logged (path, query, headers, monotonic arrival time) so tests assert on what really
reached the server: hit counts, gaps between request starts, conditional headers, the User-Agent.

The server runs in its own (forked) process: sharing the test's GIL, a handler thread could record an
arrival tens of ms late under load, which made server-side gap measurements noisy. The test reads the
log over HTTP from /__log (not itself logged). CLOCK_MONOTONIC is system-wide, so times compare.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import multiprocessing
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing.connection import Connection
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from urllib.request import ProxyHandler, build_opener

from openresearch.ingest.http import PoliteClient

UA = "OpenResearch-test/0.1 (+https://example.org/openresearch; tests@example.org)"
# "public.test" is judged by this DNS answer (a public address) but dialled on 127.0.0.1 via connect_to,
# so the address is never contacted.
PUBLIC_ANSWER = "93.184.216.34"
ClientFactory = Callable[..., PoliteClient]
FIXTURES = Path(__file__).parent.parent / "fixtures" / "responses"
PDF_BYTES = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
HTML_PAGE = b"<!DOCTYPE html><html><head><title>Page</title></head><body><p>Hello evidence.</p></body></html>"
_BOMB: bytes | None = None


def gzip_bomb() -> bytes:
    """20 MB of zeros gzipped to ~20 kB, built once per test session."""
    global _BOMB
    if _BOMB is None:
        _BOMB = gzip.compress(b"\0" * 20_000_000, compresslevel=9)
    return _BOMB


@dataclass
class Hit:
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    at: float


@dataclass
class ServerState:
    hits: list[Hit] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bump(self, key: str) -> int:
        with self.lock:
            self.counters[key] = self.counters.get(key, 0) + 1
            return self.counters[key]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # headers and body go out in two writes: Nagle + delayed ACK would add 40 ms stalls
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # keep pytest output clean
        pass

    def do_GET(self) -> None:
        arrived = time.monotonic()
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        state = self.server.state
        if parts.path == "/__log":
            with state.lock:
                log = [h.__dict__ for h in state.hits]
            self.send_body(200, json.dumps(log).encode(), "application/json")
            return
        with state.lock:
            state.hits.append(Hit(parts.path, query, {k.lower(): v for k, v in self.headers.items()}, arrived))
        route = ROUTES.get(parts.path)
        if route is None:
            for prefix, handler in PREFIX_ROUTES.items():
                if parts.path.startswith(prefix):
                    route = handler
                    break
        if route is None:
            self.send_body(404, b"not found", "text/plain")
            return
        route(self, query)

    def send_body(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location: str, status: int = 302) -> None:
        self.send_body(status, b"", "text/plain", {"Location": location})

    def key(self, query: dict[str, list[str]]) -> str:
        return urlsplit(self.path).path + "?" + query.get("key", [""])[0]


def fixture(name: str, content_type: str):  # type: ignore[no-untyped-def]
    def serve(h: Handler, query: dict[str, list[str]]) -> None:
        h.send_body(200, (FIXTURES / name).read_bytes(), content_type)

    return serve


def arxiv(h: Handler, query: dict[str, list[str]]) -> None:
    start = int(query.get("start", ["0"])[0])
    h.send_body(200, (FIXTURES / f"arxiv_start{start}.xml").read_bytes(), "application/atom+xml; charset=utf-8")


def flaky429(h: Handler, query: dict[str, list[str]]) -> None:
    if h.server.state.bump(h.key(query)) == 1:
        h.send_body(429, b"slow down", "text/plain", {"Retry-After": query.get("after", ["1"])[0]})
    else:
        h.send_body(200, b"ok after 429", "text/plain")


def flaky500(h: Handler, query: dict[str, list[str]]) -> None:
    if h.server.state.bump(h.key(query)) <= 2:
        h.send_body(500, b"boom", "text/plain")
    else:
        h.send_body(200, b"ok after 500s", "text/plain")


def slow(h: Handler, query: dict[str, list[str]]) -> None:
    # first request per key (or every request with always=1) stalls past the client's read timeout
    if "always" in query or h.server.state.bump(h.key(query)) == 1:
        time.sleep(float(query.get("delay", ["1.0"])[0]))
    with contextlib.suppress(OSError):  # the client gave up and closed the socket
        h.send_body(200, b"finally", "text/plain")


def truncated(h: Handler, query: dict[str, list[str]]) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Content-Length", "1000")
    h.end_headers()
    h.wfile.write(b"x" * 100)
    h.close_connection = True


def big(h: Handler, query: dict[str, list[str]]) -> None:
    h.send_body(200, b"a" * int(query.get("size", ["300000"])[0]), "text/plain")


def big_chunked(h: Handler, query: dict[str, list[str]]) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Transfer-Encoding", "chunked")
    h.end_headers()
    try:
        for _ in range(int(query.get("chunks", ["40"])[0])):
            h.wfile.write(b"%x\r\n%s\r\n" % (16384, b"b" * 16384))
        h.wfile.write(b"0\r\n\r\n")
    except OSError:
        pass
    h.close_connection = True


def bomb(h: Handler, query: dict[str, list[str]]) -> None:
    h.send_body(200, gzip_bomb(), "text/html", {"Content-Encoding": "gzip"})


def gzipped(h: Handler, query: dict[str, list[str]]) -> None:
    h.send_body(200, gzip.compress(HTML_PAGE), "text/html; charset=utf-8", {"Content-Encoding": "gzip"})


def etag(h: Handler, query: dict[str, list[str]]) -> None:
    if h.headers.get("If-None-Match") == '"v1"':
        h.send_response(304)
        h.send_header("ETag", '"v1"')
        h.send_header("Content-Length", "0")
        h.end_headers()
    else:
        h.send_body(200, b"etag body", "text/plain", {"ETag": '"v1"'})


def lastmod(h: Handler, query: dict[str, list[str]]) -> None:
    stamp = "Wed, 01 Jan 2025 00:00:00 GMT"
    if h.headers.get("If-Modified-Since") == stamp:
        h.send_response(304)
        h.send_header("Content-Length", "0")
        h.end_headers()
    else:
        h.send_body(200, b"lastmod body", "text/plain", {"Last-Modified": stamp})


def redirect_to(h: Handler, query: dict[str, list[str]]) -> None:
    h.redirect(query["to"][0])


def chain(h: Handler, query: dict[str, list[str]]) -> None:
    n = int(urlsplit(h.path).path.rsplit("/", 1)[1])
    if n == 0:
        h.send_body(200, b"end of chain", "text/plain")
    else:
        h.redirect(f"/chain/{n - 1}")


ROUTES = {
    "/searxng/search": fixture("searxng_search.json", "application/json"),
    "/arxiv/api/query": arxiv,
    "/s2/graph/v1/paper/search": fixture("s2_paper_search.json", "application/json"),
    "/openalex/works": fixture("openalex_works.json", "application/json"),
    "/wiki/w/api.php": fixture("wikipedia_search.json", "application/json; charset=utf-8"),
    "/robots.txt": lambda h, q: h.send_body(200, b"User-agent: *\nDisallow: /private\n", "text/plain"),
    "/page.html": lambda h, q: h.send_body(200, HTML_PAGE, "text/html; charset=utf-8"),
    "/private/page.html": lambda h, q: h.send_body(200, HTML_PAGE, "text/html; charset=utf-8"),
    "/paper.pdf": lambda h, q: h.send_body(200, PDF_BYTES, "application/pdf"),
    "/wrongtype": lambda h, q: h.send_body(200, PDF_BYTES, "text/html; charset=utf-8"),
    "/notes.txt": lambda h, q: h.send_body(200, b"plain notes\n", "text/plain"),
    "/flaky429": flaky429,
    "/flaky500": flaky500,
    "/slow": slow,
    "/truncated": truncated,
    "/big": big,
    "/big-chunked": big_chunked,
    "/bomb": bomb,
    "/gzipped": gzipped,
    "/etag": etag,
    "/lastmod": lastmod,
    "/redirect": redirect_to,
    "/loop/a": lambda h, q: h.redirect("/loop/b"),
    "/loop/b": lambda h, q: h.redirect("/loop/a"),
}
PREFIX_ROUTES = {"/chain/": chain}


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.state = ServerState()

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # injected faults (a client hanging up on /slow) are expected, not noise


def _serve(conn: Connection) -> None:
    server = _Server()
    conn.send(server.server_address[1])
    server.serve_forever(poll_interval=0.05)


class FaultServer:
    """Handle on the server process: start, stop, and the request log."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("fork")  # fork: starts in ms, and the child needs nothing re-imported
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child,), daemon=True)
        self.port = 0
        self._opener = build_opener(ProxyHandler({}))  # never through an environment proxy

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FaultServer:
        self._proc.start()
        if not self._conn.poll(10):
            raise RuntimeError("fault server did not start")
        self.port = int(self._conn.recv())
        return self

    def stop(self) -> None:
        self._proc.terminate()
        self._proc.join(5)

    def hits(self) -> list[Hit]:
        with self._opener.open(f"{self.base}/__log", timeout=5) as response:
            return [Hit(**h) for h in json.loads(response.read())]

    def count(self, path: str) -> int:
        return sum(1 for h in self.hits() if h.path == path)
