"""Run events stored by a writer thread in batches (agents/run/event_writer.py), on both backends: live
subscribers get each event before it is stored, a graph write that cannot finish holds no emitter, `close()` stores
everything in order, and a run whose process died numbers on after a gap (no id reused)."""

from __future__ import annotations

import threading
from typing import Any

from openresearch.agents.run.event_writer import MAX_UNSAVED, EventWriter, resume_seq
from openresearch.agents.run.events import EventBus, EventRecord, QuestionProgress, RunFailed
from openresearch.agents.run.pipeline import replay_events
from openresearch.graph.store import GraphStore


class HeldWrites(GraphStore):
    """The real graph, whose event writes wait until `release` is set (a loaded Neo4j, made deterministic)."""

    def __init__(self, backend: Any) -> None:
        super().__init__(backend)
        self.release = threading.Event()

    def append_run_events(self, run_id: str, rows: Any) -> None:
        assert self.release.wait(60)
        super().append_run_events(run_id, rows)


def progress(i: int) -> QuestionProgress:
    return QuestionProgress(question_id=f"q{i}", text=f"sub-question {i}", status="searching")


def test_events_go_live_before_they_are_stored_and_all_are_stored(store: GraphStore) -> None:
    store.save_run("run-w", "q?", status="running", stage="gather", options={}, started_at=0)
    held = HeldWrites(store.backend)
    bus = EventBus("run-w")
    writer = EventWriter(held, "run-w")
    live: list[EventRecord] = []
    bus.subscribe(writer, first=True)
    bus.subscribe(live.append)

    emitted = [bus.emit(progress(i)) for i in range(60)]  # no write can finish: the graph is held
    assert [r.seq for r in live] == list(range(1, 61))  # every event went live all the same
    assert replay_events(store, "run-w") == [] and writer.stored == 0
    held.release.set()
    writer.close()
    stored = replay_events(store, "run-w")
    assert [r.seq for r in stored] == [r.seq for r in emitted]
    assert [r.event for r in stored] == [r.event for r in emitted]
    assert writer.batches <= 2  # what queued up while the graph was held went in one write


def test_emitters_on_many_threads_are_all_stored(store: GraphStore) -> None:
    store.save_run("run-t", "q?", status="running", stage="gather", options={}, started_at=0)
    bus = EventBus("run-t")
    writer = EventWriter(store, "run-t")
    bus.subscribe(writer, first=True)
    threads = [threading.Thread(target=lambda k=k: [bus.emit(progress(k * 100 + i)) for i in range(50)])
               for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.close()
    assert [r.seq for r in replay_events(store, "run-t", limit=1000)] == list(range(1, 201))


def test_a_run_whose_process_died_numbers_on_after_a_gap(store: GraphStore) -> None:
    store.save_run("run-d", "q?", status="running", stage="gather", options={}, started_at=0)
    assert resume_seq(store, "run-d") == 0
    bus = EventBus("run-d")
    writer = EventWriter(store, "run-d")
    bus.subscribe(writer, first=True)
    for i in range(5):
        bus.emit(progress(i))
    writer.close()
    # the last stored event is not terminal: the process died, and may have sent up to MAX_UNSAVED more live
    assert resume_seq(store, "run-d") == 5 + MAX_UNSAVED
    bus2 = EventBus("run-d", 5)
    writer2 = EventWriter(store, "run-d")
    bus2.subscribe(writer2, first=True)
    bus2.emit(RunFailed(status="cancelled", error="cancelled"))
    writer2.close()
    assert resume_seq(store, "run-d") == 6  # stopped properly: numbering simply goes on
