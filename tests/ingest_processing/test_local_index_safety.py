"""Local ingest on real files and a real graph (both backends): crash consistency, identity, symbolic links.

A "kill" is a BaseException raised by the graph itself at the N-th write statement (chosen by count, never
by time): nothing after that point runs, exactly as if the process died there. The resumed run must leave
exactly the graph a clean run leaves, label by label and relation by relation.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from openresearch.graph.backend import GraphBackend, Params, Row
from openresearch.graph.store import GraphStore
from openresearch.ingest import local
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import index_documents

pytestmark = pytest.mark.integration

WORDS = ["broker", "partition", "replica", "latency", "throughput", "consumer", "producer", "cluster", "storage",
         "tiered", "quorum", "leader", "follower", "snapshot", "compaction", "retention", "schema", "registry",
         "offset", "segment", "ledger"]


class Killed(BaseException):
    """The process 'dies' here: not an Exception, so no handler on the way up swallows it."""


class KillingBackend:
    """The real backend, with a death after ``kill_at`` write statements (``None``: count only)."""

    def __init__(self, inner: GraphBackend, kill_at: int | None = None, on_kill: Any = None) -> None:
        self.inner, self.kill_at, self.on_kill, self.writes = inner, kill_at, on_kill, 0
        self.dialect, self.description = inner.dialect, inner.description

    def write(self, query: str, params: Params | None = None) -> list[Row]:
        self.writes += 1
        if self.kill_at is not None and self.writes == self.kill_at:
            if self.on_kill is not None:
                self.on_kill()  # the graph server dies instead: the write below then fails
            else:
                raise Killed(f"killed before write {self.writes}")
        return self.inner.write(query, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _corpus(folder: Path, n: int = 24, tag: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        paragraphs = [" ".join(WORDS[(i + j + k) % len(WORDS)] for k in range(40)) + f" {tag}{i}.{j}."
                      for j in range(2 + i % 5)]
        (folder / f"doc{i:02d}.md").write_text(f"# Document {i} {tag}\n\n" + "\n\n".join(paragraphs) + "\n")
    return folder


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    # many flushes, so there are many points to be killed at
    monkeypatch.setattr(local, "BATCH_FILES", 3)
    monkeypatch.setattr(local, "BATCH_CHUNKS", 8)


def _fresh(store: GraphStore) -> None:
    store.backend.clear()
    store.init_schema()


def _drop_documents(store: GraphStore) -> None:
    """Back to a graph without documents, schema kept (cheaper than clear + init_schema on Neo4j)."""
    store.backend.write("MATCH (n) WHERE n:Source OR n:Chunk DETACH DELETE n")


def _ingest(store: GraphStore, spec: Path | str, **kw: Any) -> local.IndexReport:
    return index_documents(store, spec, HashEmbedder(dim=384), chunk_chars=300, overlap=50, **kw)


def _unmarked(store: GraphStore) -> int:
    rows = store.backend.read("MATCH (s:Source) WHERE s.content_hash IS NULL RETURN count(s) AS n")
    return int(rows[0]["n"])


@pytest.mark.timeout(1800)  # some 80 kills and resumes; Neo4j on a loaded 2-core box is slow
@pytest.mark.usefixtures("small_batches")
def test_ingest_killed_at_every_write_resumes_to_the_clean_graph(store: GraphStore, tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus")
    counting = KillingBackend(store.backend)
    clean_store = GraphStore(counting)  # type: ignore[arg-type]
    _fresh(clean_store)
    counting.writes = 0
    clean_report = _ingest(clean_store, corpus)
    clean = store.stats()
    writes = counting.writes
    assert clean_report.added == 24 and writes >= 20
    # and an update of a third of the files, killed at every write too
    for i in range(0, 24, 3):
        (corpus / f"doc{i:02d}.md").write_text(f"# Document {i} changed\n\n" + " ".join(WORDS) + f" v2 {i}.\n")
    _ingest(clean_store, corpus)
    updated_clean = store.stats()
    counting.writes = 0
    _ingest(clean_store, corpus)
    assert counting.writes == 0  # nothing changed: nothing written
    _corpus(corpus)  # back to the first version for the kill runs

    positions = 0
    for kill_at in range(1, writes + 1):
        _drop_documents(store)
        killer = KillingBackend(store.backend, kill_at)
        with pytest.raises(Killed):
            _ingest(GraphStore(killer), corpus)  # type: ignore[arg-type]
        again = _ingest(store, corpus)
        assert store.stats() == clean, f"killed before write {kill_at}"
        assert _unmarked(store) == 0
        assert again.added + again.unchanged == 24 and again.updated == 0
        assert _ingest(store, corpus).unchanged == 24  # and it stays put
        positions += 1
    _corpus(corpus)
    _drop_documents(store)
    _ingest(store, corpus)
    for i in range(0, 24, 3):
        (corpus / f"doc{i:02d}.md").write_text(f"# Document {i} changed\n\n" + " ".join(WORDS) + f" v2 {i}.\n")
    counting = KillingBackend(store.backend)
    _ingest(GraphStore(counting), corpus)  # type: ignore[arg-type]
    update_writes = counting.writes
    for kill_at in range(1, update_writes + 1):
        _corpus(corpus)
        _drop_documents(store)
        _ingest(store, corpus)
        for i in range(0, 24, 3):
            (corpus / f"doc{i:02d}.md").write_text(f"# Document {i} changed\n\n" + " ".join(WORDS) + f" v2 {i}.\n")
        with pytest.raises(Killed):
            _ingest(GraphStore(KillingBackend(store.backend, kill_at)), corpus)  # type: ignore[arg-type]
        _ingest(store, corpus)
        assert store.stats() == updated_clean, f"update killed before write {kill_at}"
        assert _unmarked(store) == 0
        positions += 1
    assert positions >= 20


def test_a_graph_left_by_the_old_order_is_repaired(store: GraphStore, tmp_path: Path) -> None:
    """A source stored with its hash but no chunks (what a kill did before the hash went last) is redone."""
    corpus = _corpus(tmp_path / "corpus", n=3)
    _ingest(store, corpus)
    clean = store.stats()
    store.backend.write("MATCH (c:Chunk) WHERE c.source_id = $id DETACH DELETE c",
                        {"id": next(iter(store.sources_in_root(str(corpus.resolve()))))})
    report = _ingest(store, corpus)
    assert report.added == 1 and report.unchanged == 2
    assert store.stats() == clean


@pytest.mark.timeout(1200)
@pytest.mark.usefixtures("small_batches")
def test_graph_server_killed_mid_ingest_then_resumed(tmp_path: Path) -> None:
    from openresearch.errors import GraphUnavailable
    from openresearch.graph.falkor import FalkorBackend
    from openresearch.graph.falkor_server import EmbeddedFalkor

    corpus = _corpus(tmp_path / "corpus")
    server = EmbeddedFalkor(tmp_path / "graph")

    def open_store() -> GraphStore:
        return GraphStore(FalkorBackend("kg", unix_socket=str(server.ensure().socket)))

    try:
        st = open_store()
        st.init_schema()
        counting = KillingBackend(st.backend)
        _ingest(GraphStore(counting), corpus)  # type: ignore[arg-type]
        clean, writes = st.stats(), counting.writes
        st.close()
        positions = 0
        for kill_at in range(1, writes + 1, max(1, writes // 20)):
            st = open_store()
            _fresh(st)
            pid = server.status().pid
            assert pid is not None
            killer = KillingBackend(st.backend, kill_at, on_kill=lambda p=pid: os.kill(p, signal.SIGKILL))
            with pytest.raises(GraphUnavailable):
                _ingest(GraphStore(killer), corpus)  # type: ignore[arg-type]
            st.close()
            st = open_store()  # a new server, from what the old one had on disk
            _ingest(st, corpus)
            assert st.stats() == clean, f"server killed before write {kill_at}"
            assert _unmarked(st) == 0
            st.close()
            positions += 1
        assert positions >= 20
    finally:
        server.stop()


def test_same_relative_path_in_two_folders_is_two_sources(store: GraphStore, tmp_path: Path) -> None:
    a = _corpus(tmp_path / "a" / "corpus", n=2, tag="alpha")
    b = _corpus(tmp_path / "b" / "corpus", n=2, tag="beta")
    ra, rb = _ingest(store, a), _ingest(store, b)
    assert ra.added == 2 and rb.added == 2
    assert store.stats()["nodes"]["Source"] == 4
    sources = {**store.sources_in_root(str(a.resolve())), **store.sources_in_root(str(b.resolve()))}
    urls = sorted(s.url for s in sources.values())
    assert urls == sorted([(a / "doc00.md").resolve().as_uri(), (a / "doc01.md").resolve().as_uri(),
                           (b / "doc00.md").resolve().as_uri(), (b / "doc01.md").resolve().as_uri()])
    for sid, doc in store.sources(list(sources)).items():
        other = "beta" if "/a/corpus/" in doc.url else "alpha"
        chunks = store.backend.read("MATCH (c:Chunk)-[:PART_OF]->(s:Source {id: $id}) RETURN c.text AS t",
                                    {"id": sid})
        assert chunks and not any(other in r["t"] for r in chunks)  # no folder's chunks on the other's source
    # a glob over both flips nothing between runs
    pattern = str(tmp_path / "*" / "corpus" / "doc00.md")
    first = _ingest(store, pattern)
    second = _ingest(store, pattern)
    assert first.added == 2 and second.unchanged == 2 and second.updated == 0 and second.added == 0


def test_symbolic_links_out_of_the_folder_are_not_followed(store: GraphStore, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "passwd.txt").write_text("root:x:0:0:secret outside entry:/root:/bin/bash\n")
    (outside / "tree").mkdir()
    (outside / "tree" / "deep.md").write_text("# Deep\n\nA file from a folder outside, never to be indexed.\n")
    corpus = _corpus(tmp_path / "corpus", n=2)
    (corpus / "passwd.txt").symlink_to(outside / "passwd.txt")
    (corpus / "etc").symlink_to(outside / "tree", target_is_directory=True)
    (corpus / "loop").symlink_to(corpus, target_is_directory=True)  # a cycle
    (corpus / "sub").mkdir()
    (corpus / "sub" / "up").symlink_to(corpus / "sub", target_is_directory=True)
    (corpus / "alias.md").symlink_to(corpus / "doc00.md")  # inside: read once, under its real path
    (corpus / "dangling.md").symlink_to(tmp_path / "missing.md")

    report = _ingest(store, corpus)
    assert report.added == 2 and not report.errors
    assert store.stats()["nodes"]["Source"] == 2
    text = " ".join(str(n) for n in report.skipped)
    assert "passwd.txt" in text and "etc" in text and "dangling.md" in text
    hits = store.backend.read("MATCH (c:Chunk) WHERE c.text CONTAINS 'secret' OR c.text CONTAINS 'outside' "
                              "RETURN count(c) AS n")
    assert hits[0]["n"] == 0

    followed = _ingest(store, corpus, follow_symlinks=True)  # the option, off by default
    assert followed.added == 2 and followed.unchanged == 2
    assert store.stats()["nodes"]["Source"] == 4  # the two outside files, each once; the loops added nothing


def test_a_glob_does_not_follow_links_out_either(store: GraphStore, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.md").write_text("# Outside\n\nNot to be read through a glob.\n")
    corpus = _corpus(tmp_path / "corpus", n=2)
    (corpus / "link.md").symlink_to(outside / "x.md")
    (corpus / "d").symlink_to(outside, target_is_directory=True)
    report = _ingest(store, str(corpus / "**" / "*.md"))
    assert report.added == 2 and len(report.skipped) == 2
