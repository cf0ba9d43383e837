"""A monitoring run killed (SIGKILL) after it stored evidence, on a topic that already had its first digest: the
next run takes the lease over at once (its holder's process is gone, on this host), marks the killed run
`interrupted`, and its digest reports the figures the killed run stored; `unlock` breaks a lease by hand."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from monitor_support import TINY, offline_services, write_doc

from openresearch.agents.run.pipeline import research
from openresearch.errors import InputError
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.runner import run_options
from openresearch.monitor.service import Monitor, unlock_topic

pytestmark = pytest.mark.integration


def dead_owner() -> str:
    """A worker on this host whose process is gone: what a SIGKILL leaves (test_monitor_workers.py kills a real
    worker process; here the state it leaves is staged, for speed)."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return f"{socket.gethostname()}:{p.pid}:gone"


def test_a_killed_run_is_taken_over_marked_interrupted_and_its_news_digested(
        falkor_store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    store = falkor_store
    folder = tmp_path / "docs"
    write_doc(folder, "a.md", "Quorbit notes", "2026-01-10", "https://quorbit.example/notes",
              "Quorbit reaches a write throughput of 42,000 rows per second on a single node.")
    services = offline_services(store, embedder, tmp_path / "data")
    m = Monitor(services, owner="test")
    topic = m.add("What is the write throughput of Quorbit and Plindex?", sources=[f"local:{folder}"], options=TINY)
    first = m.run_topic(topic.id)
    assert first is not None and first.digest.first
    write_doc(folder, "b.md", "Plindex notes", "2026-01-12", "https://plindex.example/notes",
              "Plindex reaches a write throughput of 77,000 rows per second on a single node.")
    m.store.set_status(topic.id, "active", 0)  # due now
    # a worker takes an hour's lease, starts its run, stores the new evidence and is killed before its digest
    owner, killed = dead_owner(), "mon-killed-run"
    assert m.store.claim(topic.id, owner, 0, 3_600_000_000_000, due_only=True)
    assert m.store.begin_run(topic.id, owner, killed)
    topic = m.store.topic(topic.id)
    asyncio.run(research(run_options(topic, services), services, run_id=killed))
    store.backend.write("MATCH (r:Run {id: $id}) SET r.status = 'running', r.stage = 'gather', r.owner = $owner",
                        {"id": killed, "owner": owner})

    done = m.run_due()  # no wait for the lease to lapse: its holder's process is gone
    assert len(done) == 1
    assert store.get_run(killed)["status"] == "interrupted"
    d = done[0].digest
    assert not d.first and [v.value for v in d.new_values] == ["77,000 rows per second"]
    assert any("77,000 rows per second" in s.text and s.section == "new" for s in d.sentences)
    t = m.store.topic(topic.id)
    assert t.undigested == [] and t.lease_owner is None and t.runs == 2


def test_unlock_breaks_a_lease_but_not_a_live_local_one(falkor_store: GraphStore, embedder: Embedder,
                                                        tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    write_doc(folder, "a.md", "Quorbit notes", "2026-01-10", "https://quorbit.example/notes", "Quorbit is fast.")
    m = Monitor(offline_services(falkor_store, embedder, tmp_path / "data"), owner="test")
    topic = m.add("Quorbit speed", sources=[f"local:{folder}"], options=TINY)
    assert unlock_topic(m.store, topic.id) is None  # not locked
    alive = f"{socket.gethostname()}:{os.getpid()}:abc"  # this very process: alive
    assert m.store.claim(topic.id, alive, 0, 10**15, due_only=False)
    with pytest.raises(InputError, match="live process"):
        unlock_topic(m.store, topic.id)
    assert m.run_topic(topic.id) is None  # held by a live process
    assert unlock_topic(m.store, topic.id, force=True) == alive
    elsewhere = "another-host:123:abc"  # cannot be asked: its lease stands until unlocked or lapsed
    assert m.store.claim(topic.id, elsewhere, 0, 10**15, due_only=False)
    assert m.run_topic(topic.id) is None
    assert unlock_topic(m.store, topic.id) == elsewhere
    assert m.run_topic(topic.id) is not None
