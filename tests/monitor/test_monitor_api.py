"""The /topics routes over a real FalkorDB graph (the router mounted on its own app, as api/app.py will)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from monitor_support import TINY, offline_services, write_doc

from openresearch.api import problems
from openresearch.api.deps import ApiState
from openresearch.api.routers import topics
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_topics_routes(store: GraphStore, embedder: Embedder, tmp_path: Path) -> None:
    app = FastAPI()
    problems.install(app)
    settings = Settings(data_dir=tmp_path / "data", api_local_roots=[tmp_path])  # local reads under tmp_path only
    app.state.api = ApiState(settings=settings, store=store)
    app.include_router(topics.router)
    client = TestClient(app)
    corpus = tmp_path / "c"
    write_doc(corpus, "a.md", "AcmeDB notes", "2026-01-10", "https://acme.example/a",
              "AcmeDB reaches a write throughput of 120,000 rows per second on a single node.")
    r = client.post("/topics", json={"question": "What is the write throughput of AcmeDB?",
                                     "sources": [f"local:{corpus}"], "every": "6h", "offline": True})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert r.headers["location"] == f"/topics/{tid}"
    assert client.post("/topics", json={"question": "q", "every": "sometimes"}).status_code == 400
    assert [t["id"] for t in client.get("/topics").json()] == [tid]
    assert client.post(f"/topics/{tid}/pause").json()["status"] == "paused"
    assert client.post(f"/topics/{tid}/resume").json()["status"] == "active"
    assert client.get("/topics/T-missing").status_code == 404
    assert client.get(f"/topics/{tid}/digests/latest").status_code == 404

    m = Monitor(offline_services(store, embedder, tmp_path / "data", settings))
    m.store.save_topic(m.store.topic(tid).model_copy(update={"options": TINY}), 0)
    assert len(m.run_due()) == 1
    digests = client.get(f"/topics/{tid}/digests").json()
    assert len(digests) == 1 and digests[0]["new_sources"][0]["url"] == "https://acme.example/a"
    md = client.get(f"/topics/{tid}/digests/latest", params={"format": "markdown"})
    assert md.headers["content-type"].startswith("text/markdown") and "# Digest" in md.text
    vals = client.get("/topics/values", params={"entity": "AcmeDB", "as_of": "2026-02-01"}).json()
    assert [v["raw_value"] for v in vals] == ["120,000"]
    assert client.get("/topics/values", params={"entity": "AcmeDB", "as_of": "2026-01-01"}).json() == []
    assert client.get("/topics/conflicts").json() == []
    assert client.post(f"/topics/{tid}/run").status_code == 202
    assert client.delete(f"/topics/{tid}").status_code == 204
    assert client.delete(f"/topics/{tid}").status_code == 404
