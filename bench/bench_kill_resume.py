"""Kill a research run at 20+ positions chosen by event count, resume, compare every label and relation count
with a clean run; on the embedded FalkorDB and on a local Neo4j. Prints one line per position and a summary.

    python bench/bench_kill_resume.py [--positions 20] [--backend falkordb|neo4j|both] [--victim run|server]

`--victim server` kills the embedded FalkorDB server under the run instead of the run (FalkorDB only).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kill_resume import Target, clean_run, diff, env_for, kill_and_resume, positions

from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor

REPO = Path(__file__).resolve().parents[1]
DOCS = ["bench-confluent-2020.html", "bench-streamnative-2022.md", "rabbitmq-quorum-queues.md"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def falkor_target(data: Path, graph: str) -> Target:
    def open_backend() -> FalkorBackend:
        return FalkorBackend(graph, unix_socket=str(EmbeddedFalkor(data).status().socket))
    return Target(env_for(data, OPENRESEARCH_GRAPH_NAME=graph), [], open_backend,
                  lambda: EmbeddedFalkor(data).status().pid)


def neo4j_target(data: Path, url: str) -> Target:
    from openresearch.graph.neo4j_backend import Neo4jBackend
    return Target(env_for(data), ["--graph", url], lambda: Neo4jBackend(url))


def run_backend(name: str, n: int, tmp: Path, corpus: Path, victim: str = "run") -> tuple[int, int]:
    data = tmp / f"data-{name}"
    url = None
    if name == "neo4j":
        from openresearch.graph import neo4j_local
        url = neo4j_local.start(tmp / "neo4j", free_port(), free_port()).bolt_uri

    def target(graph: str) -> Target:
        if url is None:
            return falkor_target(data, graph)
        t = neo4j_target(data, url)
        b = t.open_backend()
        b.clear()  # one database: each run starts from an empty graph
        b.close()
        return t

    try:
        t0 = time.perf_counter()
        clean, total = clean_run(target("clean"), corpus, tmp / f"{name}-clean")
        print(f"{name}: clean run {time.perf_counter() - t0:.1f} s, {total} events, "
              f"{clean.get(':Evidence', 0)} evidence, {sum(clean.values())} label+relation counts", flush=True)
        equal = 0
        chosen = positions(total, n)
        for pos in chosen:
            t0 = time.perf_counter()
            got = kill_and_resume(target(f"kill{pos}"), corpus, tmp / f"{name}-k{pos}", pos, victim=victim)
            d = diff(clean, got.counts)
            equal += not d
            print(f"  kill {victim} after {got.killed_at:>3}/{total} events (asked {pos}): "
                  f"{'equal' if not d else 'DIFFERENT ' + str(d)}  ({time.perf_counter() - t0:.1f} s)", flush=True)
        print(f"{name}: {equal}/{len(chosen)} resumed runs equal to the clean run")
        return equal, len(chosen)
    finally:
        if url is None:
            EmbeddedFalkor(data).stop()
        else:
            from openresearch.graph import neo4j_local
            neo4j_local.stop(tmp / "neo4j")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--backend", choices=["falkordb", "neo4j", "both"], default="both")
    ap.add_argument("--victim", choices=["run", "server"], default="run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        corpus = tmp / "corpus"
        corpus.mkdir()
        for name in DOCS:
            shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
        total_equal = total = 0
        names = ["falkordb", "neo4j"] if args.backend == "both" else [args.backend]
        if args.victim == "server":
            names = [x for x in names if x == "falkordb"]  # the local Neo4j is not restarted on demand
        for name in names:
            e, n = run_backend(name, args.positions, tmp, corpus, args.victim)
            total_equal += e
            total += n
        print(f"all: {total_equal}/{total} equal")


if __name__ == "__main__":
    main()
