"""A source whose text changed keeps its history (issue 10 item 5), on FalkorDB and Neo4j: the stored version
becomes a Source node of its own linked PREVIOUS_VERSION from the source, the evidence read from it moves
there and stays citable (its quote still matches the text it was read from), the new text's evidence takes
ids of its own, current reads (comparisons, conflicts) see only the current text, and a local file that is
changed or removed keeps its evidence the same way."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from openresearch.graph.store import GraphStore
from openresearch.identity import content_hash, source_id
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import index_documents
from openresearch.ingest.store_doc import store_document
from openresearch.models import EvidenceRecord, ObservationIn, SourceDoc, SourceRef

URL = "https://vendor.example/acmedb/specs"


def page(text: str) -> SourceDoc:
    return SourceDoc(id=source_id(URL), url=URL, title="AcmeDB specs", text=text, content_hash=content_hash(text),
                     fetched_at=datetime(2026, 1, 1, tzinfo=UTC))


def evidence(doc: SourceDoc, sentence: str, value: int) -> EvidenceRecord:
    start = doc.text.index(sentence)
    return EvidenceRecord(
        source=SourceRef(url=doc.url, title=doc.title).from_stored(doc.id, doc.id_scope), quote=sentence,
        type="statistic", entities=["AcmeDB"], start=start, end=start + len(sentence),
        observations=[ObservationIn(entity="AcmeDB", metric="ingest_throughput", value=value, unit="rows/s")])


def provenance_text(store: GraphStore, evidence_id: str) -> tuple[str, str]:
    """(source id, the quote's span in the text that source holds)."""
    p = store.provenance(evidence_id)
    src = store.sources([p.evidence.source.id])[p.evidence.source.id]
    assert p.evidence.start is not None and p.evidence.end is not None
    return p.evidence.source.id, src.text[p.evidence.start:p.evidence.end]


def test_a_changed_page_keeps_its_versions_and_their_evidence(store: GraphStore) -> None:
    emb = HashEmbedder()
    v1 = page("AcmeDB ingests 120,000 rows/s on one node. It is written in Rust.")
    first = store_document(store, emb, v1)
    assert first.status == "added" and first.doc is not None and first.doc.version_scope is None
    old = evidence(first.doc, "AcmeDB ingests 120,000 rows/s on one node.", 120000)
    store.write_evidence([old])
    old_id = next(store.export_evidence()).id

    v2 = page("AcmeDB ingests 150,000 rows/s on one node. It is written in Rust and Go.")
    second = store_document(store, emb, v2)
    assert second.status == "updated" and second.doc is not None and second.doc.version_scope
    new = evidence(second.doc, "AcmeDB ingests 150,000 rows/s on one node.", 150000)
    store.write_evidence([new])

    # the old evidence is still citable: its quote matches the text it was read from, kept as a version
    version_id, span = provenance_text(store, old_id)
    assert version_id == f"{v1.id}@{v1.content_hash[:12]}" and span == "AcmeDB ingests 120,000 rows/s on one node."
    links = store.backend.read("MATCH (s:Source {id: $id})-[:PREVIOUS_VERSION]->(v:Source) "
                               "RETURN v.id AS id, v.version_of AS of", {"id": v1.id})
    assert links == [{"id": version_id, "of": v1.id}]
    # the same offsets in the new text are another evidence item, with its own id and value
    views = {e.id: e for e in store.evidence([r.id for r in store.export_evidence()])}
    assert len(views) == 2
    current = [e for e in views.values() if e.source.id == v1.id]
    assert [e.quote for e in current] == ["AcmeDB ingests 150,000 rows/s on one node."]
    assert current[0].id != old_id and current[0].start == views[old_id].start
    # current reads see the current text only: one value, no conflict between two versions of one page
    cell = store.compare(["AcmeDB"]).cells["ingest_throughput"]["AcmeDB"]
    assert cell.values == [150000.0]
    assert store.conflict_groups("AcmeDB") == []
    # chunks belong to the current text only
    chunks = store.backend.read("MATCH (c:Chunk)-[:PART_OF]->(s:Source) RETURN s.id AS s, c.text AS text")
    assert {r["s"] for r in chunks} == {v1.id} and all("150,000" in r["text"] for r in chunks)

    # unchanged: nothing archived again, and the scope stays for the extraction of this version
    again = store_document(store, emb, v2)
    assert again.status == "unchanged" and again.doc is not None
    assert again.doc.version_scope == second.doc.version_scope
    # a third version chains behind the second
    v3 = page("AcmeDB ingests 180,000 rows/s on one node.")
    assert store_document(store, emb, v3).status == "updated"
    chain = store.backend.read("MATCH (s:Source {id: $id})-[:PREVIOUS_VERSION]->(a:Source)"
                               "-[:PREVIOUS_VERSION]->(b:Source) RETURN a.id AS a, b.id AS b", {"id": v1.id})
    assert chain == [{"a": f"{v1.id}@{v2.content_hash[:12]}", "b": version_id}]
    assert provenance_text(store, current[0].id)[1] == "AcmeDB ingests 150,000 rows/s on one node."
    assert provenance_text(store, old_id)[1] == "AcmeDB ingests 120,000 rows/s on one node."


def test_a_text_that_returns_never_shares_ids_with_its_earlier_self(store: GraphStore) -> None:
    emb = HashEmbedder()
    a, b = "AcmeDB ingests 120,000 rows/s on one node.", "AcmeDB ingests 150,000 rows/s on one node."
    written: list[str] = []
    for text, value in [(a, 120000), (b, 150000), (a, 120000), (b, 150000)]:  # A, B, A again, B again
        stored = store_document(store, emb, page(text))
        assert stored.doc is not None
        store.write_evidence([evidence(stored.doc, text, value)])
        written.append(evidence(stored.doc, text, value).source.id_scope or "")
    assert len(set(written)) == 4  # four texts in turn, four scopes (the first is the source id itself)
    sid = source_id(URL)
    rows = store.backend.read(
        "MATCH (ev:Evidence)-[:FROM]->(s:Source) RETURN ev.id AS id, count(s) AS sources, collect(s.id) AS at")
    assert len(rows) == 4 and all(r["sources"] == 1 for r in rows)  # each item read once, from one version
    chain = store.backend.read(
        "MATCH p = (s:Source {id: $id})-[:PREVIOUS_VERSION*]->(v:Source) RETURN length(p) AS n, v.id AS v",
        {"id": sid})
    assert sorted(r["n"] for r in chain) == [1, 2, 3] and len({r["v"] for r in chain}) == 3
    # the current text holds the last item; every kept version holds one, its quote matching its own text
    for r in rows:
        _, span = provenance_text(store, r["id"])
        assert span == store.provenance(r["id"]).evidence.quote
    assert [r["at"][0] for r in rows].count(sid) == 1


def test_a_changed_or_removed_local_file_keeps_its_evidence(store: GraphStore, tmp_path: Path) -> None:
    emb = HashEmbedder()
    folder = tmp_path / "docs"
    folder.mkdir()
    f = folder / "acme.md"
    f.write_text("# AcmeDB\n\nAcmeDB ingests 120,000 rows/s on one node.\n", encoding="utf-8")
    first = index_documents(store, folder, emb)
    [sid] = list(store.sources_in_root(first.root))
    doc = store.sources([sid])[sid]
    store.write_evidence([evidence(doc, "AcmeDB ingests 120,000 rows/s on one node.", 120000)])
    old_id = next(store.export_evidence()).id

    f.write_text("# AcmeDB\n\nAcmeDB ingests 150,000 rows/s on one node.\n", encoding="utf-8")
    report = index_documents(store, folder, emb)
    assert report.updated == 1
    version_id, span = provenance_text(store, old_id)
    assert version_id == f"{sid}@{doc.content_hash[:12]}" and span == "AcmeDB ingests 120,000 rows/s on one node."
    assert store.sources([sid])[sid].version_scope  # the new text's evidence takes its own scope
    assert index_documents(store, folder, emb).unchanged == 1  # the archived version is not a source of the root

    f.unlink()
    assert index_documents(store, folder, emb).removed == 1
    assert store.sources([sid]) == {}
    assert provenance_text(store, old_id)[1] == "AcmeDB ingests 120,000 rows/s on one node."  # still citable
