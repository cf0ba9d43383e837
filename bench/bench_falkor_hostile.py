"""Hostile evidence batches against the real embedded FalkorDB, many seeds, optionally under CPU load (issue 25).

Usage:
  python bench/bench_falkor_hostile.py [--seeds 50] [--first-seed 0] [--batches 20] [--rows 40]
                                       [--load 0] [--load-seconds 600] [--max-chars 200000] [--out DIR]

It starts its own embedded FalkorDB (EmbeddedFalkor, as the package does) in a temporary data dir and, per
seed, writes `--batches` seeded hostile batches (bench/falkor_hostile.py) through the package's own write path
(`import_lines` -> GraphStore -> FalkorBackend), with the graph churn the test suite causes around them: a
GRAPH.DELETE and the schema created again before a batch (the hostile test file does this), a GRAPH.DELETE
right after one (every test's teardown), a fresh graph key. A few batches go straight to the adapter with
hostile parameter maps; before some, a bigger graph (--big-rows evidence with indexed quotes) is deleted, which
FalkorDB frees in the background while the batch is written. `--readers N` threads page through the current
graph's evidence meanwhile (other connections: what crashed FalkorDB 4.16 when a graph was deleted and its
index created again; `--reset drop` empties graphs that way, as FalkorBackend.clear did before, to see it).
`--load N` runs N busy-loop processes beside it for at most --load-seconds.

After every batch the server process is checked. A crash (the server process gone or replaced) is counted,
its seed, batch and plan printed, the batch saved to DIR/crash-<seed>-<batch>.jsonl and the server log since
the batch (the Redis bug report) to DIR/crash-<seed>-<batch>.log; the server is then started again and the
next seed runs. Prints seeds, batches, crashes and the other outcomes; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import falkor_hostile as hostile

from openresearch.errors import GraphUnavailable, QueryError
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.store import GraphStore


class Loader:
    """N busy-loop processes, stopped by their pids at `stop()` or after `seconds`."""

    def __init__(self, n: int, seconds: float) -> None:
        code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"
        self.procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()


class Readers:
    """Threads paging through the current graph's evidence (an id range the index serves, then a traversal),
    each on its own connection, as an API server or a second command reads while an import writes."""

    def __init__(self, n: int, socket: Callable[[], str], current: list[str], counts: Counter[str]) -> None:
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._read, args=(socket, current, counts), daemon=True)
                         for _ in range(n)]
        for t in self._threads:
            t.start()

    def _read(self, socket: Callable[[], str], current: list[str], counts: Counter[str]) -> None:
        store: GraphStore | None = None
        while not self._stop.is_set():
            graph = current[0] if current else ""
            if not graph:
                time.sleep(0.01)
                continue
            try:
                if store is None or store.backend.graph_name != graph:  # type: ignore[attr-defined]
                    if store is not None:
                        store.close()
                    store = GraphStore(FalkorBackend(graph, unix_socket=socket(), timeout_s=30))
                store.evidence_page(limit=20)
                counts["reads"] += 1
            except QueryError:
                counts["read_errors"] += 1
            except GraphUnavailable:  # the server died (counted by the batch loop); reconnect to the next one
                if store is not None:
                    store.close()
                store = None
                time.sleep(0.2)
        if store is not None:
            store.close()

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--batches", type=int, default=20, help="batches per seed")
    ap.add_argument("--rows", type=int, default=40, help="lines per batch")
    ap.add_argument("--max-chars", type=int, default=200_000, help="longest huge string")
    ap.add_argument("--big-rows", type=int, default=2000, help="rows of the bigger graph deleted before a batch")
    ap.add_argument("--readers", type=int, default=0,
                    help="threads paging through the current graph's evidence while the batches are written")
    ap.add_argument("--reset", choices=["clear", "drop"], default="clear",
                    help="how a graph is emptied before its schema is applied again: clear (keeps the key and its "
                         "indexes) or drop (GRAPH.DELETE, as clear was before the crash was found)")
    ap.add_argument("--load", type=int, default=0, help="busy-loop processes beside the bench")
    ap.add_argument("--load-seconds", type=float, default=600.0, help="the load stops after this long")
    ap.add_argument("--out", type=Path, default=Path("out/falkor-hostile"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    data_dir = Path(tempfile.mkdtemp(prefix="bench-falkor-hostile-"))
    server = EmbeddedFalkor(data_dir)
    info = server.ensure()
    loader = Loader(args.load, args.load_seconds) if args.load else None
    counts: Counter[str] = Counter()
    crashes: list[str] = []
    current: list[str] = []  # the graph the readers read
    readers = Readers(args.readers, lambda: str(info.socket), current, counts)
    t0 = time.perf_counter()
    try:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            driver = hostile.Driver(str(info.socket), seed, rows=args.rows, max_chars=args.max_chars,
                                    big_rows=args.big_rows, counts=counts, reset=args.reset)
            for b in range(args.batches):
                p, lines = driver.next_batch()
                current[:] = [driver.graph]
                pid = info.pid
                log_offset = info.log_file.stat().st_size if info.log_file.exists() else 0
                outcome = ""
                try:
                    driver.run(p, lines, str(b))
                    current[:] = [driver.graph]
                except QueryError as e:  # the batch as a whole refused: a validation gap, not a crash
                    outcome = f"batch refused: {str(e)[:200]}"
                except GraphUnavailable as e:
                    outcome = f"graph unavailable: {str(e)[:200]}"
                counts["batches"] += 1
                now = server.status()
                if not now.running or now.pid != pid:
                    counts["crashes"] += 1
                    stem = args.out / f"crash-{seed}-{b}"
                    stem.with_suffix(".jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8",
                                                          errors="surrogatepass")
                    with info.log_file.open("rb") as fh:
                        fh.seek(log_offset)
                        stem.with_suffix(".log").write_bytes(fh.read())
                    line = (f"CRASH seed={seed} batch={b} plan={json.dumps(p.__dict__)} server pid {pid} -> "
                            f"{now.pid if now.running else 'dead'}; {outcome}; files {stem}.jsonl/.log")
                    print(line, flush=True)
                    crashes.append(line)
                    info = server.ensure()
                    break  # next seed, on the restarted server
                if outcome:
                    print(f"seed={seed} batch={b}: {outcome}", flush=True)
            else:
                driver.close()
            if (seed - args.first_seed + 1) % 10 == 0:
                print(f"... {seed - args.first_seed + 1} seeds, {counts['batches']} batches, "
                      f"{counts['crashes']} crashes, {time.perf_counter() - t0:.0f} s", flush=True)
    finally:
        readers.stop()
        if loader is not None:
            loader.stop()
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)  # crashes are kept in --out
    wall = time.perf_counter() - t0
    print(f"seeds {args.first_seed}..{args.first_seed + args.seeds - 1} ({args.seeds}), batches {counts['batches']}, "
          f"crashes {counts['crashes']}, reset {args.reset}, readers {args.readers}, load {args.load} process(es), "
          f"wall {wall:.0f} s")
    print("  " + ", ".join(f"{k} {v}" for k, v in counts.items() if k not in ("batches", "crashes")))
    for line in crashes:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
