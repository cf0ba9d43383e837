"""Response and search caches: zero network on a warm hit, 304 revalidation, TTL, stats and clear."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from netserver import ClientFactory, FaultServer

from openresearch.ingest.cache import Cache

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_second_identical_get_makes_no_request(server: FaultServer, make_client: ClientFactory, cache: Cache) -> None:
    async def go() -> None:
        async with make_client(cache=cache) as client:
            first = await client.get(f"{server.base}/page.html", params={"q": "x", "a": 1})
            second = await client.get(f"{server.base}/page.html", params={"a": 1, "q": "x"})
            assert not first.from_cache and second.from_cache and second.content == first.content
            assert client.stats.requests == 1 and client.stats.cache_hits == 1

    run(go())
    assert server.count("/page.html") == 1


def test_cache_survives_a_new_client(server: FaultServer, make_client: ClientFactory, tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"

    async def go() -> int:
        store = Cache(path)
        async with make_client(cache=store) as client:
            await client.get(f"{server.base}/notes.txt")
            store.close()
            return client.stats.requests

    assert run(go()) == 1 and run(go()) == 0
    assert server.count("/notes.txt") == 1


def test_use_cache_false_goes_to_the_network(server: FaultServer, make_client: ClientFactory, cache: Cache) -> None:
    async def go() -> None:
        async with make_client(cache=cache) as client:
            await client.get(f"{server.base}/notes.txt")
            resp = await client.get(f"{server.base}/notes.txt", use_cache=False)
            assert not resp.from_cache

    run(go())
    assert server.count("/notes.txt") == 2


def test_etag_revalidation_uses_304(server: FaultServer, make_client: ClientFactory, tmp_path: Path) -> None:
    stale = Cache(tmp_path / "stale.sqlite", ttl_s=0)  # every entry is stale at once: forces revalidation

    async def go() -> None:
        async with make_client(cache=stale) as client:
            await client.get(f"{server.base}/etag")
            again = await client.get(f"{server.base}/etag")
            assert again.from_cache and again.status == 200 and again.content == b"etag body"
            assert client.stats.revalidated == 1 and client.stats.requests == 2

    run(go())
    first, second = server.hits()
    assert "if-none-match" not in first.headers and second.headers["if-none-match"] == '"v1"'


def test_last_modified_revalidation(server: FaultServer, make_client: ClientFactory, tmp_path: Path) -> None:
    stale = Cache(tmp_path / "stale.sqlite", ttl_s=0)

    async def go() -> None:
        async with make_client(cache=stale) as client:
            await client.get(f"{server.base}/lastmod")
            again = await client.get(f"{server.base}/lastmod")
            assert again.content == b"lastmod body" and client.stats.revalidated == 1

    run(go())
    assert server.hits()[1].headers["if-modified-since"] == "Wed, 01 Jan 2025 00:00:00 GMT"


def test_errors_are_not_cached(server: FaultServer, make_client: ClientFactory, cache: Cache) -> None:
    async def go() -> None:
        async with make_client(cache=cache) as client:
            assert (await client.get(f"{server.base}/missing")).status == 404
            assert (await client.get(f"{server.base}/missing")).status == 404

    run(go())
    assert server.count("/missing") == 2


def test_search_cache_ttl_stats_and_clear(tmp_path: Path) -> None:
    now = [1000.0]
    store = Cache(tmp_path / "s.sqlite", ttl_s=60, clock=lambda: now[0])
    store.put_search("arxiv", "graph rag", 5, [{"title": "A"}])
    assert store.get_search("arxiv", "graph rag", 5) == [{"title": "A"}]
    assert store.get_search("arxiv", "graph rag", 6) is None and store.get_search("openalex", "graph rag", 5) is None
    store.store("k", method="GET", url="u", final_url="u", status=200, headers={}, content=b"12345")
    stats = store.stats()
    assert (stats.responses, stats.searches, stats.oldest) == (1, 1, 1000.0) and stats.bytes > 5
    now[0] += 61
    assert store.get_search("arxiv", "graph rag", 5) is None
    assert store.clear(expired_only=True) == 2 and store.stats().responses == 0
    store.put_search("arxiv", "q", 1, [])
    assert store.clear() == 1
