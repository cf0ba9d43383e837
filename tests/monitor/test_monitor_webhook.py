"""The digest webhook against a real local HTTP server: retried on 5xx with backoff, not retried on 4xx."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from openresearch.monitor.digest import build
from openresearch.monitor.models import Digest
from openresearch.monitor.webhook import post_digest


class Hook(ThreadingHTTPServer):
    statuses: list[int]
    bodies: list[dict[str, object]]


class Handler(BaseHTTPRequestHandler):
    server: Hook

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.bodies.append(json.loads(body))
        status = self.server.statuses.pop(0) if self.server.statuses else 200
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def hook() -> Iterator[Hook]:
    server = Hook(("127.0.0.1", 0), Handler)
    server.statuses, server.bodies = [], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def digest() -> Digest:
    return build(digest_id="D-r", topic_id="T-x", run_id="r", question="q", at=0, new_sources=[], removed_sources=[],
                 new_evidence=[], supersessions=[], new_conflicts=[], resolved_conflicts=[])


def test_retries_then_delivers_the_digest_json(hook: Hook) -> None:
    hook.statuses = [503, 500]
    waits: list[float] = []
    url = f"http://127.0.0.1:{hook.server_address[1]}/hook"
    with httpx.Client() as client:
        assert post_digest(client, url, digest(), sleep=waits.append)
    assert len(hook.bodies) == 3 and hook.bodies[-1]["id"] == "D-r" and hook.bodies[-1]["nothing_changed"] is True
    assert waits == [0.5, 1.0]


def test_a_client_error_is_not_retried_and_a_dead_hook_gives_up(hook: Hook) -> None:
    hook.statuses = [404]
    url = f"http://127.0.0.1:{hook.server_address[1]}/hook"
    with httpx.Client() as client:
        assert not post_digest(client, url, digest(), sleep=lambda s: None)
        assert len(hook.bodies) == 1
        hook.server_close()
        assert not post_digest(client, url, digest(), attempts=2, sleep=lambda s: None)
