"""The one place a run's state is written to the graph: its status and stage, plan, progress counters (what
a resumed run continues from), final metrics and report. Nothing else in the run calls `save_run`."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from openresearch.agents.run.event_writer import event_row, resume_seq
from openresearch.agents.run.events import EventRecord, RunFailed
from openresearch.agents.run.lease import process_owner
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.write.report import to_markdown
from openresearch.agents.write.report_model import Report
from openresearch.graph.store import GraphStore
from openresearch.models import Plan

ACTIVE = ("queued", "running")
"""The statuses of a run that has not ended."""


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Counters:
    """Run-wide counters that the caps are checked against; persisted so a resumed run does not get its caps
    afresh (a run killed after 40 searches has at most `searches_total - 40` left). They hold finished
    sub-questions only (`finish`): one in flight when the run was killed is investigated again from its start,
    so what it had spent is not counted twice; `spent` keeps each one's (searches, reflect rounds)."""
    searches_total: int = 0
    reflect_rounds_total: int = 0
    reflected: set[str] = field(default_factory=set)
    limited: dict[str, str] = field(default_factory=dict)
    done_questions: set[str] = field(default_factory=set)
    spent: dict[str, tuple[int, int]] = field(default_factory=dict)

    def finish(self, question_id: str, searches: int, rounds: int, limited: str | None) -> None:
        self.searches_total += searches
        self.reflect_rounds_total += rounds
        self.spent[question_id] = (searches, rounds)
        if rounds:
            self.reflected.add(question_id)
        if limited:
            self.limited[question_id] = limited
        self.done_questions.add(question_id)

    def spent_before(self, earlier: list[str]) -> tuple[int, int]:
        """(searches, reflect rounds) spent when the sub-questions of `earlier` were done: the finished ones' own
        spending, plus what a run stored before `spent` existed (its totals, not split per sub-question)."""
        legacy_s = self.searches_total - sum(s for s, _ in self.spent.values())
        legacy_r = self.reflect_rounds_total - sum(r for _, r in self.spent.values())
        mine = [self.spent[q] for q in earlier if q in self.spent]
        return legacy_s + sum(s for s, _ in mine), legacy_r + sum(r for _, r in mine)

    def as_dict(self) -> dict[str, Any]:
        return {"searches_total": self.searches_total, "reflect_rounds_total": self.reflect_rounds_total,
                "reflected": sorted(self.reflected), "limited": dict(sorted(self.limited.items())),
                "done_questions": sorted(self.done_questions),
                "spent": {q: list(v) for q, v in sorted(self.spent.items())}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Counters:
        return cls(int(d.get("searches_total", 0)), int(d.get("reflect_rounds_total", 0)),
                   set(d.get("reflected", [])), dict(d.get("limited", {})), set(d.get("done_questions", [])),
                   {str(q): (int(v[0]), int(v[1])) for q, v in (d.get("spent") or {}).items()})


class RunState:
    def __init__(self, store: GraphStore, run_id: str, options: RunOptions, started_ms: int | None = None) -> None:
        self.store = store
        self.run_id = run_id
        self.options = options
        self.started_ms = started_ms if started_ms is not None else now_ms()
        self._lock = threading.Lock()
        self.ended: str | None = None
        """The status this state ended the run with: a save still in flight on another thread when the run was
        cancelled (its task is cancelled, its thread is not) must not store 'running' over it."""

    def save(self, stage: str, *, status: str = "running", plan: Plan | None = None,
             counters: Counters | None = None, metrics: dict[str, Any] | None = None, finished: bool = False) -> None:
        with self._lock:
            if self.ended is not None and status in ACTIVE:
                return
            self._store(stage, status, plan, counters, metrics, finished)
            if status not in ACTIVE:
                self.ended = status

    def _store(self, stage: str, status: str, plan: Plan | None, counters: Counters | None,
               metrics: dict[str, Any] | None, finished: bool) -> None:
        self.store.save_run(self.run_id, self.options.question, status=status, stage=stage,
                            options=self.options.model_dump(mode="json"), started_at=self.started_ms,
                            finished_at=now_ms() if finished else None, plan=plan, metrics=metrics,
                            progress=counters.as_dict() if counters is not None else None,
                            owner=process_owner(), heartbeat_at=now_ms())

    def planned(self, plan: Plan) -> None:
        self.save("gather", plan=plan)
        self.store.save_plan_questions(self.run_id, plan)

    def finish(self, report: Report) -> str:
        """Store the report (JSON and Markdown, sections citing their evidence), then mark the run done."""
        self.store.save_report(report.run_id, report.title, to_markdown(report), report.verified, now_ms(), [
            {"id": f"{report.run_id}-s{i}", "title": s.title, "position": i,
             "text": " ".join(x.text for x in s.sentences),
             "cites": sorted({c for x in s.sentences for c in x.citations})}
            for i, s in enumerate(report.sections)], report_json=report.model_dump_json())
        self.save("done", status="done", plan=report.plan, metrics=report.metrics, finished=True)
        return f"R-{report.run_id}"


def end_left_run(store: GraphStore, run: dict[str, Any], status: Literal["cancelled", "interrupted"],
                 why: str) -> bool:
    """End a run a process that is gone left queued or running: its status, then a terminal event numbered
    after whatever that process sent live (resume_seq), so every stream of it ends and a client that read the
    event and asks for the status is told the same. False: not active, or its options cannot be read."""
    if run.get("status") not in ACTIVE:
        return False
    try:
        opts = RunOptions.model_validate(run["options"])
    except ValueError:
        return False
    RunState(store, run["id"], opts, run.get("started_at")).save(run.get("stage") or "plan", status=status)
    record = EventRecord(run_id=run["id"], seq=resume_seq(store, run["id"]) + 1, at=now_ms(),
                         event=RunFailed(status=status, error=why))
    store.append_run_events(run["id"], [event_row(record)])
    return True
