"""Politeness: the gap between request starts to one host, measured at the server and with a fake clock."""

from __future__ import annotations

import asyncio
import itertools
import random
from datetime import UTC

import pytest
from netserver import ClientFactory, FaultServer

from openresearch.ingest.politeness import HostLimiter, backoff_delay, parse_retry_after

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


def test_gap_between_starts_never_below_interval_at_the_server(server: FaultServer, make_client: ClientFactory) -> None:
    interval = 0.2

    async def go() -> None:
        async with make_client(host_intervals={"127.0.0.1": interval}, per_host_concurrency=2) as client:
            await asyncio.gather(*(client.get(f"{server.base}/notes.txt?n={i}") for i in range(6)))

    asyncio.run(go())
    starts = sorted(h.at for h in server.hits())
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert len(gaps) == 5 and min(gaps) >= interval
    assert max(gaps) < interval + 0.1  # polite, not needlessly slow


def test_interval_logic_with_fake_clock() -> None:
    clock = FakeClock()
    limiter = HostLimiter(
        per_host=2, global_limit=8, host_intervals={"export.arxiv.org": 3.0}, clock=clock, sleep=clock.sleep
    )
    starts: dict[str, list[float]] = {"export.arxiv.org": [], "example.org": []}

    async def one(host: str) -> None:
        async with limiter.slot(host) as gate:
            starts[host].append(gate.started)

    async def go() -> None:
        await asyncio.gather(*(one(h) for h in ["export.arxiv.org"] * 4 + ["example.org"] * 3))

    asyncio.run(go())
    assert starts["export.arxiv.org"] == [0.0, 3.06, 6.12, 9.18]
    assert len(starts["example.org"]) == 3


def test_defer_holds_the_host() -> None:
    clock = FakeClock()
    limiter = HostLimiter(clock=clock, sleep=clock.sleep)
    limiter.defer("api.openalex.org", 5.0)

    async def go() -> float:
        async with limiter.slot("api.openalex.org") as gate:
            return gate.started

    assert asyncio.run(go()) == 5.0


def test_backoff_grows_with_jitter_and_cap() -> None:
    rng = random.Random(7)
    delays = [backoff_delay(n, 0.5, 4.0, rng) for n in range(6)]
    assert 0.25 <= delays[0] <= 0.5 and 1.0 <= delays[2] <= 2.0
    assert all(2.0 <= d <= 4.0 for d in delays[3:])


def test_retry_after_seconds_and_http_date() -> None:
    from datetime import datetime

    now = datetime(2025, 1, 1, 0, 0, 0, tzinfo=UTC)
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 01 Jan 2025 00:00:30 GMT", now) == 30.0
    assert parse_retry_after("Tue, 31 Dec 2024 23:59:00 GMT", now) == 0.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
