"""The interface both graph adapters implement. Only the adapters import a database driver."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from openresearch.cypher import Dialect
from openresearch.graph_schema import SchemaSpec

Row = dict[str, Any]
Params = Mapping[str, Any]


class GraphBackend(Protocol):
    dialect: Dialect
    description: str

    def read(self, query: str, params: Params | None = None) -> list[Row]:
        """Run a read-only statement and return rows as dicts."""

    def write(self, query: str, params: Params | None = None) -> list[Row]:
        """Run one write statement atomically (retried on transient errors)."""

    def bind_write(self, query: str, params: Params) -> Callable[[Params], Callable[[], list[Row]]]:
        """Encode a write statement's parameters now and return `start(more)`, which sends it with a few
        more (small) parameters and returns `wait()` for its rows.

        The batch writer encodes batch k+1 and then waits for batch k: starting must not block on the write,
        so the caller's Python work overlaps with the database's."""

    def write_many(self, statements: Sequence[tuple[str, Params]]) -> None:
        """Run several write statements as one unit where the backend allows it."""

    def explain(self, query: str, params: Params | None = None) -> None:
        """Plan a statement without running it; raises QueryError when it does not compile."""

    def apply_schema(self, spec: SchemaSpec) -> list[str]:
        """Create constraints and indexes idempotently; returns what was created."""

    def clear(self) -> None:
        """Delete every node and relation; the graph keeps its indexes and constraints (tests and `graph reset`)."""

    def drop(self) -> None:
        """Delete the graph itself, indexes included, when it is not used again (a test's own graph at its end).
        Where a backend has one graph per database (Neo4j) this is `clear`."""

    def close(self) -> None: ...
