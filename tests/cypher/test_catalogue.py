"""The Cypher catalogue: every file loads, declares its params, is used by the code, and plans on both backends."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from openresearch.cypher import DIALECTS, Catalogue, dialect_specific_names, parse_query
from openresearch.errors import QueryError
from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore

PACKAGE = Path(__file__).resolve().parents[2] / "openresearch"
# placeholder values for planning; types matter on FalkorDB
SAMPLE: dict[str, Any] = {
    "rows": [], "merge_only": False, "now": 0, "question_id": "Q-x", "limit": 5, "ids": ["E-x"], "after": "",
    "id": "E-x",
    "entity_ids": ["N-x"], "metric": None, "tolerance": 0.05, "keys": ["x"], "query": "kafka",
    "root": "/docs", "k": 3, "embedding": [0.1] * 384, "question": "q?", "status": "running", "stage": "plan",
    "options": "{}", "plan": None, "started_at": 0, "finished_at": None, "metrics": None, "run_id": "run-x",
    "source_ids": ["S-x"], "report_id": "R-x", "title": "t", "created_at": 0, "markdown": "# t", "verified": False,
    "sections": [], "sources": [], "entities": [], "questions": [],
}
# the HTTP API's queries (api_*.cypher)
SAMPLE.update({"q": "kafka", "target_kind": "evidence", "target_id": "E-x", "source_id": "S-x", "verdict": "dispute",
               "note": "n", "author": "a", "trust": 0.4, "conflict_id": "C-x", "entity": "Kafka", "unit": "MB/s",
               "condition": "", "decision": "both_hold", "value": None, "evidence_ids": ["E-x"],
               "conflict_ids": None, "json": None, "progress": None, "values": [1.0, 2.0]})
# monitoring's queries (monitor_*.cypher)
SAMPLE.update({"props": {"question": "q"}, "owner": "w", "until": 0, "due_only": True, "next_due": 0, "topic_id": "T-x",
               "at": 0, "nothing_changed": True, "data": "{}", "here": "host:", "run_ids": ["run-x"]})
# kept versions of changed sources (archive_source_version.cypher)
SAMPLE.update({"version_id": "S-x@0123456789ab", "scope": "S-x@ba9876543210", "now": 0})
# a run's owner and its heartbeat (upsert_run.cypher, run_heartbeat.cypher)
SAMPLE.update({"heartbeat_at": 0})
# a source's new stated date (set_source_date.cypher)
SAMPLE.update({"published_at": 0})


def test_every_file_loads_with_matching_params() -> None:
    for dialect in DIALECTS:
        cat = Catalogue(dialect)
        assert cat.names()
        for name in cat.names():
            q = cat[name]
            assert q.purpose and q.text


def test_dialect_files_come_in_pairs() -> None:
    names = dialect_specific_names()
    assert names["neo4j"] == names["falkordb"]


def test_loader_rejects_header_param_mismatch() -> None:
    with pytest.raises(QueryError, match="do not match"):
        parse_query("bad", "// purpose: x\n// params: a\nMATCH (n {id: $a, b: $b}) RETURN n")
    with pytest.raises(QueryError, match="purpose"):
        parse_query("bad", "// params: -\nRETURN 1")
    with pytest.raises(QueryError, match="more than one"):
        parse_query("bad", "// purpose: x\n// params: -\nRETURN 1; RETURN 2")
    # a $ inside a string literal is not a parameter
    assert parse_query("ok", "// purpose: x\n// params: -\nRETURN '$notaparam' AS s").params == ()


def _code_names() -> set[str]:
    text = "\n".join(p.read_text("utf-8") for p in PACKAGE.rglob("*.py"))
    return set(re.findall(r"_(?:read|write)\(\s*\"([a-z_0-9]+)\"", text)) | set(
        re.findall(r"catalogue\[\s*\"([a-z_0-9]+)\"\s*\]", text))


def test_every_file_is_used_and_every_used_name_exists() -> None:
    used = _code_names()
    for dialect in DIALECTS:
        names = set(Catalogue(dialect).names())
        assert names - used == set(), f"unused catalogue files ({dialect})"
        assert used - names == set(), f"code refers to missing queries ({dialect})"


@pytest.mark.integration
def test_every_query_plans_on_the_backend(backend: GraphBackend) -> None:
    store = GraphStore(backend)
    store.init_schema()
    cat = Catalogue(backend.dialect)
    for name in cat.names():
        q = cat[name]
        backend.explain(q.text, {p: SAMPLE[p] for p in q.params})


@pytest.mark.integration
def test_schema_is_idempotent(backend: GraphBackend) -> None:
    store = GraphStore(backend)
    store.init_schema()
    assert store.init_schema() == []
