"""A run killed with SIGKILL in the middle of gathering resumes with --resume: nothing lost, nothing doubled,
nothing already extracted is extracted again."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor

pytestmark = pytest.mark.integration
Q = "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?"


def cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openresearch.cli", *args], env=env, capture_output=True, text=True,
                          timeout=900)


def graph_counts(data_dir: Path) -> tuple[dict[str, int], list[dict[str, object]]]:
    info = EmbeddedFalkor(data_dir).status()
    if not info.running:
        return {}, []
    b = FalkorBackend("openresearch", unix_socket=str(info.socket))
    try:
        counts = {r["label"]: r["count"] for r in b.read("MATCH (n) RETURN labels(n)[0] AS label, count(*) AS count")}
        runs = b.read("MATCH (r:Run) RETURN r.id AS id, r.stage AS stage, r.status AS status")
        counts["EXAMINED"] = b.read("MATCH ()-[x:EXAMINED]->() RETURN count(x) AS c")[0]["c"]
        return counts, runs
    except Exception:
        return {}, []
    finally:
        b.close()


def test_sigkill_then_resume(corpus: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1"}
    args = ["research", Q, "--source", f"local:{corpus}", "--offline", "--workers", "1"]
    proc = subprocess.Popen([sys.executable, "-m", "openresearch.cli", *args, "--out", str(tmp_path / "o1")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 600
        while True:
            counts, runs = graph_counts(data)
            if runs and runs[0]["stage"] == "gather" and counts.get("EXAMINED", 0) > 0:
                break
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.time() < deadline
            time.sleep(0.1)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed_counts, runs = graph_counts(data)
        run_id = str(runs[0]["id"])
        assert runs[0]["status"] == "running"
        listed = json.loads(cli(["runs", "list", "--json"], env).stdout)
        assert listed[0]["id"] == run_id and listed[0]["stage"] == "gather"

        resumed = cli(["research", Q, "--resume", run_id, "--out", str(tmp_path / "o2"), "--json"], env)
        assert resumed.returncode == 0, resumed.stderr
        report = json.loads(resumed.stdout)
        assert report["run_id"] == run_id and report["verification"]["phantom_citations"] == 0
        after, runs = graph_counts(data)
        assert [r["status"] for r in runs] == ["done"]
        assert after["Evidence"] >= killed_counts["Evidence"]  # nothing committed before the kill was lost

        # a clean, uninterrupted run of the same question builds exactly the same evidence graph
        fresh = tmp_path / "fresh"
        shutil.copytree(data / "cache", fresh / "cache")  # share the embedding cache, not the graph
        env2 = {**env, "OPENRESEARCH_DATA_DIR": str(fresh)}
        full = cli([*args, "--out", str(tmp_path / "o3"), "--json"], env2)
        assert full.returncode == 0, full.stderr
        clean, _ = graph_counts(fresh)
        for label in ("Evidence", "Source", "Chunk", "Entity", "Observation", "Question"):
            assert after.get(label) == clean.get(label), label
        # the resumed run did not extract again what was stored before the kill
        full_written = json.loads(full.stdout)["metrics"]["evidence_written"]
        assert report["metrics"]["evidence_written"] < full_written
        assert report["metrics"]["indexed_chunks"] == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        for d in (data, tmp_path / "fresh"):
            EmbeddedFalkor(d).stop()
