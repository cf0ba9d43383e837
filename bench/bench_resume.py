"""Resume equals clean: a research run stopped at 20 points (its k-th event) and resumed ends with the graph of a
clean run with the same settings, and clean runs are deterministic (workers 1, and workers > 1).

    python bench/bench_resume.py [--points 20] [--workers 4]

Prints, per stop point, the counts (evidence, relations) of the clean and the resumed run and "equal" or "DIFF"
with what differs; then two clean runs with workers 1 and two with `--workers`, compared the same way. What is
compared is in bench/resume_check.py (counts per label and type, evidence/observation/entity ids, every relation,
report.md). In one process with one model and one graph server (bench_kill_resume.py SIGKILLs the CLI instead).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from resume_check import QUESTION, Harness, Outcome, Snapshot, options, write_corpus

from openresearch.agents.run.run_config import RunOptions
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.ingest.embed import SentenceTransformerEmbedder


def figures(s: Snapshot) -> str:
    rels = sum(v for k, v in s.counts.items() if not k.startswith(":"))
    return f"evidence {s.counts.get(':Evidence', 0):>3} relations {rels:>4}"


def stop_points(total: int, n: int) -> list[int]:
    """n points spread over a run of `total` events (1 = at the first event, total - 1 = just before the end)."""
    last = max(1, total - 1)
    if n >= last:
        return list(range(1, last + 1))
    return sorted({1 + round(i * (last - 1) / (n - 1)) for i in range(n)})


def determinism(h: Harness, opts: RunOptions) -> bool:
    t0 = time.perf_counter()
    workers = opts.workers
    a, b = h.clean(opts), h.clean(opts)
    d = a.snapshot.diff(b.snapshot)
    print(f"determinism, workers {workers}: {figures(a.snapshot)} vs {figures(b.snapshot)}: "
          f"{'equal' if not d else 'DIFF ' + str(d)}  ({time.perf_counter() - t0:.1f} s for two runs)", flush=True)
    h.close()
    return not d


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", type=int, default=20)
    ap.add_argument("--workers", type=int, default=4, help="workers of the stopped runs and the second check")
    ap.add_argument("--corpus", type=Path, help="a folder of documents (default: a small made-up corpus)")
    ap.add_argument("--question", default=QUESTION)
    ap.add_argument("--budget", type=int, default=6)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        corpus = args.corpus.resolve() if args.corpus else write_corpus(tmp / "corpus")
        server = EmbeddedFalkor(tmp / "falkor")
        socket = str(server.ensure().socket)
        h = Harness(socket, SentenceTransformerEmbedder(cache_dir=tmp / "emb"), tmp / "data")
        try:
            opts = options(corpus, args.workers, args.budget, args.question)
            t0 = time.perf_counter()
            clean: Outcome = h.clean(opts)
            total = clean.events
            print(f"clean run, workers {args.workers}: {figures(clean.snapshot)}, {total} events "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
            equal = n = 0
            for k in stop_points(total, args.points):
                t0 = time.perf_counter()
                got = h.stopped_then_resumed(opts, k)
                d = clean.snapshot.diff(got.snapshot, metrics=False)
                n += 1
                equal += not d
                print(f"  stop at event {k:>3}/{total} ({got.stopped_at or 'not reached'}): clean "
                      f"{figures(clean.snapshot)} | resumed {figures(got.snapshot)}: "
                      f"{'equal' if not d else 'DIFF ' + str(d)}  ({time.perf_counter() - t0:.1f} s)", flush=True)
            print(f"resume: {equal}/{n} stopped-and-resumed runs equal to the clean run", flush=True)
            h.close()
            ok = [determinism(h, opts.model_copy(update={"workers": w})) for w in sorted({1, args.workers})]
            print(f"determinism: {sum(ok)}/{len(ok)} settings equal")
        finally:
            h.close()
            server.stop()


if __name__ == "__main__":
    main()
