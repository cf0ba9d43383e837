"""Research runs through the API under a real uvicorn: 202 -> live events -> report in three formats, a
reconnect with Last-Event-ID in the middle of a run, cancel then resume, all offline over a tiny local corpus."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_support import Server, serve

from openresearch.agents.run.components import Components
from openresearch.agents.run.manager import RunManager
from openresearch.agents.run.services import Services
from openresearch.api.routers.runs import pick_format
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
SUBSET = ["bench-confluent-2020.html", "bench-streamnative-2022.md", "rabbitmq-quorum-queues.md",
          "kafka-overview.md"]
Q = "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?"


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    for name in SUBSET:
        shutil.copy(REPO / "examples" / "corpus" / name, d / name)
    return d


@pytest.fixture
def run_api(falkor_store: GraphStore, embedder: Embedder, corpus: Path, tmp_path: Path) -> Iterator[Server]:
    settings = Settings(_env_file=None, data_dir=tmp_path / "data")  # type: ignore[call-arg]
    services = Services(settings, falkor_store, embedder,
                        lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))
    with serve(falkor_store, runs=RunManager(services, workers=1), services=services,
               api_local_roots=[corpus.parent]) as server:
        yield server


def body(corpus: Path, question: str = Q) -> dict[str, Any]:
    return {"question": question, "sources": [f"local:{corpus}"], "offline": True, "workers": 1, "budget": 6,
            "max_sub_questions": 3}


def read_events(c: httpx.Client, run_id: str, last: int | None = None, stop_after: int | None = None
                ) -> list[dict[str, Any]]:
    """SSE records (id, event, data) as a browser's EventSource would see them."""
    headers = {"Last-Event-ID": str(last)} if last is not None else {}
    out: list[dict[str, Any]] = []
    with c.stream("GET", f"/runs/{run_id}/events", headers=headers, timeout=300) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        for line in r.iter_lines():
            if line == "":
                if "data" in fields:
                    out.append({"id": int(fields["id"]), "event": fields["event"], "data": json.loads(fields["data"])})
                    if stop_after is not None and len(out) >= stop_after:
                        return out
                fields = {}
                continue
            if line.startswith(":"):
                continue
            key, _, value = line.partition(":")
            fields[key] = value.removeprefix(" ")
    return out


def test_start_stream_reconnect_and_report(run_api: Server, corpus: Path) -> None:
    with run_api.client() as c:
        r = c.post("/runs", json=body(corpus))
        assert r.status_code == 202
        run_id = r.json()["id"]
        assert r.headers["location"] == f"/runs/{run_id}"
        assert c.get(f"/runs/{run_id}").json()["status"] in ("queued", "running")
        head = read_events(c, run_id, stop_after=3)  # the client drops after three events...
        rest = read_events(c, run_id, last=head[-1]["id"])  # ...and reconnects with the last id it saw
        ids = [e["id"] for e in head + rest]
        assert ids == list(range(1, len(ids) + 1)), "nothing missed, nothing twice"
        assert rest[-1]["event"] == "done" and all(e["data"]["run_id"] == run_id for e in head + rest)
        assert [e["event"] for e in head + rest].count("stage_started") == 5
        detail = c.get(f"/runs/{run_id}").json()
        assert detail["status"] == "done" and detail["metrics"] and detail["last_event"] == ids[-1]
        # a finished run replays its whole history
        assert [e["id"] for e in read_events(c, run_id)] == ids
        assert [e["id"] for e in read_events(c, run_id, last=ids[-3])] == ids[-2:]
        # the report by Accept and by suffix
        js = c.get(f"/runs/{run_id}/report").json()
        assert js["run_id"] == run_id and js["sections"] and js["evidence"]
        assert c.get(f"/runs/{run_id}/report.json").json() == js
        md = c.get(f"/runs/{run_id}/report", headers={"Accept": "text/markdown"})
        assert md.headers["content-type"].startswith("text/markdown") and js["title"] in md.text
        assert c.get(f"/runs/{run_id}/report.md").text == md.text
        html = c.get(f"/runs/{run_id}/report", headers={"Accept": "text/html,application/xhtml+xml"})
        assert html.headers["content-type"].startswith("text/html") and "<html" in html.text.lower()
        assert c.get(f"/runs/{run_id}/report.html").text == html.text
        assert c.get(f"/runs/{run_id}/report", headers={"Accept": "image/png"}).status_code == 406
        # every citation in the report resolves through the evidence route
        first = js["evidence"][0]["id"]
        assert c.get(f"/evidence/{first}").json()["runs"] == [run_id]
        listed = c.get("/runs").json()["items"]
        assert [x["id"] for x in listed] == [run_id]
        # unknown runs and bad input are problems
        assert c.get("/runs/run-nope").status_code == 404
        assert c.get("/runs/run-nope/events").status_code == 404
        assert c.get(f"/runs/{run_id}/events", headers={"Last-Event-ID": "abc"}).status_code == 400
        assert c.delete(f"/runs/{run_id}").status_code == 409  # done: nothing to cancel
        assert c.post(f"/runs/{run_id}/resume").status_code == 409
        assert c.post("/runs", json={**body(corpus), "sources": ["local:/etc"]}).status_code == 400
        assert c.post("/runs", json={**body(corpus), "sources": ["ftp://x"]}).status_code == 400  # the boundary's
        assert c.post("/runs", json={"question": ""}).status_code == 400


def test_cancel_then_resume_duplicates_nothing(run_api: Server, corpus: Path) -> None:
    with run_api.client() as c:
        run_id = c.post("/runs", json=body(corpus)).json()["id"]
        seen = read_events(c, run_id, stop_after=4)
        cancelled = c.delete(f"/runs/{run_id}")
        assert cancelled.status_code == 202
        tail = read_events(c, run_id, last=seen[-1]["id"])
        assert tail[-1]["event"] == "failed" and tail[-1]["data"]["event"]["status"] == "cancelled"
        assert c.get(f"/runs/{run_id}").json()["status"] == "cancelled"
        assert c.get(f"/runs/{run_id}/report").status_code == 409
        before = run_api.store.stats()["nodes"]
        r = c.post(f"/runs/{run_id}/resume")
        assert r.status_code == 202 and r.headers["location"] == f"/runs/{run_id}"
        # a fresh stream opened while the resumed run is queued or running goes past the cancellation to the end
        fresh = read_events(c, run_id)
        assert [e["event"] for e in fresh].count("failed") == 1 and fresh[-1]["event"] == "done", \
            [e["event"] for e in fresh][-5:]
        rest = read_events(c, run_id, last=tail[-1]["id"])
        assert rest[-1]["event"] == "done"
        ids = [e["id"] for e in seen + tail + rest]
        assert ids == list(range(1, len(ids) + 1))
        assert [e["id"] for e in fresh] == ids
        # and once it is done, every fresh stream replays its whole history to the end
        assert [e["id"] for e in read_events(c, run_id)] == ids
        assert [e["event"] for e in read_events(c, run_id, last=seen[-1]["id"])][-1] == "done"
        after = run_api.store.stats()["nodes"]
        assert after["Report"] == 1 and after["Run"] == 1
        assert after["Question"] == before["Question"] or before.get("Question", 0) == 0
        report = c.get(f"/runs/{run_id}/report").json()
        assert len({e["id"] for e in report["evidence"]}) == len(report["evidence"])


def test_accept_header_negotiation() -> None:
    assert pick_format(None) == "json"
    assert pick_format("text/markdown") == "md"
    assert pick_format("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8") == "html"
    assert pick_format("application/json;q=0.5, text/markdown;q=0.9") == "md"
    assert pick_format("*/*") == "json"
    assert pick_format("image/png") is None
