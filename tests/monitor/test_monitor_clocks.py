"""Issue 24 items 4-5 through the real monitor over a folder of documents edited on simulated days, on FalkorDB
and Neo4j: two clocks (`as_of`: when a value held; `known_on`: what the graph held that day, so any past day's
values and conflicts can be rebuilt), the history of an edited document kept for "as of" reads, current reads
that name an entity with nothing current in `missing`, a research run after monitoring that reads the current
versions and values only, and a resolution that goes stale when its group's values change."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from monitor_support import TINY, offline_services, write_doc

from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.plan.planner import DeterministicPlanner
from openresearch.agents.plan.rewrite import rewrite
from openresearch.agents.run.components import Components
from openresearch.agents.run.pipeline import research
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.verify.judge import EmbeddingJudge
from openresearch.agents.write.writer import DeterministicWriter
from openresearch.api import problems
from openresearch.api.deps import ApiState
from openresearch.api.routers import compare, conflicts
from openresearch.api.routers.conflicts import conflicts_out
from openresearch.config import Settings
from openresearch.graph.judgements import NoValue
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import Embedder
from openresearch.models import ExtractionResult, Plan, SourceDoc, SubQuestion
from openresearch.monitor import asof
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.edits import edited_twin
from openresearch.monitor.models import Digest
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
DAY = 86_400_000
T0 = 1_768_176_000_000  # 2026-01-12T00:00Z
Q = "What is the write throughput of AcmeDB and GammaDB?"
BODY = "AcmeDB stores data in compressed columnar blocks.\n\n{}\n\nAcmeDB keeps 30 days of data by default."


def tp(name: str, n: str) -> str:
    return f"{name} reaches a write throughput of {n} rows per second on a single node."


def day_of(ms: int) -> date:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).date()


def held(store: GraphStore, known_on: date | None = None, **kw: object) -> set[tuple[str, str]]:
    rows = asof.values(store, metric="ingest_throughput", known_on=known_on, **kw)  # type: ignore[arg-type]
    return {(str(r["entity"]), str(r["raw_value"])) for r in rows}


def acme(store: GraphStore, **kw: object) -> list[str]:
    table = asof.comparison(store, ["AcmeDB", "BetaDB"], "ingest throughput", **kw)  # type: ignore[arg-type]
    cell = table.cells.get("ingest_throughput", {}).get("AcmeDB")
    return sorted(f"{v:g}" for v, by in zip(cell.values, cell.superseded_by, strict=True) if not by) if cell else []


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)  # a long timeline: once, on the default
def test_two_clocks_over_an_edited_folder(store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_doc(corpus, "acme.md", "AcmeDB benchmark", "2020-06-01", "https://acme.example/bench",
              BODY.format(tp("AcmeDB", "120,000")))
    write_doc(corpus, "lab.md", "An AcmeDB test", "2021-06-01", "https://lab.example/acme", tp("AcmeDB", "90,000"))
    write_doc(corpus, "beta.md", "BetaDB notes", "2020-05-01", "https://beta.example/notes", tp("BetaDB", "50,000"))
    write_doc(corpus, "g1.md", "GammaDB 1.0 release notes", "2020-01-10", "https://gamma.example/releases/1.0",
              tp("GammaDB", "40,000"))
    write_doc(corpus, "g2.md", "GammaDB 2.0 release notes", "2020-08-10", "https://gamma.example/releases/2.0",
              tp("GammaDB", "60,000"))
    clock = FakeClock(T0)
    services = offline_services(store, embedder, tmp_path / "data")
    m = Monitor(services, clock=clock, lease_ms=60_000)
    tid = m.add(Q, sources=[f"local:{corpus}"], entities=["AcmeDB", "GammaDB"], every="1d", options=TINY).id
    seen: dict[date, set[tuple[str, str]]] = {}  # what the graph held right after each day's run

    def run() -> Digest:
        clock.advance(DAY)
        r = m.run_topic(tid)
        assert r is not None
        seen[day_of(clock.now)] = held(store)
        return r.digest

    run()  # day 1 (2026-01-13)
    day1 = day_of(clock.now)
    assert acme(store) == ["120000", "90000"]
    assert held(store) >= {("GammaDB", "60,000")} and ("GammaDB", "40,000") not in held(store)
    (group,) = [c for c in conflicts_out(store, entity="AcmeDB")]
    assert sorted(v.value for v in group.values) == [90000.0, 120000.0]
    store.resolve_conflict(group.id, NoValue(decision="both_hold", note="other hardware", author="analyst"))
    assert [(c.id, c.status) for c in conflicts_out(store, entity="AcmeDB")] == [(group.id, "resolved")]

    # day 2: the benchmark is edited (a new figure, a new date)
    write_doc(corpus, "acme.md", "AcmeDB benchmark", "2021-03-01", "https://acme.example/bench",
              BODY.format(tp("AcmeDB", "150,000")))
    d2 = run()
    day2 = day_of(clock.now)
    assert [(c.old_value, c.new_value) for e in d2.edited for c in e.changed] == [
        ("120,000 rows per second", "150,000 rows per second")]
    assert acme(store) == ["150000", "90000"]
    # the first clock: the edited document's earlier version still answers for the time it held
    assert acme(store, as_of=date(2020, 12, 31)) == ["120000"]
    assert acme(store, as_of=date(2021, 4, 1)) == ["150000"]
    assert acme(store, as_of=date(2021, 7, 1)) == ["150000", "90000"]
    # the second clock: what the graph held on day 1, values and conflicts
    assert acme(store, known_on=day1) == ["120000", "90000"]
    assert [sorted(v.value for v in g.values) for g in conflicts_out(store, entity="AcmeDB", known_on=day1)] == [
        [90000.0, 120000.0]]
    assert acme(store, known_on=day1, as_of=date(2020, 12, 31)) == ["120000"]
    assert acme(store, known_on=date(2026, 1, 1)) == []  # before the first run the graph held nothing
    # the group stays in view with its resolution, which is stale now that its values changed
    (now,) = conflicts_out(store, entity="AcmeDB")
    assert (now.id, now.status) == (group.id, "stale")
    assert now.resolution is not None and now.resolution.stale and now.resolution.decision == "both_hold"
    (then,) = conflicts_out(store, entity="AcmeDB", known_on=day1)
    assert then.status == "resolved"  # with the values it was resolved with

    # day 3: the figure is edited again under the same date: the newer version wins for that date
    write_doc(corpus, "acme.md", "AcmeDB benchmark", "2021-03-01", "https://acme.example/bench",
              BODY.format(tp("AcmeDB", "160,000")))
    d3 = run()
    day3 = day_of(clock.now)
    assert [(c.old_value, c.new_value) for e in d3.edited for c in e.changed] == [
        ("150,000 rows per second", "160,000 rows per second")]
    assert not [v for e in d3.edited for v in e.dropped]
    assert acme(store, as_of=date(2021, 4, 1)) == ["160000"]
    assert acme(store, as_of=date(2020, 12, 31)) == ["120000"]
    assert acme(store, known_on=day2) == ["150000", "90000"]
    assert acme(store, known_on=day3, as_of=date(2020, 12, 31)) == ["120000"]  # the history it held then
    everything = asof.comparison(store, ["AcmeDB"], "ingest throughput", include_superseded=True)
    cell = everything.cells["ingest_throughput"]["AcmeDB"]
    assert sorted((f"{v:g}", by is not None) for v, by in zip(cell.values, cell.superseded_by, strict=True)) == [
        ("120000", True), ("150000", True), ("160000", False), ("90000", False)]

    # day 4: a document is deleted: a current read names the entity it has nothing for
    (corpus / "beta.md").unlink()
    run()
    assert asof.comparison(store, ["AcmeDB", "BetaDB"], "ingest throughput").missing == ["BetaDB"]
    assert asof.comparison(store, ["AcmeDB", "BetaDB", "NoSuchDB"]).missing == ["BetaDB", "NoSuchDB"]
    assert ("BetaDB", "50,000") in held(store, known_on=day3) and ("BetaDB", "50,000") not in held(store)
    app = FastAPI()
    problems.install(app)
    app.state.api = ApiState(settings=Settings(data_dir=tmp_path / "api", api_cache_stale_s=0), store=store)
    app.include_router(compare.router)
    app.include_router(conflicts.router)
    client = TestClient(app)
    body = client.get("/compare", params={"entity": ["AcmeDB", "BetaDB"]}).json()
    assert body["missing"] == ["BetaDB"] and "AcmeDB" in body["entities"]
    then_body = client.get("/compare", params={"entity": ["AcmeDB", "BetaDB"], "known_on": str(day3)}).json()
    assert then_body["missing"] == [] and then_body["cells"]["ingest_throughput"]["BetaDB"]["values"] == [50000.0]
    old = client.get("/compare", params={"entity": "AcmeDB", "as_of": "2020-12-31"}).json()
    assert old["cells"]["ingest_throughput"]["AcmeDB"]["values"] == [120000.0]
    listed = client.get("/conflicts", params={"entity": "AcmeDB", "status": "open"}).json()["items"]
    assert [(c["id"], c["status"], c["resolution"]["stale"]) for c in listed] == [(group.id, "stale", True)]
    assert client.get("/conflicts", params={"entity": "AcmeDB", "status": "resolved"}).json()["items"] == []
    assert [c["status"] for c in client.get("/conflicts", params={"known_on": str(day1)}).json()["items"]] == [
        "resolved"]
    assert client.get("/conflicts", params={"known_on": "yesterday"}).status_code in (400, 422)

    # any past day is rebuilt from the graph: what it held at the end of each day is what that day's run left
    for day, values in seen.items():
        assert held(store, known_on=day) == values, day

    # a research run after monitoring reads the current versions and the current values only
    report = asyncio.run(research(RunOptions(question=Q, sources=[f"local:{corpus}"], offline=True,
                                             out=tmp_path / "out", workers=1, max_sub_questions=1),
                                  services))
    current = {r["id"] for r in MonitorStore(store).snapshot()}
    assert report.evidence and all(e.source.id in current for e in report.evidence)
    shown = " ".join(s.text for sec in report.sections for s in sec.sentences)
    for gone in ("120,000", "150,000", "40,000"):
        assert gone not in shown, (gone, shown)
    assert "160,000" in shown


class LeavesOut(DeterministicExtractor):
    """The deterministic extractor, but a run's reading leaves out sentences holding `figure` (as a question's
    ranking may, for a sentence an edit moved below its cut)."""

    figure = "150,000"

    def extract(self, source: SourceDoc, question: SubQuestion, plan: Plan) -> ExtractionResult:
        found = super().extract(source, question, plan)
        return ExtractionResult(items=[i for i in found.items if self.figure not in i.quote],
                                rejected=found.rejected)


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_an_edited_figure_the_run_left_out_is_reported_as_an_edit(
        store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_doc(corpus, "acme.md", "AcmeDB benchmark", "2020-06-01", "https://acme.example/bench",
              BODY.format(tp("AcmeDB", "120,000")))
    services = offline_services(store, embedder, tmp_path / "data")
    ex = LeavesOut(embedder, AliasResolver.load())
    services = replace(services, build_components=lambda o: Components(
        planner=DeterministicPlanner(embedder), rewrite=lambda q, p: rewrite(q, p, embedder=embedder),
        extractor=ex, fallback_extractor=ex, writer=DeterministicWriter(), fallback_writer=DeterministicWriter(),
        judge=EmbeddingJudge(embedder, learned=False)))
    clock = FakeClock(T0)
    m = Monitor(services, clock=clock, lease_ms=60_000)
    tid = m.add(Q, sources=[f"local:{corpus}"], entities=["AcmeDB"], every="1d", options=TINY).id
    clock.advance(DAY)
    assert m.run_topic(tid) is not None
    write_doc(corpus, "acme.md", "AcmeDB benchmark", "2020-06-01", "https://acme.example/bench",
              BODY.format(tp("AcmeDB", "150,000")))
    clock.advance(DAY)
    r = m.run_topic(tid)
    assert r is not None
    (edit,) = r.digest.edited
    assert [(c.old_value, c.new_value) for c in edit.changed] == [("120,000 rows per second",
                                                                   "150,000 rows per second")]
    assert edit.dropped == []
    assert acme(store) == ["150000"] and acme(store, as_of=date(2020, 12, 31)) == ["150000"]


def test_the_sentence_an_edit_of_a_figure_left_behind() -> None:
    old = "Total support: 36 months from first Current release to End of Life."
    new = "Intro.\n\nTotal support:  72 months from first Current release to End of Life.\n"
    start, end = edited_twin(old, new) or (0, 0)
    assert new[start:end] == "Total support:  72 months from first Current release to End of Life."
    assert edited_twin(old, new.replace("72", "36")) is None  # the figure is as it was: not an edit
    assert edited_twin(old, "Total support: 72 months from the first release.") is None  # other words changed
    assert edited_twin("version 1.2", "version 1.3") is None  # too few words to say it is the same sentence
