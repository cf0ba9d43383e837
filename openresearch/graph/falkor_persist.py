"""The embedded FalkorDB's persistence: start from a compact snapshot, wait out a load, keep the AOF tail short.

Redis replays the command tail of its append-only file one command at a time, and FalkorDB re-runs every
GRAPH.QUERY in it: 8,000 evidence rows took 11.5 s to replay, 48,000 several minutes (the time grows faster
than the data). An AOF rewrite stores the whole graph as one RDB base file (``aof-use-rdb-preamble``) that
loads in a fraction of a second and leaves an empty tail. So the server rewrites automatically once the
tail has grown by a quarter, the owner rewrites on a clean stop, and once after a start that had to replay a
long tail (after a crash, or data written by an older version). While Redis loads it answers ``LOADING``:
the owner waits (with a progress line) instead of treating the server as dead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from openresearch.graph.resp_probe import RespError, command, probe

__all__ = ["AOF_ARGS", "LoadStalled", "LoadWedged", "aof_sizes", "persistence_info", "rewrite_aof", "wait_loaded"]

AOF_DIRNAME = "appendonlydir"
AOF_ARGS = [
    "--aof-use-rdb-preamble", "yes",           # a rewrite writes the graph as an RDB base, not as queries
    "--auto-aof-rewrite-percentage", "25",     # rewrite when the tail reaches a quarter of the base...
    "--auto-aof-rewrite-min-size", "1mb",      # ...once the file holds 1 MB (8 MB let 10,000 rows pile up
]  # fmt: skip                                   # in the tail: 24 s to replay after a crash, 0.4 s as a base)
COMPACT_AFTER_LOAD_BYTES = 1_000_000
"""A start that replayed a tail longer than this rewrites the AOF at once, so the next start is fast."""
PROGRESS_EVERY_S = 2.0
STALL_S = 600.0
"""A loading server whose loaded byte count has not moved for this long is reported (never killed)."""
_POLL_S = 0.05
_LOG_SCAN_BYTES = 4_000_000


WEDGED_S = 30.0
"""A loading server whose main thread has waited on a lock, without a tick of CPU or a byte read, this long is
wedged: a loader is always busy on the CPU or the disk (FalkorDB 4.16 can deadlock on its own lock while
loading an RDB base, rarely: its main thread waits in Globals_AddGraph forever)."""


class LoadStalled(Exception):
    """The server is alive and still loading, but has made no progress for STALL_S seconds."""


class LoadWedged(Exception):
    """The server is alive but its loading waits on a lock and will never finish (WEDGED_S): restart it."""


def aof_sizes(db_dir: Path) -> tuple[int, int]:
    """(bytes in base files, bytes in incremental tail files) of the multi-part AOF under ``db_dir``."""
    base = tail = 0
    folder = db_dir / AOF_DIRNAME
    try:
        entries = list(folder.iterdir())
    except OSError:
        return 0, 0
    for entry in entries:
        try:
            size = entry.stat().st_size
        except OSError:
            continue
        if ".base." in entry.name:
            base += size
        elif ".incr." in entry.name:
            tail += size
    return base, tail


def persistence_info(sock: Path, timeout_s: float = 1.0) -> dict[str, str]:
    """INFO persistence as a dict (empty when the server does not answer). Redis answers INFO while loading."""
    try:
        reply = command(sock, "INFO", "persistence", timeout_s=timeout_s)
    except (OSError, RespError):
        return {}
    if not isinstance(reply, bytes):
        return {}
    out: dict[str, str] = {}
    for line in reply.decode(errors="replace").splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out[key.strip()] = value.strip()
    return out


def rewrite_aof(sock: Path, deadline: float | None) -> bool:
    """BGREWRITEAOF and, with a deadline, wait for it to finish. True once a rewrite succeeded (or started,
    when not waiting)."""
    try:
        command(sock, "BGREWRITEAOF", timeout_s=5.0)
    except RespError as exc:
        if "already in progress" not in str(exc):
            return False
    except OSError:
        return False
    if deadline is None:
        return True
    time.sleep(_POLL_S)
    while time.monotonic() < deadline:
        info = persistence_info(sock)
        if not info:
            return False
        if info.get("aof_rewrite_in_progress") == "0" and info.get("aof_rewrite_scheduled") == "0":
            return info.get("aof_last_bgrewrite_status") == "ok"
        time.sleep(_POLL_S)
    return False


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def log_loading(log_file: Path, pid: int, offset: int = 0) -> bool | None:
    """What server ``pid``'s own log lines (from ``offset``) say: True = started and not yet ready
    (loading), False = ready, None = nothing from that pid yet.

    A server replaying a tail of large GRAPH.QUERY commands answers nobody until it has replayed 1,024 of
    them, so an unanswered PING does not tell a loading server from a wedged one; the log does.
    """
    try:
        with log_file.open("rb") as fh:
            size = fh.seek(0, 2)
            fh.seek(max(offset, size - _LOG_SCAN_BYTES) if offset <= size else max(0, size - _LOG_SCAN_BYTES))
            raw = fh.read()
    except OSError:
        return None
    prefix = f"{pid}:".encode()
    seen = False
    for line in raw.splitlines():
        if not line.startswith(prefix):
            continue
        seen = True
        if b"Ready to accept connections" in line:
            return False
    return True if seen else None


def _waits_on_lock(pid: int) -> bool:
    """Whether the process's main thread sleeps on a lock (a futex) right now, from /proc (Linux; False elsewhere)."""
    try:
        return "futex" in (Path("/proc") / str(pid) / "wchan").read_text()
    except OSError:
        return False


def _proc_progress(pid: int, db_dir: Path) -> tuple[int, int, int]:
    """(bytes read, bytes in the files being read, CPU ticks) of a loading server, from /proc (Linux).

    Redis reads its data files through read-only descriptors while loading; their offsets are its progress.
    Zeros where /proc cannot tell.
    """
    done = total = ticks = 0
    proc = Path("/proc") / str(pid)
    try:
        fields = (proc / "stat").read_text().rsplit(")", 1)[-1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, ValueError, IndexError):
        pass
    try:
        fds = list((proc / "fd").iterdir())
    except OSError:
        return done, total, ticks
    root = str(db_dir)
    for fd in fds:
        try:
            target = os.readlink(fd)
            if not target.startswith(root):
                continue
            info = (proc / "fdinfo" / fd.name).read_text()
            flags = int(info.split("flags:", 1)[1].split()[0], 8)
            if flags & os.O_ACCMODE != os.O_RDONLY:
                continue
            done += int(info.split("pos:", 1)[1].split()[0])
            total += os.stat(target).st_size
        except (OSError, ValueError, IndexError):
            continue
    return done, total, ticks


def wait_loaded(sock: Path, pid: int, alive: Callable[[], bool], *, db_dir: Path, log_file: Path,
                log_offset: int = 0, progress: Callable[[str], None] | None, stall_s: float = STALL_S,
                wedged_s: float = WEDGED_S) -> str:
    """Block while the server loads its data. Returns "ready" or "dead"; raises LoadStalled or LoadWedged.

    No fixed timeout: a large graph takes as long as it takes, and a loading server is never killed
    (killing it only means the next start loads again from the beginning).
    """
    started = time.monotonic()
    last_mark: tuple[int, ...] = ()
    last_move = started
    waiting_since: float | None = None  # since when the main thread has waited on a lock, the load standing still
    last_said = started - PROGRESS_EVERY_S + 1.0  # the first line after a second: quick loads stay quiet
    said = False
    while True:
        if not alive():
            return "dead"
        state = probe(sock)
        now = time.monotonic()
        if state in ("ready", "error") or (state != "loading" and log_loading(log_file, pid, log_offset) is False):
            if said and progress is not None:
                progress(f"FalkorDB loaded its data in {now - started:.1f} s.")
            return "ready"
        info = persistence_info(sock) if state == "loading" else {}
        read, size, ticks = _proc_progress(pid, db_dir)
        if info.get("loading_total_bytes", "0") not in ("", "0"):
            read, size = int(info.get("loading_loaded_bytes", "0")), int(info["loading_total_bytes"])
        mark = (read, ticks)
        if mark != last_mark:
            last_mark, last_move, waiting_since = mark, now, None
        elif now - last_move >= stall_s:
            raise LoadStalled(f"no loading progress for {stall_s:g} s at {_mb(read)}")
        elif not _waits_on_lock(pid):
            waiting_since = None
        elif waiting_since is None:
            waiting_since = now
        elif now - waiting_since >= wedged_s:
            raise LoadWedged(f"its loading has waited on a lock for {now - waiting_since:.0f} s, without reading a "
                             f"byte or using the CPU, at {_mb(read)}")
        if progress is not None and now - last_said >= PROGRESS_EVERY_S:
            detail = f"{100 * read / size:.0f}%, {_mb(read)} of {_mb(size)}" if size else "starting"
            eta = info.get("loading_eta_seconds")
            if eta and eta not in ("0", "-1"):
                detail += f", about {eta} s left"
            progress(f"FalkorDB is loading its data ({detail}; {now - started:.0f} s so far); waiting for it...")
            last_said, said = now, True
        time.sleep(_POLL_S)
