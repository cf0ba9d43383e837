"""Resume equals clean: a run stopped at its k-th event (nothing written after it, as after a SIGKILL) and resumed
ends with exactly the graph and report of an uninterrupted run, and a clean run is deterministic for a corpus and
settings, workers included. bench/bench_resume.py does the same at 20 points; the harness is bench/resume_check.py.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from openresearch.ingest.embed import Embedder

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from resume_check import Harness, options, write_corpus  # noqa: E402

pytestmark = pytest.mark.integration


@pytest.fixture
def harness(falkor_socket: str, embedder: Embedder, tmp_path: Path) -> Iterator[Harness]:
    h = Harness(falkor_socket, embedder, tmp_path / "data")
    try:
        yield h
    finally:
        h.close()


@pytest.mark.timeout(600)
def test_a_run_stopped_at_three_points_and_resumed_equals_a_clean_run(harness: Harness, tmp_path: Path) -> None:
    opts = options(write_corpus(tmp_path / "corpus"), workers=2)
    clean = harness.clean(opts)
    assert clean.snapshot.counts[":Evidence"] > 10 and clean.events > 20
    # in the middle of gathering (sub-questions in flight), after it, and while writing the report
    for k in (clean.events // 4, clean.events // 2, clean.events - 3):
        got = harness.stopped_then_resumed(opts, k)
        assert got.stopped_at is not None, k
        assert clean.snapshot.diff(got.snapshot, metrics=False) == {}, f"stopped at event {k} ({got.stopped_at})"


@pytest.mark.timeout(600)
def test_clean_runs_are_deterministic_with_parallel_workers(harness: Harness, tmp_path: Path) -> None:
    opts = options(write_corpus(tmp_path / "corpus"), workers=3)
    first, second = harness.clean(opts), harness.clean(opts)
    assert first.snapshot.counts[":Evidence"] > 10
    assert first.snapshot.diff(second.snapshot) == {}
