"""A research run SIGKILLed at positions chosen by event count and resumed ends with exactly the graph of an
uninterrupted run: every label and relation count equal (a few positions here; bench/bench_kill_resume.py
runs 20 or more on both backends)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from kill_resume import Target, clean_run, diff, env_for, kill_and_resume, positions  # noqa: E402

pytestmark = pytest.mark.integration
DOCS = ["bench-confluent-2020.html", "bench-streamnative-2022.md", "rabbitmq-quorum-queues.md"]
CI_POSITIONS = 2  # CI's budget; bench/bench_kill_resume.py runs 20+ on both backends


def falkor_target(data: Path, graph: str) -> Target:
    def open_backend() -> FalkorBackend:
        info = EmbeddedFalkor(data).status()
        assert info.running and info.socket is not None
        return FalkorBackend(graph, unix_socket=str(info.socket))
    return Target(env_for(data, OPENRESEARCH_GRAPH_NAME=graph), [], open_backend)


@pytest.mark.timeout(1800)
def test_kill_at_event_positions_then_resume_equals_a_clean_run(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in DOCS:
        shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
    data = tmp_path / "data"
    try:
        clean, total = clean_run(falkor_target(data, "clean"), corpus, tmp_path / "clean")
        assert total > 10 and clean[":Evidence"] > 0
        for pos in positions(total, CI_POSITIONS):
            got = kill_and_resume(falkor_target(data, f"kill{pos}"), corpus, tmp_path / f"k{pos}", pos)
            assert not got.run_finished_before_kill, pos
            assert diff(clean, got.counts) == {}, f"killed after {got.killed_at} of {total} events"
    finally:
        EmbeddedFalkor(data).stop()
