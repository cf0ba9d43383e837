"""Neo4j adapter: the official driver, managed transactions (retried on transient errors), UNWIND batches."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

import neo4j
from neo4j import GraphDatabase, ManagedTransaction
from neo4j import exceptions as nexc

from openresearch.cypher import Dialect
from openresearch.errors import ConstraintViolation, GraphUnavailable, QueryError
from openresearch.graph.backend import Params, Row
from openresearch.graph_schema import SchemaSpec

_TRANSIENT_ATTEMPTS = 5
_UNAVAILABLE = (nexc.ServiceUnavailable, nexc.SessionExpired, nexc.AuthError, OSError)


class Neo4jBackend:
    dialect: Dialect = "neo4j"

    def __init__(self, uri: str, user: str | None = None, password: str | None = None,
                 database: str = "neo4j", retry_time_s: float = 60.0) -> None:
        self.description = f"Neo4j {uri} database={database}"
        self.database = database
        auth = (user or "neo4j", password) if password else None
        try:
            # notifications off: "property key does not exist" warnings for optional properties are noise
            self._driver = GraphDatabase.driver(uri, auth=auth, max_transaction_retry_time=retry_time_s,
                                                notifications_min_severity="OFF",
                                                # a loaded machine with deadlock retries in flight can take over
                                                # 30 s to hand out a connection; a server that is down refuses at once
                                                connection_acquisition_timeout=120.0)
            self._driver.verify_connectivity()
        except (*_UNAVAILABLE, ValueError, nexc.ConfigurationError) as e:
            raise GraphUnavailable(f"cannot reach Neo4j at {uri}: {_first_line(e)}") from None

    def _session(self, write: bool) -> neo4j.Session:
        mode = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
        return self._driver.session(database=self.database, default_access_mode=mode)

    def read(self, query: str, params: Params | None = None) -> list[Row]:
        def work(tx: ManagedTransaction) -> list[Row]:
            return [r.data() for r in tx.run(query, dict(params or {}))]
        rows: list[Row] = self._guard(lambda: self._exec(False, work))
        return rows

    def write(self, query: str, params: Params | None = None) -> list[Row]:
        def work(tx: ManagedTransaction) -> list[Row]:
            return [r.data() for r in tx.run(query, dict(params or {}))]
        rows: list[Row] = self._guard(lambda: self._exec(True, work))
        return rows

    def bind_write(self, query: str, params: Params) -> Callable[[Params], Callable[[], list[Row]]]:
        bound = dict(params)

        def start(more: Params) -> Callable[[], list[Row]]:
            # Written at once. A worker thread would let the caller prepare the next batch meanwhile, but the
            # driver encodes in Python too and the two threads took turns on the GIL: 3.9k rows/s that way,
            # against 4.9k synchronously (bench/bench_graph.py ingest, 2 cores; the JVM needs them as well).
            rows = self.write(query, {**bound, **more})
            return lambda: rows
        return start

    def write_many(self, statements: Sequence[tuple[str, Params]]) -> None:
        def work(tx: ManagedTransaction) -> None:
            for query, params in statements:
                tx.run(query, dict(params)).consume()
        self._guard(lambda: self._exec(True, work))

    def _exec(self, write: bool, work: Any) -> Any:
        for attempt in range(_TRANSIENT_ATTEMPTS):
            try:
                with self._session(write) as s:
                    return s.execute_write(work) if write else s.execute_read(work)
            except nexc.ResultFailedError as e:
                # a deadlock between two concurrent writers: the driver retries a TransientError, but when the
                # failed result is consumed while the error is handled, what reaches it is this wrapper, which it
                # does not retry. The transaction was rolled back; run it again.
                if not isinstance(e.__cause__, nexc.TransientError) or attempt == _TRANSIENT_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * 2 ** attempt)
        raise AssertionError("unreachable")

    def _guard(self, fn: Any) -> Any:
        try:
            return fn()
        except _UNAVAILABLE as e:
            raise GraphUnavailable(f"Neo4j unavailable: {_first_line(e)}") from None
        except nexc.ConstraintError as e:
            raise ConstraintViolation(f"Neo4j: {e.code}: {_first_line(e)}") from None
        except nexc.Neo4jError as e:
            raise QueryError(f"Neo4j rejected the query: {e.code}: {_first_line(e)}") from None
        except nexc.ResultFailedError as e:
            raise QueryError(f"Neo4j query failed: {_first_line(e.__cause__ or e)}") from None

    def explain(self, query: str, params: Params | None = None) -> None:
        def work(tx: ManagedTransaction) -> None:
            tx.run("EXPLAIN " + query, dict(params or {})).consume()
        self._guard(lambda: self._exec(False, work))

    def apply_schema(self, spec: SchemaSpec) -> list[str]:
        statements: list[str] = []
        for idx in spec.indexes:
            name = f"{idx.label.lower()}_{idx.prop}"
            if idx.unique:
                statements.append(f"CREATE CONSTRAINT {name}_unique IF NOT EXISTS FOR (n:{idx.label}) "
                                  f"REQUIRE n.{idx.prop} IS UNIQUE")
            else:
                statements.append(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{idx.label}) ON (n.{idx.prop})")
        for ft in spec.fulltext:
            props = ", ".join(f"n.{p}" for p in ft.props)
            statements.append(f"CREATE FULLTEXT INDEX {ft.name} IF NOT EXISTS FOR (n:{ft.label}) ON EACH [{props}]")
        for vec in spec.vectors:
            statements.append(
                f"CREATE VECTOR INDEX {vec.name} IF NOT EXISTS FOR (n:{vec.label}) ON n.{vec.prop} OPTIONS "
                f"{{indexConfig: {{`vector.dimensions`: {vec.dimensions}, "
                f"`vector.similarity_function`: '{vec.similarity}'}}}}")
        before = {r["name"] for r in self.read("SHOW INDEXES YIELD name RETURN name")}
        for st in statements:
            self._guard(lambda st=st: self._driver.execute_query(st, database_=self.database))
        self._guard(lambda: self._driver.execute_query("CALL db.awaitIndexes(300)", database_=self.database))
        after = {r["name"] for r in self.read("SHOW INDEXES YIELD name RETURN name")}
        return sorted(after - before)

    def clear(self) -> None:
        # batched so a large graph does not need one huge transaction
        while True:
            rows = self.write("MATCH (n) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS c")
            if not rows or rows[0]["c"] == 0:
                break

    def drop(self) -> None:
        self.clear()  # one graph per database: its schema is shared by every user of the database

    def close(self) -> None:
        # closing must not mask the real error: a connection a stopped run left half-written makes the driver's
        # goodbye message fail an internal assertion (seen in CI when a manager stopped mid-write)
        with contextlib.suppress(Exception):
            self._driver.close()


def _first_line(e: BaseException) -> str:
    msg = getattr(e, "message", None) or str(e)
    return (str(msg).strip().splitlines() or [type(e).__name__])[0]
