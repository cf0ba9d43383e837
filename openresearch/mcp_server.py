"""OpenResearch as MCP tools (official `mcp` SDK): start, follow, cancel a research run and read its events and
report; search evidence, compare entities, list and resolve conflicts, show an evidence item's provenance and
give feedback on it.

`openresearch mcp` serves them over stdio (an agent launches it as a subprocess); the HTTP API mounts the same
server at `/mcp` (streamable HTTP). Runs go through a `RunManager`, so a run started by a tool keeps going in
the background and its status and report are read from the graph.

MCP is a client like the HTTP API, so the tools answer with the API's own functions and models
(api/routers/*, api/schemas.py, graph/judgements.py): the same validation, alias resolution, conflict rule and
resolutions. Every parameter is typed, described and bounded in the tool's schema (dates as dates, statuses as
enums); a refused value is one line naming the parameter, not a traceback.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from openresearch import __version__
from openresearch.agents.run.manager import RunManager
from openresearch.agents.run.pipeline import replay_events, stored_report
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.agents.write.report import to_markdown
from openresearch.api.routers.compare import comparison
from openresearch.api.routers.conflicts import conflicts_out
from openresearch.api.routers.evidence import entity_ids, entity_keys, search_page
from openresearch.api.routers.runs import run_options
from openresearch.api.schemas import CompareOut, ConflictOut, EvidenceDetail, RunRequest
from openresearch.boundary import MAX_QUESTION_CHARS, Door
from openresearch.graph.judgements import (
    RESOLUTION_IN,
    Decision,
    Feedback,
    FeedbackIn,
    FeedbackVerdict,
    Resolution,
    TargetKind,
    status_matches,
)
from openresearch.mcp_types import (
    CANCEL,
    JUDGE,
    MAX_CONFLICTS,
    MAX_EVENTS,
    MAX_EVIDENCE_HITS,
    MAX_WAIT_S,
    READ,
    START,
    AsOf,
    Author,
    ConflictStatusFilter,
    EntityName,
    EvidenceHit,
    KnownOn,
    MetricName,
    Note,
    ReportText,
    RunEvents,
    RunId,
    RunStarted,
    RunStatus,
    ToolServer,
    hit,
    live_events,
)
from openresearch.models import Style

INSTRUCTIONS = (
    "OpenResearch answers research questions with cited evidence from a knowledge graph. Start a run with "
    "start_research, follow it with run_status or run_events until it is 'done', then read get_report; "
    "cancel_run stops it. search_evidence, compare_entities, list_conflicts and provenance read what the graph "
    "already holds (entity names resolve through aliases and any case, as in the HTTP API); resolve_conflict "
    "and give_feedback record people's judgements. Every evidence id (E-…) resolves to a verbatim quote with "
    "its source.")


def build_server(services: Services, manager: RunManager | None = None, *, own_manager: bool = True,
                 workers: int = 1, door: Door | None = None,
                 on_change: Callable[[], None] | None = None) -> MCPServer[Any]:
    """The MCP server over `services`. Without a `manager`, one is started in the server's lifespan. Runs
    are checked at `door` (default: the configured local roots, like the API's). `on_change` is called after a
    tool changed a judgement (the API passes its cache's invalidate, so GET /conflicts sees it at once)."""
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

    server = ToolServer("openresearch", version=__version__, instructions=INSTRUCTIONS, lifespan=lifespan)
    store = services.store
    settings = services.settings
    changed = on_change or (lambda: None)

    def runs() -> RunManager:
        if "m" not in holder:
            raise RuntimeError("the run manager is not started")
        return holder["m"]

    def status_of(run_id: str) -> RunStatus:
        r = store.get_run(run_id)  # NotFound for an unknown id
        return RunStatus(run_id=r["id"], question=r["question"], status=r["status"], stage=r.get("stage"),
                         active=runs().active(run_id), last_event=store.last_run_event(run_id),
                         metrics=r.get("metrics"))

    # --- runs -------------------------------------------------------------------------------------------
    @server.tool(annotations=START,
                 description="Start a research run in the background; returns its run id. Sources: web, arxiv, "
                 "scholar or local:PATH under a folder OPENRESEARCH_API_LOCAL_ROOTS allows (default: those "
                 "folders, or web when none is configured). The same checks as POST /runs.")
    async def start_research(
        question: Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                                       description="The research question, in English or Chinese.")],
        sources: Annotated[list[Annotated[str, Field(min_length=1, max_length=1000)]] | None,
                           Field(min_length=1, max_length=10, description="web | arxiv | scholar | local:PATH "
                                 "(repeat for several); default: the allowed local folders, else web.")] = None,
        offline: Annotated[bool, Field(description="Deterministic methods only (no LLM).")] = False,
        style: Annotated[Style, Field(description="brief, report or review.")] = "report",
        budget: Annotated[int, Field(ge=3, le=40, description="Sum of sub-question depths.")] = 15,
        language: Annotated[Literal["auto", "en", "zh"], Field(description="The report's language.")] = "auto",
    ) -> RunStarted:
        default = [f"local:{r}" for r in door.local_roots or ()] or ["web"]
        body = RunRequest(question=question, sources=sources or default, offline=offline, style=style,
                          budget=budget, language=language)
        opts: RunOptions = run_options(body)
        m = runs()
        if m.pending() >= settings.api_run_workers + settings.api_run_queue:
            raise ToolError("the run queue is full; try again later")
        return RunStarted(run_id=await m.submit(opts, door=door))  # InputError: the boundary's one line

    @server.tool(annotations=READ,
                 description="Status, stage, whether it is still queued or running here, the number of its "
                 "last event and (when finished) metrics of a run.")
    def run_status(run_id: RunId) -> RunStatus:
        return status_of(run_id)

    @server.tool(annotations=CANCEL,
                 description="Cancel a queued or running run (as DELETE /runs/{id}); it ends 'cancelled' and "
                 "can be resumed through the API. A run that is not queued or running here is refused.")
    async def cancel_run(run_id: RunId) -> RunStatus:
        await runs().cancel(run_id)  # RunConflict / NotFound: one line
        return await asyncio.to_thread(status_of, run_id)

    @server.tool(annotations=READ,
                 description="A run's events after sequence number `after` (as GET /runs/{id}/events): stage "
                 "changes, evidence added, sections written, the final done/failed event. With wait_s > 0 it "
                 "waits up to that long for new events of a live run; pass the answer's next_after as `after` "
                 "to read on.")
    async def run_events(
        run_id: RunId,
        after: Annotated[int, Field(ge=0, description="Only events after this sequence number (0: from the "
                                                      "start).")] = 0,
        limit: Annotated[int, Field(ge=1, le=MAX_EVENTS, description="At most this many events.")] = 100,
        wait_s: Annotated[float, Field(ge=0, le=MAX_WAIT_S, description="Seconds to wait for live events "
                                                                        "(0: what is stored now).")] = 0,
    ) -> RunEvents:
        await asyncio.to_thread(store.get_run, run_id)  # NotFound for an unknown id
        if wait_s <= 0:
            got = await asyncio.to_thread(replay_events, store, run_id, after, limit)
        else:
            got = await live_events(runs(), run_id, after, limit, wait_s)
        return RunEvents(run_id=run_id, events=got, next_after=got[-1].seq if got else after,
                         finished=any(r.terminal for r in got))

    @server.tool(annotations=READ,
                 description="The report of a finished run, as Markdown (default) or JSON.")
    def get_report(run_id: RunId, format: Annotated[Literal["markdown", "json"], Field(
            description="markdown or json (the Report model).")] = "markdown") -> ReportText:
        run = store.get_run(run_id)
        if run["status"] != "done":
            raise ToolError(f"run {run_id} is {run['status']}; its report comes when it is done")
        report = stored_report(store, run_id)
        content = to_markdown(report) if format == "markdown" else report.model_dump_json()
        return ReportText(run_id=run_id, title=report.title, verified=report.verified, format=format,
                          content=content)

    # --- the graph ----------------------------------------------------------------------------------------
    @server.tool(annotations=READ,
                 description="Full-text search over evidence quotes (as GET /evidence?q=&entity=), best first; "
                 "with `entity`, only items mentioning it (aliases and any case resolve).")
    def search_evidence(
        query: Annotated[str, Field(max_length=500, description="Words the quote should contain; may be empty "
                                                                "when `entity` is given.")] = "",
        entity: EntityName | None = None,
        limit: Annotated[int, Field(ge=1, le=MAX_EVIDENCE_HITS, description="At most this many items.")] = 10,
    ) -> list[EvidenceHit]:
        if not query.strip() and not (entity and entity.strip()):
            raise ToolError("give query words, an entity, or both")
        if query.strip():
            page = search_page(store, query, entity_keys(store, [entity]) if entity else None, 0, limit)
            return [hit(e, e.score) for e in page.items]
        ids = entity_ids(store, [entity or ""])
        return [hit(e) for e in store.evidence_page("", limit, ids)] if ids else []

    @server.tool(annotations=READ,
                 description="Observed values of entities side by side (as GET /compare): metric -> entity -> "
                 "values, unit, conditions and the evidence ids behind each cell, with each cited quote and "
                 "source in `evidence`; the current values, those current on `as_of`, or with `superseded` "
                 "every value, superseded ones marked; as the graph held them on `known_on`. `missing` names "
                 "the entities the table has no value for.")
    def compare_entities(
        entities: Annotated[list[EntityName], Field(min_length=1, max_length=20, description="Entity names or "
                                                    "aliases, any case.")],
        metric: MetricName | None = None, as_of: AsOf = None,
        superseded: Annotated[bool, Field(description="Superseded values too, each cell saying which.")] = False,
        known_on: KnownOn = None,
    ) -> CompareOut:
        return comparison(store, entities, metric, as_of, superseded, known_on)

    @server.tool(annotations=READ,
                 description="Disagreements between sources (as GET /conflicts): one group per entity + metric + "
                 "condition with every value, its evidence and sources, whether someone resolved it and how; "
                 "among the current values (a superseded value is never in conflict), or those current on "
                 "`as_of`, as the graph held them on `known_on`; a resolution given before the group's values "
                 "changed is stale (status `stale`, listed with the open ones).")
    def list_conflicts(
        entity: EntityName | None = None, metric: MetricName | None = None,
        status: Annotated[ConflictStatusFilter, Field(description="open (stale ones too), resolved, stale or all.")
                          ] = "all",
        as_of: AsOf = None, known_on: KnownOn = None,
        limit: Annotated[int, Field(ge=1, le=MAX_CONFLICTS, description="At most this many groups.")] = 50,
    ) -> list[ConflictOut]:
        rows = conflicts_out(store, entity, metric, as_of, known_on)
        return [c for c in rows if status_matches(c.status, status)][:limit]

    @server.tool(annotations=JUDGE,
                 description="Record a person's resolution of a conflict group (as POST /conflicts/{id}/"
                 "resolution): value_correct with `value`, one of the group's values; both_hold (they hold "
                 "under different conditions) or not_conflict (not the same quantity) without one.")
    def resolve_conflict(
        conflict_id: Annotated[str, Field(min_length=1, max_length=100, description="A conflict id (C-…) from "
                                                                                    "list_conflicts.")],
        decision: Annotated[Decision, Field(description="value_correct, both_hold or not_conflict.")],
        value: Annotated[float | None, Field(allow_inf_nan=False, description="The value held right (for "
                                             "value_correct only), in the group's unit.")] = None,
        note: Note = "", author: Author = "anonymous",
    ) -> Resolution:
        if (value is None) == (decision == "value_correct"):
            raise ToolError("value_correct needs `value` (one of the group's values)" if value is None else
                            f"`value` goes with decision value_correct only, not {decision}")
        fields: dict[str, Any] = {"decision": decision, "note": note, "author": author}
        if value is not None:
            fields["value"] = value
        body = RESOLUTION_IN.validate_python(fields)  # the API's body model: the API's rules
        res = store.resolve_conflict(conflict_id, body)
        changed()
        return res

    @server.tool(annotations=JUDGE,
                 description="Accept or dispute an evidence item or a source (as POST /feedback); a dispute "
                 "lowers the source's trust, which ranking and conflict credibility read.")
    def give_feedback(
        target: Annotated[TargetKind, Field(description="evidence or source.")],
        target_id: Annotated[str, Field(min_length=1, max_length=200, description="E-… or S-… id.")],
        verdict: Annotated[FeedbackVerdict, Field(description="accept or dispute.")],
        note: Note = "", author: Author = "anonymous",
    ) -> Feedback:
        fb = store.record_feedback(FeedbackIn(target=target, target_id=target_id, verdict=verdict, note=note,
                                              author=author))
        changed()
        return fb

    @server.tool(annotations=READ,
                 description="Where an evidence id comes from (as GET /evidence/{id}): the quote with its "
                 "offsets, its source (URL, title, fetch and publication time), the runs that used it and the "
                 "feedback people gave on it.")
    def provenance(evidence_id: Annotated[str, Field(min_length=1, max_length=200,
                                                     description="An evidence id (E-…).")]) -> EvidenceDetail:
        prov = store.provenance(evidence_id)
        return EvidenceDetail(**prov.model_dump(), feedback=store.feedback_on([evidence_id]))

    return server
