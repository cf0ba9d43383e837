"""Politeness and cache figures for the PoliteClient, against a local HTTP server started here.

Usage:
  python bench/bench_politeness.py [--interval 0.25] [--gap-requests 10] [--cache-requests 300]

Prints: the smallest gap between request starts to one host (measured at the server) against the
configured interval, and requests/s with the cache cold and warm (warm must show 0 network requests).
Only 127.0.0.1 is contacted. Prints figures; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.safety import UrlGuard

BODY = b'{"results": [{"title": "a", "url": "https://example.org/a"}]}' * 20


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # headers and body go out in two writes: Nagle + delayed ACK would add 40 ms stalls
    disable_nagle_algorithm = True
    arrivals: list[float] = []  # noqa: RUF012 - one server per run, shared on purpose
    lock = threading.Lock()

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        with self.lock:
            self.arrivals.append(time.monotonic())
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)


def _client(base_interval: float, cache: Cache | None) -> PoliteClient:
    return PoliteClient(
        user_agent="OpenResearch-bench/0.1 (bench@example.org)",
        guard=UrlGuard(["127.0.0.1"]),
        cache=cache,
        host_intervals={"127.0.0.1": base_interval},
        per_host_concurrency=2,
        global_concurrency=8,
    )


async def _gaps(base: str, interval: float, n: int) -> list[float]:
    _Handler.arrivals.clear()
    async with _client(interval, None) as client:
        await asyncio.gather(*(client.get(f"{base}/gap?i={i}", use_cache=False) for i in range(n)))
    starts = sorted(_Handler.arrivals)
    return [b - a for a, b in itertools.pairwise(starts)]


async def _throughput(base: str, cache: Cache, n: int) -> tuple[float, int, int]:
    """(requests/s, network requests seen by the server, network requests counted by the client)."""
    _Handler.arrivals.clear()
    async with _client(0.0, cache) as client:
        began = time.perf_counter()
        await asyncio.gather(*(client.get(f"{base}/item?i={i}") for i in range(n)))
        elapsed = time.perf_counter() - began
        return n / elapsed, len(_Handler.arrivals), client.stats.requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interval", type=float, default=0.25, help="configured per-host interval, seconds")
    parser.add_argument("--gap-requests", type=int, default=10)
    parser.add_argument("--cache-requests", type=int, default=300)
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        gaps = asyncio.run(_gaps(base, args.interval, args.gap_requests))
        print(
            f"politeness: {args.gap_requests} requests to one host, configured interval {args.interval * 1000:.0f} ms"
        )
        print(
            f"  smallest gap {min(gaps) * 1000:.1f} ms, median {statistics.median(gaps) * 1000:.1f} ms, "
            f"largest {max(gaps) * 1000:.1f} ms, ratio smallest/configured {min(gaps) / args.interval:.3f}"
        )
        with tempfile.TemporaryDirectory() as tmp:
            cache = Cache(Path(tmp) / "bench.sqlite")
            cold = asyncio.run(_throughput(base, cache, args.cache_requests))
            warm = asyncio.run(_throughput(base, cache, args.cache_requests))
            cache.close()
        for label, (rate, seen, counted) in (("cold", cold), ("warm", warm)):
            print(
                f"cache {label}: {args.cache_requests} GETs, {rate:8.0f} req/s, "
                f"network requests: server saw {seen}, client counted {counted}"
            )
        print(f"  warm/cold speed-up {warm[0] / cold[0]:.1f}x")
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
