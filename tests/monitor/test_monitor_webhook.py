"""The digest webhook against a real local HTTP server (on loopback, allowed by the webhook setting): signed with
the topic's secret, retried on 5xx with backoff, not retried on 4xx, never sent to a loopback address without the
setting; a monitoring run posts a digest with news and skips an empty day unless the topic asks for it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.ingest.safety import UrlGuard
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.digest import build
from openresearch.monitor.models import Digest
from openresearch.monitor.service import Monitor
from openresearch.monitor.webhook import SIGNATURE_HEADER, new_secret, post_digest, verify_signature
from tests.monitor.monitor_support import TINY, offline_services, write_doc

LOCAL = UrlGuard(["127.0.0.1"])  # what OPENRESEARCH_WEBHOOK_ALLOW_HOSTS=127.0.0.1 gives
DAY = 86_400_000


class Hook(ThreadingHTTPServer):
    statuses: list[int]
    posts: list[tuple[bytes, dict[str, str]]]


class Handler(BaseHTTPRequestHandler):
    server: Hook

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.posts.append((body, {k.lower(): v for k, v in self.headers.items()}))
        status = self.server.statuses.pop(0) if self.server.statuses else 200
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def hook() -> Iterator[Hook]:
    server = Hook(("127.0.0.1", 0), Handler)
    server.statuses, server.posts = [], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def url_of(hook: Hook) -> str:
    return f"http://127.0.0.1:{hook.server_address[1]}/hook"


def digest() -> Digest:
    return build(digest_id="D-r", topic_id="T-x", run_id="r", question="q", at=0, new_sources=[], removed_sources=[],
                 new_evidence=[], supersessions=[], new_conflicts=[], resolved_conflicts=[])


def test_a_signed_post_is_retried_then_delivered(hook: Hook) -> None:
    hook.statuses = [503, 500]
    waits: list[float] = []
    secret = new_secret()
    assert post_digest(url_of(hook), digest(), secret=secret, guard=LOCAL, sleep=waits.append)
    assert len(hook.posts) == 3 and waits == [0.5, 1.0]
    body, headers = hook.posts[-1]
    assert verify_signature(secret, body, headers[SIGNATURE_HEADER.lower()])  # HMAC of the raw body
    assert headers[SIGNATURE_HEADER.lower()].startswith("sha256=")
    assert not verify_signature(new_secret(), body, headers[SIGNATURE_HEADER.lower()])
    assert not verify_signature(secret, body + b" ", headers[SIGNATURE_HEADER.lower()])
    assert Digest.model_validate_json(body).id == "D-r" and headers["x-openresearch-topic"] == "T-x"


def test_a_client_error_is_not_retried_and_a_dead_hook_gives_up(hook: Hook) -> None:
    hook.statuses = [404]
    with httpx.Client() as client:
        assert not post_digest(url_of(hook), digest(), secret="s", guard=LOCAL, client=client, sleep=lambda s: None)
        assert len(hook.posts) == 1
        hook.server_close()
        assert not post_digest(url_of(hook), digest(), secret="s", guard=LOCAL, client=client, attempts=2,
                               sleep=lambda s: None)


@pytest.mark.parametrize("url", ["http://127.0.0.1:{port}/hook", "http://localhost:{port}/hook",
                                 "http://169.254.169.254/latest", "ftp://127.0.0.1/x"])
def test_no_post_to_loopback_private_or_link_local_without_the_setting(hook: Hook, url: str) -> None:
    assert not post_digest(url.format(port=hook.server_address[1]), digest(), secret="s", guard=UrlGuard(),
                           sleep=lambda s: None)
    assert hook.posts == []


def test_a_run_posts_news_signed_and_skips_an_empty_day_unless_asked(
        falkor_store: GraphStore, embedder: Embedder, tmp_path: Path, hook: Hook) -> None:
    folder = tmp_path / "docs"
    write_doc(folder, "a.md", "Quorbit notes", "2026-01-10", "https://quorbit.example/notes",
              "Quorbit reaches a write throughput of 42,000 rows per second on a single node.")
    settings = Settings(_env_file=None, data_dir=tmp_path / "data", webhook_allow_hosts=["127.0.0.1"])  # type: ignore[call-arg]
    m = Monitor(offline_services(falkor_store, embedder, tmp_path / "data", settings),
                clock=FakeClock(1_768_003_200_000))
    quiet = m.add("Quorbit write throughput", sources=[f"local:{folder}"], options=TINY, webhook=url_of(hook))
    loud = m.add("Quorbit write throughput, every day", sources=[f"local:{folder}"], options=TINY,
                 webhook=url_of(hook) + "?all")
    m.store.save_topic(m.store.topic(loud.id).model_copy(update={"webhook_empty": True,
                                                                  "webhook_secret": "loud-secret"}), 0)
    secret = m.store.topic(quiet.id).webhook_secret
    assert secret and secret.startswith("whsec_")
    assert "webhook_secret" not in m.store.topic(quiet.id).model_dump()  # never in a listing or an API answer
    first = m.run_topic(quiet.id)
    assert first is not None and not first.digest.nothing_changed
    assert len(hook.posts) == 1 and verify_signature(secret, *_sig(hook.posts[0]))
    m.clock.advance(DAY)  # type: ignore[attr-defined]
    again = m.run_topic(quiet.id)
    assert again is not None and again.digest.nothing_changed
    assert len(hook.posts) == 1  # an empty day is not posted
    for _ in range(2):
        assert m.run_topic(loud.id) is not None
    assert len(hook.posts) == 3  # the topic that asked for every day gets both
    assert verify_signature("loud-secret", *_sig(hook.posts[-1]))


def _sig(post: tuple[bytes, dict[str, str]]) -> tuple[bytes, str | None]:
    return post[0], post[1].get(SIGNATURE_HEADER.lower())
