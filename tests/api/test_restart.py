"""A server killed (SIGKILL) in the middle of a run: the next server marks the run interrupted, and resuming it
through the API finishes it with its event numbering intact and nothing stored twice. Real processes:
`openresearch serve` in a subprocess over the session's real FalkorDB."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from api_support import free_port
from test_runs import body, read_events

from openresearch.agents.run.event_writer import MAX_UNSAVED
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
SUBSET = ["kafka-overview.md", "rabbitmq-quorum-queues.md", "bench-streamnative-2022.md"]  # small: two servers start


class Proc:
    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.log = log.open("ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "openresearch.cli", "serve", "--port", str(port),
                                      "--log-level", "warning"], env=env, cwd=REPO, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited {self.proc.returncode}: {log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/readyz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("serve did not become ready")
            time.sleep(0.2)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(60)
        self.log.close()


@pytest.fixture
def graph_env(falkor_socket: str, tmp_path: Path) -> Iterator[tuple[dict[str, str], GraphStore, Path]]:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in SUBSET:
        shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
    name = f"api_restart_{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(tmp_path / "data"),
           "OPENRESEARCH_GRAPH_URL": f"unix://{falkor_socket}", "OPENRESEARCH_GRAPH_NAME": name,
           "OPENRESEARCH_API_LOCAL_ROOTS": json.dumps([str(tmp_path)]),
           "OPENRESEARCH_API_RUN_WORKERS": "1",
           # torch as is: the ONNX export a fresh data dir would build first is not what this test is about
           "OPENRESEARCH_EMBEDDING_BACKEND": "torch"}
    env.pop("OPENRESEARCH_API_KEY", None)
    backend = FalkorBackend(name, unix_socket=falkor_socket)
    try:
        yield env, GraphStore(backend), corpus
    finally:
        backend.drop()  # the whole key: clear() keeps an emptied key's indexes (about 2 MB)
        backend.close()


def test_killed_server_then_resume_duplicates_nothing(graph_env: tuple[dict[str, str], GraphStore, Path],
                                                      tmp_path: Path) -> None:
    env, store, corpus = graph_env
    log = tmp_path / "serve.log"
    first = Proc(env, free_port(), log)
    try:
        with httpx.Client(base_url=first.url, timeout=60) as c:
            run_id = c.post("/runs", json=body(corpus)).json()["id"]
            seen = read_events(c, run_id, stop_after=8)  # into the run: plan, index, gather...
    finally:
        first.kill()
    assert store.get_run(run_id)["status"] in ("running", "queued"), "a killed process leaves it unfinished"
    killed_at = store.last_run_event(run_id)
    # events are stored in batches behind the live stream: at most MAX_UNSAVED of what a client saw are not
    assert killed_at > 0 and seen[-1]["id"] - killed_at < MAX_UNSAVED

    second = Proc(env, free_port(), log)
    try:
        with httpx.Client(base_url=second.url, timeout=60) as c:
            detail = c.get(f"/runs/{run_id}").json()
            assert detail["status"] == "interrupted" and not detail["active"]
            assert c.get(f"/runs/{run_id}/report").status_code == 409
            # the history up to the kill replays, then the interruption the next server recorded, and the
            # stream ends there (no live run). It is numbered after a gap of MAX_UNSAVED: no id a client may
            # have seen live before the kill is given to another event
            history = read_events(c, run_id)
            interrupted_at = killed_at + MAX_UNSAVED + 1
            assert [e["id"] for e in history] == [*range(1, killed_at + 1), interrupted_at]
            assert history[-1]["event"] == "failed" and history[-1]["data"]["event"]["status"] == "interrupted"
            assert c.post(f"/runs/{run_id}/resume").status_code == 202
            rest = read_events(c, run_id, last=killed_at)
            assert rest[0]["id"] == interrupted_at and rest[-1]["event"] == "done"
            rest = rest[1:]
            first_new = interrupted_at + 1
            assert [e["id"] for e in rest] == list(range(first_new, first_new + len(rest)))
            assert first_new > seen[-1]["id"]
            ids = [*range(1, killed_at + 1), interrupted_at, *(e["id"] for e in rest)]
            report = c.get(f"/runs/{run_id}/report").json()
            assert c.get(f"/runs/{run_id}").json()["status"] == "done"
    finally:
        second.kill(signal.SIGTERM)
    nodes = store.stats()["nodes"]
    assert nodes["Run"] == 1 and nodes["Report"] == 1
    assert nodes["RunEvent"] == len(ids)
    assert len({e["id"] for e in report["evidence"]}) == len(report["evidence"])
    plan = store.get_run(run_id)["plan"]
    assert plan is not None and nodes["Question"] >= len(plan.sub_questions)
    asked = store.backend.read("MATCH (:Run {id: $id})-[:ASKS]->(q:Question) RETURN count(q) AS n", {"id": run_id})
    assert asked[0]["n"] == len(plan.sub_questions), "the resumed run asks each sub-question once"
