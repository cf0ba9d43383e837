"""An MCP stdio client that asks about an unknown run gets a clear tool error (no traceback in the server's
log), and one that exits leaves no run queued forever: `openresearch mcp` as a subprocess (the SDK's own
client) and the HTTP API on a real uvicorn, both over one graph on the session's real FalkorDB."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters

from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.store import GraphStore

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "api"))  # the API test server helpers

from api_support import serve  # noqa: E402
from records_support import offline_run_server  # noqa: E402

pytestmark = pytest.mark.integration
DOCS = ["bench-confluent-2020.html", "rabbitmq-quorum-queues.md"]
ACTIVE = ("queued", "running")


@pytest.fixture
def shared_graph(falkor_socket: str) -> Iterator[tuple[GraphStore, str]]:
    name = f"mcp_life_{uuid.uuid4().hex[:8]}"
    backend = FalkorBackend(name, unix_socket=falkor_socket)
    store = GraphStore(backend)
    store.init_schema()
    try:
        yield store, name
    finally:
        backend.clear()
        backend.close()


def sse_events(c: httpx.Client, run_id: str) -> list[dict[str, Any]]:
    """The event types of a fresh stream of the run, read to its end."""
    out: list[dict[str, Any]] = []
    with c.stream("GET", f"/runs/{run_id}/events", timeout=600) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("data:"):
                out.append(json.loads(line[5:])["event"])
    return out


def test_unknown_ids_are_clear_and_a_client_that_left_leaves_no_run_queued(
        shared_graph: tuple[GraphStore, str], falkor_socket: str, tmp_path: Path) -> None:
    store, graph_name = shared_graph
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in DOCS:
        shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
    log = tmp_path / "mcp.log"
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(tmp_path / "mcp-data"), "HF_HUB_OFFLINE": "1",
           "OPENRESEARCH_EMBEDDING_BACKEND": "torch", "OPENRESEARCH_GRAPH_URL": f"unix://{falkor_socket}",
           "OPENRESEARCH_GRAPH_NAME": graph_name, "OPENRESEARCH_API_LOCAL_ROOTS": str(tmp_path)}
    # the server's stderr (its log) to a file, to read after it exits
    params = StdioServerParameters(command="/bin/sh", env=env, args=[
        "-c", f'exec "{sys.executable}" -m openresearch.cli mcp 2>>"{log}"'])
    q = "Which message broker has the highest throughput: Kafka or RabbitMQ?"

    async def session() -> list[str]:
        async with Client(params, read_timeout_seconds=300) as client:
            for tool, args, expected in (("run_status", {"run_id": "run-nope"}, "no run with id run-nope"),
                                         ("get_report", {"run_id": "run-nope"}, "run-nope"),
                                         ("provenance", {"evidence_id": "E-000000000000"}, "E-000000000000")):
                result = await client.call_tool(tool, args)
                text = " ".join(getattr(c, "text", "") for c in result.content)
                assert result.is_error and expected in text, (tool, text)
            ids = []
            for question in (q, q + " (again)"):  # one worker: the second waits in the queue
                started = await client.call_tool("start_research", {"question": question, "offline": True,
                                                                    "sources": [f"local:{corpus}"]})
                assert not started.is_error, started.content
                ids.append(started.structured_content["run_id"])
            status = await client.call_tool("run_status", {"run_id": ids[1]})
            assert status.structured_content["status"] == "queued"
            return ids  # the client exits here, its runs unfinished

    # the long-lived API server on the same graph was up before the MCP client came and went
    with offline_run_server(serve, store, tmp_path) as api, httpx.Client(base_url=api.url, timeout=120) as c:
        ids = asyncio.run(session())
        for run_id in ids:
            detail = c.get(f"/runs/{run_id}").json()
            if detail["status"] in ACTIVE:  # not ended by the server as it stopped: its owner is gone anyway
                assert c.delete(f"/runs/{run_id}").status_code == 202, detail
            assert c.get(f"/runs/{run_id}").json()["status"] in ("interrupted", "cancelled")
        # the queued one resumes here and finishes; a fresh stream of it goes to the end
        assert c.post(f"/runs/{ids[1]}/resume").status_code == 202
        events = sse_events(c, ids[1])
        assert events[-1]["type"] == "done", events[-3:]
        assert c.get(f"/runs/{ids[1]}").json()["status"] == "done"
        assert c.get("/runs/run-nope").status_code == 404
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text, text[-3000:]
