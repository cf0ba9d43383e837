"""What a research run tells its watchers: a typed event union, numbered per run, delivered to any number of
subscribers (the CLI's progress bars, the graph that persists them for the API's event stream, tests).

Every event is wrapped in an `EventRecord` with the run id and a sequence number that starts at 1 and never
repeats within a run (a resumed run continues after the last persisted number), so a client that reconnects
with `Last-Event-ID: N` is sent exactly the records after N.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

log = logging.getLogger(__name__)


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StageStarted(_Event):
    type: Literal["stage_started"] = "stage_started"
    stage: str


class StageFinished(_Event):
    type: Literal["stage_finished"] = "stage_finished"
    stage: str
    seconds: float


class SourcesIndexed(_Event):
    type: Literal["sources_indexed"] = "sources_indexed"
    root: str
    added: int
    updated: int
    unchanged: int
    removed: int
    chunks: int


class PlannedQuestion(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str
    text: str
    role: str


class PlanReady(_Event):
    type: Literal["plan_ready"] = "plan_ready"
    kind: str
    sub_questions: list[PlannedQuestion]


class QuestionProgress(_Event):
    type: Literal["question_progress"] = "question_progress"
    question_id: str
    text: str
    status: str  # searching | sufficient | <why not yet sufficient> | done
    evidence: int | None = None


class EvidenceAdded(_Event):
    type: Literal["evidence_added"] = "evidence_added"
    question_id: str
    source_id: str
    count: int


class SectionWritten(_Event):
    type: Literal["section_written"] = "section_written"
    question_id: str
    title: str
    sentences: int


class VerificationFinished(_Event):
    type: Literal["verification_finished"] = "verification_finished"
    fully_verified: bool
    passed: int
    doubtful: int
    failed: int


class RunFinished(_Event):
    type: Literal["done"] = "done"
    title: str
    verified: bool


class RunFailed(_Event):
    type: Literal["failed"] = "failed"
    status: Literal["failed", "cancelled", "interrupted"] = "failed"
    error: str


RunEvent = Annotated[
    StageStarted | StageFinished | SourcesIndexed | PlanReady | QuestionProgress | EvidenceAdded | SectionWritten
    | VerificationFinished | RunFinished | RunFailed,
    Field(discriminator="type"),
]
TERMINAL = ("done", "failed")


class EventRecord(BaseModel):
    model_config = ConfigDict(frozen=True)
    run_id: str
    seq: int
    at: int  # epoch ms
    event: RunEvent

    @property
    def terminal(self) -> bool:
        return self.event.type in TERMINAL


EVENT_ADAPTER: TypeAdapter[RunEvent] = TypeAdapter(RunEvent)
Subscriber = Callable[[EventRecord], None]


class EventBus:
    """Numbers a run's events and hands each to every subscriber, in order, from any thread.

    A subscriber that raises is logged and kept: a broken progress display must not stop a run. The first
    subscriber is usually the graph (persistence); it is called before the others, so whatever a live client
    was sent is already stored for a reconnect."""

    def __init__(self, run_id: str = "", start_seq: int = 0) -> None:
        self.run_id = run_id
        self._seq = start_seq
        self._subs: list[Subscriber] = []
        self._lock = threading.Lock()
        # what a cancellation of the run means, set by whoever cancels it: the user's cancel, or a server
        # shutting down (the run is then `interrupted` and resumable like one a crash stopped)
        self.cancel_status: Literal["cancelled", "interrupted"] = "cancelled"

    def bind(self, run_id: str, start_seq: int) -> None:
        """Set the run (known once a run id is chosen or a resumed run is read back)."""
        with self._lock:
            self.run_id, self._seq = run_id, max(self._seq, start_seq)

    def subscribe(self, fn: Subscriber, *, first: bool = False) -> Callable[[], None]:
        with self._lock:
            if first:
                self._subs.insert(0, fn)
            else:
                self._subs.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subs:
                    self._subs.remove(fn)
        return unsubscribe

    @property
    def last_seq(self) -> int:
        return self._seq

    def emit(self, event: RunEvent) -> EventRecord:
        # numbering and delivery under one lock: subscribers see records in sequence order
        with self._lock:
            self._seq += 1
            record = EventRecord(run_id=self.run_id, seq=self._seq, at=int(time.time() * 1000), event=event)
            for fn in list(self._subs):
                try:
                    fn(record)
                except Exception:
                    log.exception("run event subscriber failed on %s #%d", record.event.type, record.seq)
        return record
