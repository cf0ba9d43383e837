"""The research run as a library call: `research(options, services) -> Report`.

It runs (or resumes) a run inside the caller's event loop, persists its state and events to the graph, and
returns the `Report` model; it writes no files and installs nothing on the loop. `write_report_files` and
`run_research` (a blocking wrapper for scripts and the CLI) are the only places that touch the file system.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from pathlib import Path

from openresearch.agents.run.components import Components
from openresearch.agents.run.event_writer import EventWriter, resume_seq
from openresearch.agents.run.events import (
    EVENT_ADAPTER,
    EventBus,
    EventRecord,
    RunFinished,
    Subscriber,
)
from openresearch.agents.run.lease import keep_alive
from openresearch.agents.run.research import ResearchRun, RunResult
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services, default_embedder, open_services
from openresearch.agents.run.state import Counters
from openresearch.agents.write.report import to_html, to_markdown
from openresearch.agents.write.report_model import Report
from openresearch.config import Settings
from openresearch.errors import InputError
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.output_dir import REPORT_FILES, write_files

__all__ = ["default_embedder", "open_services", "persist_events", "replay_events", "research", "run_research",
           "stored_report", "to_report", "write_report_files"]


def to_report(result: RunResult) -> Report:
    return Report(
        run_id=result.run_id, question=result.options.question, style=result.options.style,
        title=result.draft.title, verified=result.verification.fully_verified, method=result.draft.method,
        limited=result.limited, low_precision=result.low_precision, sections=result.draft.sections,
        evidence=sorted(result.evidence.values(), key=lambda e: e.id), verification=result.verification,
        conflicts=result.conflicts, metrics=result.metrics.as_dict(), plan=result.plan)


def persist_events(store: GraphStore) -> EventWriter:
    """The subscriber that stores every event in the graph (an API client that reconnects replays them), on
    its own thread in batches (event_writer.py); `close()` it to wait until all are stored."""
    return EventWriter(store)


def replay_events(store: GraphStore, run_id: str, after: int = 0, limit: int = 1000) -> list[EventRecord]:
    """A run's persisted events after sequence number `after`, in order."""
    return [EventRecord(run_id=run_id, seq=int(r["seq"]), at=int(r["at"] or 0),
                        event=EVENT_ADAPTER.validate_json(r["data"]))
            for r in store.run_events(run_id, after, limit)]


def stored_report(store: GraphStore, run_id: str) -> Report:
    """The Report a finished run stored. NotFound when it has none."""
    from openresearch.errors import NotFound

    row = store.get_report(run_id)
    if not row.get("json"):
        raise NotFound(f"run {run_id} has a report stored before reports were kept as JSON; resume it to rebuild")
    return Report.model_validate_json(row["json"])


async def research(options: RunOptions, services: Services, *, resume: str | None = None,
                   run_id: str | None = None, events: EventBus | None = None,
                   subscribers: Iterable[Subscriber] = (), components: Components | None = None) -> Report:
    """Run a research run (or resume run `resume`) in the running event loop and return its Report.

    Its events go to the graph first, then to `subscribers` and whatever subscribed to `events`. State is
    persisted at every stage, so a run killed at any point resumes with `resume=RUN_ID`; resuming a run that
    is already done returns its stored report. Cancelling the task marks the run `cancelled`. `run_id` names a
    new run (a caller that must know it before the run starts); by default one is made from the question."""
    store = services.store
    plan = None
    counters = None
    started = None
    if resume:
        stored = await asyncio.to_thread(store.get_run, resume)
        if stored["status"] == "done":
            return await asyncio.to_thread(stored_report, store, resume)
        options = RunOptions.model_validate(stored["options"]).model_copy(update={"out": options.out,
                                                                                   "workers": options.workers})
        plan, run_id, started = stored["plan"], resume, stored.get("started_at")
        counters = Counters.from_dict(stored.get("progress") or {})
    bus = events or EventBus()
    run = ResearchRun(options, store, services.embedder, services.settings,
                      components or services.components(options), run_id=run_id, events=bus, counters=counters,
                      started_ms=started)
    bus.bind(run.run_id, await asyncio.to_thread(resume_seq, store, run.run_id))
    writer = EventWriter(store, run.run_id)
    unsubscribe: list[Callable[[], None]] = [bus.subscribe(writer, first=True)]
    unsubscribe += [bus.subscribe(fn) for fn in subscribers]
    # this process still runs it (lease.py): another process does not take it for one whose owner is gone
    beat = asyncio.create_task(keep_alive(store, lambda: [run.run_id]), name=f"heartbeat-{run.run_id}")
    try:
        result = await run.run(resume_plan=plan)
        report = to_report(result)
        await run.io(run.state.finish, report)
        bus.emit(RunFinished(title=report.title, verified=report.verified))
        return report
    finally:
        beat.cancel()
        for off in unsubscribe:
            off()
        # every event stored before the run returns: a finished run replays its whole history from the graph
        await asyncio.shield(asyncio.to_thread(writer.close))
        run.close()


def write_report_files(report: Report, out: Path) -> None:
    """report.md, .json and .html in ``out``, each written whole to a temporary name and renamed: a symbolic
    link planted at one of the names is replaced, never followed (output_dir.py)."""
    md, js, html = REPORT_FILES
    write_files(out, {md: to_markdown(report),
                      js: json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False),
                      html: to_html(report)})


def run_research(options: RunOptions, store: GraphStore, settings: Settings, *, embedder: Embedder | None = None,
                 components: Components | None = None, resume: str | None = None,
                 subscribers: Iterable[Subscriber] = ()) -> Report:
    """Blocking convenience for scripts and the CLI: `research` in a fresh event loop, then the report files
    under `options.out`."""
    with open_services(settings, store=store, embedder=embedder) as services:
        report = asyncio.run(research(options, services, resume=resume, subscribers=subscribers,
                                      components=components))
    try:
        write_report_files(report, options.out)
    except (OSError, InputError) as e:  # the run is done and stored: say where it is, in one line
        why = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.strerror else str(e)
        raise InputError(f"run {report.run_id} finished and is stored in the graph, but its files were not written "
                         f"to {options.out}: {why}") from None
    return report
