"""The one path that stores a document: chunk it (the one chunking configuration of chunk.py), embed its
chunks, write source, chunks, then its content hash (the completion marker: a kill in between is redone).
Local folders (ingest/local.py) batch many documents through the same `store_documents` call. A changed text
keeps its stored version (`DocumentStore.archive_versions`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from openresearch.graph.rows import epoch_ms
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
    doc: SourceDoc | None = None  # the document as stored (with the id scope of a later version's evidence)


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
                   max_chunks: int | None = None) -> StoredDocument:
    """Store one document unless the graph already holds it complete with the same content hash.

    A changed text keeps the stored version: the old text and the evidence read from it move to a version
    node linked from the source (`archive_versions`), and the new text's evidence ids take a scope of their
    own (`SourceDoc.version_scope`), so an old citation still finds the quote it cites. A source stored only in
    part is stored again. The returned `doc` carries the scope the caller's extraction must use."""
    chunks, truncated = chunk_document(doc, max_chunks)
    previous = store.sources([doc.id]).get(doc.id)
    if previous is not None:
        doc = doc.model_copy(update={"version_scope": previous.version_scope})
    if previous is not None and previous.content_hash and previous.content_hash == doc.content_hash:
        if doc.published_at is not None and previous.published_at != doc.published_at:
            store.set_published_at(doc.id, epoch_ms(doc.published_at))  # only its stated date changed
        return StoredDocument("unchanged", chunks, truncated, doc)
    if previous is not None and previous.content_hash:
        scopes = store.archive_versions([(doc.id, previous.content_hash, doc.content_hash)])
        doc = doc.model_copy(update={"version_scope": scopes[doc.id]})
    elif previous is not None:
        store.delete_chunks([doc.id])
    rows = chunk_rows(doc, chunks, embedder)
    store.store_documents([(doc, rows)], headers={doc.id: headers or {}})
    return StoredDocument("updated" if previous is not None and previous.content_hash else "added", chunks, truncated,
                          doc)
