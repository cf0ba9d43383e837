"""Integration test: a real Neo4j 5.26 built from Maven jars, started, stopped, crashed and restarted."""

from __future__ import annotations

import json
import shutil
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from openresearch.graph import neo4j_local

pytestmark = [pytest.mark.integration, pytest.mark.timeout(1200)]

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str, str]:
    with _NO_PROXY.open(url, timeout=10) as resp:
        return int(resp.status), resp.headers.get("Content-Type", ""), resp.read().decode("utf-8", "replace")


@pytest.fixture()
def neo4j_home(tmp_path: Path) -> Iterator[Path]:
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"local Neo4j needs {' and '.join(missing)} on PATH")
    home = tmp_path / "neo4j"
    try:
        yield home
    finally:
        if not neo4j_local.stop(home, timeout_s=30):
            neo4j_local.kill(home)


def _run(uri: str, query: str, **params: object) -> list[dict[str, object]]:
    from neo4j import GraphDatabase

    with GraphDatabase.driver(uri, auth=None) as driver:
        records, _, _ = driver.execute_query(query, params, database_="neo4j")
        return [r.data() for r in records]


def test_build_start_stop_persist_and_recover(neo4j_home: Path) -> None:
    cpfile = neo4j_local.build()
    assert cpfile.is_file() and "neo4j-server-5.26" in cpfile.read_text()

    bolt, http = _free_port(), _free_port()
    st = neo4j_local.start(neo4j_home, bolt_port=bolt, http_port=http, timeout_s=180)
    assert st.running and st.pid is not None
    assert st.bolt_uri == f"bolt://127.0.0.1:{bolt}" and st.http_uri == f"http://127.0.0.1:{http}"
    assert st.log_file.is_file() and st.log_file.parent == neo4j_home / "logs"
    assert neo4j_local.status(neo4j_home) == st
    # idempotent: a second start returns the running server
    assert neo4j_local.start(neo4j_home, bolt_port=bolt, http_port=http).pid == st.pid

    # Bolt
    assert _run(st.bolt_uri, "RETURN 1 AS x") == [{"x": 1}]
    # HTTP discovery advertises the real ports
    code, _, body = _get(st.http_uri + "/")
    discovery = json.loads(body)
    assert code == 200
    assert discovery["bolt_direct"] == f"bolt://127.0.0.1:{bolt}"
    assert discovery["neo4j_version"].startswith("5.26.")
    assert discovery["neo4j_edition"] == "community"
    # Neo4j Browser
    code, ctype, body = _get(st.http_uri + "/browser/")
    assert code == 200 and "text/html" in ctype and "<title>Neo4j Browser</title>" in body

    # DDL used by the graph layer: vector and full-text indexes, then a write
    _run(st.bolt_uri, "CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:Chunk) ON c.embedding "
                      "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: "
                      "'cosine'}}")
    _run(st.bolt_uri, "CREATE FULLTEXT INDEX evidence_quote IF NOT EXISTS FOR (n:Evidence) ON EACH [n.quote]")
    _run(st.bolt_uri, "CREATE (:Evidence {id: 'e1', quote: 'the quick brown fox'})")
    _run(st.bolt_uri, "CREATE (c:Chunk {id: 'c1'}) SET c.embedding = $v", v=[0.5] * 384)
    _run(st.bolt_uri, "CALL db.awaitIndexes(120)")

    # clean stop, start again: data and indexes are still there
    assert neo4j_local.stop(neo4j_home) is True
    down = neo4j_local.status(neo4j_home)
    assert not down.running and down.pid is None
    assert neo4j_local.stop(neo4j_home) is False

    st2 = neo4j_local.start(neo4j_home, bolt_port=bolt, http_port=http, timeout_s=180)
    assert st2.running and st2.pid != st.pid
    quotes = _run(st2.bolt_uri, "MATCH (e:Evidence {id: 'e1'}) RETURN e.quote AS q")
    assert quotes == [{"q": "the quick brown fox"}]
    _run(st2.bolt_uri, "CALL db.awaitIndexes(120)")
    hits = _run(st2.bolt_uri, "CALL db.index.fulltext.queryNodes('evidence_quote', 'fox') YIELD node "
                              "RETURN node.id AS id")
    assert hits == [{"id": "e1"}]
    near = _run(st2.bolt_uri, "CALL db.index.vector.queryNodes('chunk_embedding', 1, $v) YIELD node, score "
                              "RETURN node.id AS id, score", v=[0.5] * 384)
    assert near[0]["id"] == "c1"

    # crash (SIGKILL): the stale pid file is recovered and committed data survives
    _run(st2.bolt_uri, "CREATE (:Evidence {id: 'e2', quote: 'written before the crash'})")
    neo4j_local.kill(neo4j_home)
    assert not neo4j_local.status(neo4j_home).running
    assert (neo4j_home / "neo4j.pid").exists()
    st3 = neo4j_local.start(neo4j_home, bolt_port=bolt, http_port=http, timeout_s=180)
    assert st3.running
    ids = _run(st3.bolt_uri, "MATCH (e:Evidence) RETURN e.id AS id ORDER BY id")
    assert ids == [{"id": "e1"}, {"id": "e2"}]
    assert neo4j_local.stop(neo4j_home) is True
