"""The user's own documents: index a directory or glob into the graph and search it (hybrid ranking).

Re-indexing reads every file but touches the graph only for files whose content hash changed, and
removes sources whose files were deleted. Chunks are embedded (cached by content hash) and stored with
offsets into the source text, so a hit can be quoted exactly.
"""

from __future__ import annotations

import glob
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from openresearch.errors import InputError, ParseError
from openresearch.graph.store import GraphStore
from openresearch.ingest.chunk import chunk_text
from openresearch.ingest.documents import SUFFIXES, parse_file
from openresearch.ingest.embed import Embedder
from openresearch.ingest.metadata import local_file_title
from openresearch.ingest.retrievers.base import Candidate

log = logging.getLogger(__name__)


@dataclass
class IndexReport:
    root: str
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    chunks: int = 0
    errors: list[str] = field(default_factory=list)


def expand(spec: str | Path) -> tuple[str, list[Path]]:
    """A directory (recursively) or a glob -> (root key, files)."""
    p = Path(spec).expanduser()
    if p.is_dir():
        files = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES)
        return str(p.resolve()), files
    if p.is_file():
        return str(p.resolve()), [p]
    matches = sorted(Path(m) for m in glob.glob(str(spec), recursive=True))
    if not matches:
        raise InputError(f"no documents match {spec}")
    return str(spec), [m for m in matches if m.is_file() and m.suffix.lower() in SUFFIXES]


def _local_url(root: str, path: Path) -> str:
    base = Path(root) if Path(root).is_dir() else path.parent
    try:
        rel = path.resolve().relative_to(Path(base).resolve())
    except ValueError:
        rel = Path(path.name)
    return f"local://{Path(base).name}/{rel.as_posix()}"


def index_documents(store: GraphStore, spec: str | Path, embedder: Embedder, *, chunk_chars: int = 900,
                    overlap: int = 150, progress: Callable[[str], None] | None = None) -> IndexReport:
    root, files = expand(spec)
    report = IndexReport(root=root)
    known = store.sources_in_root(root)
    seen: set[str] = set()
    for path in files:
        try:
            doc = parse_file(path, _local_url(root, path))
            if not doc.title:  # a Markdown heading or a readable file name, never the folder ("corpus")
                doc = doc.model_copy(update={"title": local_file_title(path)})
        except ParseError as e:
            report.errors.append(str(e))
            log.warning("skipped %s", e)
            continue
        seen.add(doc.id)
        previous = known.get(doc.id)
        if previous is not None and previous[1] == doc.content_hash:
            report.unchanged += 1
        else:
            if previous is not None:
                store.delete_sources([doc.id])  # old chunks and evidence point into the old text
                report.updated += 1
            else:
                report.added += 1
            store.upsert_sources([doc], root=root)
            chunks = chunk_text(doc.text, doc.id, target_chars=chunk_chars, overlap_chars=overlap)
            vectors = embedder.embed([c.text for c in chunks]) if chunks else []
            store.upsert_chunks([{"id": c.id, "source_id": doc.id, "text": c.text, "start": c.start, "end": c.end,
                                  "embedding": v} for c, v in zip(chunks, vectors, strict=True)])
            report.chunks += len(chunks)
        if progress:
            progress(path.name)
    gone = [sid for sid in known if sid not in seen]
    store.delete_sources(gone)
    report.removed = len(gone)
    return report


class LocalRetriever:
    """Searches indexed local documents through the graph's vector and full-text indexes together."""

    name = "local"

    def __init__(self, store: GraphStore, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder

    async def search(self, query: str, k: int) -> list[Candidate]:
        return self.search_sync(query, k)

    def search_sync(self, query: str, k: int) -> list[Candidate]:
        vec = self.embedder.embed([query])[0]
        hits = self.store.search_chunks(vec, query, k=k * 3)
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

