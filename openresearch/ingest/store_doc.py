"""The one path that stores a document: chunk it (the one chunking configuration of chunk.py), embed its
chunks, write source, chunks, then its content hash (the completion marker: a kill in between is redone).
Local folders (ingest/local.py) batch many documents through the same `store_documents` call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from openresearch.graph.store import GraphStore
from openresearch.ingest.chunk import Chunk, chunk_text
from openresearch.ingest.embed import Embedder
from openresearch.models import SourceDoc

Stored = Literal["added", "updated", "unchanged"]


@dataclass
class StoredDocument:
    status: Stored
    chunks: list[Chunk] = field(default_factory=list)
    truncated_from: int | None = None  # chunks the text had when only the first `max_chunks` were kept


def chunk_document(doc: SourceDoc, max_chunks: int | None = None) -> tuple[list[Chunk], int | None]:
    chunks = chunk_text(doc.text, doc.id)
    if max_chunks is not None and len(chunks) > max_chunks:
        return chunks[:max_chunks], len(chunks)
    return chunks, None


def chunk_rows(doc: SourceDoc, chunks: list[Chunk], embedder: Embedder) -> list[dict[str, Any]]:
    vectors = embedder.embed([c.text for c in chunks]) if chunks else []
    return [{"id": c.id, "source_id": doc.id, "text": c.text, "start": c.start, "end": c.end, "embedding": v}
            for c, v in zip(chunks, vectors, strict=True)]


def store_document(store: GraphStore, embedder: Embedder, doc: SourceDoc, *, headers: dict[str, str] | None = None,
                   max_chunks: int | None = None, replace_changed: bool = False) -> StoredDocument:
    """Store one document unless the graph already holds it complete with the same content hash.

    `replace_changed` deletes an older version first (its chunks and evidence point into the old text), as a
    re-ingested file does; otherwise a changed text is merged over the old one (a page met again in a run)."""
    chunks, truncated = chunk_document(doc, max_chunks)
    previous = store.sources([doc.id]).get(doc.id)
    if previous is not None and previous.content_hash is not None and previous.content_hash == doc.content_hash:
        return StoredDocument("unchanged", chunks, truncated)
    if previous is not None and replace_changed:
        store.delete_sources([doc.id])
    rows = chunk_rows(doc, chunks, embedder)
    store.store_documents([(doc, rows)], headers={doc.id: headers or {}})
    return StoredDocument("updated" if previous is not None and previous.content_hash else "added", chunks, truncated)
