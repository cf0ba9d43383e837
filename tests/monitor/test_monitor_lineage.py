"""Issue 24 items 1-3 through the real monitor over a changing local folder, on FalkorDB and Neo4j: a
disagreement between independent sources is a conflict, never a change; an edited document's digest says what
changed in it; a deleted document's values are listed and what they had superseded is current again."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from monitor_support import TINY, offline_services, write_doc

from openresearch.api.routers.conflicts import conflicts_out
from openresearch.graph.judgements import NoValue
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor import asof
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.models import Digest
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
DAY = 86_400_000
T0 = 1_768_176_000_000  # 2026-01-12T00:00Z
Q = "What is the write throughput of AcmeDB?"


def tp(n: str) -> str:
    return f"AcmeDB reaches a write throughput of {n} rows per second on a single node."


def monitor(store: GraphStore, embedder: Embedder, tmp_path: Path) -> tuple[Monitor, FakeClock, str]:
    clock = FakeClock(T0)
    m = Monitor(offline_services(store, embedder, tmp_path / "data"), clock=clock, lease_ms=60_000)
    t = m.add(Q, sources=[f"local:{tmp_path / 'corpus'}"], entities=["AcmeDB"], every="1d", options=TINY)
    return m, clock, t.id


def run(m: Monitor, clock: FakeClock, tid: str) -> Digest:
    clock.advance(DAY)
    r = m.run_topic(tid)
    assert r is not None
    v = r.digest.verification
    assert v is not None and (v.failed, v.phantom_citations) == (0, 0), [(c.text, c.reasons) for c in v.sentences]
    return r.digest


def current(store: GraphStore) -> list[str]:
    return sorted(str(r["raw_value"]) for r in asof.values(store, entity="AcmeDB", metric="ingest_throughput"))


def superseded(store: GraphStore) -> list[tuple[str, str]]:
    rows = MonitorStore(store).observation_rows()
    value = {r["id"]: str(r["raw_value"]) for r in rows}
    return sorted((value[r["id"]], value.get(r["superseded_by"], "?")) for r in rows if r.get("superseded_by"))


def test_independent_sources_that_disagree_are_a_conflict_whatever_their_dates(
        store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_doc(corpus, "acme-1.4.md", "AcmeDB 1.4 release notes", "2026-01-10", "https://acme.example/releases/1.4",
              tp("120,000"))
    write_doc(corpus, "blog.md", "AcmeDB in practice", "2026-03-01", "https://blog.example/acme",
              tp("90,000") + "\n\nI also saw the earlier claim that AcmeDB only reaches about 40,000 rows per second.")
    m, clock, tid = monitor(store, embedder, tmp_path)
    d1 = run(m, clock, tid)
    assert not d1.changed_values and not d1.superseded  # a later, independent source replaces nothing
    assert [sorted(c.values) for c in d1.new_conflicts] == [["120,000 rows per second", "90,000 rows per second"]]
    assert current(store) == ["120,000", "90,000"]
    assert superseded(store) == []
    groups = {c.id: c for c in conflicts_out(store)}
    assert len(groups) == 1
    gid = next(iter(groups))
    store.resolve_conflict(gid, NoValue(decision="both_hold", note="different hardware", author="analyst"))
    # a monitoring run that changes nothing leaves the group, and its resolution, in view
    assert run(m, clock, tid).nothing_changed
    assert [(c.id, c.status) for c in conflicts_out(store)] == [(gid, "resolved")]

    # the same publisher's own later statement supersedes its earlier one; the other source's value stays
    write_doc(corpus, "acme-1.5.md", "AcmeDB 1.5 release notes", "2026-02-10", "https://acme.example/releases/1.5",
              tp("150,000"))
    d2 = run(m, clock, tid)
    assert [(c.old_value, c.new_value) for c in d2.changed_values] == [
        ("120,000 rows per second", "150,000 rows per second")]
    assert superseded(store) == [("120,000", "150,000")]
    assert current(store) == ["150,000", "90,000"]
    # the conflict group stays visible (its values changed: the publisher's newer figure is its side now)
    after = {c.id: c for c in conflicts_out(store)}
    assert list(after) == [gid]
    assert sorted(v.raw_values[0] for v in after[gid].values) == ["150,000 rows per second", "90,000 rows per second"]
    assert [c.id for c in d2.changed_conflicts] == [gid] and not d2.new_conflicts and not d2.resolved_conflicts

    # an idle day: the group is still there, now and as of any date since both values were stated
    d3 = run(m, clock, tid)
    assert d3.nothing_changed
    assert [c.id for c in conflicts_out(store)] == [gid]
    assert [c.id for c in conflicts_out(store, as_of=date(2026, 12, 31))] == [gid]
    assert [c.id for c in conflicts_out(store, as_of=date(2026, 3, 1))] == [gid]
    assert conflicts_out(store, as_of=date(2026, 2, 28)) == []  # the independent value was not stated yet


def test_an_edited_document_is_reported_as_an_edit(store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    body = "AcmeDB stores data in compressed columnar blocks.\n\n{}\n\nAcmeDB keeps 30 days of data by default."
    write_doc(corpus, "acme.md", "AcmeDB benchmark", "2026-01-10", "https://acme.example/bench",
              body.format(tp("120,000")))
    write_doc(corpus, "beta.md", "BetaDB notes", "2026-01-05", "https://beta.example/notes",
              "BetaDB reaches a write throughput of 50,000 rows per second on a single node.")
    m, clock, tid = monitor(store, embedder, tmp_path)
    d1 = run(m, clock, tid)
    first = {e.quote: e.id for e in d1.new_evidence}
    old_ev = next(e for q, e in first.items() if "120,000" in q)

    write_doc(corpus, "acme.md", "AcmeDB benchmark", "2026-02-10", "https://acme.example/bench",
              body.format(tp("150,000")))
    d2 = run(m, clock, tid)
    edits = [s.text for s in d2.sentences if s.text.startswith("In AcmeDB benchmark")]
    assert any("went from 120,000 rows per second to 150,000 rows per second" in s and f"[{old_ev}] → [" in s
               for s in edits), edits
    assert any("the date changed from 2026-01-10 to 2026-02-10" in s for s in edits), edits
    assert [(c.old_value, c.new_value) for e in d2.edited for c in e.changed] == [
        ("120,000 rows per second", "150,000 rows per second")]
    assert not d2.new_evidence, [e.quote for e in d2.new_evidence]  # its unchanged sentences are not new
    assert not d2.changed_values and not d2.new_sources and not d2.removed_sources
    assert current(store) == ["150,000"]
    # the previous version's value is superseded by the new version's (one document, one lineage)
    old_obs = [c.old_observation for e in d2.edited for c in e.changed]
    rows = store.backend.read("MATCH (o:Observation) WHERE o.id IN $ids RETURN o.superseded_by AS by",
                              {"ids": old_obs})
    assert [r["by"] for r in rows] == [c.new_observation for e in d2.edited for c in e.changed]

    # a changed date alone is detected and reported
    write_doc(corpus, "beta.md", "BetaDB notes", "2026-01-20", "https://beta.example/notes",
              "BetaDB reaches a write throughput of 50,000 rows per second on a single node.")
    d3 = run(m, clock, tid)
    assert not d3.nothing_changed
    assert [(e.text_changed, e.date_changed) for e in d3.edited] == [(False, True)]
    assert any("BetaDB notes, the date changed from 2026-01-05 to 2026-01-20" in s.text for s in d3.sentences)


def test_a_deleted_document_takes_its_values_and_gives_back_what_they_superseded(
        store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_doc(corpus, "acme-1.3.md", "AcmeDB 1.3 release notes", "2025-12-01", "https://acme.example/releases/1.3",
              tp("100,000"))
    write_doc(corpus, "acme-1.4.md", "AcmeDB 1.4 release notes", "2026-01-10", "https://acme.example/releases/1.4",
              tp("120,000"))
    write_doc(corpus, "acme-1.5.md", "AcmeDB 1.5 release notes", "2026-02-10", "https://acme.example/releases/1.5",
              tp("150,000"))
    m, clock, tid = monitor(store, embedder, tmp_path)
    run(m, clock, tid)
    assert superseded(store) == [("100,000", "120,000"), ("120,000", "150,000")] and current(store) == ["150,000"]

    (corpus / "acme-1.3.md").unlink()
    (corpus / "acme-1.5.md").unlink()
    d2 = run(m, clock, tid)
    assert sorted(s.url for s in d2.removed_sources) == ["https://acme.example/releases/1.3",
                                                         "https://acme.example/releases/1.5"]
    assert sorted(v.value for v in d2.values_left) == ["100,000 rows per second", "150,000 rows per second"]
    left = [s.text for s in d2.sentences if s.text.startswith("Source no longer available")]
    assert len(left) == 2 and all(f"[{v.evidence}]" in " ".join(left) for v in d2.values_left)
    # nothing points at the removed documents' observations (their kept last versions are history)
    into = store.backend.read(
        "MATCH (:Observation)-[:SUPERSEDES]->(o:Observation)<-[:REPORTS]-(:Evidence)-[:FROM]->(v:Source) "
        "WHERE v.version_of IN $ids RETURN o.id AS id", {"ids": [s.id for s in d2.removed_sources]})
    assert into == []
    # what the deleted document's value had superseded is current again; nothing points at its observation
    assert current(store) == ["120,000"] and superseded(store) == []
    dangling = store.backend.read(
        "MATCH (o:Observation)<-[:REPORTS]-(:Evidence)-[:FROM]->(s:Source) WHERE s.version_of IS NULL "
        "AND o.superseded_by IS NOT NULL RETURN o.id AS id", {})
    assert dangling == []
    points = store.backend.read(
        "MATCH (x:Observation)-[:SUPERSEDES]->(o:Observation)<-[:REPORTS]-(:Evidence)-[:FROM]->(s:Source) "
        "WHERE s.version_of IS NULL RETURN o.id AS id", {})
    assert points == []
    now = asof.comparison(store, ["AcmeDB"], "ingest throughput").model_dump()["cells"]
    today = asof.comparison(store, ["AcmeDB"], "ingest throughput",
                            as_of=asof.parse_day("2026-12-31")).model_dump()["cells"]
    assert now["ingest_throughput"]["AcmeDB"]["values"] == today["ingest_throughput"]["AcmeDB"]["values"]
