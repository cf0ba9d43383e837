"""A simulated timeline of days over a local corpus with a fake clock, on FalkorDB and Neo4j: a value updated
in a new release, a new source that disagrees, a late value describing an earlier time, a page that changes,
a page that disappears, a day with nothing new. Each day's digest, supersession and conflict states, "as of"
answers, and re-running a day changes no count."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from monitor_support import TINY, offline_services, write_doc

from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor import asof
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.digest import to_html, to_json, to_markdown
from openresearch.monitor.models import Digest
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
DAY = 86_400_000
T0 = 1_768_176_000_000  # 2026-01-12T00:00Z
Q = "What is the write throughput of AcmeDB?"
COUNTED = ("Source", "Evidence", "Observation", "Entity", "Chunk")


def throughput(n: str) -> str:
    return f"AcmeDB reaches a write throughput of {n} rows per second on a single node."


def counts(store: GraphStore) -> dict[str, int]:
    nodes = store.stats()["nodes"]
    return {k: nodes.get(k, 0) for k in COUNTED} | {"SUPERSEDES": store.stats()["relations"].get("SUPERSEDES", 0)}


def current(store: GraphStore, day: date | None = None) -> list[str]:
    return sorted(str(r["raw_value"]) for r in asof.values(store, entity="AcmeDB", metric="ingest_throughput",
                                                           as_of=day))


def test_timeline(store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_doc(corpus, "acme-1.4.md", "AcmeDB 1.4 release notes", "2026-01-10", "https://acme.example/releases/1.4",
              throughput("120,000") + " AcmeDB stores data in compressed columnar blocks.")
    write_doc(corpus, "overview.md", "AcmeDB overview", "2026-01-05", "https://acme.example/overview",
              "AcmeDB is an open-source time-series database written in Rust.")
    clock = FakeClock(T0)
    m = Monitor(offline_services(store, embedder, tmp_path / "data"), clock=clock, lease_ms=60_000)
    topic = m.add(Q, sources=[f"local:{corpus}"], entities=["AcmeDB"], every="1d", options=TINY)

    # day 1: everything is new
    d1 = _run_due(m)
    assert {s.url for s in d1.new_sources} == {"https://acme.example/releases/1.4", "https://acme.example/overview"}
    assert d1.new_evidence and not d1.nothing_changed and not d1.changed_values
    assert current(store) == ["120,000"]

    # day 2: a new release raises the value, an independent benchmark of the same date disagrees, a late post
    # of the same publisher describes December
    clock.advance(DAY)
    assert m.run_due() == []  # not due yet: the jitter puts it a few minutes after midnight
    clock.advance(20 * 60_000)
    write_doc(corpus, "acme-1.5.md", "AcmeDB 1.5 release notes", "2026-02-10", "https://acme.example/releases/1.5",
              throughput("150,000"))
    write_doc(corpus, "bench.md", "An AcmeDB benchmark", "2026-02-10", "https://bench.example/acme",
              throughput("90,000"))
    write_doc(corpus, "old-post.md", "AcmeDB in December", "2025-12-01", "https://acme.example/blog/acme-dec",
              throughput("100,000"))
    d2 = _run_due(m)
    changed = {(c.old_value, c.late) for c in d2.superseded}
    assert ("120,000 rows per second", False) in changed
    assert ("100,000 rows per second", True) in changed  # late, recorded as already superseded
    assert len(d2.new_conflicts) == 1
    assert sorted(d2.new_conflicts[0].values) == ["150,000 rows per second", "90,000 rows per second"]
    assert current(store) == ["150,000", "90,000"]  # same date, different values: a conflict
    assert current(store, date(2026, 1, 20)) == ["120,000"]
    assert current(store, date(2025, 12, 15)) == ["100,000"]
    assert len(asof.values(store, entity="AcmeDB", include_superseded=True)) == 4  # nothing deleted
    assert [len(g.values) for g in asof.conflicts(store)] == [2]
    assert asof.conflicts(store, date(2026, 1, 20)) == []
    _cites_only_stored_evidence(store, d2)

    # re-running the day changes no count (only its own run and digest)
    before = counts(store)
    again = m.run_topic(topic.id)
    assert again is not None and again.digest.nothing_changed and again.extracted == 0
    _verified(again.digest)
    assert counts(store) == before

    # day 3: the overview page changes, the benchmark disappears
    clock.advance(DAY)
    write_doc(corpus, "overview.md", "AcmeDB overview", "2026-02-20", "https://acme.example/overview",
              "AcmeDB is an open-source time-series database written in Rust and Go.")
    (corpus / "bench.md").unlink()
    d3 = _run_due(m)
    assert [s.url for s in d3.removed_sources] == ["https://bench.example/acme"]
    assert any("Rust and Go" in e.quote for e in d3.new_evidence)
    # the page's earlier version keeps what was read from it: its evidence is still citable, against that text
    earlier = [e for e in d1.new_evidence if "written in Rust." in e.quote]
    assert earlier
    for e in earlier:
        p = store.provenance(e.id)
        kept = store.sources([p.evidence.source.id])[p.evidence.source.id]
        assert "@" in p.evidence.source.id  # a version node (`S-…@<hash of the text it held>`)
        assert p.evidence.start is not None and p.evidence.end is not None
        assert kept.text[p.evidence.start:p.evidence.end] == e.quote
    assert len(d3.resolved_conflicts) == 1 and not d3.new_conflicts
    # the resolved conflict cites only evidence still stored: the benchmark's left with its page
    resolved = [s for s in d3.sentences if s.text.startswith("No longer in conflict")]
    assert len(resolved) == 1 and "90,000" not in resolved[0].text and "no longer available" in resolved[0].text
    assert {v.id for v in store.evidence(d3.evidence_ids)} == set(d3.evidence_ids)
    assert current(store) == ["150,000"]

    # day 4: nothing new
    clock.advance(DAY)
    before = counts(store)
    d4 = _run_due(m)
    assert d4.nothing_changed and [s.text for s in d4.sentences] == ["Nothing changed since the last run."]
    assert counts(store) == before
    stored = m.store.digests(topic.id, 10)
    assert [d.id for d in stored][:1] == [d4.id] and len(stored) == 5
    ran = {d.id: d for d in (d1, d2, again.digest, d3, d4)}
    assert all(_verified(d).verification == ran[d.id].verification for d in stored)  # stored with the digest
    assert "Nothing changed" in to_markdown(d4) and "Nothing changed" in to_html(d4) and d4.id in to_json(d4)
    assert '"verification"' in to_json(d2) and '"failed": 0' in to_json(d2)


def _run_due(m: Monitor) -> Digest:
    results = m.run_due()
    assert len(results) == 1
    return _verified(results[0].digest)


def _verified(d: Digest) -> Digest:
    """Every sentence went through the report verifier's checks and passed: none withheld."""
    v = d.verification
    assert v is not None
    assert (v.failed, v.phantom_citations) == (0, 0), [(c.text, c.reasons) for c in v.sentences if c.reasons]
    assert v.checked == v.passed == len(d.sentences) and all(c.published for c in v.sentences)
    assert f"{v.checked} sentence" in to_markdown(d) and "0 failed" in to_markdown(d) and "0 failed" in to_html(d)
    return d


def _cites_only_stored_evidence(store: GraphStore, d: Digest) -> None:
    assert d.sentences
    for s in d.sentences:
        assert s.evidence_ids, s.text
        for e in s.evidence_ids:
            assert f"[{e}]" in s.text
    found = {v.id for v in store.evidence(d.evidence_ids)}
    assert found == set(d.evidence_ids)
    quotes = {v.id: v.quote for v in store.evidence(d.evidence_ids)}
    for c in d.changed_values:  # numbers come from the cited quotes
        assert c.old_value.split()[0] in quotes[c.old_evidence] and c.new_value.split()[0] in quotes[c.new_evidence]
