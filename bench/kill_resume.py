"""Kill a research run at chosen positions and resume it; compare the graph with a clean run's.

Positions are chosen by event count (the run's numbered events, persisted in the graph), not by sleeps: a
watcher polls the graph and sends SIGKILL as soon as the run has persisted N events. After each kill the run
is resumed with `--resume RUN_ID` and every label and relation count of the graph is compared with an
uninterrupted run of the same question over the same corpus (run bookkeeping that differs by design, the
events themselves, is left out). Used by tests/research/test_kill_positions.py (a few positions) and
bench/bench_kill_resume.py (20 or more, both backends).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from openresearch.graph.backend import GraphBackend

QUESTION = "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?"
IGNORED = {"RunEvent", "EMITTED"}  # a resumed run has more events than a clean one, by design
# a small plan keeps each run short: the positions, not the run's size, are what this measures
FLAGS = ["--offline", "--workers", "1", "--budget", "6"]


@dataclass
class Target:
    """Where a run writes: env for the CLI subprocess and a backend to read the same graph; `server_pid`
    finds the graph server's process (to kill the database itself instead of the run)."""
    env: dict[str, str]
    graph_args: list[str]
    open_backend: Callable[[], GraphBackend]
    server_pid: Callable[[], int | None] | None = None


def counts(backend: GraphBackend) -> dict[str, int]:
    out = {f":{r['label']}": int(r["n"]) for r in backend.read(
        "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n", {})}
    out.update({str(r["type"]): int(r["n"]) for r in backend.read(
        "MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n", {})})
    return {k: v for k, v in out.items() if k.lstrip(":") not in IGNORED}


def events_persisted(backend: GraphBackend) -> tuple[str | None, int]:
    rows = backend.read("MATCH (e:RunEvent) RETURN e.run_id AS run, count(e) AS n", {})
    if not rows:
        return None, 0
    return str(rows[0]["run"]), int(rows[0]["n"])


def research_args(corpus: Path, out: Path, graph_args: list[str]) -> list[str]:
    return [sys.executable, "-m", "openresearch.cli", "research", QUESTION, "--source", f"local:{corpus}", *FLAGS,
            "--out", str(out), *graph_args]


def clean_run(target: Target, corpus: Path, out: Path) -> tuple[dict[str, int], int]:
    done = subprocess.run(research_args(corpus, out, target.graph_args), env=target.env, capture_output=True,
                          text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"clean run failed: {done.stderr[-2000:]}")
    b = target.open_backend()
    try:
        return counts(b), events_persisted(b)[1]
    finally:
        b.close()


@dataclass
class KillResult:
    position: int
    killed_at: int  # events persisted when the kill landed
    counts: dict[str, int]
    run_finished_before_kill: bool = False


def kill_and_resume(target: Target, corpus: Path, out: Path, position: int, poll_s: float = 0.02,
                    victim: str = "run") -> KillResult:
    """Start a run, SIGKILL it (victim "run") or the graph server under it (victim "server") once `position`
    events are persisted, resume the run, return the graph's counts."""
    proc = subprocess.Popen(research_args(corpus, out / "killed", target.graph_args), env=target.env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    b = target.open_backend()
    run_id: str | None = None
    seen = 0
    finished = False
    try:
        deadline = time.time() + 1800
        while True:
            try:
                run_id, seen = events_persisted(b)
            except Exception:
                run_id, seen = None, 0
            if seen >= position:
                if victim == "server" and target.server_pid is not None:
                    pid = target.server_pid()
                    if pid:
                        os.kill(pid, signal.SIGKILL)
                    b.close()
                    try:  # the run fails on the lost connection, or reconnects to a restarted server
                        proc.wait(timeout=900)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                else:
                    proc.send_signal(signal.SIGKILL)
                break
            if proc.poll() is not None:
                finished = True
                break
            if time.time() > deadline:
                raise TimeoutError(f"position {position}: no kill within 30 min")
            time.sleep(poll_s)
        proc.wait()
        if victim == "server":  # the next command starts the graph server again: read it through a fresh one
            subprocess.run([sys.executable, "-m", "openresearch.cli", "graph", "init", *target.graph_args],
                           env=target.env, capture_output=True, timeout=300)
            b = target.open_backend()
        run_id, seen = events_persisted(b)
        if run_id is None:
            raise RuntimeError(f"position {position}: the run persisted no event before it was killed")
        resumed = subprocess.run([*research_args(corpus, out / "resumed", target.graph_args), "--resume", run_id],
                                 env=target.env, capture_output=True, text=True, timeout=1800)
        if resumed.returncode != 0:
            raise RuntimeError(f"position {position}: resume failed: {resumed.stderr[-2000:]}")
        return KillResult(position, seen, counts(b), finished)
    finally:
        if proc.poll() is None:
            proc.kill()
        b.close()


def positions(total_events: int, n: int) -> list[int]:
    """n kill positions spread over a run of `total_events` (1 = right after the first event)."""
    last = max(1, total_events - 1)
    if n >= last:
        return list(range(1, last + 1))
    return sorted({1 + round(i * (last - 1) / (n - 1)) for i in range(n)}) if n > 1 else [1]


def diff(clean: dict[str, int], got: dict[str, int]) -> dict[str, tuple[int, int]]:
    return {k: (clean.get(k, 0), got.get(k, 0)) for k in sorted(set(clean) | set(got))
            if clean.get(k, 0) != got.get(k, 0)}


def env_for(data_dir: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "OPENRESEARCH_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1", **extra}
