"""The MCP tools' parameter types, answers and error handling (mcp_server.py builds the tools from them).

Parameters are typed, described and bounded as the API's query and path parameters are; `ToolServer` turns
every refusal into one line naming what was refused.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import date
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from openresearch.agents.run.events import EventRecord
from openresearch.agents.run.manager import RunManager
from openresearch.errors import OpenResearchError
from openresearch.models import EvidenceView

RunStatusName = Literal["queued", "running", "done", "failed", "cancelled", "interrupted"]
ConflictStatusFilter = Literal["open", "resolved", "stale", "all"]
MAX_EVIDENCE_HITS = 100
MAX_CONFLICTS = 500
MAX_EVENTS = 500
MAX_WAIT_S = 30.0

# parameters shared by several tools: typed, described and bounded as the API's query and path parameters
RunId = Annotated[str, Field(min_length=1, max_length=200, description="A run id (run-…), as start_research "
                                                                       "returned it.")]
EntityName = Annotated[str, Field(min_length=1, max_length=200, description="An entity name or alias, any case "
                                                                            "('kafka' finds Apache Kafka).")]
MetricName = Annotated[str, Field(min_length=1, max_length=200, description="A metric (e.g. throughput); "
                                                                            "spelling variants normalise.")]
AsOf = Annotated[date | None, Field(description="A day, YYYY-MM-DD: the values current at its end (UTC); "
                                                "default: now.")]
KnownOn = Annotated[date | None, Field(description="A day, YYYY-MM-DD: as the graph held its values at its end "
                                                   "(UTC; recorded by then, not yet retracted); default: now.")]
Note = Annotated[str, Field(max_length=4000, description="Why, in a sentence or two.")]
Author = Annotated[str, Field(min_length=1, max_length=200, description="Who judges (a name or handle).")]


class RunStarted(BaseModel):
    run_id: str
    status: RunStatusName = "queued"


class RunStatus(BaseModel):
    run_id: str
    question: str
    status: RunStatusName
    stage: str | None = None
    active: bool = Field(default=False, description="Queued or running in this server (cancellable).")
    last_event: int = Field(default=0, description="Sequence number of its last stored event (run_events).")
    metrics: dict[str, Any] | None = None


class ReportText(BaseModel):
    run_id: str
    title: str
    verified: bool
    format: Literal["markdown", "json"]
    content: str


class EvidenceHit(BaseModel):
    id: str
    quote: str
    type: str
    source_title: str | None
    source_url: str
    entities: list[str]
    score: float | None = None


class RunEvents(BaseModel):
    run_id: str
    events: list[EventRecord] = Field(description="In order; each `seq` is one more than the last seen.")
    next_after: int = Field(description="Pass as `after` to read on from here.")
    finished: bool = Field(description="The run's final event (done or failed/cancelled) is among those read.")


# what a client may assume of each tool: reads change nothing; judgements add a node each time; cancel stops work
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
JUDGE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
START = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True)
CANCEL = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False)


def hit(e: EvidenceView, score: float | None = None) -> EvidenceHit:
    return EvidenceHit(id=e.id, quote=e.quote, type=e.type, source_title=e.source.title, source_url=e.source.url,
                       entities=list(e.entities), score=score)


def one_line(exc: ValidationError) -> str:
    """A validation error as one line naming each refused parameter: 'limit: Input should be less than or equal
    to 100 (got 1000)'. Pure."""
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "__root__") or "arguments"
        got = err.get("input")
        shown = "" if isinstance(got, dict) or got is None else f" (got {repr(got)[:60]})"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}{shown}")
    return "; ".join(parts).replace("\n", " ")


class ToolServer(MCPServer[Any]):
    """The SDK's server, with every refusal a one-line tool error: a parameter the schema refuses names the
    parameter; a domain error (InputError, NotFound, a run that cannot be cancelled) keeps its own line, as the
    API's problem details do. Anything else stays the SDK's generic error, logged with its traceback."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
                        ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            cause = e.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(f"{name}: {one_line(cause)}") from cause
            if isinstance(cause, OpenResearchError | ToolError):
                text = " ".join(str(cause).split()) or type(cause).__name__
                raise ToolError(f"{name}: {text}") from cause
            raise


async def live_events(m: RunManager, run_id: str, after: int, limit: int, wait_s: float) -> list[EventRecord]:
    """The run's events after `after` from the run manager (stored, then live), as soon as there are any: what
    is ready then (up to `limit`, or up to its final event); nothing when none came within `wait_s` seconds."""
    got: list[EventRecord] = []
    ready = asyncio.Event()

    async def collect() -> None:
        async with contextlib.aclosing(m.events(run_id, after)) as records:  # type: ignore[type-var]
            async for r in records:
                got.append(r)
                ready.set()
                if len(got) >= limit or r.terminal:
                    return

    task = asyncio.create_task(collect())
    waiter = asyncio.create_task(ready.wait())
    try:
        await asyncio.wait([task, waiter], timeout=wait_s, return_when=asyncio.FIRST_COMPLETED)
        # a stored page arrives in one go: let the collector take what is already there before answering
        seen = -1
        while not task.done() and seen != len(got):
            seen = len(got)
            for _ in range(3):
                await asyncio.sleep(0)
    finally:
        for t in (task, waiter):
            if not t.done():
                t.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await t
    if task.done() and not task.cancelled():
        task.result()  # a failure of the stream (NotFound) is the tool's error
    return got[:limit]
