"""Monitoring figures. (1) A monitoring run over an unchanged world on the embedded FalkorDB: HTTP requests
made, items extracted, wall time, graph counts before/after. (2) N topics due at once, worked by 1, 2 and 4
worker processes against one local Neo4j: throughput, topics run twice (must be 0), time until all done.

    python bench/bench_monitor.py [--topics 200] [--workers 1,2,4] [--skip-neo4j]

Each topic is a tiny offline research run (one sub-question over a one-document local corpus).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HELPERS = REPO / "tests" / "monitor"
sys.path.insert(0, str(HELPERS))
from monitor_support import TINY, offline_services, write_doc  # noqa: E402

from openresearch.graph.falkor import FalkorBackend  # noqa: E402
from openresearch.graph.falkor_server import EmbeddedFalkor  # noqa: E402
from openresearch.graph.store import GraphStore  # noqa: E402
from openresearch.ingest.embed import SentenceTransformerEmbedder  # noqa: E402
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
        print(f"{label:16s} wall {wall:6.2f} s  extracted {r.extracted:4d}  http requests 0 (local sources)  "
              f"added {added}  nothing_changed={r.digest.nothing_changed}")
    store.backend.clear()
    store.close()
    server.stop()


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
            print(f"workers {n}: {topics} topics, finished {finished}, run twice {twice}, all done in {wall:6.1f} s "
                  f"(incl. worker start-up), {finished / wall:5.2f} topics/s")
            store.backend.clear()
            store.close()
    finally:
        neo4j_local.stop(home)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--topics", type=int, default=200)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--skip-neo4j", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_monitor_"))
    try:
        unchanged_world(tmp)
        if not args.skip_neo4j:
            workers_on_neo4j(tmp, args.topics, [int(x) for x in args.workers.split(",")])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
