"""HTTP API benchmark: GET /compare and GET /conflicts p50/p95 at 1, 10 and 50 concurrent clients on each
backend over a 10k-evidence graph while a writer keeps adding evidence (as a run does), the API's overhead over
the same query made through GraphStore directly, and SSE event latency from emission to client.

Usage:
  python bench/bench_api.py [--backend falkordb|neo4j|both] [--evidence 10000] [--requests 200] [--no-sse]

`openresearch serve` runs in a subprocess (so clients and server do not share a GIL) over a graph this script
builds with the batch writer: the embedded FalkorDB in a temp dir, and the local Neo4j from tools/neo4j-runner
(or --neo4j-url). Prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_graph import synthetic

from openresearch.api.routers.conflicts import conflicts_out
from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore

REPO = Path(__file__).resolve().parents[1]
LEVELS = (1, 10, 50)
CORPUS = ["kafka-overview.md", "rabbitmq-quorum-queues.md", "bench-streamnative-2022.md", "bench-confluent-2020.html"]


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(graph_url: str, graph_name: str, data_dir: Path, local_root: Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(data_dir), "OPENRESEARCH_GRAPH_NAME": graph_name,
           "OPENRESEARCH_API_LOCAL_ROOTS": json.dumps([str(local_root)]), "OPENRESEARCH_API_RUN_WORKERS": "1"}
    env.pop("OPENRESEARCH_API_KEY", None)
    log = (data_dir / "serve.log").open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "openresearch.cli", "serve", "--graph", graph_url, "--port",
                             str(port), "--log-level", "warning"], env=env, cwd=REPO, stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"serve exited {proc.returncode}; see {data_dir / 'serve.log'}")
            try:
                if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("serve did not become ready")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


class Writer(threading.Thread):
    """Adds evidence in batches while the clients read, as a research run writing to the graph does (about 100
    items a second: a run extracts far fewer)."""

    def __init__(self, store: GraphStore, batch: int = 50, pause_s: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.store, self.batch, self.pause_s = store, batch, pause_s
        self.stop = threading.Event()
        self.written = 0
        self.seconds = 0.0

    def run(self) -> None:
        seed = 1000
        t0 = time.perf_counter()
        while not self.stop.is_set():
            rows = synthetic(self.batch, seed=seed, with_question=False)
            for r in rows:  # new quotes and sources: each batch really adds evidence
                r.quote = f"{r.quote} w{seed}"
                r.source.url = f"{r.source.url}?w={seed}"
            self.written += self.store.write_evidence(rows)
            seed += 1
            self.stop.wait(self.pause_s)
        self.seconds = time.perf_counter() - t0


ERRORS: list[str] = []


async def load(url: str, path: str, params: list[tuple[str, str]], clients: int, total: int) -> list[float]:
    """`clients` concurrent clients, each on its own kept-alive HTTP/1.1 connection, `total` requests in all;
    latencies in ms of the answers that were 200 (anything else is counted in ERRORS and printed).

    The clients are plain asyncio streams, not httpx: on the 2 shared cores the server runs on, httpx's
    connection pool at 50 connections cost more CPU than the server (idle /compare at 50 clients: p50 301 ms
    with httpx, 48 ms with these), so it measured the client."""
    u = urlsplit(url)
    target = path + ("?" + urlencode(params) if params else "")
    request = (f"GET {target} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nAccept: application/json\r\n\r\n"
               .encode())
    per = max(1, total // clients)
    out: list[float] = []
    go = asyncio.Event()

    async def one() -> None:
        reader, writer = await asyncio.open_connection(u.hostname, u.port)

        async def get() -> int:
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            size = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                         if line.lower().startswith(b"content-length:")), 0)
            body = await reader.readexactly(size)
            status = int(head[9:12])
            if status != 200:
                ERRORS.append(f"{path} x{clients}: {status} {body[:200]!r}")
            return status

        try:
            await get()  # warm: every connection is open before timing
            await go.wait()
            for _ in range(per):
                t0 = time.perf_counter()
                if await get() == 200:
                    out.append((time.perf_counter() - t0) * 1000)
        except (OSError, asyncio.IncompleteReadError, ValueError) as e:
            ERRORS.append(f"{path} x{clients}: {type(e).__name__} {e}")
        finally:
            writer.close()

    tasks = [asyncio.create_task(one()) for _ in range(clients)]
    await asyncio.sleep(0.3)
    go.set()
    await asyncio.gather(*tasks)
    return out


def direct(fn: Callable[[], Any], n: int) -> list[float]:
    fn()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def busiest(store: GraphStore) -> tuple[str, str]:
    rows = store.backend.read("MATCH (e:Entity)<-[:OF]-(o:Observation) WITH e, count(o) AS n "
                              "RETURN e.name AS name ORDER BY n DESC, name LIMIT 2")
    return rows[0]["name"], rows[1]["name"]


def compare_direct(store: GraphStore, a: str, b: str) -> Callable[[], Any]:
    def call() -> Any:  # what the route does: the table, then the evidence behind its cells
        comp = store.compare([a, b], "throughput")
        ids = sorted({i for row in comp.cells.values() for cell in row.values() for i in cell.evidence_ids})
        return store.evidence(ids) if ids else []
    return call


def sse_latency(url: str, corpus: Path) -> None:
    """One offline run over a small corpus; latency = client receipt time - the event's emission time (`at`)."""
    body = {"question": "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?",
            "sources": [f"local:{corpus}"], "offline": True, "workers": 1, "budget": 6, "max_sub_questions": 3}
    lat: list[float] = []
    with httpx.Client(base_url=url, timeout=600) as c:
        run_id = c.post("/runs", json=body).json()["id"]
        t0 = time.perf_counter()
        with c.stream("GET", f"/runs/{run_id}/events") as r:
            for line in r.iter_lines():
                if line.startswith("data:"):
                    rec = json.loads(line[5:])
                    lat.append(time.time() * 1000 - rec["at"])
                    if rec["event"]["type"] in ("done", "failed"):
                        break
        wall = time.perf_counter() - t0
    live = lat[1:]  # the first may be read back from the graph if the run started before the stream
    print(f"  SSE: {len(lat)} events in {wall:.1f} s; emission -> client p50 {pct(live, 50):.1f} ms, "
          f"p95 {pct(live, 95):.1f} ms, max {max(live):.1f} ms")


def bench(kind: str, n: int, requests: int, neo4j_url: str | None, sse: bool) -> None:
    ERRORS.clear()
    with open_graph(kind, neo4j_url) as (backend, url_of_graph, key), \
            tempfile.TemporaryDirectory(prefix="orbench-api-") as tmp:
        store = GraphStore(backend)
        store.backend.clear()
        store.init_schema()
        t0 = time.perf_counter()
        store.write_evidence(synthetic(n, with_question=False))
        print(f"{kind}: {n} evidence written in {time.perf_counter() - t0:.1f} s; "
              f"nodes {sum(store.stats()['nodes'].values())}")
        a, b = busiest(store)
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        for name in CORPUS:
            shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
        data_dir = Path(tmp) / "data"
        data_dir.mkdir()
        routes = {
            "compare": ("/compare", [("entity", a), ("entity", b), ("metric", "throughput")],
                        compare_direct(store, a, b)),
            "conflicts": ("/conflicts", [("entity", a)], lambda: conflicts_out(store, a)),
        }
        with server(url_of_graph, key, data_dir, Path(tmp)) as url:
            for name, (path, params, call) in routes.items():
                d = direct(call, max(20, requests // 4))
                idle = asyncio.run(load(url, path, params, 1, max(20, requests // 4)))
                print(f"  {name} ({a} vs {b}): direct GraphStore p50 {pct(d, 50):.1f} ms p95 {pct(d, 95):.1f}; "
                      f"API 1 client, idle graph p50 {pct(idle, 50):.1f} ms p95 {pct(idle, 95):.1f}; "
                      f"overhead p50 {pct(idle, 50) - pct(d, 50):+.1f} ms (x{pct(idle, 50) / pct(d, 50):.2f})")
            writer = Writer(GraphStore(backend))
            writer.start()
            try:
                for name, (path, params, _) in routes.items():
                    for clients in LEVELS:
                        errors = len(ERRORS)
                        lat = asyncio.run(load(url, path, params, clients, max(requests, clients * 10)))
                        print(f"  {name} with a writer, {clients:>2} clients: p50 {pct(lat, 50):7.1f} ms  "
                              f"p95 {pct(lat, 95):7.1f} ms  ({len(lat)} answered, {len(ERRORS) - errors} failed)")
            finally:
                writer.stop.set()
                writer.join()
            print(f"  writer: {writer.written} evidence added in {writer.seconds:.1f} s during the load")
            if sse:
                sse_latency(url, corpus)
        for e in ERRORS[:5]:
            print(f"  error: {e}")
        if ERRORS:
            print("  serve.log tail:", (data_dir / "serve.log").read_text(errors="replace")[-1500:])


@contextmanager
def open_graph(kind: str, neo4j_url: str | None) -> Iterator[tuple[GraphBackend, str, str]]:
    """A backend, the URL `serve --graph` opens it by, and the FalkorDB graph key."""
    with tempfile.TemporaryDirectory(prefix="orbench-graph-") as tmp:
        if kind == "falkordb":
            from openresearch.graph.falkor import FalkorBackend
            from openresearch.graph.falkor_server import EmbeddedFalkor

            srv = EmbeddedFalkor(Path(tmp))
            info = srv.ensure()
            try:
                yield FalkorBackend("bench", unix_socket=str(info.socket), timeout_s=600), \
                    f"unix://{info.socket}", "bench"
            finally:
                srv.stop()
            return
        from openresearch.graph import neo4j_local
        from openresearch.graph.neo4j_backend import Neo4jBackend

        if neo4j_url:
            yield Neo4jBackend(neo4j_url), neo4j_url, "bench"
            return
        home = Path(tmp) / "neo4j"
        status = neo4j_local.start(home, free_port(), free_port())
        try:
            yield Neo4jBackend(status.bolt_uri), status.bolt_uri, "bench"
        finally:
            neo4j_local.stop(home)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", choices=["falkordb", "neo4j", "both"], default="both")
    ap.add_argument("--evidence", type=int, default=10_000)
    ap.add_argument("--requests", type=int, default=200, help="requests per route and concurrency level")
    ap.add_argument("--neo4j-url", default=None)
    ap.add_argument("--no-sse", action="store_true", help="skip the research run that measures SSE latency")
    args = ap.parse_args()
    for kind in (["falkordb", "neo4j"] if args.backend == "both" else [args.backend]):
        bench(kind, args.evidence, args.requests, args.neo4j_url, sse=not args.no_sse)


if __name__ == "__main__":
    main()
