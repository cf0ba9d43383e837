"""A topic's digest reports what its own run found, not what another topic's run wrote to the graph meanwhile
(workers run topics side by side on one graph)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from monitor_support import TINY, offline_services, write_doc
from records_support import rec

from openresearch.agents.run.events import EventRecord
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.runner import run_topic
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
T0 = 1_768_176_000_000


def test_a_digest_leaves_out_what_another_topics_run_wrote_meanwhile(store: GraphStore, embedder: Embedder,
                                                                     tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_doc(corpus, "acme.md", "AcmeDB 1.4 release notes", "2026-01-10", "https://acme.example/releases/1.4",
              "AcmeDB reaches a write throughput of 120,000 rows per second on a single node.")
    services = offline_services(store, embedder, tmp_path / "data")
    clock = FakeClock(T0)
    topic = Monitor(services, clock=clock, lease_ms=60_000).add(
        "What is the write throughput of AcmeDB?", sources=[f"local:{corpus}"], entities=["AcmeDB"], every="1d",
        options=TINY)
    other = [rec("https://zeta.example/bench", "ZetaMQ moved 900 MB/s in the vendor's benchmark.", "ZetaMQ",
                 "throughput", 900, "MB/s", None, "How fast is ZetaMQ?")]
    written: list[bool] = []

    def meanwhile(_: EventRecord) -> None:  # another worker's run of another topic, during this one
        if not written:
            written.append(True)
            store.write_evidence(other)

    result = asyncio.run(run_topic(topic, services, clock, on_event=meanwhile))
    d = result.digest
    assert written and d.new_evidence
    assert {s.url for s in d.new_sources} == {"https://acme.example/releases/1.4"}
    assert all("ZetaMQ" not in e.quote for e in d.new_evidence)
    assert all("ZetaMQ" not in c.entity for c in [*d.new_conflicts, *d.resolved_conflicts])
