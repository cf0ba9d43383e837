"""robots.txt refusals say why: the site's rules, a robots.txt that answered 5xx, or one that could not be reached."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from openresearch.ingest.fetch import Fetcher, FetchResult
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.safety import StaticResolver, UrlGuard

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


class _Handler(BaseHTTPRequestHandler):
    robots: tuple[int, bytes] = (200, b"")

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/robots.txt":
            status, body = self.robots
        else:
            status, body = 200, b"<html><body><p>a page</p></body></html>"
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Down(_Handler):
    robots = (503, b"down for maintenance")


class _Strict(_Handler):
    robots = (200, b"User-agent: *\nDisallow: /\n")


@pytest.fixture
def servers() -> Iterator[tuple[int, int]]:
    down, strict = ThreadingHTTPServer(("127.0.0.1", 0), _Down), ThreadingHTTPServer(("127.0.0.1", 0), _Strict)
    for srv in (down, strict):
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield down.server_port, strict.server_port
    for srv in (down, strict):
        srv.shutdown()
        srv.server_close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fetch(urls: list[str]) -> list[FetchResult]:
    async def go() -> list[FetchResult]:
        guard = UrlGuard(["127.0.0.1"], StaticResolver({}))
        async with PoliteClient(user_agent="OpenResearch-test/0.1", guard=guard, max_retries=0,
                                backoff_base_s=0.01, connect_timeout_s=1.0, read_timeout_s=1.0) as client:
            fetcher = Fetcher(client)
            return [await fetcher.fetch(u) for u in urls]

    return asyncio.run(go())


def test_each_robots_refusal_names_its_reason(servers: tuple[int, int]) -> None:
    down, strict = servers
    gone = _closed_port()
    results = _fetch([f"http://127.0.0.1:{down}/a", f"http://127.0.0.1:{strict}/a", f"http://127.0.0.1:{gone}/a"])
    reasons = [r.refused_reason or "" for r in results]
    assert not any(r.ok for r in results)
    assert "could not be read (the server answered HTTP 503)" in reasons[0] and "RFC 9309" in reasons[0]
    assert "disallowed by the rules in" in reasons[1] and "'OpenResearch-test'" in reasons[1]
    assert "could not be read (unreachable" in reasons[2] and f"127.0.0.1:{gone}" in reasons[2]
    assert all("OPENRESEARCH_RESPECT_ROBOTS" in r for r in (reasons[0], reasons[2]))
