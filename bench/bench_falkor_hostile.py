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
FalkorDB frees in the background while the batch is written. `--load N` runs N busy-loop processes beside
it for at most --load-seconds.

After every batch the server process is checked. A crash (the server process gone or replaced) is counted,
its seed, batch and plan printed, the batch saved to DIR/crash-<seed>-<batch>.jsonl and the server log since
the batch (the Redis bug report) to DIR/crash-<seed>-<batch>.log; the server is then started again and the
next seed runs. Prints seeds, batches, crashes and the other outcomes; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import falkor_hostile as hostile

from openresearch.errors import GraphUnavailable, QueryError
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.store import GraphStore
from openresearch.ingest.evidence_io import import_lines


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


def adapter_batch(rng: random.Random, backend: FalkorBackend) -> str:
    """Hostile parameter maps straight to the adapter: written, or refused with a QueryError."""
    rows = []
    for _ in range(rng.randint(1, 20)):
        keys = [k for k in (hostile.text(rng, 2) for _ in range(rng.randint(1, 4))) if k and "`" not in k]
        rows.append({k: hostile.value(rng) for k in keys})
    try:
        backend.write("UNWIND $rows AS r CREATE (n:Hostile) SET n += r", {"rows": rows})
        return "written"
    except QueryError:
        return "refused"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--batches", type=int, default=20, help="batches per seed")
    ap.add_argument("--rows", type=int, default=40, help="lines per batch")
    ap.add_argument("--max-chars", type=int, default=200_000, help="longest huge string")
    ap.add_argument("--big-rows", type=int, default=2000, help="rows of the bigger graph deleted before a batch")
    ap.add_argument("--load", type=int, default=0, help="busy-loop processes beside the bench")
    ap.add_argument("--load-seconds", type=float, default=600.0, help="the load stops after this long")
    ap.add_argument("--out", type=Path, default=Path("out/falkor-hostile"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    data_dir = Path(tempfile.mkdtemp(prefix="bench-falkor-hostile-"))
    server = EmbeddedFalkor(data_dir)
    info = server.ensure()
    loader = Loader(args.load, args.load_seconds) if args.load else None
    counts = {"batches": 0, "lines": 0, "imported": 0, "line_errors": 0, "batch_errors": 0, "adapter_written": 0,
              "adapter_refused": 0, "recreates": 0, "deletes": 0, "big_drops": 0,
              "crashes": 0}
    crashes: list[str] = []
    t0 = time.perf_counter()
    try:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            rng = random.Random(seed)
            backend = FalkorBackend(f"hostile_{seed}", unix_socket=str(info.socket), timeout_s=120)
            store = GraphStore(backend, batch_size=rng.choice([5, 20, 2000]))
            store.init_schema()
            for b in range(args.batches):
                p = hostile.plan(rng)
                lines = hostile.batch(rng, args.rows, args.max_chars)
                pid = info.pid
                log_offset = info.log_file.stat().st_size if info.log_file.exists() else 0
                outcome = ""
                try:
                    if p.fresh_graph:
                        backend.clear()
                        backend.close()
                        backend = FalkorBackend(f"hostile_{seed}_{uuid.uuid4().hex[:6]}",
                                                unix_socket=str(info.socket), timeout_s=120)
                        store = GraphStore(backend, batch_size=store.batch_size)
                        store.init_schema()
                    if p.drop_big and args.big_rows:
                        big = GraphStore(FalkorBackend(f"big_{seed}_{b}", unix_socket=str(info.socket),
                                                       timeout_s=120))
                        big.init_schema()
                        import_lines(big, hostile.plain_lines(args.big_rows, f"{seed}-{b}"))
                        big.backend.clear()
                        big.close()
                        counts["big_drops"] += 1
                    if p.recreate:
                        backend.clear()
                        store.init_schema()
                        counts["recreates"] += 1
                    if rng.random() < 0.1:
                        counts["adapter_" + adapter_batch(rng, backend)] += 1
                    report = import_lines(store, lines)
                    counts["lines"] += report.lines
                    counts["imported"] += report.imported
                    counts["line_errors"] += len(report.errors)
                    if p.delete_after:
                        backend.clear()
                        store.init_schema()
                        counts["deletes"] += 1
                    store.stats()
                except QueryError as e:  # the batch as a whole refused: a validation gap, not a crash
                    counts["batch_errors"] += 1
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
            backend.clear()
            backend.close()
            if (seed - args.first_seed + 1) % 10 == 0:
                print(f"... {seed - args.first_seed + 1} seeds, {counts['batches']} batches, "
                      f"{counts['crashes']} crashes, {time.perf_counter() - t0:.0f} s", flush=True)
    finally:
        if loader is not None:
            loader.stop()
        server.stop()
    wall = time.perf_counter() - t0
    print(f"seeds {args.first_seed}..{args.first_seed + args.seeds - 1} ({args.seeds}), batches {counts['batches']}, "
          f"crashes {counts['crashes']}, load {args.load} process(es), wall {wall:.0f} s")
    print("  " + ", ".join(f"{k} {v}" for k, v in counts.items() if k not in ("batches", "crashes")))
    for line in crashes:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
