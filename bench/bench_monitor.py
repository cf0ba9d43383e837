"""Monitoring figures. (1) A monitoring run over an unchanged world on the embedded FalkorDB, twice: over a local
corpus (no HTTP at all) and over the web through a real local server in SearXNG's format whose pages carry
ETags (tests/monitor/test_monitor_web.py's): requests made as the server saw them (searches, page fetches,
how many were conditional and answered 304), items extracted, wall time, graph counts before/after.
(2) N topics due at once, worked by 1, 2 and 4 worker processes against one local Neo4j: throughput, topics
run twice (must be 0), time until all done. (3) With --stages N: N tiny topics run one after another in this
process on Neo4j, each run's time split by stage (the research run, the monitor's graph reads and writes,
conflict grouping).

    python bench/bench_monitor.py [--topics 200] [--workers 1,2,4] [--skip-neo4j] [--skip-unchanged]
    python bench/bench_monitor.py --stages 40 --skip-unchanged

Each topic is a tiny offline research run (one sub-question over a one-document local corpus).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
HELPERS = REPO / "tests" / "monitor"
sys.path.insert(0, str(HELPERS))
from monitor_support import TINY, offline_services, write_doc  # noqa: E402
from test_monitor_web import Handler, Site, page  # noqa: E402

from openresearch.config import Settings  # noqa: E402
from openresearch.graph.falkor import FalkorBackend  # noqa: E402
from openresearch.graph.falkor_server import EmbeddedFalkor  # noqa: E402
from openresearch.graph.store import GraphStore  # noqa: E402
from openresearch.ingest.embed import SentenceTransformerEmbedder  # noqa: E402
from openresearch.monitor.clock import FakeClock  # noqa: E402
from openresearch.monitor.service import Monitor  # noqa: E402

DOCS = ["bench-confluent-2020.html", "bench-streamnative-2022.md", "rabbitmq-quorum-queues.md", "kafka-overview.md"]
COUNTED = ("Source", "Evidence", "Observation", "Entity", "Chunk")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def unchanged_world(tmp: Path) -> None:
    corpus = tmp / "corpus"
    corpus.mkdir()
    for name in DOCS:
        shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
    server = EmbeddedFalkor(tmp / "falkor")
    sock = str(server.ensure().socket)
    store = GraphStore(FalkorBackend(f"bench_{uuid.uuid4().hex[:6]}", unix_socket=sock))
    store.init_schema()
    emb = SentenceTransformerEmbedder(cache_dir=tmp / "emb")
    m = Monitor(offline_services(store, emb, tmp / "data"), lease_ms=600_000)
    t = m.add("Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?",
              sources=[f"local:{corpus}"], options={"offline": True, "workers": 2})
    for label in ("first run", "unchanged world"):
        before = store.stats()["nodes"]
        t0 = time.perf_counter()
        r = m.run_topic(t.id)
        wall = time.perf_counter() - t0
        after = store.stats()["nodes"]
        assert r is not None
        added = {k: after.get(k, 0) - before.get(k, 0) for k in COUNTED}
        print(f"local {label:16s} wall {wall:6.2f} s  extracted {r.extracted:4d}  http requests 0 (local sources)  "
              f"added {added}  nothing_changed={r.digest.nothing_changed}  {_verification(r.digest)}")
    store.backend.clear()
    with _site() as site:
        web_unchanged(store, emb, tmp, site)
    store.backend.clear()
    store.close()
    server.stop()


def _verification(d: Any) -> str:
    v = d.verification
    return "unverified" if v is None else f"digest sentences {v.checked} checked / {v.failed} failed"


@contextmanager
def _site() -> Iterator[Site]:
    server = Site(("127.0.0.1", 0), Handler)
    server.pages = {f"/p{i}.html": (page(f"AcmeDB {i}.0 release", "2026-01-10", f"{100 + i},000"), f'"p{i}"')
                    for i in range(5)}
    server.results = sorted(server.pages)
    server.log = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def web_unchanged(store: GraphStore, emb: SentenceTransformerEmbedder, tmp: Path, site: Site) -> None:
    """Five pages found by one search; the next day's run over the same pages: every page request conditional."""
    settings = Settings(data_dir=tmp / "web-data", searxng_url=f"http://127.0.0.1:{site.server_address[1]}",
                        trusted_hosts=["127.0.0.1"], host_intervals={}, llm_base_url=None, cache_ttl_s=0)
    clock = FakeClock(int(time.time() * 1000))
    m = Monitor(offline_services(store, emb, tmp / "web-data", settings), clock=clock, lease_ms=600_000)
    t = m.add("What is the write throughput of AcmeDB?", sources=["web"], options={**TINY, "offline": False})
    for label in ("first run", "unchanged world"):
        site.log.clear()
        before = store.stats()["nodes"]
        t0 = time.perf_counter()
        r = m.run_topic(t.id)
        wall = time.perf_counter() - t0
        after = store.stats()["nodes"]
        assert r is not None
        added = {k: after.get(k, 0) - before.get(k, 0) for k in COUNTED}
        pages = [e for e in site.log if e["path"].endswith(".html")]
        searches = [e for e in site.log if e["path"] == "/search"]
        conditional = sum(1 for e in pages if e["if_none_match"])
        not_modified = sum(1 for e in pages if e.get("status") == "304")
        print(f"web   {label:16s} wall {wall:6.2f} s  extracted {r.extracted:4d}  http requests {len(site.log)} "
              f"(searches {len(searches)}, page fetches {len(pages)}: conditional {conditional}, 304 {not_modified}, "
              f"bodies {len(pages) - not_modified})  added {added}  nothing_changed={r.digest.nothing_changed}  "
              f"{_verification(r.digest)}")
        clock.advance(86_400_000 + 20 * 60_000)


def workers_on_neo4j(tmp: Path, topics: int, counts: list[int]) -> None:
    from openresearch.graph import neo4j_local
    from openresearch.graph.neo4j_backend import Neo4jBackend

    home = tmp / "neo4j"
    url = neo4j_local.start(home, free_port(), free_port()).bolt_uri
    try:
        emb = SentenceTransformerEmbedder(cache_dir=tmp / "emb")
        for n in counts:
            store = GraphStore(Neo4jBackend(url))
            store.backend.clear()
            store.init_schema()
            m = Monitor(offline_services(store, emb, tmp / "data"), lease_ms=600_000, owner="bench")
            for i in range(topics):
                d = tmp / f"c{n}" / f"db{i}"
                write_doc(d, "notes.md", f"Db{i} notes", "2026-01-10", f"https://db{i}.example/notes",
                          f"Db{i} reaches a write throughput of {1000 + i} rows per second on a single node.")
                m.add(f"What is the write throughput of Db{i}?", sources=[f"local:{d}"], options=TINY)
            runs_file = tmp / f"runs{n}.txt"
            spec = {"kind": "neo4j", "where": url, "graph": "", "data_dir": str(tmp / "data"),
                    "emb_dir": str(tmp / "emb"), "lease_ms": 600_000, "runs_file": str(runs_file)}
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HELPERS), str(REPO)])}
            t0 = time.perf_counter()
            procs = [subprocess.Popen([sys.executable, str(HELPERS / "worker_proc.py"),
                                       json.dumps({**spec, "owner": f"w{k}"})], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                     for k in range(n)]
            for p in procs:
                p.communicate()
            wall = time.perf_counter() - t0
            started = Counter(line.split()[0] for line in runs_file.read_text().splitlines() if line)
            finished = sum(1 for t in m.store.topics() if t.runs == 1)
            twice = sum(1 for c in started.values() if c > 1)
            nodes = store.stats()["nodes"]
            print(f"workers {n}: {topics} topics, finished {finished}, run twice {twice}, all done in {wall:6.1f} s "
                  f"(incl. worker start-up), {finished / wall:5.2f} topics/s; graph after: "
                  f"{nodes.get('Evidence', 0)} evidence, {nodes.get('Observation', 0)} observations", flush=True)
            store.backend.clear()
            store.close()
    finally:
        neo4j_local.stop(home)


def _timed(owner: Any, name: str, into: dict[str, float]) -> Callable[[], None]:
    """Wrap owner.name to add its wall time to into[name]; returns the undo."""
    f = getattr(owner, name)
    if asyncio.iscoroutinefunction(f):
        @functools.wraps(f)
        async def g(*a: Any, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return await f(*a, **k)
            finally:
                into[name] += time.perf_counter() - t
    else:
        @functools.wraps(f)
        def g(*a: Any, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                into[name] += time.perf_counter() - t
    setattr(owner, name, g)
    return lambda: setattr(owner, name, f)


def stages_on_neo4j(tmp: Path, topics: int) -> None:
    """Tiny topics one after another in this process, each run's wall time by stage (the graph grows as in (2))."""
    from openresearch.graph import monitor_store, neo4j_local
    from openresearch.graph.neo4j_backend import Neo4jBackend
    from openresearch.monitor import runner

    home = tmp / "neo4j-stages"
    url = neo4j_local.start(home, free_port(), free_port()).bolt_uri
    spent: dict[str, float] = defaultdict(float)
    undo = [_timed(monitor_store.MonitorStore, n, spent) for n in
            ("snapshot", "observation_rows", "write_supersessions", "save_digest", "claim", "finish")]
    undo += [_timed(runner, n, spent) for n in ("research", "conflicts_as_of", "verify_digest")]
    try:
        store = GraphStore(Neo4jBackend(url))
        store.init_schema()
        emb = SentenceTransformerEmbedder(cache_dir=tmp / "emb")
        m = Monitor(offline_services(store, emb, tmp / "data"), lease_ms=600_000, owner="stages")
        for i in range(topics):
            d = tmp / "stages" / f"db{i}"
            write_doc(d, "notes.md", f"Db{i} notes", "2026-01-10", f"https://db{i}.example/notes",
                      f"Db{i} reaches a write throughput of {1000 + i} rows per second on a single node.")
            m.add(f"What is the write throughput of Db{i}?", sources=[f"local:{d}"], options=TINY)
        total: dict[str, float] = defaultdict(float)
        for k, t in enumerate(m.store.topics()):
            spent.clear()
            t0 = time.perf_counter()
            m.run_topic(t.id)
            spent["wall"] = time.perf_counter() - t0
            for a, b in spent.items():
                total[a] += b
            if k == 0 or (k + 1) % 10 == 0:
                print(f"topic {k + 1:4d}: " + "  ".join(f"{a} {b:.2f}" for a, b in sorted(spent.items())), flush=True)
        print(f"{topics} topics, seconds in total: " + "  ".join(f"{a} {b:.2f}" for a, b in sorted(total.items())))
        nodes = store.stats()["nodes"]
        print(f"graph after: {nodes.get('Evidence', 0)} evidence, {nodes.get('Observation', 0)} observations")
        store.backend.clear()
        store.close()
    finally:
        for u in undo:
            u()
        neo4j_local.stop(home)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--topics", type=int, default=200)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--skip-neo4j", action="store_true")
    ap.add_argument("--skip-unchanged", action="store_true")
    ap.add_argument("--stages", type=int, default=0, help="time N in-process runs by stage instead of (2)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_monitor_"))
    try:
        if not args.skip_unchanged:
            unchanged_world(tmp)
        if args.stages:
            stages_on_neo4j(tmp, args.stages)
        elif not args.skip_neo4j:
            workers_on_neo4j(tmp, args.topics, [int(x) for x in args.workers.split(",")])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
