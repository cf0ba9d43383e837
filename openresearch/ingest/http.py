"""PoliteClient: the one way ingest code talks HTTP.

Every request: passes the SSRF guard (each redirect hop too), waits for its host's politeness gate,
carries the User-Agent, is retried on 429/5xx/timeouts/connection errors with backoff (Retry-After
honoured), has its body read under a size limit, and goes through the on-disk cache. `stats` counts
what went over the wire so tests and benchmarks can assert "zero network requests".
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from openresearch.errors import FetchError, FetchRefused
from openresearch.ingest.body import BodyTooLarge, read_limited
from openresearch.ingest.cache import Cache, CachedResponse, Params, response_key
from openresearch.ingest.politeness import (
    Clock,
    HostLimiter,
    Sleep,
    StartGate,
    backoff_delay,
    parse_retry_after,
)
from openresearch.ingest.response import ClientStats, FetchedResponse, media_type
from openresearch.ingest.safety import Resolver, Target, UrlGuard

if TYPE_CHECKING:
    from openresearch.config import Settings

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Headers describing the wire form; the body we hand back is already decoded and complete.
_WIRE_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding", "connection"})
_RETRYABLE_ERRORS = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError, TimeoutError)


@dataclass
class _Wire:
    status: int
    headers: dict[str, str]
    content: bytes


class PoliteClient:
    def __init__(
        self,
        *,
        user_agent: str,
        guard: UrlGuard | None = None,
        cache: Cache | None = None,
        per_host_concurrency: int = 2,
        global_concurrency: int = 8,
        min_interval_s: float = 0.0,
        host_intervals: Mapping[str, float] | None = None,
        max_retries: int = 4,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        max_retry_after_s: float = 120.0,
        connect_timeout_s: float = 10.0,
        read_timeout_s: float = 30.0,
        total_timeout_s: float = 120.0,
        max_body_bytes: int = 20_000_000,
        max_redirects: int = 5,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        rng: random.Random | None = None,
        connect_to: Mapping[str, str] | None = None,
    ) -> None:
        self.user_agent = user_agent
        self.guard = guard or UrlGuard()
        self.cache = cache
        self.limiter = HostLimiter(
            per_host=per_host_concurrency,
            global_limit=global_concurrency,
            min_interval_s=min_interval_s,
            host_intervals=host_intervals,
            clock=clock,
            sleep=sleep,
        )
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_retry_after_s = max_retry_after_s
        self.total_timeout_s = total_timeout_s
        self.max_body_bytes = max_body_bytes
        self.max_redirects = max_redirects
        self.stats = ClientStats()
        self._sleep = sleep
        self._rng = rng or random.Random()
        # "host:port" -> "address:port"; a test seam like curl --connect-to (see safety.py)
        self._connect_to = dict(connect_to or {})
        # trust_env=False: a proxy from the environment would dial the host itself, bypassing the pinning
        self._http = httpx.AsyncClient(
            follow_redirects=False,
            trust_env=False,
            timeout=httpx.Timeout(connect=connect_timeout_s, read=read_timeout_s, write=read_timeout_s, pool=None),
            limits=httpx.Limits(max_connections=max(1, global_concurrency)),
            headers={"User-Agent": user_agent, "Accept-Encoding": "gzip, deflate"},
        )

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        cache: Cache | None = None,
        resolver: Resolver | None = None,
        **overrides: Any,
    ) -> PoliteClient:
        kwargs: dict[str, Any] = dict(
            user_agent=settings.user_agent,
            guard=UrlGuard(settings.trusted_hosts, resolver, max_url_chars=settings.max_url_chars),
            cache=cache,
            per_host_concurrency=settings.per_host_concurrency,
            global_concurrency=settings.global_concurrency,
            min_interval_s=settings.min_interval_s,
            host_intervals=settings.host_intervals,
            max_retries=settings.max_retries,
            backoff_base_s=settings.backoff_base_s,
            connect_timeout_s=settings.connect_timeout_s,
            read_timeout_s=settings.read_timeout_s,
            max_body_bytes=settings.max_body_bytes,
            max_redirects=settings.max_redirects,
        )
        kwargs.update(overrides)
        return cls(**kwargs)

    async def __aenter__(self) -> PoliteClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def get(
        self,
        url: str,
        *,
        params: Params | None = None,
        headers: Mapping[str, str] | None = None,
        use_cache: bool = True,
    ) -> FetchedResponse:
        """GET with redirects, retries and cache. Raises FetchRefused (policy) or FetchError (network)."""
        began = time.monotonic()
        full_url = str(httpx.URL(url, params=params)) if params else url
        key = response_key("GET", url, params)
        cached = self.cache.lookup(key) if self.cache is not None and use_cache else None
        if cached is not None and cached.fresh:
            self.stats.cache_hits += 1
            return self._from_cache(full_url, cached, began)
        extra = dict(headers or {})
        if cached is not None:
            extra.update(cached.validators())
        try:
            final_url, wire, hops = await self._follow(full_url, extra)
        except FetchRefused:
            self.stats.refused += 1
            raise
        if wire.status == 304 and cached is not None and self.cache is not None:
            self.stats.revalidated += 1
            self.cache.touch(key)
            return self._from_cache(full_url, cached, began)
        if wire.status == 200 and self.cache is not None and use_cache:
            self.cache.store(
                key,
                method="GET",
                url=full_url,
                final_url=final_url,
                status=wire.status,
                headers=wire.headers,
                content=wire.content,
            )
        return FetchedResponse(
            url=full_url,
            final_url=final_url,
            status=wire.status,
            headers=wire.headers,
            content=wire.content,
            content_type=media_type(wire.headers),
            from_cache=False,
            elapsed=time.monotonic() - began,
            redirects=hops,
        )

    def _from_cache(self, url: str, cached: CachedResponse, began: float) -> FetchedResponse:
        return FetchedResponse(
            url=url,
            final_url=cached.final_url,
            status=cached.status,
            headers=cached.headers,
            content=cached.content,
            content_type=media_type(cached.headers),
            from_cache=True,
            elapsed=time.monotonic() - began,
        )

    async def _follow(self, url: str, headers: dict[str, str]) -> tuple[str, _Wire, list[str]]:
        """Follow redirects by hand so the guard judges every hop; refuse loops and long chains."""
        current = httpx.URL(url)
        seen = [str(current)]
        while True:
            target = await self.guard.check(current)
            wire = await self._send(target, headers)
            location = wire.headers.get("location")
            if wire.status not in REDIRECT_STATUSES or not location:
                return str(current), wire, seen[:-1]
            nxt = current.join(location)
            if str(nxt) in seen:
                raise FetchRefused(f"redirect loop: {' -> '.join([*seen, str(nxt)])}")
            if len(seen) > self.max_redirects:
                raise FetchRefused(f"more than {self.max_redirects} redirects from {seen[0]}")
            if (nxt.scheme, nxt.host, nxt.port) != (current.scheme, current.host, current.port):
                # caller headers may hold credentials (x-api-key): never hand them to another origin
                headers = {k: v for k, v in headers.items() if k.lower().startswith("if-")}
            seen.append(str(nxt))
            current = nxt

    async def _send(self, target: Target, headers: Mapping[str, str]) -> _Wire:
        """One logical request to one URL, retried on transient failures."""
        last: _Wire | None = None
        error: BaseException | None = None
        for attempt in range(self.max_retries + 1):
            retry_after: float | None = None
            async with self.limiter.slot(target.host) as gate:
                self.stats.requests += 1
                try:
                    last, error = await self._send_once(target, headers, gate), None
                except _RETRYABLE_ERRORS as exc:
                    last, error = None, exc
            if last is not None:
                if last.status not in RETRY_STATUSES:
                    return last
                retry_after = parse_retry_after(last.headers.get("retry-after"))
            if attempt == self.max_retries:
                break
            if retry_after is not None:
                if retry_after > self.max_retry_after_s:
                    log.warning(
                        "giving up on %s: Retry-After %.0fs exceeds %.0fs",
                        target.url,
                        retry_after,
                        self.max_retry_after_s,
                    )
                    break
                delay = retry_after
                self.limiter.defer(target.host, self.limiter.clock() + retry_after)  # the host asked: all wait
            else:
                delay = backoff_delay(attempt, self.backoff_base_s, self.backoff_max_s, self._rng)
            reason = f"HTTP {last.status}" if last is not None else f"{type(error).__name__}: {error}"
            log.info("retrying %s in %.2fs after %s (attempt %d)", target.url, delay, reason, attempt + 1)
            self.stats.retries += 1
            await self._sleep(delay)
        if last is not None:
            return last
        raise FetchError(
            f"{target.url}: failed after {self.max_retries + 1} attempts: {type(error).__name__}: {error}"
        ) from error

    async def _send_once(self, target: Target, headers: Mapping[str, str], gate: StartGate) -> _Wire:
        async def trace(event: str, info: Mapping[str, Any]) -> None:
            if event.endswith("send_request_headers.complete"):
                gate.mark()  # the request is on the wire: the host's interval counts from here

        dial = self._connect_to.get(f"{target.host}:{target.port}")
        address, port = dial.rsplit(":", 1) if dial else (target.address, str(target.port))
        # connect to the address the guard judged; Host header and SNI keep the name
        request = self._http.build_request(
            "GET",
            target.url.copy_with(host=address.strip("[]"), port=int(port)),
            headers={"Host": target.url.netloc.decode("ascii"), **headers},
            extensions={
                "trace": trace,
                **({"sni_hostname": target.host} if target.url.scheme == "https" else {}),
            },
        )
        async with asyncio.timeout(self.total_timeout_s):
            response = await self._http.send(request, stream=True)
            try:
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > self.max_body_bytes:
                    raise BodyTooLarge(f"Content-Length {declared} exceeds the {self.max_body_bytes}-byte limit")
                content = await read_limited(
                    response.aiter_raw(), response.headers.get("content-encoding", ""), self.max_body_bytes
                )
            finally:
                await response.aclose()
        out_headers: dict[str, str] = {}
        for name, value in response.headers.multi_items():
            name = name.lower()
            if name not in _WIRE_HEADERS:
                out_headers[name] = f"{out_headers[name]}, {value}" if name in out_headers else value
        return _Wire(status=response.status_code, headers=out_headers, content=content)
