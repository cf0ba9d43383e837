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
