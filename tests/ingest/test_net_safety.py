"""SSRF guard: checked before the request and on every redirect hop, on the real server."""

from __future__ import annotations

import asyncio

import pytest
from netserver import HTML_PAGE, PUBLIC_ANSWER, ClientFactory, FaultServer

from openresearch.errors import FetchRefused
from openresearch.ingest.http import FetchedResponse
from openresearch.ingest.safety import StaticResolver, UrlGuard, forbidden_reason

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("10.0.0.7", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "cloud metadata"),
        ("fd00:ec2::254", "cloud metadata"),
        ("169.254.10.1", "link-local"),
        ("224.0.0.1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("::ffff:127.0.0.1", "loopback"),
        ("100.64.0.1", "not globally routable"),
        ("240.0.0.1", "reserved"),
        (PUBLIC_ANSWER, None),
    ],
)
def test_forbidden_reason(address: str, reason: str | None) -> None:
    assert forbidden_reason(address) == reason


@pytest.mark.parametrize("url", ["ftp://example.org/x", "file:///etc/passwd", "gopher://a/b", "http:///nohost"])
def test_only_http_and_https(url: str) -> None:
    guard = UrlGuard([], StaticResolver({}))
    with pytest.raises(FetchRefused):
        run(guard.check(url))


def test_trusted_host_skips_judgement_but_is_pinned() -> None:
    guard = UrlGuard(["searx.local"], StaticResolver({"searx.local": ["10.1.2.3"]}))
    target = run(guard.check("http://SEARX.local:8888/search"))
    assert target.trusted and target.address == "10.1.2.3" and target.port == 8888


def test_untrusted_loopback_refused_before_any_request(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(trusted_hosts=[]) as client:
            for url in (
                f"{server.base}/page.html",
                f"http://localhost:{server.port}/page.html",
                f"http://[::1]:{server.port}/page.html",
            ):
                with pytest.raises(FetchRefused, match="loopback"):
                    await client.get(url)
            assert client.stats.refused == 3 and client.stats.requests == 0

    run(go())
    assert server.hits() == []


def test_public_name_is_fetched_under_its_own_host_header(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchedResponse:
        async with make_client(trusted_hosts=[]) as client:
            return await client.get("http://public.test/page.html")

    resp = run(go())
    assert resp.content == HTML_PAGE and resp.final_url == "http://public.test/page.html"
    assert server.hits()[0].headers["host"] == "public.test"


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.1:{port}/page.html",
        "http://localhost:{port}/page.html",
        "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
        "http://[fd00:ec2::254]/latest/meta-data/",
    ],
)
def test_redirect_from_untrusted_host_to_internal_is_refused(
    server: FaultServer, make_client: ClientFactory, target: str
) -> None:
    location = target.format(port=server.port)

    async def go() -> None:
        async with make_client(trusted_hosts=[]) as client:
            await client.get("http://public.test/redirect", params={"to": location})

    with pytest.raises(FetchRefused, match="refused"):
        run(go())
    assert [h.path for h in server.hits()] == ["/redirect"]  # the internal hop was never sent


def test_credentials_not_forwarded_across_origins(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> None:
        async with make_client(trusted_hosts=["127.0.0.1"]) as client:
            await client.get(
                "http://public.test/redirect",
                params={"to": f"{server.base}/page.html"},
                headers={"x-api-key": "secret"},
            )

    run(go())
    first, second = server.hits()
    assert first.headers.get("x-api-key") == "secret" and "x-api-key" not in second.headers
