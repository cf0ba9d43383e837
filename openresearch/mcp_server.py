"""OpenResearch as MCP tools (official `mcp` SDK): start a research run, read its status and report, search
evidence, compare entities, list conflicts and show an evidence item's provenance.

`openresearch mcp` serves them over stdio (an agent launches it as a subprocess); the HTTP API mounts the same
server at `/mcp` (streamable HTTP). Runs go through a `RunManager`, so a run started by a tool keeps going in
the background and its status and report are read from the graph.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from pydantic import BaseModel, Field

from openresearch import __version__
from openresearch.agents.run.manager import RunManager
from openresearch.agents.run.pipeline import stored_report
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.agents.write.report import to_markdown
from openresearch.boundary import Door
from openresearch.errors import InputError, OpenResearchError
from openresearch.models import Comparison, ConflictGroup, EvidenceView, Provenance
from openresearch.monitor import asof

INSTRUCTIONS = (
    "OpenResearch answers research questions with cited evidence from a knowledge graph. Start a run with "
    "start_research, poll run_status until status is 'done', then read get_report. search_evidence, "
    "compare_entities, list_conflicts and provenance read what the graph already holds; every evidence id "
    "(E-…) resolves to a verbatim quote with its source.")


class RunStarted(BaseModel):
    run_id: str
    status: str = "queued"


class RunStatus(BaseModel):
    run_id: str
    question: str
    status: str = Field(description="queued | running | done | failed | cancelled | interrupted")
    stage: str
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


def _hit(e: EvidenceView, score: float | None = None) -> EvidenceHit:
    return EvidenceHit(id=e.id, quote=e.quote, type=e.type, source_title=e.source.title, source_url=e.source.url,
                       entities=list(e.entities), score=score)


class _Server(MCPServer[Any]):
    """The package's own errors (an unknown id, refused input, a run in the wrong state) reach the client as
    the tool's error with their one line, as the CLI and the API say them; only a crash is logged with its
    traceback (the SDK shows a client nothing but the tool's name for anything it does not expect)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as e:
            if isinstance(e.__cause__, OpenResearchError):
                raise ToolError(f"Error executing tool {name}: {e.__cause__}") from e.__cause__
            raise


def build_server(services: Services, manager: RunManager | None = None, *, own_manager: bool = True,
                 workers: int = 1, door: Door | None = None) -> MCPServer[Any]:
    """The MCP server over `services`. Without a `manager`, one is started in the server's lifespan. Runs
    are checked at `door` (default: the configured local roots, like the API's)."""
    door = door or Door.service(services.settings, "mcp")
    holder: dict[str, RunManager] = {}
    if manager is not None:
        holder["m"] = manager

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        if "m" in holder:
            yield {}
            return
        m = RunManager(services, workers=workers)
        await m.start()
        holder["m"] = m
        try:
            yield {}
        finally:
            holder.pop("m", None)
            if own_manager:
                await m.stop()

    server: MCPServer[Any] = _Server("openresearch", version=__version__, instructions=INSTRUCTIONS,
                                       lifespan=lifespan)
    store = services.store

    def runs() -> RunManager:
        if "m" not in holder:
            raise RuntimeError("the run manager is not started")
        return holder["m"]

    @server.tool(description="Start a research run in the background; returns its run id. sources: web, arxiv, "
                 "scholar or local:PATH under a folder OPENRESEARCH_API_LOCAL_ROOTS allows (default: those "
                 "folders, or web when none is configured).")
    async def start_research(question: str, sources: list[str] | None = None, offline: bool = False,
                             style: Literal["brief", "report", "review"] = "report") -> RunStarted:
        default = [f"local:{r}" for r in door.local_roots or ()] or ["web"]
        opts = RunOptions(question=question, offline=offline, style=style, sources=sources or default)
        try:
            return RunStarted(run_id=await runs().submit(opts, door=door))
        except InputError as e:  # the boundary's one line reaches the client as the tool's error
            raise ToolError(str(e)) from None

    @server.tool(description="Status, stage and (when finished) metrics of a run.")
    def run_status(run_id: str) -> RunStatus:
        r = store.get_run(run_id)
        return RunStatus(run_id=r["id"], question=r["question"], status=r["status"], stage=r["stage"],
                         metrics=r["metrics"])

    @server.tool(description="The report of a finished run, as Markdown (default) or JSON.")
    def get_report(run_id: str, format: Literal["markdown", "json"] = "markdown") -> ReportText:
        report = stored_report(store, run_id)
        content = to_markdown(report) if format == "markdown" else report.model_dump_json()
        return ReportText(run_id=run_id, title=report.title, verified=report.verified, format=format,
                          content=content)

    @server.tool(description="Full-text search over evidence quotes, optionally only items mentioning an entity.")
    def search_evidence(query: str, entity: str | None = None, limit: int = 10) -> list[EvidenceHit]:
        limit = max(1, min(limit, 100))
        hits = store.fulltext_evidence(query, limit * (5 if entity else 1))
        items = {e.id: e for e in store.evidence([i for i, _ in hits])} if hits else {}
        out = []
        want = entity.casefold() if entity else None
        for eid, score in hits:
            e = items.get(eid)
            if e is None or (want and not any(want == n.casefold() for n in e.entities)):
                continue
            out.append(_hit(e, round(score, 4)))
        return out[:limit]

    @server.tool(description="Observed values of entities side by side (metric -> entity -> values, unit, "
                 "conditions and the evidence ids behind each cell), optionally for one metric; the current "
                 "values, or those current on `as_of` (YYYY-MM-DD).")
    def compare_entities(entities: list[str], metric: str | None = None, as_of: str | None = None) -> Comparison:
        return asof.comparison(store, entities, metric, as_of=asof.parse_day(as_of, "as_of"))

    @server.tool(description="Disagreements between sources found in the graph: one group per entity + metric + "
                 "condition with every value and its evidence; among the current values, or those current on "
                 "`as_of` (YYYY-MM-DD).")
    def list_conflicts(entity: str | None = None, metric: str | None = None, limit: int = 50,
                       as_of: str | None = None) -> list[ConflictGroup]:
        n = max(1, min(limit, 500))
        if as_of is not None:
            return asof.conflicts(store, asof.parse_day(as_of, "as_of"), entity=entity, metric=metric)[:n]
        return store.conflict_groups(entity=entity, metric=metric, limit=n)

    @server.tool(description="Where an evidence id comes from: the quote with its offsets, its source (URL, "
                 "title, fetch and publication time) and the runs that used it.")
    def provenance(evidence_id: str) -> Provenance:
        return store.provenance(evidence_id)

    return server
