"""Node and relation types of the knowledge graph and the schema (constraints, indexes) derived from them."""

from openresearch.graph_schema.nodes import NODE_TYPES, Node
from openresearch.graph_schema.relations import RELATION_TYPES, RELATIONS, Relation
from openresearch.graph_schema.schema import EMBEDDING_DIM, FulltextSpec, IndexSpec, SchemaSpec, VectorSpec, schema_spec

__all__ = [
    "EMBEDDING_DIM", "NODE_TYPES", "RELATIONS", "RELATION_TYPES", "FulltextSpec", "IndexSpec", "Node", "Relation",
    "SchemaSpec", "VectorSpec", "schema_spec",
]
