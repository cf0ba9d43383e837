"""Graph benchmarks: batch-write rows/s (project path vs the bare driver) and query latency at scale.

Usage:
  python bench/bench_graph.py ingest --rows 20000 [--backend falkordb|neo4j|both]
  python bench/bench_graph.py queries --sizes 10000,100000,1000000 [--backend ...] [--repeat 200]

Starts its own servers (embedded FalkorDB in a temp dir; local Neo4j from tools/neo4j-runner) unless
--neo4j-url is given. Prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from openresearch.graph.backend import GraphBackend
from openresearch.graph.rows import PreparedRow, pack_batch
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord

METRICS = ["throughput", "p99_latency", "p50_latency", "price", "max_message_size", "partitions", "consumers",
           "retention_days", "replicas", "startup_time"]
UNITS = {"throughput": "MB/s", "p99_latency": "ms", "p50_latency": "ms", "price": "USD/hour",
         "max_message_size": "MB", "partitions": None, "consumers": None, "retention_days": None,
         "replicas": None, "startup_time": "s"}
WORDS = [
    "broker", "queue", "stream", "partition", "replica", "latency", "throughput", "consumer", "producer",
    "cluster", "storage", "tiered", "ack", "durable", "ordering", "exactly", "once", "commit", "offset",
    "segment", "ledger", "bookie", "quorum", "mirror", "shovel", "federation", "jetstream", "subject",
    "account", "lease", "leader", "follower", "snapshot", "compaction", "retention", "schema", "registry",
]


def synthetic(n: int, seed: int = 7, with_question: bool = True) -> list[EvidenceRecord]:
    """n evidence rows: each with one source, two entities and one observation; pools grow with n."""
    rnd = random.Random(seed)
    n_entities = max(50, n // 50)
    n_questions = max(20, n // 200)
    n_sources = max(100, n // 5)
    out = []
    for i in range(n):
        e1, e2 = rnd.randrange(n_entities), rnd.randrange(n_entities)
        metric = METRICS[rnd.randrange(len(METRICS))]
        words = " ".join(rnd.choice(WORDS) for _ in range(8))
        out.append(EvidenceRecord.model_validate({
            "source": {"url": f"https://src{rnd.randrange(n_sources)}.example/doc", "title": f"doc {i}",
                       "published_at": f"20{rnd.randrange(15, 26)}-0{rnd.randrange(1, 10)}-1{rnd.randrange(0, 9)}"},
            "quote": f"Entity{e1} {words} {metric} {rnd.randrange(1, 5000)} item{i}",
            "type": "statistic",
            "entities": [f"Entity{e1}", f"Entity{e2}"],
            "observations": [{"entity": f"Entity{e1}", "metric": metric, "value": rnd.randrange(1, 5000),
                              "unit": UNITS[metric], "condition": f"setup {rnd.randrange(3)}"}],
            # the workload is one source, two entities, one observation per row; the question link is
            # what evidence-for-question reads, so it is included (one more relation per row)
            "question": f"Question number {rnd.randrange(n_questions)} about brokers" if with_question else None,
        }))
    return out


@contextmanager
def open_backend(kind: str, neo4j_url: str | None) -> Iterator[GraphBackend]:
    with tempfile.TemporaryDirectory(prefix="orbench-") as tmp:
        if kind == "falkordb":
            from openresearch.graph.falkor import FalkorBackend
            from openresearch.graph.falkor_server import EmbeddedFalkor

            server = EmbeddedFalkor(Path(tmp))
            info = server.ensure()
            try:
                yield FalkorBackend("bench", unix_socket=str(info.socket), timeout_s=600)
            finally:
                server.stop()
            return
        from openresearch.graph import neo4j_local
        from openresearch.graph.neo4j_backend import Neo4jBackend

        if neo4j_url:
            yield Neo4jBackend(neo4j_url)
            return
        home = Path(tmp) / "neo4j"
        status = neo4j_local.start(home, 17687, 17474)
        try:
            yield Neo4jBackend(status.bolt_uri)
        finally:
            neo4j_local.stop(home)


def packed_batches(rows: list[PreparedRow], batch: int) -> list[dict[str, Any]]:
    """The statement's parameters, prepared beforehand."""
    return [{**pack_batch(rows[i:i + batch]), "merge_only": False} for i in range(0, len(rows), batch)]


def bare_write(backend: GraphBackend, store: GraphStore, params: list[dict[str, Any]]) -> None:
    """The same UNWIND statement sent straight through the driver, its parameters prepared beforehand."""
    text = store.catalogue["write_evidence_batch"].text
    now = int(time.time() * 1000)
    if backend.dialect == "falkordb":
        graph = backend._graph  # type: ignore[attr-defined]
        for p in params:
            graph.query(text, {**p, "now": now})
    else:
        driver = backend._driver  # type: ignore[attr-defined]
        with driver.session(database="neo4j") as s:
            for p in params:
                s.run(text, {**p, "now": now}).consume()


def bench_ingest(kind: str, n: int, neo4j_url: str | None) -> None:
    records = synthetic(n, with_question=False)
    with open_backend(kind, neo4j_url) as backend:
        store = GraphStore(backend)
        params = packed_batches(store.prepare(records), store.batch_size)

        def fresh() -> None:
            store.backend.clear()
            store.init_schema()

        # alternate the two paths on an emptied graph and keep each one's best of two, after a round that is
        # not counted: the first loads after a start (JIT, page cache, allocator) are slower whichever path
        # goes first
        best = {"project": float("inf"), "bare": float("inf")}
        for round_ in range(3):
            for path in ("bare", "project"):
                fresh()
                t0 = time.perf_counter()
                if path == "project":
                    store.write_evidence(records)  # includes id, alias and number preparation
                else:
                    bare_write(backend, store, params)
                if round_:
                    best[path] = min(best[path], time.perf_counter() - t0)
        counts = store.stats()
        t0 = time.perf_counter()
        store.write_evidence(records)
        rerun = time.perf_counter() - t0
        assert store.stats() == counts, "a re-import changed the graph"
        project, bare = best["project"], best["bare"]
        print(f"[{kind}] ingest {n} rows (batch {store.batch_size}): project {n / project:,.0f} rows/s "
              f"({project:.2f} s, incl. id/number preparation); bare driver UNWIND {n / bare:,.0f} rows/s "
              f"({bare:.2f} s); ratio project/bare {bare / project:.2f}; re-run (all MERGE hits) "
              f"{n / rerun:,.0f} rows/s; nodes {sum(counts['nodes'].values()):,} "
              f"relations {sum(counts['relations'].values()):,}")


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def bench_queries(kind: str, sizes: list[int], repeat: int, neo4j_url: str | None) -> None:
    with open_backend(kind, neo4j_url) as backend:
        store = GraphStore(backend)
        store.backend.clear()
        store.init_schema()
        loaded = 0
        rnd = random.Random(1)
        results: dict[int, dict[str, tuple[float, float]]] = {}
        for size in sizes:
            records = synthetic(size)
            t0 = time.perf_counter()
            for i in range(loaded, size, 50_000):
                store.write_evidence(records[i:min(size, i + 50_000)])
            print(f"[{kind}] loaded {size:,} evidence items (+{size - loaded:,} in {time.perf_counter() - t0:.1f} s)")
            loaded = size
            n_entities, n_questions = max(50, size // 50), max(20, size // 200)
            questions = [f"Question number {rnd.randrange(n_questions)} about brokers" for _ in range(repeat)]
            ents = [f"Entity{rnd.randrange(n_entities)}" for _ in range(repeat * 3)]
            it = iter(range(10**9))
            results[size] = {
                "evidence_for_question": timed(lambda: store.evidence_for_question(questions[next(it) % repeat]),
                                               repeat),
                "conflicts_one_entity": timed(lambda: store.conflict_groups(ents[next(it) % len(ents)]), repeat),
                "compare_3_entities": timed(lambda: store.compare([ents[(k := next(it)) % len(ents)],
                                                                   ents[(k + 1) % len(ents)],
                                                                   ents[(k + 2) % len(ents)]]), repeat),
            }
            for q, (p50, p95) in results[size].items():
                print(f"[{kind}] {size:>9,} {q:<24} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms")
        lo, hi = sizes[0], sizes[-1]
        for q in results[lo]:
            print(f"[{kind}] {q:<24} p50 ratio {hi:,}/{lo:,} = {results[hi][q][0] / results[lo][q][0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["ingest", "queries"])
    ap.add_argument("--backend", default="both", choices=["falkordb", "neo4j", "both"])
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--repeat", type=int, default=100)
    ap.add_argument("--neo4j-url")
    args = ap.parse_args()
    kinds = ["falkordb", "neo4j"] if args.backend == "both" else [args.backend]
    for kind in kinds:
        if args.what == "ingest":
            bench_ingest(kind, args.rows, args.neo4j_url)
        else:
            bench_queries(kind, [int(s) for s in args.sizes.split(",")], args.repeat, args.neo4j_url)


if __name__ == "__main__":
    main()
