"""Deep fetch: one page (HTML, PDF or text) for the parser, under every policy the client enforces.

Error contract. A *policy* refusal (SSRF guard, scheme, robots.txt, redirect loop or limit, body or
decompression size) is an expected outcome to record on the Source, so `fetch` returns a FetchResult
with `refused_reason` set and an empty body; it never raises FetchRefused. A *network* failure that
survived the client's retries (timeouts, truncated bodies, refused connections) raises FetchError.
`fetch_many` runs a batch, logs and skips those failures, and keeps every other result.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel

from openresearch.errors import FetchError, FetchRefused
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.robots import RobotsPolicy
from openresearch.ingest.sniff import ContentKind, sniff_kind

if TYPE_CHECKING:
    from openresearch.config import Settings

log = logging.getLogger(__name__)

ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5"


class FetchResult(BaseModel):
    url: str
    final_url: str
    status: int  # 0 when refused before any response
    headers: dict[str, str]
    body: bytes
    content_type: str  # the declared media type
    kind: ContentKind  # what the bytes are (sniffed), which can differ from the header
    fetched_at: datetime
    from_cache: bool = False
    refused_reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.refused_reason is None and 200 <= self.status < 300


class Fetcher:
    def __init__(self, client: PoliteClient, *, respect_robots: bool = True, concurrency: int = 8) -> None:
        self._client = client
        self._robots = RobotsPolicy(client) if respect_robots else None
        self._concurrency = concurrency

    @classmethod
    def from_settings(cls, settings: Settings, client: PoliteClient) -> Fetcher:
        return cls(client, respect_robots=settings.respect_robots, concurrency=settings.global_concurrency)

    async def fetch(self, url: str) -> FetchResult:
        now = datetime.now(UTC)
        try:
            if self._robots is not None:
                # judge the page's own URL and address first: a refusal then names the page and the rule,
                # not the robots.txt request the check would otherwise make (and refuse) first
                await self._client.guard.check(url)
                allowed, reason = await self._robots.allowed(url)
                if not allowed:
                    self._client.stats.refused += 1
                    return _refused(url, reason or "disallowed by robots.txt", now)
            response = await self._client.get(url, headers={"Accept": ACCEPT})
        except FetchRefused as exc:
            log.warning("refused %s: %s", url, exc)
            return _refused(url, str(exc), now)
        return FetchResult(
            url=url,
            final_url=response.final_url,
            status=response.status,
            headers=response.headers,
            body=response.content,
            content_type=response.content_type,
            kind=sniff_kind(response.content_type, response.content),
            fetched_at=now,
            from_cache=response.from_cache,
        )

    async def fetch_many(self, urls: Sequence[str]) -> list[FetchResult]:
        """Fetch a batch concurrently; a failure is logged and skipped, never loses the other results."""
        gate = asyncio.Semaphore(self._concurrency)

        async def one(url: str) -> FetchResult | None:
            async with gate:
                try:
                    return await self.fetch(url)
                except FetchError as exc:
                    log.warning("skipped %s: %s", url, exc)
                    return None

        results = await asyncio.gather(*(one(u) for u in urls))
        return [r for r in results if r is not None]


def _refused(url: str, reason: str, now: datetime) -> FetchResult:
    return FetchResult(
        url=url,
        final_url=url,
        status=0,
        headers={},
        body=b"",
        content_type="",
        kind="other",
        fetched_at=now,
        refused_reason=reason,
    )
