"""PoliteClient against the real local server: retries, timeouts, limits, redirects, User-Agent."""

from __future__ import annotations

import asyncio

import pytest
from netserver import HTML_PAGE, UA, ClientFactory, FaultServer

from openresearch.errors import FetchError, FetchRefused
from openresearch.ingest.http import FetchedResponse

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_get_sends_user_agent_and_counts_requests(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchedResponse:
        async with make_client() as client:
            resp = await client.get(f"{server.base}/page.html")
            assert client.stats.requests == 1
            return resp

    resp = run(go())
    assert resp.status == 200 and resp.content == HTML_PAGE and resp.content_type == "text/html"
    assert server.hits()[0].headers["user-agent"] == UA


def test_429_honours_retry_after_then_succeeds(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> list[FetchedResponse]:
        async with make_client() as client:
            out = await asyncio.gather(
                client.get(f"{server.base}/flaky429?key=a&after=1"), client.get(f"{server.base}/notes.txt")
            )
            assert client.stats.retries == 1
            return list(out)

    flaky, other = run(go())
    assert flaky.status == 200 and flaky.content == b"ok after 429"
    assert other.status == 200 and other.content == b"plain notes\n"  # the batch lost nothing
    hits = [h.at for h in server.hits() if h.path == "/flaky429"]
    assert len(hits) == 2 and hits[1] - hits[0] >= 0.95  # waited the server's Retry-After: 1


def test_retry_after_beyond_the_cap_gives_up(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchedResponse:
        async with make_client(max_retry_after_s=5) as client:
            return await client.get(f"{server.base}/flaky429?key=cap&after=3600")

    assert run(go()).status == 429 and server.count("/flaky429") == 1


def test_500s_are_retried_with_backoff(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchedResponse:
        async with make_client() as client:
            return await client.get(f"{server.base}/flaky500?key=b")

    resp = run(go())
    assert resp.status == 200 and server.count("/flaky500") == 3


def test_500s_beyond_retries_return_the_last_status(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchedResponse:
        async with make_client(max_retries=1) as client:
            return await client.get(f"{server.base}/flaky500?key=c")

    resp = run(go())
    assert resp.status == 500 and server.count("/flaky500") == 2
    with pytest.raises(FetchError, match="HTTP 500"):
        resp.raise_for_status()


def test_timeout_is_retried(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchedResponse:
        async with make_client(read_timeout_s=0.3) as client:
            resp = await client.get(f"{server.base}/slow?key=d&delay=1.0")
            assert client.stats.retries == 1
            return resp

    assert run(go()).content == b"finally"


def test_persistent_timeout_raises_fetch_error(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(read_timeout_s=0.2, max_retries=1) as client:
            await client.get(f"{server.base}/slow?always=1&delay=0.5")

    with pytest.raises(FetchError, match="ReadTimeout"):
        run(go())


def test_truncated_body_is_retried_then_fails(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(max_retries=2) as client:
            await client.get(f"{server.base}/truncated")

    with pytest.raises(FetchError, match="failed after 3 attempts"):
        run(go())
    assert server.count("/truncated") == 3


def test_declared_oversized_body_refused_without_reading(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(max_body_bytes=100_000) as client:
            await client.get(f"{server.base}/big?size=300000")

    with pytest.raises(FetchRefused, match="Content-Length 300000 exceeds"):
        run(go())
    assert server.count("/big") == 1  # a policy refusal is not retried


def test_streamed_oversized_body_is_cut_off(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(max_body_bytes=100_000) as client:
            await client.get(f"{server.base}/big-chunked")

    with pytest.raises(FetchRefused, match="cut off while streaming"):
        run(go())


def test_gzip_bomb_stops_past_the_limit(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(max_body_bytes=1_000_000) as client:
            await client.get(f"{server.base}/bomb")

    with pytest.raises(FetchRefused, match="decompression bomb guard"):
        run(go())


def test_gzip_body_is_decoded(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchedResponse:
        async with make_client() as client:
            return await client.get(f"{server.base}/gzipped")

    resp = run(go())
    assert resp.content == HTML_PAGE and "content-encoding" not in resp.headers


def test_redirect_loop_is_refused(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client() as client:
            await client.get(f"{server.base}/loop/a")

    with pytest.raises(FetchRefused, match="redirect loop"):
        run(go())
    assert server.count("/loop/a") == 1 and server.count("/loop/b") == 1


def test_redirect_limit(server: FaultServer, make_client: ClientFactory) -> None:
    async def go(hops: int) -> FetchedResponse:
        async with make_client(max_redirects=5) as client:
            return await client.get(f"{server.base}/chain/{hops}")

    resp = run(go(5))
    assert resp.content == b"end of chain" and len(resp.redirects) == 5
    assert resp.final_url.endswith("/chain/0")
    with pytest.raises(FetchRefused, match="more than 5 redirects"):
        run(go(6))


def test_per_host_concurrency(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(per_host_concurrency=2) as client:
            await asyncio.gather(*(client.get(f"{server.base}/slow?always=1&delay=0.3&n={i}") for i in range(4)))

    run(go())
    starts = sorted(h.at for h in server.hits())
    assert starts[2] - starts[0] >= 0.25  # the third waited for one of the first two to finish
