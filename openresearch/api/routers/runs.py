"""Research runs: start (202 + Location), list, status, cancel, resume, the report in JSON / Markdown / HTML,
and the live event stream as Server-Sent Events with `Last-Event-ID` replay.

Runs execute in the app's `RunManager` (agents/run/manager.py): a bounded worker pool with a queue. Its methods
run in the server's event loop, so these handlers are `async`; graph reads go to a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, StreamingResponse

from openresearch.agents.run.events import EventRecord
from openresearch.agents.run.manager import RunConflict, RunManager
from openresearch.agents.run.pipeline import stored_report
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.write.report import to_html, to_json, to_markdown
from openresearch.api.deps import ApiState, StateDep, page_size
from openresearch.api.pagination import CursorParam, LimitParam, Page, decode_cursor, offset_of, offset_page
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.api.schemas import RunAccepted, RunDetail, RunRequest, RunSummary
from openresearch.boundary import Door
from openresearch.errors import InputError

router = APIRouter(prefix="/runs", tags=["runs"], responses={404: PROBLEM_RESPONSES[404]})
RunId = Annotated[str, Path(max_length=200, description="A run id (run-…).")]
KEEPALIVE_S = 15.0  # an SSE comment while a run is quiet, so proxies keep the stream open
FORMATS = {"json": "application/json", "md": "text/markdown", "html": "text/html"}
MAX_RUNS_LISTED = 10_000


def manager(st: ApiState) -> RunManager:
    runs: RunManager = st.runs
    return runs


def door(st: ApiState) -> Door:
    return Door.service(st.settings, "api")


def run_options(body: RunRequest) -> RunOptions:
    """The request as RunOptions; the run manager checks them at the boundary (boundary.py)."""
    return RunOptions(question=body.question, sources=body.sources, style=body.style, budget=body.budget,
                      max_sub_questions=body.max_sub_questions, language=body.language, offline=body.offline,
                      workers=body.workers)


@router.post("", status_code=202, response_model=RunAccepted,
             responses={400: PROBLEM_RESPONSES[400], 413: PROBLEM_RESPONSES[413], 503: PROBLEM_RESPONSES[503]})
async def start_run(st: StateDep, body: RunRequest, request: Request, response: Response) -> RunAccepted:
    """Queue a research run; 202 with its id and `Location`. Beyond the queue's size: 503, try again later."""
    runs = manager(st)
    if runs.pending() >= st.settings.api_run_workers + st.settings.api_run_queue:
        raise HTTPException(503, "the run queue is full; try again later", headers={"Retry-After": "30"})
    run_id = await runs.submit(run_options(body), door=door(st))
    response.headers["Location"] = f"/runs/{run_id}"
    return RunAccepted(id=run_id, status="queued", location=f"/runs/{run_id}", events=f"/runs/{run_id}/events",
                       report=f"/runs/{run_id}/report")


@router.get("", response_model=Page[RunSummary], responses={400: PROBLEM_RESPONSES[400]})
async def list_runs(st: StateDep, cursor: CursorParam = None, limit: LimitParam = None) -> Page[RunSummary]:
    """Runs, newest first."""
    size = page_size(st, limit)
    offset = offset_of(decode_cursor(cursor))
    rows = await asyncio.to_thread(st.store.list_runs, min(MAX_RUNS_LISTED, offset + size + 1))
    return offset_page([RunSummary.model_validate(r) for r in rows], offset, size)


@router.get("/{run_id}", response_model=RunDetail)
async def get_run(st: StateDep, run_id: RunId) -> RunDetail:
    """Status, stage, options, metrics and the number of the last event of one run."""
    run = await asyncio.to_thread(st.store.get_run, run_id)
    last = await asyncio.to_thread(st.store.last_run_event, run_id)
    plan = run.get("plan")
    return RunDetail(id=run["id"], question=run["question"], status=run["status"], stage=run.get("stage"),
                     started_at=run.get("started_at"), finished_at=run.get("finished_at"),
                     options=run.get("options") or {}, metrics=run.get("metrics"), progress=run.get("progress") or {},
                     sub_questions=[q.text for q in plan.sub_questions] if plan else [],
                     active=manager(st).active(run_id), last_event=last)


@router.delete("/{run_id}", status_code=202, response_model=RunDetail, responses={409: PROBLEM_RESPONSES[409]})
async def cancel_run(st: StateDep, run_id: RunId) -> RunDetail:
    """Cancel a queued or running run (409 when it is neither); it ends `cancelled` and can be resumed."""
    try:
        await manager(st).cancel(run_id)
    except RunConflict as e:
        raise HTTPException(409, str(e)) from None
    return await get_run(st, run_id)


@router.post("/{run_id}/resume", status_code=202, response_model=RunAccepted, responses={409: PROBLEM_RESPONSES[409]})
async def resume_run(st: StateDep, run_id: RunId, response: Response) -> RunAccepted:
    """Queue a cancelled, failed or interrupted run again; it continues from its last persisted stage."""
    try:
        await manager(st).resume(run_id, door=door(st))
    except RunConflict as e:
        raise HTTPException(409, str(e)) from None
    response.headers["Location"] = f"/runs/{run_id}"
    return RunAccepted(id=run_id, status="queued", location=f"/runs/{run_id}", events=f"/runs/{run_id}/events",
                       report=f"/runs/{run_id}/report")


_REPORT_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "The report: JSON (the Report model), Markdown or HTML by Accept or suffix.",
          "content": {"application/json": {}, "text/markdown": {}, "text/html": {}}},
    406: PROBLEM_RESPONSES[406],
    409: PROBLEM_RESPONSES[409],
}


def pick_format(accept: str | None) -> Literal["json", "md", "html"] | None:
    """The first acceptable of JSON, Markdown, HTML in the Accept header's order of preference. Pure."""
    if not accept:
        return "json"
    prefs: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")):
        media, *params = [p.strip() for p in part.split(";")]
        q = 1.0
        for p in params:
            if p.startswith("q="):
                with contextlib.suppress(ValueError):
                    q = float(p[2:])
        prefs.append((-q, i, media.lower()))
    for _, _, media in sorted(prefs):
        if media in ("application/json", "*/*", "application/*"):
            return "json"
        if media in ("text/markdown", "text/x-markdown", "text/plain"):
            return "md"
        if media in ("text/html", "text/*", "application/xhtml+xml"):
            return "html"
    return None


async def _report(st: ApiState, run_id: str, fmt: str) -> Response:
    run = await asyncio.to_thread(st.store.get_run, run_id)
    if run["status"] != "done":
        raise HTTPException(409, f"run {run_id} is {run['status']}; its report comes when it is done")
    report = await asyncio.to_thread(stored_report, st.store, run_id)
    if fmt == "md":
        return PlainTextResponse(to_markdown(report), media_type="text/markdown; charset=utf-8")
    if fmt == "html":
        return HTMLResponse(to_html(report))
    return JSONResponse(to_json(report))


@router.get("/{run_id}/report", responses=_REPORT_RESPONSES, response_class=Response)
async def get_report(st: StateDep, run_id: RunId, accept: Annotated[str | None, Header()] = None) -> Response:
    """The finished run's report; the format by `Accept` (application/json, text/markdown, text/html)."""
    fmt = pick_format(accept)
    if fmt is None:
        raise HTTPException(406, "acceptable: application/json, text/markdown, text/html")
    return await _report(st, run_id, fmt)


@router.get("/{run_id}/report.{fmt}", responses=_REPORT_RESPONSES, response_class=Response)
async def get_report_as(st: StateDep, run_id: RunId, fmt: Literal["json", "md", "html"]) -> Response:
    """The finished run's report as report.json, report.md or report.html."""
    return await _report(st, run_id, fmt)


def sse(record: EventRecord) -> str:
    """One Server-Sent Event: the sequence number as its id, the event type as its name, the record as data."""
    data = json.dumps(record.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
    return f"id: {record.seq}\nevent: {record.event.type}\ndata: {data}\n\n"


async def stream(runs: RunManager, run_id: str, after: int, keepalive: float = KEEPALIVE_S) -> AsyncIterator[str]:
    """The run's events after `after` as SSE text; comments keep a quiet stream open; ends with the run."""
    queue: asyncio.Queue[EventRecord | None] = asyncio.Queue()

    async def pump() -> None:
        try:
            async for record in runs.events(run_id, after):
                await queue.put(record)
        finally:
            await queue.put(None)

    task = asyncio.create_task(pump())
    try:
        yield "retry: 2000\n\n"
        while True:
            try:
                record = await asyncio.wait_for(queue.get(), keepalive)
            except TimeoutError:
                yield ": keepalive\n\n"
                continue
            if record is None:
                break
            yield sse(record)
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


@router.get("/{run_id}/events", response_class=StreamingResponse,
            responses={200: {"description": "text/event-stream: one event per record, `id` = its sequence number",
                             "content": {"text/event-stream": {}}}, 400: PROBLEM_RESPONSES[400]})
async def events(st: StateDep, run_id: RunId,
                 last_event_id: Annotated[str | None, Header(max_length=20)] = None,
                 after: Annotated[int | None, Query(ge=0, description="Replay after this sequence number (what "
                                                    "Last-Event-ID says, for clients that cannot set it).")] = None,
                 ) -> StreamingResponse:
    """The run's events as Server-Sent Events: its whole history, then live ones until it ends. A client that
    reconnects with `Last-Event-ID: N` (or `?after=N`) receives exactly the events after N."""
    start = after or 0
    if last_event_id:
        if not last_event_id.strip().isdigit():
            raise InputError("Last-Event-ID must be an event's sequence number")
        start = max(start, int(last_event_id.strip()))
    await asyncio.to_thread(st.store.get_run, run_id)  # NotFound (404) before the stream starts
    return StreamingResponse(stream(manager(st), run_id, start), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
