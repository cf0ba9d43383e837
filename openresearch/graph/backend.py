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

    def bind_write(self, query: str, params: Params) -> Callable[[], list[Row]]:
        """Encode a write statement now (in the caller's thread) and return the call that sends it.

        The batch writer binds the next batch while the current one is written on its own thread, so the
        encoding, pure Python, does not contend with the thread that waits on the database."""

    def write_many(self, statements: Sequence[tuple[str, Params]]) -> None:
        """Run several write statements as one unit where the backend allows it."""

    def explain(self, query: str, params: Params | None = None) -> None:
        """Plan a statement without running it; raises QueryError when it does not compile."""

    def apply_schema(self, spec: SchemaSpec) -> list[str]:
        """Create constraints and indexes idempotently; returns what was created."""

    def clear(self) -> None:
        """Delete everything (tests and `graph reset`)."""

    def close(self) -> None: ...
