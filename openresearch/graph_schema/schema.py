"""The schema to apply, derived from the node types: unique ids, lookups, full-text and vector.

Backend adapters turn this spec into their own DDL (Neo4j constraints vs FalkorDB GRAPH.CONSTRAINT).
"""

from __future__ import annotations

from typing import NamedTuple

from openresearch.graph_schema.nodes import NODE_TYPES


class IndexSpec(NamedTuple):
    label: str
    prop: str
    unique: bool = False


class FulltextSpec(NamedTuple):
    name: str
    label: str
    props: tuple[str, ...]


class VectorSpec(NamedTuple):
    name: str
    label: str
    prop: str
    dimensions: int
    similarity: str = "cosine"


class SchemaSpec(NamedTuple):
    indexes: tuple[IndexSpec, ...]
    fulltext: tuple[FulltextSpec, ...]
    vectors: tuple[VectorSpec, ...]


EMBEDDING_DIM = 384


def schema_spec(embedding_dim: int = EMBEDDING_DIM) -> SchemaSpec:
    indexes: list[IndexSpec] = []
    for node in NODE_TYPES:
        indexes.append(IndexSpec(node.label, "id", unique=True))
        indexes.extend(IndexSpec(node.label, p) for p in node.lookups)
    return SchemaSpec(
        indexes=tuple(indexes),
        fulltext=(FulltextSpec("evidence_quote", "Evidence", ("quote",)),
                  FulltextSpec("chunk_text", "Chunk", ("text",))),
        vectors=(VectorSpec("chunk_embedding", "Chunk", "embedding", embedding_dim),),
    )
