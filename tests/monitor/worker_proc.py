"""A monitoring worker in its own process (tests and bench): `python worker_proc.py SPEC_JSON`.

SPEC: kind (falkordb|neo4j), where (socket or bolt URL), graph (FalkorDB key), data_dir, emb_dir, lease_ms,
owner, stall_s (sleep at the run's first stored evidence: the window a test SIGKILLs in), marker (a file
written with the topic id at that point), runs_file (one line per run started: the bench counts them).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from monitor_support import offline_services

from openresearch.agents.run.events import EventRecord
from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder
from openresearch.monitor.service import Monitor


def backend(spec: dict[str, object]) -> GraphBackend:
    if spec["kind"] == "falkordb":
        from openresearch.graph.falkor import FalkorBackend

        return FalkorBackend(str(spec["graph"]), unix_socket=str(spec["where"]))
    from openresearch.graph.neo4j_backend import Neo4jBackend

    return Neo4jBackend(str(spec["where"]))


def main() -> None:
    spec = json.loads(sys.argv[1])
    store = GraphStore(backend(spec))
    emb: Embedder = SentenceTransformerEmbedder(cache_dir=Path(str(spec["emb_dir"])))
    marker = Path(str(spec["marker"])) if spec.get("marker") else None
    runs_file = Path(str(spec["runs_file"])) if spec.get("runs_file") else None
    stall = float(spec.get("stall_s") or 0)

    current: list[str] = []

    def started(tid: str) -> None:
        current[:] = [tid]
        if runs_file is not None:
            with runs_file.open("a") as f:
                f.write(f"{tid} {spec['owner']}\n")

    def event(rec: EventRecord) -> None:
        if rec.event.type == "evidence_added" and marker is not None and not marker.exists():
            marker.write_text(current[0])
            time.sleep(stall)

    m = Monitor(offline_services(store, emb, Path(str(spec["data_dir"]))), lease_ms=int(str(spec["lease_ms"])),
                owner=str(spec["owner"]), before_run=started, on_event=event)
    done = m.run_due()
    print(json.dumps({"owner": spec["owner"], "ran": [r.run_id for r in done]}))
    store.close()


if __name__ == "__main__":
    main()
