"""Run events stored in the graph by a writer thread, in batches, off the thread that emits them.

A run emits its events from the event loop and from worker threads; storing each with its own graph write
on the emitting thread held the run (and, in the API process, every other request on the loop) for one
write per event, and put that write between the emission and every live client (SSE p95 about 400 ms on
Neo4j). The writer takes each record at once into a bounded queue and stores what has queued up in one write.

What a client that reconnects misses is served from the graph plus the run manager's in-memory history, so
a dropped connection loses nothing while the writer is behind. `close()` returns once everything is stored
(a finished run replays its whole history from the graph). At most `MAX_UNSAVED` records are ever waiting:
an emitter blocks beyond that. A process killed with records waiting loses at most that many; the next
resume numbers on after a gap of `MAX_UNSAVED` (`resume_seq`), so no id a live client may have seen is
ever given to another event.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from typing import Any

from openresearch.agents.run.events import TERMINAL, EventRecord
from openresearch.graph.store import GraphStore

log = logging.getLogger(__name__)
MAX_UNSAVED = 256
_STOP = object()


def event_row(record: EventRecord) -> dict[str, Any]:
    return {"seq": record.seq, "type": record.event.type, "at": record.at, "data": record.event.model_dump_json()}


class EventWriter:
    """A subscriber (`writer(record)`) that stores records in the graph on its own thread; `close()` flushes."""

    def __init__(self, store: GraphStore, run_id: str = "") -> None:
        self.store = store
        self.run_id = run_id
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=MAX_UNSAVED)
        self._thread = threading.Thread(target=self._loop, name="run-event-writer", daemon=True)
        self._thread.start()
        self.batches = 0
        self.stored = 0

    def __call__(self, record: EventRecord) -> None:
        self._queue.put(record)  # blocks only when MAX_UNSAVED are waiting

    def close(self, timeout: float = 120.0) -> None:
        """Store everything queued, then stop the thread."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            batch: list[EventRecord] = []
            stop = item is _STOP
            if not stop:
                batch.append(item)
            while not stop:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stop = True
                else:
                    batch.append(more)
            self._store(batch)
            if stop:
                return

    def _store(self, batch: list[EventRecord]) -> None:
        by_run: dict[str, list[dict[str, Any]]] = {}
        for r in batch:
            by_run.setdefault(r.run_id or self.run_id, []).append(event_row(r))
        for run_id, rows in by_run.items():
            for attempt in range(3):  # a graph that restarts: try again before giving the records up
                try:
                    self.store.append_run_events(run_id, rows)
                    self.batches += 1
                    self.stored += len(rows)
                    break
                except Exception:
                    if attempt == 2:
                        log.exception("could not store %d events of run %s", len(rows), run_id)
                    else:
                        threading.Event().wait(0.5 * (attempt + 1))


def resume_seq(store: GraphStore, run_id: str) -> int:
    """The number a run's next event follows: the last stored one, plus a gap of `MAX_UNSAVED` when the last
    stored event is not terminal (the process that ran it died, and may have sent live events it never
    stored)."""
    last = store.last_run_event(run_id)
    if last <= 0:
        return 0
    rows = store.run_events(run_id, last - 1, 1)
    terminal = bool(rows) and json.loads(rows[0]["data"]).get("type") in TERMINAL
    return last if terminal else last + MAX_UNSAVED
