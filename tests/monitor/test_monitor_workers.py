"""Workers in their own processes: a worker SIGKILLed in the middle of a monitoring run loses its lease, another
finishes the topic, nothing is duplicated (FalkorDB and Neo4j); two workers on one Neo4j never run a topic
twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from monitor_support import TINY, offline_services, write_doc

from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
HERE = Path(__file__).parent
REPO = HERE.parents[1]


def where(backend: GraphBackend, request: pytest.FixtureRequest) -> dict[str, Any]:
    from openresearch.graph.falkor import FalkorBackend

    if isinstance(backend, FalkorBackend):
        return {"kind": "falkordb", "where": request.getfixturevalue("falkor_socket"), "graph": backend.graph_name}
    return {"kind": "neo4j", "where": request.getfixturevalue("neo4j_url"), "graph": ""}


def spawn(spec: dict[str, Any]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(REPO)])}
    return subprocess.Popen([sys.executable, str(HERE / "worker_proc.py"), json.dumps(spec)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def corpus(tmp_path: Path, name: str, value: str) -> Path:
    d = tmp_path / name
    write_doc(d, "notes.md", f"{name} release notes", "2026-01-10", f"https://{name}.example/notes",
              f"{name} reaches a write throughput of {value} rows per second on a single node. "
              f"{name} stores data in compressed columnar blocks.")
    return d


def duplicates(store: GraphStore) -> int:
    rows = store.backend.read("MATCH (n) WHERE n:Source OR n:Evidence OR n:Observation OR n:Entity OR n:Digest "
                              "WITH n.id AS id, count(*) AS c WHERE c > 1 RETURN count(*) AS d")
    return int(rows[0]["d"])


def test_a_killed_workers_lease_expires_and_another_finishes(store: GraphStore, backend: GraphBackend,
                                                             embedder: Embedder, tmp_path: Path,
                                                             request: pytest.FixtureRequest) -> None:
    m = Monitor(offline_services(store, embedder, tmp_path / "data"), lease_ms=2000, owner="test")
    topic = m.add("What is the write throughput of AcmeDB?", sources=[f"local:{corpus(tmp_path, 'AcmeDB', '120,000')}"],
                  options=TINY)
    base = {**where(backend, request), "data_dir": str(tmp_path / "data"), "emb_dir": str(tmp_path / "emb"),
            "lease_ms": 2000}
    marker = tmp_path / "started"
    a = spawn({**base, "owner": "A", "stall_s": 120, "marker": str(marker)})
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert a.poll() is None, a.communicate()[1][-2000:]
        assert time.monotonic() < deadline, "worker A never stored evidence"
        time.sleep(0.2)
    assert m.store.topic(topic.id).lease_owner == "A"
    assert store.stats()["nodes"].get("Evidence", 0) > 0  # killed mid-run: some evidence is stored already
    a.send_signal(signal.SIGKILL)
    a.wait()
    while (m.store.topic(topic.id).lease_until or 0) >= int(time.time() * 1000):
        time.sleep(0.2)  # nobody renews it any more
    b = spawn({**base, "owner": "B"})
    out, err = b.communicate(timeout=300)
    assert b.returncode == 0, err[-2000:]
    assert len(json.loads(out.strip().splitlines()[-1])["ran"]) == 1
    t = m.store.topic(topic.id)
    assert t.runs == 1 and t.lease_owner is None
    assert [d.run_id for d in m.store.digests(topic.id)] == [t.last_run_id]
    assert duplicates(store) == 0
    counts = store.stats()["nodes"]
    again = m.run_topic(topic.id)  # the world did not change: nothing more
    assert again is not None and again.digest.nothing_changed
    after = store.stats()["nodes"]
    assert {k: after[k] for k in ("Source", "Evidence", "Observation", "Entity")} == {
        k: counts[k] for k in ("Source", "Evidence", "Observation", "Entity")}


@pytest.mark.parametrize("backend", ["falkordb", "neo4j"], indirect=True)
def test_two_workers_on_one_neo4j_never_run_a_topic_twice(store: GraphStore, backend: GraphBackend,
                                                          embedder: Embedder, tmp_path: Path,
                                                          request: pytest.FixtureRequest) -> None:
    m = Monitor(offline_services(store, embedder, tmp_path / "data"), lease_ms=60_000, owner="test")
    names = [f"Db{i}" for i in range(6)]
    topics = [m.add(f"What is the write throughput of {n}?", sources=[f"local:{corpus(tmp_path, n, '1,000')}"],
                    options=TINY) for n in names]
    runs_file = tmp_path / "runs.txt"
    base = {**where(backend, request), "data_dir": str(tmp_path / "data"), "emb_dir": str(tmp_path / "emb"),
            "lease_ms": 60_000, "runs_file": str(runs_file)}
    procs = [spawn({**base, "owner": o}) for o in ("A", "B")]
    ran: list[str] = []
    errors = ""
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
        ran += json.loads(out.strip().splitlines()[-1])["ran"]
        errors += err
    started = runs_file.read_text().split("\n")
    by_topic = [line.split()[0] for line in started if line]
    assert sorted(by_topic) == sorted(t.id for t in topics)  # each topic started exactly once
    assert len(ran) == len(topics), errors[-3000:]
    for t in topics:
        stored = m.store.topic(t.id)
        assert stored.runs == 1 and stored.lease_owner is None
    assert duplicates(store) == 0
