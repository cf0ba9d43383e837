"""Restart time and peak memory of the embedded FalkorDB with N evidence rows on disk.

Usage:
  python bench/bench_restart.py --sizes 10000,100000,1000000 [--previous-max 20000]

For each size it writes N synthetic evidence rows (bench_graph.synthetic) into a fresh data dir and measures
three restarts:
  crash    after SIGKILL right after the import, current settings (the tail is what auto-rewrite left)
  clean    after `stop()` (the AOF tail is folded into an RDB base first): the everyday restart
  previous after SIGKILL with AOF rewrites switched off: the persistence setting before issue 12, where the
           whole history is replayed query by query (only up to --previous-max rows: it grows superlinearly)
Peak memory is the server's VmHWM right after it is ready. Where the time goes: the server's own CPU seconds
(utime+stime at ready; on a shared machine wall time is several times that, the load is single-threaded and
CPU-bound) and, from its log, the seconds spent decoding the graph (nodes, edges, matrices) versus
constructing its indexes (FalkorDB does not persist indexes: every range and full-text index is rebuilt from
the nodes on each load). Prints figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_graph import synthetic

from openresearch.graph import falkor_persist as persist
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.resp_probe import command
from openresearch.graph.store import GraphStore


def _hwm_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_STAMP = r"(\d\d):(\d\d):(\d\d\.\d+) \* "


def _phases(log: str) -> str:
    """Decode vs index construction seconds of the last load in this log text (FalkorDB's own lines)."""
    def at(pattern: str) -> float | None:
        found = re.findall(_STAMP + pattern, log)
        if not found:
            return None
        h, m, sec = found[-1]
        return int(h) * 3600 + int(m) * 60 + float(sec)
    begin, build, done = at(r"RDB is base AOF"), at(r"<module> Graph '\S+' Constructing"), \
        at(r"<module> Done decoding graph")
    if begin is None or build is None or done is None:
        return "phases n/a"
    return f"decode {build - begin:6.2f} s + indexes {done - build:6.2f} s"


def _load(server: EmbeddedFalkor, n: int, rewrites: bool) -> dict[str, dict[str, int]]:
    info = server.ensure()
    if not rewrites:
        command(info.socket, "CONFIG", "SET", "auto-aof-rewrite-percentage", "0")
    store = GraphStore(FalkorBackend("bench", unix_socket=str(info.socket), timeout_s=1200))
    store.init_schema()
    records = synthetic(n)
    t0 = time.perf_counter()
    for i in range(0, n, 50_000):
        store.write_evidence(records[i:i + 50_000])
    print(f"  wrote {n:,} rows in {time.perf_counter() - t0:.1f} s", flush=True)
    stats = store.stats()
    store.close()
    return stats


def _restart(server: EmbeddedFalkor, expected: dict[str, dict[str, int]], label: str, n: int) -> None:
    base, tail = persist.aof_sizes(server.db_dir)
    try:
        log_offset = server.log_file.stat().st_size
    except OSError:
        log_offset = 0
    t0 = time.perf_counter()
    info = server.ensure(progress=lambda _m: None)
    seconds = time.perf_counter() - t0
    assert info.pid is not None
    peak = _hwm_mb(info.pid)
    cpu = _cpu_s(info.pid)
    with server.log_file.open(encoding="utf-8", errors="replace") as fh:
        fh.seek(log_offset)
        phases = _phases(fh.read())
    store = GraphStore(FalkorBackend("bench", unix_socket=str(info.socket), timeout_s=1200))
    same = store.stats() == expected
    store.close()
    print(f"[{label:8}] {n:>9,} rows: restart {seconds:7.2f} s (server CPU {cpu:6.2f} s; {phases}), "
          f"server peak {peak:7.1f} MB, AOF base {base / 1e6:7.1f} MB + tail {tail / 1e6:7.1f} MB, "
          f"data intact: {same}", flush=True)


def _kill(server: EmbeddedFalkor) -> None:
    pid = server.status().pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    while Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]:
        time.sleep(0.01)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--previous-max", type=int, default=20_000)
    args = ap.parse_args()
    for n in [int(x) for x in args.sizes.split(",")]:
        with tempfile.TemporaryDirectory(prefix="orrestart-") as tmp:
            server = EmbeddedFalkor(Path(tmp))
            print(f"{n:,} rows, current settings:", flush=True)
            expected = _load(server, n, rewrites=True)
            _kill(server)
            _restart(server, expected, "crash", n)
            t0 = time.perf_counter()
            server.stop(timeout_s=600)
            print(f"  clean stop (incl. folding the log) {time.perf_counter() - t0:.2f} s", flush=True)
            _restart(server, expected, "clean", n)
            server.stop(timeout_s=600)
        if n > args.previous_max:
            print(f"[previous] {n:>9,} rows: skipped (above --previous-max {args.previous_max:,})", flush=True)
            continue
        with tempfile.TemporaryDirectory(prefix="orrestart-") as tmp:
            server = EmbeddedFalkor(Path(tmp))
            expected = _load(server, n, rewrites=False)
            _kill(server)
            _restart(server, expected, "previous", n)
            server.stop(timeout_s=600)


if __name__ == "__main__":
    main()
