"""The MCP server through the SDK's own client over stdio: `openresearch mcp` launched as a subprocess, a
research run started by a tool and followed to its report, then the graph tools on what it stored."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from openresearch.graph.falkor_server import EmbeddedFalkor

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
DOCS = ["bench-confluent-2020.html", "bench-streamnative-2022.md", "rabbitmq-quorum-queues.md"]
TOOLS = {"start_research", "run_status", "get_report", "search_evidence", "compare_entities", "list_conflicts",
         "provenance"}


def structured(result: Any) -> Any:
    assert not result.is_error, result.content
    data = result.structured_content
    # a tool returning a list is wrapped by the SDK as {"result": [...]}
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


def test_mcp_over_stdio(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in DOCS:
        shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
    data = tmp_path / "data"
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1",
           "OPENRESEARCH_EMBEDDING_BACKEND": "torch",
           "OPENRESEARCH_API_LOCAL_ROOTS": str(tmp_path)}  # one plain path: MCP reads local files only there
    params = StdioServerParameters(command=sys.executable, args=["-m", "openresearch.cli", "mcp"], env=env)

    async def session() -> None:
        async with Client(params, read_timeout_seconds=600) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) >= TOOLS
            assert all(tools[n].input_schema.get("properties") is not None for n in TOOLS)  # typed inputs
            assert tools["run_status"].output_schema  # typed outputs

            started = structured(await client.call_tool("start_research", {
                "question": "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?",
                "sources": [f"local:{corpus}"], "offline": True}))
            run_id = started["run_id"]
            deadline = time.time() + 900
            while True:
                status = structured(await client.call_tool("run_status", {"run_id": run_id}))
                if status["status"] in ("done", "failed", "cancelled"):
                    break
                assert time.time() < deadline, status
                await asyncio.sleep(1)
            assert status["status"] == "done", status
            assert status["metrics"]["evidence_written"] > 0

            report = structured(await client.call_tool("get_report", {"run_id": run_id}))
            assert report["format"] == "markdown" and "[E-" in report["content"]
            as_json = json.loads(structured(await client.call_tool("get_report", {"run_id": run_id,
                                                                                   "format": "json"}))["content"])
            assert as_json["run_id"] == run_id and as_json["sections"]

            hits = structured(await client.call_tool("search_evidence", {"query": "throughput", "limit": 5}))
            assert hits and all(h["id"].startswith("E-") and h["quote"] for h in hits)
            prov = structured(await client.call_tool("provenance", {"evidence_id": hits[0]["id"]}))
            assert prov["evidence"]["id"] == hits[0]["id"] and prov["evidence"]["source"]["url"]
            assert run_id in prov["runs"]

            cmp = structured(await client.call_tool("compare_entities", {"entities": ["Apache Kafka", "Pulsar"],
                                                                          "metric": "throughput"}))
            assert "cells" in cmp and "missing" in cmp
            conflicts = structured(await client.call_tool("list_conflicts", {"entity": "Apache Kafka"}))
            assert isinstance(conflicts, list)

            bad = await client.call_tool("provenance", {"evidence_id": "E-000000000000"})
            assert bad.is_error  # an unknown id is a tool error, not a crashed server
            again = structured(await client.call_tool("run_status", {"run_id": run_id}))
            assert again["status"] == "done"

    try:
        asyncio.run(session())
    finally:
        EmbeddedFalkor(data).stop()


def test_mcp_stdio_schemas_aliases_errors_judgements_cancel_and_events(tmp_path: Path) -> None:
    """Over stdio, on a graph seeded beforehand (made-up names; an alias file maps 'Zorbo' to 'Zorbulon
    Streams'): described, bounded parameters; aliases in any case; one-line refusals; a resolution and feedback
    the API's own functions then read; a run cancelled and its events read to the end."""
    from records_support import rec

    from openresearch.api.routers.conflicts import conflicts_out
    from openresearch.config import Settings
    from openresearch.graph.connect import open_store

    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    (docs / "zorbulon.md").write_text("# Zorbulon Streams\n\nZorbulon Streams moved 510 MB/s with three brokers "
                                      "in our test.\n", encoding="utf-8")
    aliases = tmp_path / "aliases.json"
    aliases.write_text(json.dumps({"Zorbulon Streams": ["Zorbo"]}), encoding="utf-8")
    settings = Settings(_env_file=None, data_dir=data, aliases_file=aliases)  # type: ignore[call-arg]
    store = open_store(settings)
    store.init_schema()
    store.write_evidence([
        rec("https://a.example/zs", "Zorbulon Streams sustained 605 MB/s with three brokers.", "Zorbulon Streams",
            "throughput", 605, "MB/s", "3 brokers"),
        rec("https://b.example/zs", "Zorbo reached 420 MB/s with three brokers.", "Zorbo", "throughput", 420,
            "MB/s", "3 brokers"),
    ])
    store.backend.close()
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(data), "OPENRESEARCH_ALIASES_FILE": str(aliases),
           "HF_HUB_OFFLINE": "1", "OPENRESEARCH_EMBEDDING_BACKEND": "torch",
           "OPENRESEARCH_API_LOCAL_ROOTS": str(tmp_path)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "openresearch.cli", "mcp"], env=env)

    def error_line(result: Any) -> str:
        assert result.is_error, result.structured_content
        text = " ".join(getattr(b, "text", "") for b in result.content)
        assert "\n" not in text and "Traceback" not in text, text
        return text

    async def session() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(params, read_timeout_seconds=600) as client:
            call = client.call_tool
            out["tools"] = {t.name: t.input_schema for t in (await client.list_tools()).tools}
            out["hits"] = structured(await call("search_evidence", {"query": "brokers", "entity": "zorbo"}))
            out["conflicts"] = structured(await call("list_conflicts", {"entity": "ZORBO"}))
            out["errors"] = {
                "as_of": error_line(await call("compare_entities", {"entities": ["Zorbo"], "as_of": "soon"})),
                "status": error_line(await call("list_conflicts", {"status": "done"})),
                "limit": error_line(await call("search_evidence", {"query": "x", "limit": 0})),
                "run": error_line(await call("cancel_run", {"run_id": "run-nope"})),
            }
            group = out["conflicts"][0]
            out["resolution"] = structured(await call("resolve_conflict", {
                "conflict_id": group["id"], "decision": "both_hold", "note": "different hardware", "author": "t"}))
            out["feedback"] = structured(await call("give_feedback", {
                "target": "evidence", "target_id": out["hits"][0]["id"], "verdict": "accept", "author": "t"}))
            run_id = structured(await call("start_research", {
                "question": "How fast is Zorbulon Streams?", "sources": [f"local:{docs}"], "offline": True}))["run_id"]
            out["cancel_ok"] = not (await call("cancel_run", {"run_id": run_id})).is_error
            events: list[dict[str, Any]] = []
            after = 0
            for _ in range(200):  # each call waits up to 5 s for new events; the count bounds the loop
                page = structured(await call("run_events", {"run_id": run_id, "after": after, "wait_s": 5}))
                events += page["events"]
                after = page["next_after"]
                if page["finished"]:
                    break
            out["events"] = events
            out["status"] = structured(await call("run_status", {"run_id": run_id}))
        return out

    try:
        out = asyncio.run(session())
        tools = out["tools"]
        assert {"resolve_conflict", "give_feedback", "cancel_run", "run_events"} <= set(tools)
        for schema in tools.values():
            for name, p in schema["properties"].items():
                assert p.get("description") or any(a.get("description") for a in p.get("anyOf", [])), name
        assert any(a.get("format") == "date" for a in tools["list_conflicts"]["properties"]["as_of"]["anyOf"])
        assert tools["list_conflicts"]["properties"]["status"]["enum"] == ["open", "resolved", "stale", "all"]
        assert tools["search_evidence"]["properties"]["limit"]["maximum"] == 100
        assert len(out["hits"]) == 2 and len(out["conflicts"]) == 1
        assert {v["value"] for v in out["conflicts"][0]["values"]} == {605.0, 420.0}
        for name, text in out["errors"].items():
            assert (name if name != "run" else "no run") in text, (name, text)
        final = "cancelled" if out["cancel_ok"] else "done"
        events = out["events"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert events[-1]["event"].get("status", "done") == final and out["status"]["status"] == final
        # what the tools recorded is what the API reads from the same graph
        store = open_store(settings)
        try:
            resolved = [c for c in conflicts_out(store) if c.status == "resolved"]
            assert [c.id for c in resolved] == [out["conflicts"][0]["id"]]
            assert resolved[0].resolution is not None and resolved[0].resolution.decision == "both_hold"
            assert [f.id for f in store.feedback_on([out["hits"][0]["id"]])] == [out["feedback"]["id"]]
        finally:
            store.backend.close()
    finally:
        EmbeddedFalkor(data).stop()
