"""The runs routes of issue 9 (POST /runs -> 202 + Location, GET /runs, GET /runs/{id}, SSE
GET /runs/{id}/events with ids and Last-Event-ID, GET /runs/{id}/report) in their documented shapes, for the
web page's Chromium test until the API serves runs itself (`create_app(..., runs=...)`).

A run's events are scripted; its last event (`done`) is only sent once the test opens `release`, so the
page is seen in progress and then done whatever the machine's speed. The report cites evidence that is
really in the graph, so the citation click reads the real GET /evidence/{id}.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Body, Header, HTTPException
from fastapi.responses import JSONResponse, StreamingResponse

from openresearch.graph.store import GraphStore


@dataclass
class StandinRun:
    id: str
    question: str
    events: list[dict[str, Any]]
    release: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.monotonic)

    @property
    def done(self) -> bool:
        return self.release.is_set()


def script(question: str, evidence_ids: list[str]) -> list[dict[str, Any]]:
    q = {"id": "Q-1", "text": question, "role": "core"}
    return [
        {"type": "stage_started", "stage": "plan"},
        {"type": "plan_ready", "kind": "comparison", "sub_questions": [q]},
        {"type": "stage_finished", "stage": "plan", "seconds": 0.1},
        {"type": "stage_started", "stage": "gather"},
        {"type": "question_progress", "question_id": "Q-1", "text": question, "status": "searching"},
        {"type": "evidence_added", "question_id": "Q-1", "source_id": "S-1", "count": len(evidence_ids)},
        {"type": "section_written", "question_id": "Q-1", "title": "Throughput", "sentences": 2},
        {"type": "verification_finished", "fully_verified": True, "passed": 2, "doubtful": 0, "failed": 0},
        {"type": "done", "title": question, "verified": True},
    ]


class Standin:
    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.runs: dict[str, StandinRun] = {}
        self.router = self._routes()

    def _evidence(self) -> list[Any]:
        return list(self.store.evidence_page("", 10, None))

    def report(self, run: StandinRun) -> dict[str, Any]:
        views = self._evidence()
        sentences = [{"text": f"{v.quote} [{v.id}]", "citations": [v.id], "key": True, "kind": "claim"}
                     for v in views[:2]]
        return {"run_id": run.id, "question": run.question, "style": "report", "title": run.question,
                "verified": True, "method": "deterministic", "sections": [
                    {"question_id": "Q-1", "title": "Throughput", "role": "core", "sentences": sentences}],
                "evidence": [v.model_dump(mode="json") for v in views[:2]], "conflicts": [],
                "verification": {}, "metrics": {}, "plan": {}}

    def _summary(self, run: StandinRun) -> dict[str, Any]:
        return {"id": run.id, "question": run.question, "status": "done" if run.done else "running",
                "stage": "done" if run.done else "gather"}

    def _routes(self) -> APIRouter:
        r = APIRouter(prefix="/runs")

        @r.post("", status_code=202)
        def start(body: dict[str, Any] = Body(...)) -> JSONResponse:  # noqa: B008
            run_id = "R-" + uuid.uuid4().hex[:12]
            question = str(body.get("question", ""))
            self.runs[run_id] = StandinRun(run_id, question, script(question, [v.id for v in self._evidence()]))
            return JSONResponse({"id": run_id, "status": "queued"}, status_code=202,
                                headers={"Location": f"/runs/{run_id}"})

        @r.get("")
        def list_runs() -> dict[str, Any]:
            return {"items": [self._summary(x) for x in reversed(self.runs.values())], "next_cursor": None}

        @r.get("/{run_id}")
        def get_run(run_id: str) -> dict[str, Any]:
            return self._summary(self._run(run_id))

        @r.get("/{run_id}/report")
        def get_report(run_id: str) -> dict[str, Any]:
            run = self._run(run_id)
            if not run.done:
                raise HTTPException(409, "the run is not done")
            return self.report(run)

        @r.get("/{run_id}/events")
        def events(run_id: str, last_event_id: str | None = Header(None)) -> StreamingResponse:
            run = self._run(run_id)
            start = int(last_event_id) if last_event_id and last_event_id.isdigit() else 0
            return StreamingResponse(self._stream(run, start), media_type="text/event-stream")

        return r

    def _run(self, run_id: str) -> StandinRun:
        run = self.runs.get(run_id)
        if run is None:
            raise HTTPException(404, f"no run {run_id}")
        return run

    async def _stream(self, run: StandinRun, after: int) -> AsyncIterator[str]:
        for seq, ev in enumerate(run.events, start=1):
            if seq <= after:
                continue
            if ev["type"] == "done":
                while not run.release.is_set():
                    await asyncio.sleep(0.05)
            else:
                await asyncio.sleep(0.05)
            record = {"run_id": run.id, "seq": seq, "at": int(time.time() * 1000), "event": ev}
            yield f"id: {seq}\nevent: {ev['type']}\ndata: {json.dumps(record)}\n\n"
