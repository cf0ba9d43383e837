"""The research run as a library call: `research(options, services)` in the caller's event loop, typed events
numbered and persisted, the Report model stored, cancel then resume with nothing duplicated."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from openresearch.agents.run.events import EventRecord
from openresearch.agents.run.pipeline import replay_events, research, stored_report, write_report_files
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services, open_services
from openresearch.agents.write.report_model import Report
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder

pytestmark = pytest.mark.integration
Q = "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?"


def options(corpus: Path, tmp_path: Path, question: str = Q) -> RunOptions:
    return RunOptions(question=question, sources=[f"local:{corpus}"], offline=True, out=tmp_path / "out", workers=2)


def test_research_in_the_callers_loop_emits_numbered_persisted_events(store: GraphStore, corpus: Path,
                                                                      offline_services: Services,
                                                                      tmp_path: Path) -> None:
    services = offline_services
    seen: list[EventRecord] = []

    async def main() -> Report:
        loop = asyncio.get_running_loop()
        mine = ThreadPoolExecutor(max_workers=2)
        loop.set_default_executor(mine)
        report = await research(options(corpus, tmp_path), services, subscribers=[seen.append])
        assert getattr(loop, "_default_executor", None) is mine, "research() must not swap the loop's executor"
        return report

    report = asyncio.run(main())
    assert not (tmp_path / "out").exists(), "the library call writes no files"
    assert [r.seq for r in seen] == list(range(1, len(seen) + 1))
    assert {r.run_id for r in seen} == {report.run_id}
    types = [r.event.type for r in seen]
    assert types[0] == "stage_started" and types[-1] == "done"
    for needed in ("plan_ready", "sources_indexed", "question_progress", "evidence_added", "section_written",
                   "verification_finished"):
        assert needed in types, needed
    stages = [r.event.stage for r in seen if r.event.type == "stage_started"]
    assert stages == ["plan", "index", "gather", "write", "verify"]
    # every event is in the graph, in order, and a reconnect after N gets exactly the rest
    stored = replay_events(store, report.run_id)
    assert [r.model_dump() for r in stored] == [r.model_dump() for r in seen]
    assert [r.seq for r in replay_events(store, report.run_id, after=5)] == list(range(6, len(seen) + 1))
    # the Report is the one source of report.json, and the graph keeps it
    again = stored_report(store, report.run_id)
    assert again == report
    assert report.sections and report.evidence and report.verification.phantom_citations == 0
    run = store.get_run(report.run_id)
    assert run["status"] == "done" and run["metrics"] == report.metrics
    assert run["progress"]["searches_total"] > 0
    write_report_files(report, tmp_path / "files")
    assert json.loads((tmp_path / "files" / "report.json").read_text("utf-8")) == report.model_dump(mode="json")
    # resuming a finished run returns its stored report and runs nothing
    n = len(replay_events(store, report.run_id))
    assert asyncio.run(research(options(corpus, tmp_path), services, resume=report.run_id)) == report
    assert len(replay_events(store, report.run_id)) == n


def test_two_runs_share_one_event_loop(store: GraphStore, corpus: Path, offline_services: Services,
                                       tmp_path: Path) -> None:
    services = offline_services

    async def main() -> list[Report]:
        return list(await asyncio.gather(
            research(options(corpus, tmp_path), services),
            research(options(corpus, tmp_path, "Kafka 和 RabbitMQ 哪个吞吐量更高?"), services)))

    a, b = asyncio.run(main())
    assert a.run_id != b.run_id and a.sections and b.sections
    assert {store.get_run(a.run_id)["status"], store.get_run(b.run_id)["status"]} == {"done"}


def test_cancel_then_resume_duplicates_nothing(store: GraphStore, corpus: Path, offline_services: Services,
                                               tmp_path: Path) -> None:
    services = offline_services
    seen: list[EventRecord] = []

    async def cancel_after_first_evidence() -> str:
        added = asyncio.Event()
        loop = asyncio.get_running_loop()

        def watch(r: EventRecord) -> None:
            seen.append(r)
            if r.event.type == "evidence_added":
                loop.call_soon_threadsafe(added.set)

        task = asyncio.create_task(research(options(corpus, tmp_path), services, subscribers=[watch]))
        await added.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return seen[0].run_id

    run_id = asyncio.run(cancel_after_first_evidence())
    assert store.get_run(run_id)["status"] == "cancelled"
    last = replay_events(store, run_id)[-1]
    assert last.event.type == "failed" and last.event.status == "cancelled"  # type: ignore[union-attr]
    before = len(replay_events(store, run_id))

    resumed = asyncio.run(research(options(corpus, tmp_path), services, resume=run_id))
    assert resumed.run_id == run_id and store.get_run(run_id)["status"] == "done"
    events = replay_events(store, run_id)
    assert [r.seq for r in events] == list(range(1, len(events) + 1)), "numbering continues; nothing repeats"
    assert len(events) > before and events[-1].event.type == "done"
    # nothing doubled: one Run, one Report, evidence ids unique
    counts = store.backend.read("MATCH (r:Run {id: $id})-[:PRODUCED]->(rep:Report) RETURN count(rep) AS n",
                                {"id": run_id})
    assert counts[0]["n"] == 1
    ids = [e.id for e in resumed.evidence]
    assert len(ids) == len(set(ids))


def test_open_services_opens_and_closes_the_graph(store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    with open_services(settings, store=store, embedder=embedder) as services:
        assert services.store is store and services.embedder is embedder
        assert services.components(RunOptions(question=Q, offline=True)).llm is None
    assert store.ping()  # a store passed in is left open
