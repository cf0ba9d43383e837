"""Resume equals clean, in one process: a research run stopped at its k-th event and resumed must end with the
graph of an uninterrupted run, and two clean runs with the same corpus and settings must end with the same graph.

The stop is a test-only subscriber (`StopAt`), nothing in the run itself: the run's event bus lets a
`BaseException` through, so it unwinds the run from the emitting line like a crash would. A SIGKILL writes
nothing more, so the graph the run sees is fenced (`Fence`) at that moment: every write after the stop fails,
including the run's own "failed" bookkeeping and writes still in flight on its threads. What is compared
(`Snapshot`): node counts per label, relation counts per type, evidence, observation and entity ids, evidence
types and summaries and entity names (the first writer of an item sets them), and every relation as (start id,
type, end id) with the run's own id replaced (two runs differ in it by design); run
events are left out (a resumed run has more of them, by design). The model and the graph server are loaded
once, so a run takes seconds, not the CLI's start-up. Used by bench/bench_resume.py and
tests/research/test_resume_equals_clean.py; bench/kill_resume.py does the same with real SIGKILLs of the CLI.
"""

from __future__ import annotations

import asyncio
import re
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from openresearch.agents.run.components import Components
from openresearch.agents.run.events import EventRecord
from openresearch.agents.run.pipeline import research
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.agents.write.report import to_markdown
from openresearch.config import Settings
from openresearch.graph.backend import GraphBackend, Params, Row
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.store import GraphStore
from openresearch.graph_schema import SchemaSpec
from openresearch.ingest.embed import Embedder

QUESTION = "Which queue has the highest throughput: Quillmq, Brambleq or Tarnstream?"
IGNORED = {"RunEvent", "EMITTED"}

# made-up products, each figure in a table and in prose, some disagreeing across sources
CORPUS = {
    "quillmq-benchmark.md": """# Quillmq throughput benchmark 2025

Quillmq 3.2 was measured on three nodes with 1 KB messages and replication factor 3.

| System | Throughput (msgs/s) | p99 latency (ms) |
|---|---|---|
| Quillmq | 1,200,000 | 18 |
| Brambleq | 85,000 | 9 |
| Tarnstream | 640,000 | 25 |

Quillmq sustained 1.2 million messages per second, while Brambleq reached 85,000 messages per second.
""",
    "brambleq-guide.md": """# Brambleq operations guide

Brambleq is a queue with per-message acknowledgements. In our tests Brambleq delivered 110,000 messages per
second with quorum queues disabled and 42,000 messages per second with quorum queues enabled.

| Setting | Throughput (msgs/s) |
|---|---|
| classic queues | 110,000 |
| quorum queues | 42,000 |

The p99 latency of Brambleq stayed below 6 ms at 20,000 messages per second.
""",
    "tarnstream-architecture.md": """# Tarnstream architecture

Tarnstream separates brokers from storage. A five-node Tarnstream cluster handled 900,000 messages per second
with 1 KB messages in the vendor's benchmark.

- Storage: segments written to a bookkeeping layer, 3 replicas
- Throughput: 900,000 messages per second on five nodes
- Latency: p99 of 30 ms at full load
""",
    "independent-comparison.md": """# An independent comparison of Quillmq, Brambleq and Tarnstream

We repeated the vendors' tests on identical hardware (3 nodes, 1 KB messages).

| System | Throughput (msgs/s) | p99 latency (ms) |
|---|---|---|
| Quillmq | 950,000 | 21 |
| Brambleq | 60,000 | 11 |
| Tarnstream | 700,000 | 28 |

Quillmq had the highest throughput at 950,000 messages per second; Tarnstream reached 700,000 messages per
second and Brambleq 60,000.
""",
    "release-notes.md": """# Quillmq 3.2 release notes

- Throughput of a single partition rose by 30% to 250,000 messages per second.
- The default retention is 7 days.
- Brokers start in 4 seconds instead of 12 seconds.
""",
    "selection-notes.md": """# Choosing a queue

For event streaming at more than 500,000 messages per second, Quillmq and Tarnstream are the candidates;
Brambleq suits task queues below 50,000 messages per second. Tarnstream costs about 40% more to operate
than Quillmq because of its separate storage layer.
""",
}


def write_corpus(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in CORPUS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def options(corpus: Path, workers: int, budget: int = 6, question: str = QUESTION) -> RunOptions:
    return RunOptions(question=question, sources=[f"local:{corpus}"], offline=True, workers=workers, budget=budget)


class Stopped(BaseException):
    """The simulated kill: a BaseException, so the run's event bus and handlers let it through."""


class Fence:
    """A graph backend that refuses every write once `close_fence()` is called (after a kill, nothing more is
    stored: not the run's failure bookkeeping, not a write still in flight on one of its threads)."""

    def __init__(self, inner: GraphBackend) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        self.closed = threading.Event()

    def close_fence(self) -> None:
        self.closed.set()

    def _check(self) -> None:
        if self.closed.is_set():
            raise Stopped("the run was stopped")

    def read(self, query: str, params: Params | None = None) -> list[Row]:
        self._check()
        return self.inner.read(query, params)

    def write(self, query: str, params: Params | None = None) -> list[Row]:
        self._check()
        return self.inner.write(query, params)

    def bind_write(self, query: str, params: Params) -> Callable[[Params], Callable[[], list[Row]]]:
        start = self.inner.bind_write(query, params)

        def fenced(more: Params) -> Callable[[], list[Row]]:
            self._check()
            return start(more)
        return fenced

    def write_many(self, statements: Sequence[tuple[str, Params]]) -> None:
        self._check()
        self.inner.write_many(statements)

    def explain(self, query: str, params: Params | None = None) -> None:
        self.inner.explain(query, params)

    def apply_schema(self, spec: SchemaSpec) -> list[str]:
        return self.inner.apply_schema(spec)

    def clear(self) -> None:
        self.inner.clear()

    def drop(self) -> None:
        self.inner.drop()

    def close(self) -> None:
        """Left open: the graph outlives the stopped run (the resume reads it through its own backend)."""


class StopAt:
    """Subscriber that stops the run when it emits its `k`-th event of this attempt (1 = the first)."""

    def __init__(self, k: int, fence: Fence) -> None:
        self.k = k
        self.fence = fence
        self.seen = 0
        self.stopped_at: str | None = None

    def __call__(self, record: EventRecord) -> None:
        self.seen += 1
        if self.seen == self.k and self.stopped_at is None:
            self.stopped_at = record.event.type
            self.fence.close_fence()
            raise Stopped(f"stopped at event {self.k} ({record.event.type})")


@dataclass
class Snapshot:
    counts: dict[str, int]
    evidence: list[str]
    observations: list[str]
    entities: list[str]
    relations: list[str]
    properties: list[str] = field(default_factory=list)  # evidence type and summary, entity names
    report: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    def diff(self, other: Snapshot, *, metrics: bool = True) -> dict[str, str]:
        """What differs, one line per part (empty: equal). The report is compared only when both have one; with
        `metrics=False` without its run metrics."""
        out: dict[str, str] = {}
        keys = sorted(set(self.counts) | set(other.counts))
        cd = {k: (self.counts.get(k, 0), other.counts.get(k, 0)) for k in keys
              if self.counts.get(k, 0) != other.counts.get(k, 0)}
        if cd:
            out["counts"] = str(cd)
        for part in ("evidence", "observations", "entities", "relations", "properties"):
            a, b = set(getattr(self, part)), set(getattr(other, part))
            if a != b:
                out[part] = (f"only first {sorted(a - b)[:3]} ({len(a - b)}), "
                             f"only second {sorted(b - a)[:3]} ({len(b - a)})")
        if self.report and other.report and self.report != other.report:
            mine, theirs = self.report, other.report
            if not metrics:
                mine = comparable_report(mine, "RUN", metrics=False)
                theirs = comparable_report(theirs, "RUN", metrics=False)
            if mine != theirs:
                first = next((f"line {i}: {a!r} / {b!r}" for i, (a, b) in enumerate(
                    zip(mine.splitlines(), theirs.splitlines(), strict=False), 1) if a != b), "in length")
                out["report"] = ("report.md differs" + ("" if metrics else " (outside its run metrics)")
                                 + f", first at {first}")
        return out


def _ids(backend: GraphBackend, label: str) -> list[str]:
    return sorted(str(r["id"]) for r in backend.read(f"MATCH (n:{label}) RETURN n.id AS id", {}))


def snapshot(backend: GraphBackend, run_id: str, report_md: str = "") -> Snapshot:
    counts = {f":{r['label']}": int(r["n"]) for r in backend.read(
        "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n", {}) if r["label"] not in IGNORED}
    counts.update({str(r["type"]): int(r["n"]) for r in backend.read(
        "MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n", {}) if r["type"] not in IGNORED})
    rels = sorted(f"{r['a']} -{r['t']}-> {r['b']}".replace(run_id, "RUN") for r in backend.read(
        "MATCH (a)-[r]->(b) WHERE NOT a:RunEvent AND NOT b:RunEvent "
        "RETURN coalesce(a.id, labels(a)[0]) AS a, type(r) AS t, coalesce(b.id, labels(b)[0]) AS b", {}))
    props = sorted(f"{r['id']}|{r['a']}|{r['b']}" for r in backend.read(
        "MATCH (n) WHERE n:Evidence OR n:Entity RETURN n.id AS id, coalesce(n.type, '') AS a, "
        "coalesce(n.summary, n.name, '') AS b", {}))
    return Snapshot(counts, _ids(backend, "Evidence"), _ids(backend, "Observation"), _ids(backend, "Entity"), rels,
                    props, comparable_report(report_md, run_id))


def comparable_report(md: str, run_id: str, *, metrics: bool = True) -> str:
    """report.md without what differs between equal runs by nature: the run id and the stages' wall times; with
    `metrics=False` without the run metrics at all (a resumed run's count the work of its last attempt)."""
    md = re.sub(r'"wall_time_s": \{[^}]*\}', '"wall_time_s": {}', md.replace(run_id, "RUN"))
    return md if metrics else re.sub(r"## Run metrics\n\n```json\n.*?\n```\n", "## Run metrics\n", md, flags=re.S)


@dataclass
class Outcome:
    snapshot: Snapshot
    run_id: str
    stopped_at: str | None = None  # the event the run was stopped at (None: it was not stopped)
    events: int = 0  # events this attempt emitted (a clean run: all of them)


class Harness:
    """Runs on graph keys of their own in one FalkorDB server, with one embedder for all of them."""

    def __init__(self, socket: str, embedder: Embedder, data_dir: Path) -> None:
        self.socket = socket
        self.embedder = embedder
        self.settings = Settings(data_dir=data_dir)
        self.graphs: list[FalkorBackend] = []

    def _backend(self) -> FalkorBackend:
        b = FalkorBackend(f"resume_{uuid.uuid4().hex[:10]}", unix_socket=self.socket)
        self.graphs.append(b)
        return b

    def _services(self, backend: GraphBackend) -> Services:
        store = GraphStore(backend)
        store.init_schema()
        settings, embedder = self.settings, self.embedder
        return Services(settings, store, embedder,
                        lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))

    def clean(self, opts: RunOptions) -> Outcome:
        backend = self._backend()
        seen: list[str] = []
        report = asyncio.run(research(opts, self._services(backend), subscribers=[lambda r: seen.append(r.event.type)]))
        return Outcome(snapshot(backend, report.run_id, to_markdown(report)), report.run_id, events=len(seen))

    def stopped_then_resumed(self, opts: RunOptions, k: int, resume_workers: int | None = None) -> Outcome:
        """Stop a run at its k-th event, resume it (with `resume_workers`, default the same), snapshot the graph.
        A run that ends before its k-th event is reported with `stopped_at` None."""
        backend = self._backend()
        fence = Fence(backend)
        stop = StopAt(k, fence)
        run_id = f"run-stop-{uuid.uuid4().hex[:8]}"
        hook = threading.excepthook
        # a thread of the stopped run that meets the fence (the event writer) ends quietly, as in a killed process
        threading.excepthook = lambda a: None if a.exc_type is Stopped else hook(a)
        try:
            asyncio.run(research(opts, self._services(fence), run_id=run_id, subscribers=[stop]))
        except Stopped:
            pass
        finally:
            threading.excepthook = hook
        services = self._services(backend)
        ropts = opts if resume_workers is None else opts.model_copy(update={"workers": resume_workers})
        report = asyncio.run(research(ropts, services, resume=run_id))
        return Outcome(snapshot(backend, run_id, to_markdown(report)), run_id, stop.stopped_at, stop.seen)

    def close(self) -> None:
        for b in self.graphs:
            try:
                b.drop()
            finally:
                b.close()
        self.graphs.clear()
