"""The API's doors under a real uvicorn: POST /runs, POST /topics (create and update), resume of a stored run,
and the MCP tools at /mcp refuse every attack with the boundary's one line (400 problem / tool error), and
the allowed folder still works at each."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_support import Server, serve
from doors_support import QUESTION, Rooms
from mcp import Client

from openresearch.agents.run.components import Components
from openresearch.agents.run.manager import RunManager
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.agents.run.state import RunState
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))


@pytest.fixture
def rooms(tmp_path: Path) -> Rooms:
    return Rooms.make(tmp_path)


@pytest.fixture
def door_api(falkor_store: GraphStore, embedder: Embedder, rooms: Rooms, tmp_path: Path) -> Iterator[Server]:
    settings = Settings(_env_file=None, data_dir=tmp_path / "data")  # type: ignore[call-arg]
    services = Services(settings, falkor_store, embedder,
                        lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))
    with serve(falkor_store, runs=RunManager(services, workers=1), services=services, api_local_roots=[rooms.root],
               api_monitor=False) as server:
        yield server


def refused(r: httpx.Response) -> str:
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    detail = str(r.json()["detail"])
    assert detail and "\n" not in detail and "Traceback" not in detail
    return detail


def stop(c: httpx.Client, run_id: str) -> None:
    """Cancel the run and wait until it has left the manager."""
    c.delete(f"/runs/{run_id}")
    deadline = time.monotonic() + 60
    while c.get(f"/runs/{run_id}").json()["active"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def run_body(fields: dict[str, Any]) -> dict[str, Any]:
    return {"question": fields["question"], "sources": fields["sources"], "offline": True, "workers": 1,
            "budget": 3, "max_sub_questions": 1}


def test_runs_door(door_api: Server, rooms: Rooms) -> None:
    with door_api.client() as c:
        for name, fields in rooms.attacks(webhook=False).items():
            detail = refused(c.post("/runs", json=run_body(fields)))
            assert ("empty" in detail) if name == "empty question" else ("source" in detail), (name, detail)
        assert c.get("/runs").json()["items"] == []  # nothing refused was stored
        ok = c.post("/runs", json=run_body({"question": QUESTION, "sources": [f"local:{rooms.docs}"]}))
        assert ok.status_code == 202, ok.text
        run_id = ok.json()["id"]
        assert c.get(f"/runs/{run_id}").json()["options"]["sources"] == [f"local:{rooms.docs.resolve()}"]
        stop(c, run_id)


def test_resume_checks_the_stored_options_again(door_api: Server, rooms: Rooms) -> None:
    with door_api.client() as c:
        for i, (name, fields) in enumerate(rooms.attacks(webhook=False).items()):
            # a run stored before the boundary existed (or written by other means), left interrupted
            opts = RunOptions(question=fields["question"], sources=fields["sources"], offline=True)
            RunState(door_api.store, f"run-old-{i}", opts).save("plan", status="interrupted")
            refused(c.post(f"/runs/run-old-{i}/resume"))
            assert c.get(f"/runs/run-old-{i}").json()["status"] == "interrupted", name
        good = RunOptions(question=QUESTION, sources=[f"local:{rooms.docs}"], offline=True, workers=1, budget=3)
        RunState(door_api.store, "run-old-good", good).save("plan", status="interrupted")
        assert c.post("/runs/run-old-good/resume").status_code == 202
        stop(c, "run-old-good")


def topic_body(fields: dict[str, Any], every: str = "1d") -> dict[str, Any]:
    return {"question": fields["question"], "sources": fields["sources"], "every": every, "offline": True,
            **({"webhook": fields["webhook"]} if "webhook" in fields else {})}


def test_topics_door_create_and_update(door_api: Server, rooms: Rooms) -> None:
    with door_api.client() as c:
        for name, fields in rooms.attacks(webhook=True).items():
            refused(c.post("/topics", json=topic_body(fields)))
            assert name
        refused(c.post("/topics", json=topic_body({"question": QUESTION, "sources": ["web"]}, "1000000d")))
        refused(c.post("/topics", json=topic_body({"question": QUESTION, "sources": ["web"],
                                                   "webhook": "file:///etc/passwd"})))
        assert c.get("/topics").json() == []
        good = {"question": QUESTION, "sources": [f"local:{rooms.docs}"]}
        made = c.post("/topics", json=topic_body(good))
        assert made.status_code == 201, made.text
        assert made.json()["sources"] == [f"local:{rooms.docs.resolve()}"] and made.json()["origin"] == "api"
        # an update is the same POST (same question and sources): a bad webhook or schedule is refused too
        refused(c.post("/topics", json=topic_body({**good, "webhook": "http://169.254.169.254/latest"})))
        refused(c.post("/topics", json=topic_body(good, "1000000d")))
        assert c.post("/topics", json=topic_body(good, "6h")).json()["schedule"] == "6h"
        assert len(c.get("/topics").json()) == 1


def test_mcp_door_over_http(door_api: Server, rooms: Rooms) -> None:
    async def session() -> tuple[dict[str, str], str]:
        errors: dict[str, str] = {}
        async with Client(f"{door_api.url}/mcp", read_timeout_seconds=120) as client:
            for name, fields in rooms.attacks(webhook=False).items():
                r = await client.call_tool("start_research", {"question": fields["question"],
                                                              "sources": fields["sources"], "offline": True})
                assert r.is_error, name
                errors[name] = " ".join(getattr(b, "text", "") for b in r.content)
            ok = await client.call_tool("start_research", {"question": QUESTION, "offline": True,
                                                           "sources": [f"local:{rooms.docs}"]})
            assert not ok.is_error, ok.content
            data = ok.structured_content
            assert isinstance(data, dict)
            return errors, str(data["run_id"])

    errors, run_id = asyncio.run(session())
    for name, text in errors.items():  # the boundary's own line, not a generic failure
        assert ("empty" in text) if name == "empty question" else ("source" in text), (name, text)
        assert "Traceback" not in text
    with door_api.client() as c:
        stop(c, run_id)
