"""Deep fetch: sniffing, robots.txt, refusals as results, and batches that lose nothing to one fault."""

from __future__ import annotations

import asyncio
import logging

import pytest
from netserver import HTML_PAGE, PDF_BYTES, ClientFactory, FaultServer

from openresearch.ingest.fetch import Fetcher, FetchResult
from openresearch.ingest.sniff import sniff_kind

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


@pytest.mark.parametrize(
    ("ctype", "body", "kind"),
    [
        ("text/html; charset=utf-8", HTML_PAGE, "html"),
        ("text/html", PDF_BYTES, "pdf"),  # wrong header, magic bytes win
        ("application/octet-stream", PDF_BYTES, "pdf"),
        ("application/pdf", b"<html><body>Access denied</body></html>", "html"),
        ("", b"<!doctype html><html></html>", "html"),
        ("text/plain", b"just words\n", "text"),
        ("text/html", b"\x00\x01\x02\x03binary\x00", "other"),
        ("image/png", b"\x89PNG\r\n\x1a\n", "other"),
    ],
)
def test_sniff_kind(ctype: str, body: bytes, kind: str) -> None:
    assert sniff_kind(ctype, body) == kind


def test_fetch_sniffs_pdf_behind_html_header(server: FaultServer, make_client: ClientFactory) -> None:
    async def go() -> FetchResult:
        async with make_client() as client:
            return await Fetcher(client).fetch(f"{server.base}/wrongtype")

    result = run(go())
    assert result.ok and result.content_type == "text/html" and result.kind == "pdf" and result.body == PDF_BYTES


def test_robots_disallow_is_a_refused_result(server: FaultServer, make_client: ClientFactory) -> None:
    async def go(respect: bool) -> list[FetchResult]:
        async with make_client() as client:
            fetcher = Fetcher(client, respect_robots=respect)
            return [
                await fetcher.fetch(f"{server.base}/private/page.html"),
                await fetcher.fetch(f"{server.base}/page.html"),
            ]

    refused, allowed = run(go(True))
    assert refused.refused_reason is not None and "robots.txt" in refused.refused_reason and not refused.ok
    assert allowed.ok and allowed.kind == "html"
    assert server.count("/robots.txt") == 1  # cached per origin
    assert server.count("/private/page.html") == 0
    fetched, _ = run(go(False))
    assert fetched.ok and server.count("/private/page.html") == 1


def test_batch_with_every_fault_loses_nothing(
    server: FaultServer, make_client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    good = [f"{server.base}/page.html", f"{server.base}/paper.pdf", f"{server.base}/notes.txt"]
    faults = {
        "retried-429": f"{server.base}/flaky429?key=batch&after=0",
        "retried-500": f"{server.base}/flaky500?key=batch",
        "retried-slow": f"{server.base}/slow?key=batch&delay=2.5",
        "skipped-truncated": f"{server.base}/truncated",
        "skipped-timeout": f"{server.base}/slow?always=1&delay=2.5&key=t",
        "refused-big": f"{server.base}/big?size=300000",
        "refused-bomb": f"{server.base}/bomb",
        "refused-loop": f"{server.base}/loop/a",
        "refused-metadata": f"{server.base}/redirect?to=http://169.254.169.254/latest/meta-data/",
        "html-but-pdf": f"{server.base}/wrongtype",
    }

    async def go() -> list[FetchResult]:
        async with make_client(read_timeout_s=1.0, max_retries=2) as client:
            return await Fetcher(client, respect_robots=False).fetch_many([*good, *faults.values()])

    results = {r.url: r for r in run(go())}
    for url, body in zip(good, [HTML_PAGE, PDF_BYTES, b"plain notes\n"], strict=True):
        assert results[url].ok and results[url].body == body
    for name, url in faults.items():
        outcome = name.split("-", 1)[0]
        if outcome == "retried":
            assert results[url].ok, name
        elif outcome == "skipped":
            assert url not in results, name
            assert any("skipped" in r.message and url in r.message for r in caplog.records), name
        elif outcome == "refused":
            assert results[url].refused_reason and results[url].status == 0, name
    assert results[faults["html-but-pdf"]].kind == "pdf"
    assert "decompression bomb" in (results[faults["refused-bomb"]].refused_reason or "")
    assert "cloud metadata" in (results[faults["refused-metadata"]].refused_reason or "")


def test_refused_reasons_are_logged(
    server: FaultServer, make_client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    async def go() -> FetchResult:
        async with make_client() as client:
            return await Fetcher(client).fetch("ftp://example.org/file")

    result = run(go())
    assert result.refused_reason and "scheme 'ftp'" in result.refused_reason
    assert any(r.levelno == logging.WARNING and "refused ftp://" in r.message for r in caplog.records)
