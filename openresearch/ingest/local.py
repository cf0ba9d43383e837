"""The user's own documents: index a directory or glob into the graph and search it (hybrid ranking).

Re-indexing reads every file but touches the graph only for files whose content hash changed, and
removes sources whose files were deleted. Chunks are embedded (cached by content hash) and stored with
offsets into the source text, so a hit can be quoted exactly.

A file's source id is the file:// URL of its resolved absolute path: two folders' ``corpus/x.md`` are two
sources, and a moved folder is a new one (ingest it again; the old root's sources stay until that root is
ingested or its sources deleted). Files are parsed, chunked and embedded in batches across files, and each
batch is stored source, chunks, then content hash (graph/documents.py store_documents): a run killed at any
point leaves sources that the next run sees as not yet indexed and redoes, never a source without chunks
that looks indexed. Which files are read is decided by ingest/walk.py (no symbolic links out of the folder).
Batches are stored by one writer thread while the next batch is parsed and embedded (the graph server is
another process, so on two cores the two overlap); batches are stored one at a time, in order, so the
crash-consistency argument above holds unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openresearch.errors import NotADocument, ParseError
from openresearch.graph.documents import StoredSource
from openresearch.graph.rows import epoch_ms
from openresearch.graph.store import GraphStore
from openresearch.ingest.chunk import Chunk, chunk_text
from openresearch.ingest.documents import MAX_FILE_BYTES, Limits, may_be_document, parse_file
from openresearch.ingest.embed import Embedder
from openresearch.ingest.metadata import file_title
from openresearch.ingest.retrievers.base import Candidate
from openresearch.ingest.safe_open import read_regular
from openresearch.ingest.walk import Expansion
from openresearch.ingest.walk import expand as expand_spec
from openresearch.models import SourceDoc

log = logging.getLogger(__name__)

BATCH_FILES = 256  # small files: few, large graph writes (bench/bench_ingest_files.py)
BATCH_CHUNKS = 512
MAX_CHUNKS_PER_DOCUMENT = 2_000


@dataclass
class IndexReport:
    root: str
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    chunks: int = 0
    errors: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Paths not read: symbolic links out of the folder, loops, unreadable folders."""
    warnings: list[str] = field(default_factory=list)
    """Read, but not whole: text cut at a limit, invalid UTF-8 replaced."""


def parse_local_file(path: Path, limits: Limits | None = None, warnings: list[str] | None = None) -> SourceDoc:
    """A local document as ingest stores it: parsed, titled by its Markdown heading or a readable file name
    (never the folder, "corpus")."""
    file = read_regular(path, MAX_FILE_BYTES)  # the one read: a file swapped after the walk is not followed
    doc = parse_file(path, limits=limits, warnings=warnings, file=file)
    if doc.title:
        return doc
    return doc.model_copy(update={"title": file_title(path.name, file.data[:20000].decode("utf-8", "replace"))})


def expand(spec: str | Path, *, follow_symlinks: bool = False) -> Expansion:
    """A directory (recursively), a file or a glob -> root key, files, and what was skipped."""
    return expand_spec(spec, may_be_document, follow_symlinks=follow_symlinks)


class _Writer:
    """Stores batches on one background thread, one at a time and in order; at most one batch is in flight, so
    memory stays bounded and a write error surfaces at the next submit (or at close) in the caller's thread."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-writer")
        self._inflight: Future[None] | None = None

    def submit(self, fn: Callable[[], None]) -> None:
        self.wait()
        self._inflight = self._pool.submit(fn)

    def wait(self) -> None:
        if self._inflight is not None:
            inflight, self._inflight = self._inflight, None
            inflight.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            self._pool.shutdown(wait=True)


@dataclass
class _Pending:
    items: list[tuple[SourceDoc, list[Chunk]]] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # stored in part: their chunks are redone
    changed: list[tuple[str, str, str]] = field(default_factory=list)  # (id, stored hash, new hash): archived
    chunks: int = 0


def index_documents(store: GraphStore, spec: str | Path, embedder: Embedder, *, chunk_chars: int = 900,
                    overlap: int = 150, progress: Callable[[str], None] | None = None,
                    follow_symlinks: bool = False, limits: Limits | None = None,
                    max_chunks: int = MAX_CHUNKS_PER_DOCUMENT) -> IndexReport:
    found = expand(spec, follow_symlinks=follow_symlinks)
    report = IndexReport(root=found.root, skipped=list(found.skipped))
    for note in found.skipped:
        log.warning("not indexed: %s", note)
    known = store.sources_in_root(found.root)
    seen: set[str] = set()
    writer = _Writer()
    try:
        _index_files(store, embedder, found, report, known, seen, writer, limits or Limits(), chunk_chars, overlap,
                     max_chunks, progress)
    finally:
        writer.close()  # every batch stored (or its error raised) before the deletions below
    gone = [sid for sid in known if sid not in seen]
    # a removed file's last version stays, with the evidence read from it (still citable); the source goes
    store.archive_versions([(sid, h, "removed") for sid in gone if (h := known[sid].content_hash)])
    store.delete_sources(gone)
    report.removed = len(gone)
    return report


def _index_files(store: GraphStore, embedder: Embedder, found: Expansion, report: IndexReport,
                 known: dict[str, StoredSource], seen: set[str], writer: _Writer, lim: Limits, chunk_chars: int,
                 overlap: int, max_chunks: int, progress: Callable[[str], None] | None) -> None:
    pending = _Pending()
    for path in found.files:
        try:
            doc = parse_local_file(path, lim, report.warnings)
        except NotADocument as e:
            report.skipped.append(str(e))
            continue
        except ParseError as e:
            report.errors.append(str(e))
            log.warning("skipped %s", e)
            continue
        if doc.id in seen:
            continue
        seen.add(doc.id)
        chunks = chunk_text(doc.text, doc.id, target_chars=chunk_chars, overlap_chars=overlap)
        if len(chunks) > max_chunks:
            report.warnings.append(f"{path}: only the first {max_chunks:,} of {len(chunks):,} chunks are stored "
                                   "(OPENRESEARCH_MAX_CHUNKS_PER_DOCUMENT)")
            chunks = chunks[:max_chunks]
        previous = known.get(doc.id)
        complete = previous is not None and previous.content_hash is not None and previous.chunks >= len(chunks)
        if complete and previous is not None and previous.content_hash == doc.content_hash:
            report.unchanged += 1
            if previous is not None and previous.published_at != epoch_ms(doc.published_at):
                store.set_published_at(doc.id, epoch_ms(doc.published_at))  # only its stated date changed
        else:
            if previous is not None and previous.content_hash and previous.content_hash != doc.content_hash:
                # the stored version (its text and the evidence read from it) is kept, linked from the source
                pending.changed.append((doc.id, previous.content_hash, doc.content_hash))
            elif previous is not None:
                pending.replaced.append(doc.id)  # stored in part, or with fewer chunks: its chunks are redone
            if complete:
                report.updated += 1
            else:
                report.added += 1  # new, or cut off mid-index by an earlier run: indexed from scratch
            pending.items.append((doc, chunks))
            pending.chunks += len(chunks)
            report.chunks += len(chunks)
            if len(pending.items) >= BATCH_FILES or pending.chunks >= BATCH_CHUNKS:
                _flush(store, embedder, pending, found.root, writer)
                pending = _Pending()
        if progress:
            progress(path.name)
    _flush(store, embedder, pending, found.root, writer)


def _flush(store: GraphStore, embedder: Embedder, pending: _Pending, root: str, writer: _Writer) -> None:
    """One batch: embed every chunk of its files in one call (here), then hand the writer thread the store of
    source, chunks, hash (in that order)."""
    if not pending.items:
        return
    texts = [c.text for _, chunks in pending.items for c in chunks]
    vectors = iter(embedder.embed(texts) if texts else [])
    items: list[tuple[SourceDoc, list[dict[str, Any]]]] = []
    for doc, chunks in pending.items:
        items.append((doc, [{"id": c.id, "source_id": doc.id, "text": c.text, "start": c.start, "end": c.end,
                             "embedding": next(vectors)} for c in chunks]))
    replaced, changed = list(pending.replaced), list(pending.changed)

    def store_batch() -> None:
        store.delete_chunks(replaced)
        store.archive_versions(changed)
        store.store_documents(items, root=root)

    writer.submit(store_batch)


class LocalRetriever:
    """Searches indexed local documents through the graph's vector and full-text indexes together.

    `roots`: only documents indexed from these roots (a run's own `local:` folders), not every chunk the
    graph holds (other folders, pages fetched by earlier runs); None searches them all (`search -r local`)."""

    name = "local"
    SCOPED_FETCH = 4  # a scoped search reads this many times more hits, since the indexes rank all chunks

    def __init__(self, store: GraphStore, embedder: Embedder, roots: Sequence[str] | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.roots = None if roots is None else frozenset(roots)

    async def search(self, query: str, k: int) -> list[Candidate]:
        return self.search_sync(query, k)

    def search_sync(self, query: str, k: int) -> list[Candidate]:
        vec = self.embedder.embed([query])[0]
        hits = self.store.search_chunks(vec, query, k=k * 3 * (1 if self.roots is None else self.SCOPED_FETCH))
        if self.roots is not None:
            roots = self.store.source_roots(sorted({str(h["source_id"]) for h in hits}))
            hits = [h for h in hits if roots.get(str(h["source_id"])) in self.roots][:k * 3]
        sources = self.store.sources(sorted({str(h["source_id"]) for h in hits}))
        best: dict[str, Candidate] = {}
        top = max((h["hybrid"] for h in hits), default=1.0) or 1.0
        for h in hits:
            doc = sources.get(h["source_id"])
            if doc is None or doc.id in best:
                continue
            best[doc.id] = Candidate(title=doc.title or doc.url, url=doc.url, snippet=h["text"][:300], kind="internal",
                                     published=doc.published_at, score=round(h["hybrid"] / top, 4),
                                     retriever=self.name,
                                     extra={"source_id": doc.id, "chunk_id": h["id"], "start": h["start"],
                                            "end": h["end"]})
        return list(best.values())[:k]

