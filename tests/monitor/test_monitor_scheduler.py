"""The API process's scheduler (APScheduler, monitor/scheduler.py) over a real graph and real monitoring runs:
one job per active topic at its `next_due` from the graph, a missed day caught up once, paused and removed
topics dropped at the next sync, a topic another worker holds skipped, jobs rebuilt from the graph after a
restart."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from monitor_support import TINY, offline_services, write_doc

from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.scheduler import TopicScheduler
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
DAY = 86_400_000


def wait_for(check: Callable[[], bool], timeout: float = 180.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.2)


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_the_scheduler_runs_due_topics_from_the_graph(store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_doc(corpus, "a.md", "AcmeDB notes", "2026-01-10", "https://acme.example/a",
              "AcmeDB reaches a write throughput of 120,000 rows per second on a single node.")
    m = Monitor(offline_services(store, embedder, tmp_path / "data"), lease_ms=60_000)
    due = m.add("What is the write throughput of AcmeDB?", sources=[f"local:{corpus}"], every="1d", options=TINY)
    later = m.add("Who maintains AcmeDB?", sources=[f"local:{corpus}"], every="1d", options=TINY)
    paused = m.add("Where is AcmeDB developed?", sources=[f"local:{corpus}"], every="1d", options=TINY)
    now = m.clock.now_ms()
    m.store.set_status(due.id, "active", now - 3 * DAY)  # three missed days: caught up once
    m.store.set_status(later.id, "active", now + DAY)
    m.pause(paused.id)

    sched = TopicScheduler(m, sync_s=0.5)
    sched.start()
    try:
        wait_for(lambda: due.id in sched.ran)
        after = m.store.topic(due.id)
        assert after.runs == 1 and after.next_due > now  # once, then the next day (with its jitter)
        time.sleep(1.5)  # several syncs: no second run of the missed days
        assert sched.ran == [due.id]
        jobs = sched.jobs()
        assert set(jobs) == {due.id, later.id}  # the paused topic has no job
        assert int(jobs[due.id].timestamp() * 1000) == after.next_due  # set from the graph, to the second
        assert len(m.store.digests(due.id)) == 1

        m.pause(due.id)
        wait_for(lambda: due.id not in sched.jobs(), 10)
        m.resume(due.id)
        wait_for(lambda: due.id in sched.jobs(), 10)
        m.store.remove_topic(later.id)
        wait_for(lambda: later.id not in sched.jobs(), 10)

        # another worker holds the lease of a due topic: the scheduler skips it and runs nothing twice
        other = Monitor(m.services, lease_ms=120_000, owner="someone-else")
        assert other.store.claim(paused.id, other.owner, other.clock.now_ms(), other.lease_ms, due_only=False)
        m.resume(paused.id)
        time.sleep(2.0)  # its job fires at once, the claim fails, the syncs set it again: nothing runs
        held = m.store.topic(paused.id)
        assert paused.id not in sched.ran and held.runs == 0 and held.lease_owner == "someone-else"
    finally:
        sched.stop()

    # a restarted process rebuilds its jobs from the graph
    again = TopicScheduler(m, sync_s=60)
    again.start()
    try:
        assert due.id in again.jobs() and later.id not in again.jobs()
        assert int(again.jobs()[due.id].timestamp() * 1000) == m.store.topic(due.id).next_due
    finally:
        again.stop()
