"""The MCP tools at /mcp (streamable HTTP) of a real uvicorn, through the SDK's own client: graph tools over
seeded evidence, a research run started by a tool and visible in GET /runs (one run manager), and the API key
guarding /mcp like every other route."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_support import Server, rec, serve
from mcp import Client

from openresearch.agents.run.components import Components
from openresearch.agents.run.manager import RunManager
from openresearch.agents.run.services import Services
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
DOCS = ["bench-confluent-2020.html", "rabbitmq-quorum-queues.md"]


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    for name in DOCS:
        shutil.copy(REPO / "examples" / "corpus" / name, d / name)
    return d


def services_for(store: GraphStore, embedder: Embedder, tmp_path: Path) -> Services:
    settings = Settings(_env_file=None, data_dir=tmp_path / "data")  # type: ignore[call-arg]
    return Services(settings, store, embedder,
                    lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))


@pytest.fixture
def mcp_api(falkor_store: GraphStore, embedder: Embedder, corpus: Path, tmp_path: Path) -> Iterator[Server]:
    services = services_for(falkor_store, embedder, tmp_path)
    with serve(falkor_store, runs=RunManager(services, workers=1), services=services,
               api_local_roots=[corpus.parent]) as server:
        yield server


def structured(result: Any) -> Any:
    assert not result.is_error, result.content
    data = result.structured_content
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


def test_mcp_tools_over_streamable_http(mcp_api: Server, corpus: Path) -> None:
    store = mcp_api.store
    store.write_evidence([
        rec("https://a.example/mcp-bench", "Zorbulon sustained 605 MB/s with three brokers.", "Zorbulon",
            "throughput", 605, "MB/s"),
        rec("https://b.example/mcp-bench", "Zorbulon reached 420 MB/s with three brokers.", "Zorbulon",
            "throughput", 420, "MB/s"),
    ])

    async def session() -> str:
        async with Client(f"{mcp_api.url}/mcp", read_timeout_seconds=600) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"start_research", "run_status", "get_report", "search_evidence", "compare_entities",
                    "list_conflicts", "provenance"} <= names
            hits = structured(await client.call_tool("search_evidence", {"query": "Zorbulon brokers"}))
            assert sum("Zorbulon" in h["quote"] for h in hits) == 2, hits
            assert len(structured(await client.call_tool("search_evidence", {"query": "brokers",
                                                                              "entity": "Zorbulon"}))) == 2
            prov = structured(await client.call_tool("provenance", {"evidence_id": hits[0]["id"]}))
            assert prov["evidence"]["quote"] == hits[0]["quote"]
            conflicts = structured(await client.call_tool("list_conflicts", {"entity": "Zorbulon"}))
            assert conflicts and {v["value"] for v in conflicts[0]["values"]} >= {605.0, 420.0}
            cmp = structured(await client.call_tool("compare_entities", {"entities": ["Zorbulon"],
                                                                          "metric": "throughput"}))
            assert cmp["cells"]
            started = structured(await client.call_tool("start_research", {
                "question": "How fast is Kafka?", "sources": [f"local:{corpus}"], "offline": True}))
            run_id = str(started["run_id"])
            deadline = time.time() + 900
            while structured(await client.call_tool("run_status", {"run_id": run_id}))["status"] != "done":
                assert time.time() < deadline
                await asyncio.sleep(1)
            report = structured(await client.call_tool("get_report", {"run_id": run_id}))
            assert report["content"].startswith("# ")
            return run_id

    run_id = asyncio.run(session())
    with mcp_api.client() as c:  # the run an MCP client started is one of the API's runs
        assert run_id in [r["id"] for r in c.get("/runs").json()["items"]]


def test_mcp_requires_the_api_key_when_one_is_set(falkor_store: GraphStore, embedder: Embedder,
                                                   tmp_path: Path) -> None:
    services = services_for(falkor_store, embedder, tmp_path)
    with serve(falkor_store, runs=RunManager(services, workers=1), services=services, api_key="s3cret") as server:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
        hdrs = {"Accept": "application/json, text/event-stream"}
        r = httpx.post(f"{server.url}/mcp", json=init, headers=hdrs)
        assert r.status_code == 401 and r.headers["content-type"].startswith("application/problem+json")
        r = httpx.post(f"{server.url}/mcp", json=init, headers={**hdrs, "Authorization": "Bearer wrong"})
        assert r.status_code == 401
        r = httpx.post(f"{server.url}/mcp", json=init, headers={**hdrs, "Authorization": "Bearer s3cret"})
        assert r.status_code == 200, r.text
